"""The shared draw of a game played by two unions a table (Gou Ji): registered unions paired by
the stage's format (Swiss, round robin in snake-seeded groups, knockout from the seeded field
or the previous round's winners), or an individual event's players drawn into unions. Writes
the tables, matches, sides and seats; `matches.draw.service` calls it inside its transaction."""

from __future__ import annotations

from collections import defaultdict

from django.utils import timezone
from django.utils.translation import gettext as _

from matches.draw import entrants, history
from matches.draw.refusals import SeatingRefused
from matches.kernel import punctuation
from matches.kernel.draw_rows import jsonable, write_individual_tables
from matches.kernel.games.registry import adapter_for
from matches.kernel.pairing import knockout, robin
from matches.kernel.pairing.individual import draw_individual
from matches.kernel.pairing.swiss import annotate, pair_swiss
from matches.models import Match, MatchSide, Round, Stage, Table, TableSeat, Union, UnionMember
from matches.models.round import SIDE_A, SIDE_B


def draw_union_tables(round_: Round) -> None:
    """The draw of a game played by two unions a table (Gou Ji): registered unions paired by
    the stage's format, or an individual event's players drawn into unions."""
    event, stage = round_.event, round_.stage
    if not event.is_team:
        _draw_individual(round_)
    elif stage.format == Stage.Format.SWISS:
        entrants = history.entrants(event, round_.number)
        draw = pair_swiss(
            entrants.values(),
            round_number=round_.stage_round,
            seed=round_.seed,
            seeded=stage.seeded,
            avoid_clubs=event.avoids_clubs,
        )
        write_team_draw(round_, draw.pairings, draw.quality)
    elif stage.format == Stage.Format.ROUND_ROBIN:
        _draw_round_robin(round_)
    else:
        _draw_knockout(round_)


def _seeded_union_ids(round_: Round) -> list[int]:
    """A stage's field in seed order: the previous stage's standings when there is one."""
    event, stage = round_.event, round_.stage
    active = [r.union_id for r in entrants.active_registrations(event, round_.number) if r.union_id]
    if stage.break_unions:
        # The break the organiser confirmed (`matches.standings.breaks`), in its seed order.
        return [u for u in stage.break_unions if u in set(active)]
    earlier = stage.rounds.exclude(pk=round_.pk).order_by("number")
    first_round_of_stage = earlier.values_list("number", flat=True).first() or round_.number
    if first_round_of_stage > 1:
        ranked = [u for u in history.standings(event, first_round_of_stage) if u in set(active)]
    else:
        ranked = active
    if stage.qualifiers:
        ranked = ranked[: stage.qualifiers]
    return ranked


def _draw_round_robin(round_: Round) -> None:
    seeded = _seeded_union_ids(round_)
    groups = robin.snake_groups(seeded, round_.stage.group_count)
    entrants = history.entrants(round_.event, round_.number)
    pairings = []
    for group_number, group in enumerate(groups, start=1):
        if len(group) < 2:
            continue
        if round_.stage_round > robin.rounds_in_group(len(group)):
            continue  # a smaller group has finished
        for pairing in robin.round_robin_round(group, round_.stage_round):
            described = annotate(entrants[pairing.a], entrants.get(pairing.b))
            described.details["group"] = group_number
            pairings.append(described)
    if not pairings:
        raise SeatingRefused(_("循环赛的轮次已全部打完"))
    pairings.sort(key=lambda p: p.is_bye)
    write_team_draw(round_, pairings, {"method": "berger", "groups": len(groups)})


def _draw_knockout(round_: Round) -> None:
    """Knockout pairings carry knockout flags only (a bye, clubmates meeting, a hand swap):
    scores and seats, which the Swiss explains, decide nothing here."""
    entrants = history.entrants(round_.event, round_.number)
    clubs = {union: entrant.club for union, entrant in entrants.items()}
    if round_.stage_round == 1:
        pairings = knockout.first_round(_seeded_union_ids(round_), clubs)
    else:
        previous = round_.stage.rounds.get(stage_round=round_.stage_round - 1)
        winners = []
        for match in sorted(
            previous.matches.with_sides(), key=lambda m: m.details.get("bracket", 0)
        ):
            winners.append(_knockout_winner(match))
        pairings = knockout.next_round(winners, clubs)
    for slot, pairing in enumerate(pairings):
        pairing.details["bracket"] = slot
    write_team_draw(round_, pairings, knockout.measure(pairings))


def _knockout_winner(match: Match) -> int:
    if match.is_bye:
        return match.union_a_id
    if not match.is_complete or match.points_a is None or match.points_b is None:
        raise SeatingRefused(_("淘汰赛上一轮仍有未录成绩的对局"))
    if match.points_a == match.points_b:
        raise SeatingRefused(_("淘汰赛对局打平，须先打加赛局分出胜负"))
    return match.union_a_id if match.points_a > match.points_b else match.union_b_id


def write_team_draw(round_: Round, pairings: list, quality: dict) -> None:
    unions = Union.objects.in_bulk({u for p in pairings for u in (p.a, p.b) if u is not None})
    members = defaultdict(list)
    for member in UnionMember.objects.filter(union_id__in=unions).order_by("order"):
        members[member.union_id].append(member.player_id)
    shape = adapter_for(round_.event).table_shape(round_.event)
    short = sorted(unions[u].name for u in unions if len(members[u]) != shape.union_size)
    if short:
        raise SeatingRefused(
            _("以下联邦的选手不是 %(n)s 名：") % {"n": shape.union_size} + punctuation.listed(short)
        )
    played = [p for p in pairings if not p.is_bye]
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=k) for k in range(1, len(played) + 1)]
    )
    byes = [p for p in pairings if p.is_bye]
    matches = Match.objects.bulk_create(
        [
            Match(round=round_, table=table, flags=p.flags, details=jsonable(p.details))
            for table, p in zip(tables, played)
        ]
        + [
            Match(
                round=round_,
                flags=p.flags,
                details=jsonable(p.details),
                points_a=round_.event.points_bye,
                score_a=round_.event.bye_score,
                completed_at=timezone.now(),
            )
            for p in byes
        ]
    )
    sides, seats = [], []
    for match, pairing in zip(matches, played + byes):
        if pairing.is_bye:
            sides.append(
                MatchSide(round=round_, match=match, union_id=pairing.a, position=MatchSide.BYE)
            )
            continue
        for union_id, side in ((pairing.a, SIDE_A), (pairing.b, SIDE_B)):
            sides.append(MatchSide(round=round_, match=match, union_id=union_id, position=side))
            for seat_number, player_id in zip(shape.seats_of(side), members[union_id]):
                seats.append(
                    TableSeat(
                        table=match.table,
                        round=round_,
                        seat=seat_number,
                        side=side,
                        player_id=player_id,
                        union_id=union_id,
                    )
                )
    MatchSide.objects.bulk_create(sides)
    TableSeat.objects.bulk_create(seats)
    round_.quality = quality
    round_.save(update_fields=["quality"])


def _draw_individual(round_: Round) -> None:
    players = history.players(round_.event, round_.number)
    shape = adapter_for(round_.event).table_shape(round_.event)
    draw = draw_individual(
        players.values(),
        sides=shape.sides,
        round_number=round_.stage_round,
        seed=round_.seed,
        avoid_clubs=round_.event.avoids_clubs,
    )
    write_individual_tables(round_, draw.tables)
    round_.quality = {**draw.quality, "sitting_out": draw.sitting_out}
    round_.save(update_fields=["quality"])
