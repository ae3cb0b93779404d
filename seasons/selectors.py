"""Read queries of the seasons pages: the rating list, a player's card (events, the rating's
steps, partners and head rivals met), series tables. Only rated rounds count (they are closed
rounds of public events whose results the public sees: seasons/ratings.py)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from matches.kernel.games.registry import adapter_named
from matches.models import Event, Registration, SearchTerm, TableSeat, UnionMember
from matches.public import find_terms, visibility
from matches.public import standings as public_standings
from players.models import Player
from seasons.engine import ordinal
from seasons.models import PlayerRating, RatedRound, RatingStep, Series

PAGE = 100


def rating_list(query: str = "", club_id: int | None = None):
    rows = PlayerRating.objects.select_related("player__club").order_by("-ordinal", "player_id")
    if club_id:
        rows = rows.filter(player__club_id=club_id)
    if query:
        found = (
            Q(player__name__icontains=query)
            | Q(player__name_zh__icontains=query)
            | Q(player__club__name__icontains=query)
        )
        term = find_terms.normalise(query)
        if term and not term.isdigit():  # digits alone are entry numbers there, not names
            # Pinyin in full or by initials (`hxm` finds 黄晓明), as find-my-table: the terms
            # its index holds for each player of a public event (matches/public/find_terms.py).
            found |= Q(
                player_id__in=SearchTerm.objects.filter(
                    event__in=visibility.public_events(),
                    player__isnull=False,
                    term__startswith=term[: find_terms.TERM_LENGTH],
                ).values("player_id")
            )
        rows = rows.filter(found)
    return rows


def rank_of(rating: PlayerRating) -> int:
    return PlayerRating.objects.filter(ordinal__gt=rating.ordinal).count() + 1


def history(player: Player) -> list[dict]:
    return [
        {"event": e, "event_id": eid, "number": n, "mu": mu, "sigma": s, "rating": ordinal(mu, s)}
        for eid, e, n, mu, s in RatingStep.objects.filter(player=player)
        .order_by("key")
        .values_list("event_id", "event__name", "round__number", "mu", "sigma")
    ]


def events_played(player: Player) -> list[dict]:
    """The public events the player entered (a union's member or a player's entry), newest
    first, with the rated ones marked."""
    ids = set(
        UnionMember.objects.filter(player=player, round__isnull=True).values_list(
            "event_id", flat=True
        )
    ) | set(player.registrations.values_list("event_id", flat=True))
    ids |= set(TableSeat.objects.filter(player=player).values_list("round__event_id", flat=True))
    rated = set(RatingStep.objects.filter(player=player).values_list("event_id", flat=True))
    return [
        {"event": e, "rated": e.pk in rated}
        for e in visibility.public_events().filter(pk__in=ids).order_by("-start_date", "-pk")
    ]


@dataclass
class Met:
    player: Player
    together: int = 0  # rated deals on one side (partners) or face to face (head rivals)
    # of those: deals the player's union scored more (partners), deals the player finished
    # ahead of their head rival (head rivals)
    won: int = 0


def partners_and_rivals(player: Player, limit: int = 5) -> tuple[list[Met], list[Met]]:
    """Partners (the player's union at the table) and head rivals (对头: the player sitting
    opposite, of the other union) over rated rounds, most deals first."""
    from matches.models import DealTally

    round_ids = list(RatedRound.objects.values_list("round_id", flat=True))
    # Each table's side, seat and the seat facing it as head rival (the game's, by the table's
    # size: R2 at six seats, R45 at eight in Gou Ji).
    seated = list(
        TableSeat.objects.filter(player=player, round_id__in=round_ids).values_list(
            "table_id", "side", "seat", "round__event__game"
        )
    )
    sizes = dict(
        TableSeat.objects.filter(table_id__in=[row[0] for row in seated])
        .order_by()
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    mine = {
        table_id: (side, seat, adapter_named(game).head_rival_seat(seat, sizes[table_id]))
        for table_id, side, seat, game in seated
    }
    if not mine:
        return [], []
    deals: dict[int, list[tuple[int, int, list]]] = defaultdict(list)
    for table_id, a, b, places in DealTally.objects.filter(match__table_id__in=mine).values_list(
        "match__table_id", "score_a", "score_b", "places"
    ):
        deals[table_id].append((a or 0, b or 0, places or []))
    together: Counter = Counter()
    against: Counter = Counter()
    won_with: Counter = Counter()
    ahead_of: Counter = Counter()
    for table_id, other, side, seat in (
        TableSeat.objects.filter(table_id__in=mine)
        .exclude(player=player)
        .values_list("table_id", "player_id", "side", "seat")
    ):
        my_side, my_seat, rival_seat = mine[table_id]
        if not my_side or not side:
            continue
        played = deals.get(table_id, [])
        if side == my_side:
            together[other] += len(played)
            won_with[other] += sum(1 for a, b, _ in played if (a > b if my_side == "A" else b > a))
        elif seat == rival_seat:
            against[other] += len(played)
            ahead_of[other] += sum(
                1 for _, _, places in played if _place(places, my_seat) < _place(places, seat)
            )
    people = Player.objects.in_bulk(set(together) | set(against))
    partners = [
        Met(people[p], n, won_with[p]) for p, n in together.most_common(limit) if p in people
    ]
    rivals = [Met(people[p], n, ahead_of[p]) for p, n in against.most_common(limit) if p in people]
    return partners, rivals


def _place(places: list, seat: int) -> int:
    """Where a seat finished a deal (`places`: seats grouped by place, best first)."""
    return next((k for k, group in enumerate(places) if seat in group), len(places))


# --- series -----------------------------------------------------------------------------------


@dataclass
class SeriesLine:
    player: Player
    per_event: dict[int, int] = field(default_factory=dict)  # event id -> points
    counted: set[int] = field(default_factory=set)  # the events that count (best N)
    total: int = 0
    rank: int = 0
    # Counted events not finished yet: their points (so the total) may still change.
    provisional: set[int] = field(default_factory=set)


def event_finished(event: Event) -> bool:
    """Whether an event's standings are final for a series: the organiser ended it, or every
    planned round is closed (`matches.public.standings.is_live`). An event still being played
    counts only provisionally, marked in the series table."""
    return event.concluded_at is not None or not public_standings.is_live(event)


def series_events(series: Series) -> list[Event]:
    """The series' public events, each with `provisional` (not finished yet)."""
    events = list(
        visibility.public_events()
        .filter(pk__in=series.entries.values("event_id"))
        .order_by("start_date", "pk")
    )
    for event in events:
        event.provisional = not event_finished(event)
    return events


