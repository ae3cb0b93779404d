"""The knockout bracket (对阵图) as the organiser's and the public pages draw it.

Columns are the knockout stage's rounds, first round first; each column's name is computed from
how many unions are left in it, in one scheme everywhere (决赛 Final, 半决赛 Semi-final,
1/4决赛 Quarter-final, 1/8决赛 Round of 16 …; never "八强" or "四分之一决赛"), never stored.
A drawn round shows its matches in bracket order; a round not drawn yet shows the winners known
so far advancing into their places. A match is won when its result is final and not level (a
level knockout match gets extra deals at settlement).

What a reader may see is decided by the caller: `build` takes the rounds to show and a
`results_shown(round)` test (the public pages pass `visibility.visible_rounds` and
`visibility.results_visible`, the organiser every round and always True).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, cast

from django.utils.translation import gettext as _

from matches.kernel.pairing import knockout
from matches.models import Match, Round, Stage, Union

#: Round names by the number of places left (the bracket size of that round).
_NAMED = {2: "final", 4: "semi", 8: "quarter", 16: "r16", 32: "r32", 64: "r64", 128: "r128"}


def round_name(places: int) -> str:
    """The name of a knockout round with `places` unions, in the active language."""
    names = {
        "final": _("决赛"),
        "semi": _("半决赛"),
        "quarter": _("1/4决赛"),
        "r16": _("1/8决赛"),
        "r32": _("1/16决赛"),
        "r64": _("1/32决赛"),
        "r128": _("1/64决赛"),
    }
    key = _NAMED.get(places)
    # Past 1/64: the same scheme, 1/N决赛 with N the matches of the round.
    return names[key] if key else _("1/%(n)s决赛") % {"n": places // 2}


def knockout_name(round_: Round) -> str:
    """A knockout round's name (1/4决赛 …); "" for a round of any other stage."""
    stage = round_.stage
    if stage.format != Stage.Format.SINGLE_ELIMINATION:
        return ""
    return round_name(max(2, bracket_size(stage) >> (round_.stage_round - 1)))


def stage_label(round_: Round) -> str:
    """What a round page says about the round's stage: a knockout round's name (半决赛 …),
    else the stage's own name or its format's, in the active language."""
    # A typed stage name as typed; an app-written one in the active language.
    return knockout_name(round_) or round_.stage.label


def match_unions(match: Match) -> tuple[int | None, int | None]:
    """The two unions of a match (the second None for a bye). One place to read them."""
    return match.union_a_id, match.union_b_id


def winner_of(match: Match) -> int | None:
    """The union that goes on: a bye's union, or the winner of a final, decided result."""
    a, b = match_unions(match)
    if b is None:
        return a
    if match.points_a is None or match.points_b is None or match.points_a == match.points_b:
        return None
    return a if match.points_a > match.points_b else b


@dataclass
class Slot:
    """One match of the bracket (or a place still to be decided)."""

    a: int | None = None
    b: int | None = None
    bye: bool = False
    seed_a: int | None = None
    seed_b: int | None = None
    table: int | None = None
    score: str = ""
    winner: int | None = None
    tied: bool = False  # level after the planned deals: extra deals decide
    drawn: bool = False
    names: dict = field(default_factory=dict)

    @property
    def name_a(self) -> str:
        return self.names.get(self.a, "")

    @property
    def name_b(self) -> str:
        return self.names.get(self.b, "")


@dataclass
class Column:
    stage_round: int
    places: int
    name: str
    number: int | None  # the event's round number once drawn
    slots: list
    projected: bool = False  # the organiser's preview of a first round not drawn yet


def bracket_size(stage: Stage) -> int:
    field_size = len(stage.break_unions) or stage.qualifiers or 2
    return knockout.bracket_places(max(2, field_size))


def build(
    stage: Stage,
    rounds: list[Round],
    results_shown: Callable[[Round], bool],
    *,
    project_first_round: bool = False,
) -> list[Column]:
    """The bracket's columns. `rounds`: the stage's rounds the reader may see."""
    places = bracket_size(stage)
    by_stage_round = {r.stage_round: r for r in rounds if r.stage_id == stage.pk}
    names = dict(Union.objects.filter(event_id=stage.event_id).values_list("id", "name"))
    # Seeds stay with the unions all the way through: the break's order.
    seeds = {union: k for k, union in enumerate(stage.break_unions, start=1)}
    columns: list[Column] = []
    previous: list[Slot] = []
    column_places = places
    stage_round = 1
    while column_places >= 2:
        round_ = by_stage_round.get(stage_round)
        projected = False
        if round_ is not None:
            slots = _drawn_slots(round_, results_shown(round_), names)
        elif stage_round == 1 and project_first_round and stage.break_unions:
            slots, projected = _projected_slots(stage, names), True
        elif previous:
            slots = [
                Slot(a=previous[k].winner, b=previous[k + 1].winner, names=names)
                for k in range(0, len(previous), 2)
            ]
        else:
            slots = [Slot(names=names) for _ in range(column_places // 2)]
        columns.append(
            Column(
                stage_round=stage_round,
                places=column_places,
                name=round_name(column_places),
                number=round_.number if round_ is not None else None,
                slots=slots,
                projected=projected,
            )
        )
        for slot in slots:
            slot.seed_a, slot.seed_b = seeds.get(slot.a), seeds.get(slot.b)
        previous = slots
        column_places //= 2
        stage_round += 1
    return columns


def _drawn_slots(round_: Round, with_results: bool, names: dict) -> list[Slot]:
    slots = []
    matches = sorted(
        round_.matches.select_related("table"), key=lambda m: m.details.get("bracket", 0)
    )
    for match in matches:
        a, b = match_unions(match)
        slot = Slot(
            a=a,
            b=b,
            bye=b is None,
            seed_a=match.details.get("seed_a"),
            seed_b=match.details.get("seed_b"),
            table=match.table.number if match.table else None,
            drawn=True,
            names=names,
        )
        if slot.bye:
            slot.winner = a
        elif with_results:
            slot.winner = winner_of(match)
            if match.score_a is not None and match.score_b is not None:
                slot.score = f"{match.score_a} : {match.score_b}"
            slot.tied = match.points_a is not None and match.points_a == match.points_b
        slots.append(slot)
    return slots


def _projected_slots(stage: Stage, names: dict) -> list[Slot]:
    """The first round as the draw will make it from the confirmed break (clubs included)."""
    clubs: knockout.Clubs = dict(
        Union.objects.filter(pk__in=stage.break_unions).values_list("id", "club_id")
    )
    slots = []
    for pairing in knockout.first_round(stage.break_unions, clubs):
        # The generator pairs any hashable entrants; these are the break's union ids.
        a, b = cast(int, pairing.a), cast("int | None", pairing.b)
        slots.append(
            Slot(
                a=a,
                b=b,
                bye=pairing.is_bye,
                seed_a=pairing.details.get("seed_a"),
                seed_b=pairing.details.get("seed_b"),
                winner=a if pairing.is_bye else None,
                names=names,
            )
        )
    return slots
