"""The rating list from the final results: which rounds count, reading their deals, rating them
in the one order (`order_key`), and the incremental update that replays from a round and is
identical to a full recompute (docs/ratings.md)."""

from __future__ import annotations

from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Count, Max

from matches.models import DealTally, Event, Round, TableSeat
from matches.public import visibility
from matches.store.statements import insert_rows
from seasons.engine import RatedDeal, RatedMatch, State, apply_match, ordinal
from seasons.models import PlayerRating, RatedRound, RatingStep, order_key

_LOCK = 2929  # the advisory lock of a rating run (PostgreSQL): one run at a time


def _counted():
    return (
        Round.objects.filter(
            event__rated=True,
            event__published=True,
            event__archived_at__isnull=True,
            state=Round.State.CLOSED,
        )
        .select_related("event")
        .order_by("event__start_date", "event_id", "number")
    )


def counted_round_ids(event: Event) -> set[int]:
    """The event's rounds that count now."""
    if not (event.rated and event.published and event.archived_at is None):
        return set()
    return {r.pk for r in _counted().filter(event=event) if visibility.results_visible(r)}


def rated_round_ids(event: Event) -> set[int]:
    """The event's rounds the list has taken in."""
    return set(RatedRound.objects.filter(round__event=event).values_list("round_id", flat=True))


def rated_rounds(from_key: int = 0) -> list[Round]:
    """The rounds that count, in the rating's order: closed rounds of rated, public events
    whose results the public sees (matches/public/visibility.py), from `from_key` on."""
    rounds = _counted()
    out = []
    for round_ in rounds:
        key = order_key(round_.event.start_date, round_.event_id, round_.number)
        if key >= from_key and visibility.results_visible(round_):
            round_.rating_key = key
            out.append(round_)
    return out


def round_matches(round_ids: list[int]) -> dict[int, list[RatedMatch]]:
    """Each round's settled matches as the engine reads them (sides from the seats, scores
    and finishing order from the deals' tallies), by match id and deal number."""
    seats: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)  # table -> seat -> (p, side)
    for table_id, seat, player_id, side in TableSeat.objects.filter(
        round_id__in=round_ids
    ).values_list("table_id", "seat", "player_id", "side"):
        seats[table_id][seat] = (player_id, side)
    deals: dict[tuple[int, int], list[RatedDeal]] = defaultdict(list)
    for round_id, match_id, table_id, score_a, score_b, places in (
        DealTally.objects.filter(match__round_id__in=round_ids, match__table__isnull=False)
        .order_by("match_id", "deal__number")
        .values_list(
            "match__round_id", "match_id", "match__table_id", "score_a", "score_b", "places"
        )
    ):
        at = seats.get(table_id, {})
        if not at:
            continue
        by_side: dict[str, list[int]] = defaultdict(list)
        for seat in sorted(at):
            player_id, side = at[seat]
            by_side[side or str(seat)].append(player_id)
        sides: tuple[tuple[int, ...], ...]
        scores: tuple[int, ...]
        if set(by_side) == {"A", "B"}:
            sides = (tuple(by_side["A"]), tuple(by_side["B"]))
            scores = (score_a or 0, score_b or 0)
        else:  # one player a side: the finishing order is all there is
            sides = tuple(tuple(v) for _, v in sorted(by_side.items()))
            scores = tuple(0 for _ in sides)
        # `places`: seats grouped by place, best first. Only a strict order (no shared place) is
        # a finishing order the rating reads; a deal with shared places counts by its scores.
        strict = all(len(group) == 1 for group in places or [])
        order = tuple(at[g[0]][0] for g in (places or []) if strict and g[0] in at)
        deals[(round_id, match_id)].append(RatedDeal(sides, scores, order))
    out: dict[int, list[RatedMatch]] = defaultdict(list)
    for (round_id, _match_id), match_deals in sorted(deals.items(), key=lambda kv: kv[0][1]):
        out[round_id].append(RatedMatch(tuple(match_deals)))
    return out


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])