def _event_points(series: Series, event: Event) -> dict[int, int]:
    """Each player's points from one event, by its final visible standings: a team event's
    union standings (a union's place or match points count for each of its registered
    members), an individual event's player standings (the player's place, or their points:
    an individual event has no match points, its standings' points are their sum)."""
    if not event.is_team:
        return _individual_points(series, event)
    snapshot = visibility.public_snapshot(event, "unions")
    if snapshot is None:
        return {}
    members: dict[int, list[int]] = defaultdict(list)
    for union_id, player_id in UnionMember.objects.filter(
        event=event, round__isnull=True
    ).values_list("union_id", "player_id"):
        members[union_id].append(player_id)
    points: dict[int, int] = {}
    for row in snapshot.rows:
        if series.scoring == Series.Scoring.MATCH_POINTS:
            value = int(row.get("match_points") or 0)
        else:
            value = series.points_for(int(row.get("rank") or 0))
        for pid in members.get(row.get("union"), []):
            points[pid] = value
    return points


def _individual_points(series: Series, event: Event) -> dict[int, int]:
    snapshot = visibility.public_snapshot(event, "players")
    if snapshot is None:
        return {}
    points: dict[int, int] = {}
    for row in snapshot.rows:
        if not row.get("player"):
            continue
        if series.scoring == Series.Scoring.MATCH_POINTS:
            value = int(row.get("match_points", row.get("place_points")) or 0)
        else:
            value = series.points_for(int(row.get("rank") or 0))
        points[row["player"]] = value
    return points


def series_table(series: Series) -> tuple[list[Event], list[SeriesLine]]:
    events = series_events(series)
    unfinished = {e.pk for e in events if e.provisional}  # type: ignore[attr-defined]
    lines: dict[int, SeriesLine] = {}
    per: dict[int, dict[int, int]] = defaultdict(dict)
    for event in events:
        for pid, value in _event_points(series, event).items():
            per[pid][event.pk] = value
    people = Player.objects.select_related("club").in_bulk(list(per))
    for pid, got in per.items():
        if pid not in people:
            continue
        best = sorted(got.items(), key=lambda kv: (-kv[1], kv[0]))
        if series.best_of:
            best = best[: series.best_of]
        line = SeriesLine(people[pid], got, {e for e, _ in best}, sum(v for _, v in best))
        line.provisional = {e for e in line.counted if e in unfinished}
        lines[pid] = line
    ordered = sorted(lines.values(), key=lambda line: (-line.total, line.player.name))
    previous = None
    for k, line in enumerate(ordered, start=1):
        line.rank = previous.rank if previous and previous.total == line.total else k
        previous = line
    return events, ordered


def series_lines_of(player: Player) -> list[tuple[Series, SeriesLine]]:
    out = []
    for series in Series.objects.filter(published=True):
        _events, lines = series_table(series)
        line = next((line for line in lines if line.player.pk == player.pk), None)
        if line:
            out.append((series, line))
    return out


def events_of_players(player_ids: list[int]) -> dict[int, set[int]]:
    """The events each player played in (a union, an entry, a seat): three queries for all."""
    events: dict[int, set[int]] = {pk: set() for pk in player_ids}
    for model, event in (
        (UnionMember, "event_id"),
        (Registration, "event_id"),
        (TableSeat, "round__event_id"),
    ):
        for player_id, event_id in model.objects.filter(player_id__in=player_ids).values_list(
            "player_id", event
        ):
            events[player_id].add(event_id)
    return events