def update_ratings(event_id: int, from_round: int = 1) -> int:
    """Rate again from round `from_round` of the event on (every later rated round too, of any
    event). Idempotent. Returns how many rounds were rated."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    return rate_from(order_key(event.start_date, event.pk, from_round))


def recompute_all() -> int:
    """Every rating from scratch."""
    return rate_from(0)


def rate_from(from_key: int) -> int:
    """Forget every step from `from_key` on, restore the players those steps touched to where
    they stood before it, and replay the rounds from there in the one order."""
    with transaction.atomic():
        _lock()
        rounds = rated_rounds(from_key)
        round_ids = [r.pk for r in rounds]
        matches = round_matches(round_ids)
        later = RatingStep.objects.filter(key__gte=from_key)
        touched = set(later.values_list("player_id", flat=True).distinct())
        for round_matches_ in matches.values():
            for match in round_matches_:
                for side in match.sides:
                    touched.update(side)
                for deal in match.deals:
                    touched.update(deal.finish)
        state: State = {}
        if from_key > 0 and touched:
            state = _state_before(from_key, touched)
        later.delete()
        RatedRound.objects.filter(key__gte=from_key).delete()
        steps: list[tuple] = []
        rated = []
        for round_ in rounds:
            played: set[int] = set()
            count = 0
            for match in matches.get(round_.pk, []):
                apply_match(state, match)
                count += len(match.deals)
                for side in match.sides:
                    played.update(side)
            key = round_.rating_key  # type: ignore[attr-defined]
            for pid in sorted(played):
                mu, sigma = state[pid]
                steps.append((pid, round_.pk, round_.event_id, key, mu, sigma))
            rated.append(RatedRound(round_id=round_.pk, key=key, deals=count))
        insert_rows(RatingStep, ("player_id", "round_id", "event_id", "key", "mu", "sigma"), steps)
        RatedRound.objects.bulk_create(rated, batch_size=2000)
        _write_list(touched, state)
    return len(rounds)


def _state_before(from_key: int, players: set[int]) -> State:
    """Each player's (mu, sigma) after their last step before `from_key`."""
    state: State = {}
    ids = sorted(players)
    for chunk in range(0, len(ids), 5000):
        part = ids[chunk : chunk + 5000]
        wanted = set(
            RatingStep.objects.filter(key__lt=from_key, player_id__in=part)
            .values("player_id")
            .annotate(k=Max("key"))
            .values_list("player_id", "k")
        )
        if not wanted:
            continue
        for pid, key, mu, sigma in RatingStep.objects.filter(
            player_id__in={p for p, _ in wanted}, key__in={k for _, k in wanted}
        ).values_list("player_id", "key", "mu", "sigma"):
            if (pid, key) in wanted:
                state[pid] = (mu, sigma)
    return state


def _write_list(players: set[int], state: State) -> None:
    """The list's rows of `players`: (mu, sigma) from the replayed state (each touched
    player's latest step), rounds and events counted in SQL; a player with no step left
    leaves the list."""
    if not players:
        return
    ids = sorted(players)
    PlayerRating.objects.filter(player_id__in=ids).delete()
    rows = []
    for chunk in range(0, len(ids), 5000):
        part = ids[chunk : chunk + 5000]
        for pid, rounds, events in (
            RatingStep.objects.filter(player_id__in=part)
            .values("player_id")
            .annotate(n=Count("id"), e=Count("event_id", distinct=True))
            .values_list("player_id", "n", "e")
        ):
            mu, sigma = state[pid]
            rows.append((pid, mu, sigma, ordinal(mu, sigma), rounds, events))
    insert_rows(PlayerRating, ("player_id", "mu", "sigma", "ordinal", "rounds", "events"), rows)


def has_steps(event_id: int) -> bool:
    return RatingStep.objects.filter(event_id=event_id).exists()
