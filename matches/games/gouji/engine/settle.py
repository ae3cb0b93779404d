"""Settling one deal's outcome: consistency, union scores and the tribute ledger (R29–R43).

A referee's summary (`gouji-outcome/1`) is read by `parse_outcome`; `check_outcome` lists every
inconsistency; `union_scores` and `tribute_ledger` work on an `Outcome` alone, so the replay can
build one from a played deal and reuse them. `settle` puts it together into the verdict JSON of
deal-record.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matches.games.gouji.engine import seating
from matches.games.gouji.engine.record import revolutions_void
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import head_rival, place_name, union_of
from matches.games.gouji.engine.verdict import SettleVerdict, Tribute, UnionScores
from matches.kernel.engine_errors import BadDocument, EngineBug, JSONObject, RuleViolation

OUTCOME_FORMAT = "gouji-outcome/1"
DECLARATIONS = ("clear", "unclear", "special")
BURN_OUTCOMES = ("success", "counter", "stopped", "false")


_COUNT_WORDS = {6: "six", 8: "eight"}


def melee_size(players: int, revolutions: int) -> int:
    """R48: m = 3 when the revolutions leave exactly four seats to play (R56, D37), else 4."""
    return 3 if players - revolutions == 4 else 4


@dataclass(frozen=True)
class Outcome:
    """What a deal produced, whether reported by a referee or replayed."""

    finish: tuple[int, ...]  # seats in finishing order, 1st first (R30)
    points: frozenset[int] = frozenset()  # seats that opened a point (R20)
    declarations: dict[int, str] = field(default_factory=dict, hash=False)  # R34
    burns: tuple[tuple[int, int, str], ...] = ()  # (burner, burned, outcome) in start order
    suffocated: tuple[tuple[int, int], ...] = ()  # (seat, by) (R27)
    revolution: tuple[int, ...] = ()  # R29
    string_three_streak: int = 0  # deals in a row before this one the same union strung three
    # D12: points opened by the R25 answer to the head rival's own last hand, i.e. after the
    # rival finished. They are points, but do not fail the rival's declaration. A summary
    # cannot say so (gouji-outcome/1 has no such field); a replay can.
    late_points: frozenset[int] = frozenset()
    # R34: seats whose special declaration (特点) failed: their head rival got the lead before
    # they finished (D12). A summary lists them (`special_failed`); a replay tracks the leads.
    special_failed: frozenset[int] = frozenset()
    # R22: for each burn, whether it interrupted the burn listed just before it (a counter-burn
    # chain). Empty: read from consecutive entries (see `burn_chain_flags`); a replay knows it.
    counters: tuple[bool, ...] = ()
    # R44: the seats at the table (6, or 8 under `players = 8`)
    players: int = 6

    @property
    def seats(self) -> tuple[int, ...]:
        return seating.seats(self.players)

    def declaration_fails(self, declarer: int) -> bool:
        """R34/D12: the head rival opened a point (for `special`: got the lead) before the
        declarer finished."""
        if self.declarations.get(declarer) == "special":
            return declarer in self.special_failed
        rival = head_rival(declarer, self.players)
        return rival in self.points and rival not in self.late_points

    def place_of(self, seat: int) -> int:
        """0-based place of a seat (0 = 1st)."""
        return self.finish.index(seat)

    @property
    def string_three_union(self) -> str | None:
        """The union holding places 1 to k (串三户; 串四户 at eight seats, R47), if any."""
        k = self.players // 2
        unions = {union_of(seat, self.players) for seat in self.finish[:k]}
        return unions.pop() if len(unions) == 1 and len(self.finish) >= k else None


# --- reading a summary ----------------------------------------------------------------------

_OUTCOME_FIELDS = {
    "format",
    "rules",
    "finish",
    "points",
    "declarations",
    "burns",
    "suffocated",
    "revolution",
    "string_three_streak",
    "special_failed",
}


def parse_outcome(doc: Any) -> tuple[Outcome, RuleSet]:
    """Read a `gouji-outcome/1` document; raise BadDocument when it cannot be read."""
    if not isinstance(doc, dict):
        raise BadDocument("an outcome summary must be a JSON object")
    unknown = sorted(set(doc) - _OUTCOME_FIELDS)
    if unknown:
        raise BadDocument(f"unknown field {unknown[0]!r} in a {OUTCOME_FORMAT} summary")
    if doc.get("format") != OUTCOME_FORMAT:
        raise BadDocument(f"field 'format' must be {OUTCOME_FORMAT!r}, not {doc.get('format')!r}")
    if "finish" not in doc:
        raise BadDocument("field 'finish' is required")
    rules = RuleSet.from_json(doc.get("rules", "standard"))
    n = rules.players
    finish = tuple(_seat_list(doc["finish"], "finish", n, unique=False))
    points = frozenset(_seat_list(doc.get("points", []), "points", n))
    revolution = tuple(_seat_list(doc.get("revolution", []), "revolution", n))
    declarations = _declarations(doc.get("declarations", {}), n)
    burns = tuple(
        _burn(entry, i, n) for i, entry in enumerate(_list(doc.get("burns", []), "burns"))
    )
    suffocations = _list(doc.get("suffocated", []), "suffocated")
    suffocated = tuple(_suffocation(entry, i, n) for i, entry in enumerate(suffocations))
    streak = doc.get("string_three_streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        raise BadDocument("field 'string_three_streak' must be a whole number 0 or more")
    special_failed = frozenset(_seat_list(doc.get("special_failed", []), "special_failed", n))
    points |= automatic_points(rules, revolution)
    outcome = Outcome(
        finish,
        points,
        declarations,
        burns,
        suffocated,
        revolution,
        streak,
        special_failed=special_failed,
        players=n,
    )
    return outcome, rules


def automatic_points(rules: RuleSet, revolution: tuple[int, ...]) -> frozenset[int]:
    """R29/D11/D40: each revolutionary's head rival opens a point automatically, listed or not,
    unless it is the other revolutionary (R56); none under `revolution_contest` or when the
    revolutions void the deal."""
    if not revolution or not rules.revolution or rules.revolution_contest:
        return frozenset()
    if revolutions_void(rules, revolution) is not None:
        return frozenset()
    rivals = {head_rival(seat, rules.players) for seat in revolution}
    return frozenset(rivals - set(revolution))


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadDocument(f"field {name!r} must be a list")
    return value


def _seat(value: Any, where: str, players: int = 6) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadDocument(f"{where} must be a seat number 1-{players}, not {value!r}")
    if not 1 <= value <= players:
        raise BadDocument(
            f"{where}: there is no seat {value} (seats are 1-{players}, players = {players})"
        )
    return value


def _seat_list(value: Any, name: str, players: int = 6, unique: bool = True) -> list[int]:
    seats = [_seat(item, f"field {name!r}", players) for item in _list(value, name)]
    if unique:
        for seat in seats:
            if seats.count(seat) > 1:
                raise BadDocument(f"field {name!r} lists seat {seat} twice")
    return seats


def _declarations(value: Any, players: int = 6) -> dict[int, str]:
    if not isinstance(value, dict):
        raise BadDocument("field 'declarations' must be an object seat → clear|unclear|special")
    declarations = {}
    for key, kind in value.items():
        if not isinstance(key, str) or key not in {str(s) for s in seating.seats(players)}:
            raise BadDocument(
                f"field 'declarations': there is no seat {key!r} "
                f'(seats are "1"-"{players}", players = {players})'
            )
        if kind not in DECLARATIONS:
            raise BadDocument(
                f"field 'declarations': seat {key} declares {kind!r}, not one of "
                f"{', '.join(DECLARATIONS)} (R34)"
            )
        declarations[int(key)] = kind
    return declarations


def _entry(value: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadDocument(f"{where} must be an object with {', '.join(keys)}")
    if set(value) != set(keys):
        extra = sorted(set(value) - set(keys))
        missing = sorted(set(keys) - set(value))
        problem = f"unknown field {extra[0]!r}" if extra else f"missing field {missing[0]!r}"
        raise BadDocument(f"{where}: {problem}")
    return value


def _burn(value: Any, index: int, players: int = 6) -> tuple[int, int, str]:
    where = f"burns[{index}]"
    entry = _entry(value, where, ("burner", "burned", "outcome"))
    if entry["outcome"] not in BURN_OUTCOMES:
        raise BadDocument(
            f"{where}: outcome must be one of {', '.join(BURN_OUTCOMES)}, not {entry['outcome']!r}"
        )
    return (
        _seat(entry["burner"], f"{where}.burner", players),
        _seat(entry["burned"], f"{where}.burned", players),
        entry["outcome"],
    )


def _suffocation(value: Any, index: int, players: int = 6) -> tuple[int, int]:
    where = f"suffocated[{index}]"
    entry = _entry(value, where, ("seat", "by"))
    return (
        _seat(entry["seat"], f"{where}.seat", players),
        _seat(entry["by"], f"{where}.by", players),
    )


# --- consistency ----------------------------------------------------------------------------


def check_outcome(outcome: Outcome, rules: RuleSet) -> list[RuleViolation]:
    """Every inconsistency of an outcome with the rules, in a stable order."""
    errors: list[RuleViolation] = []
    finish_ok = _check_finish(outcome, errors)
    _check_revolution(outcome, rules, finish_ok, errors)
    _check_declarations(outcome, rules, errors)
    _check_burns(outcome, rules, finish_ok, errors)
    _check_suffocation(outcome, rules, errors)
    if finish_ok:
        _check_forced_places(outcome, rules, errors)
    return errors


def _check_finish(outcome: Outcome, errors: list[RuleViolation]) -> bool:
    finish = outcome.finish
    seats = outcome.seats
    if sorted(finish) == list(seats):
        return True
    twice = sorted({seat for seat in finish if finish.count(seat) > 1})
    missing = [seat for seat in seats if seat not in finish]
    problems = []
    if twice:
        problems.append("lists seat " + ", ".join(map(str, twice)) + " more than once")
    if missing:
        problems.append("misses seat " + ", ".join(map(str, missing)))
    errors.append(
        RuleViolation(
            "R30",
            "finish_not_permutation",
            f"the finishing order {list(finish)} {' and '.join(problems)}: it must order all "
            f"{_COUNT_WORDS[len(seats)]} seats",
            finish=", ".join(map(str, finish)),
        )
    )
    return False


def _check_revolution(
    outcome: Outcome, rules: RuleSet, finish_ok: bool, errors: list[RuleViolation]
) -> None:
    revolution = outcome.revolution
    if not revolution:
        return
    if not rules.revolution:
        errors.append(
            RuleViolation(
                "R29",
                "revolution_disabled",
                f"seat {revolution[0]} declared revolution, but this rule set has revolution = false",
                seat=revolution[0],
            )
        )
        return
    void = revolutions_void(rules, revolution)
    if void is not None:
        errors.append(void)
        return
    involved = {b for burn in outcome.burns for b in burn[:2]} | {
        s for pair in outcome.suffocated for s in pair
    }
    for rebel in revolution:
        if rebel in involved:
            errors.append(
                RuleViolation(
                    "R29",
                    "revolutionary_played",
                    f"revolutionary seat {rebel} does not play, so cannot burn, be burned or "
                    "suffocate",
                    seat=rebel,
                )
            )
        if not rules.revolution_contest and rebel in outcome.points:
            # D11/D40: the rival's point is automatic (parse_outcome adds it when a summary
            # does not list it) and a revolutionary opens none.
            errors.append(
                RuleViolation(
                    "R29",
                    "revolutionary_point",
                    f"revolutionary seat {rebel} cannot open a point: their head rival is "
                    "headless from the start",
                    seat=rebel,
                )
            )
    if not finish_ok:
        return
    expected = rebel_places(outcome, rules)
    for rebel in revolution:
        place = outcome.place_of(rebel)
        if place == expected[rebel]:
            continue
        strings = _union_strings_before(outcome, rebel)
        if len(revolution) > 1:
            rule = "R56"
            why = (
                "its union's other members hold the places above it"
                if strings
                else "two revolutionaries take places k and k + 1, the lower seat k unless "
                "the other's union strings (D39)"
            )
        else:
            rule = "R29"
            why = (
                "its union mates hold the places above it"
                if strings
                else "the union mates are not the first places"
            )
            if outcome.players == 6:
                why = (
                    "both union mates are 1st and 2nd"
                    if strings
                    else "the union mates are not 1st and 2nd"
                )
        errors.append(
            RuleViolation(
                rule,
                "revolution_place",
                f"revolutionary seat {rebel} finished {place_name(place)}, "
                f"but must be {place_name(expected[rebel])} since {why}",
                seat=rebel,
                place=place + 1,
                expected=expected[rebel] + 1,
            )
        )


def _union_strings_before(outcome: Outcome, rebel: int) -> bool:
    """Do the other members of `rebel`'s union hold places 1 to k − 1 (R50, D39)?"""
    k = outcome.players // 2
    union = union_of(rebel, outcome.players)
    others = {seat for seat in outcome.seats if union_of(seat, outcome.players) == union}
    others.discard(rebel)
    return {outcome.place_of(seat) for seat in others} == set(range(k - 1))


def rebel_places(outcome: Outcome, rules: RuleSet) -> dict[int, int]:
    """R29/R50/R56: the 0-based place each revolutionary must hold in a complete finish.

    One revolutionary: k + 1 (4th of six, 5th of eight), or k when the other k − 1 members of
    its union hold places 1 to k − 1. Two: places k and k + 1; k to the one whose union's other
    members hold 1 to k − 1, else to the lower seat (D39)."""
    k = outcome.players // 2
    revolution = outcome.revolution
    if len(revolution) == 1:
        rebel = revolution[0]
        place = k - 1 if _union_strings_before(outcome, rebel) else k
        if place == k - 1 and outcome.finish[k - 1] in _forced_seats(outcome, rules):
            # R30: places forced by R22d/R27 are fixed as they arise. A seat forced out at k
            # went out while the revolutionary still held k + 1 (before the mates held the
            # places above: after, the lowest open place would have been k + 1), so k was taken
            # and the revolutionary stays k + 1; the replay places them so (play.py).
            place = k
        return {rebel: place}
    first, second = sorted(revolution)
    if _union_strings_before(outcome, second) and not _union_strings_before(outcome, first):
        first, second = second, first
    return {first: k - 1, second: k}


def _check_declarations(outcome: Outcome, rules: RuleSet, errors: list[RuleViolation]) -> None:
    for seat, kind in sorted(outcome.declarations.items()):
        if kind == "special" and not rules.special_declaration:
            errors.append(
                RuleViolation(
                    "R34",
                    "special_not_allowed",
                    f"seat {seat} declared 'special' (特点), which this rule set does not allow",
                    seat=seat,
                )
            )
    for seat in sorted(outcome.special_failed):
        if outcome.declarations.get(seat) != "special":
            errors.append(
                RuleViolation(
                    "R34",
                    "special_failed_undeclared",
                    f"seat {seat} is listed in special_failed but did not declare 'special' (特点)",
                    seat=seat,
                )
            )


def _check_burns(
    outcome: Outcome, rules: RuleSet, finish_ok: bool, errors: list[RuleViolation]
) -> None:
    previous = None
    out: dict[int, int] = {}  # false burners out of play (R22d/D5) -> index of their false burn
    for index, burn in enumerate(outcome.burns):
        burner, burned, result = burn
        where = f"burn {index + 1} (seat {burner} burning seat {burned})"
        at = {"burn": index + 1, "burner": burner, "burned": burned}
        for seat in (burner, burned):
            if seat in out:
                errors.append(
                    RuleViolation(
                        "D5",
                        "false_burner_out",
                        f"{where}: seat {seat} burned falsely in burn {out[seat] + 1} and was out "
                        "of play at once (R22d), so takes part in no later burn",
                        seat=seat,
                        earlier=out[seat] + 1,
                        **at,
                    )
                )
                break
        if result == "false" and rules.false_burn == "place":
            out.setdefault(burner, index)
        if burner == burned:
            errors.append(
                RuleViolation("R21", "burn_self", f"{where}: a player cannot burn themselves", **at)
            )
        elif burner == head_rival(burned, outcome.players):
            errors.append(
                RuleViolation(
                    "R21",
                    "burn_by_head_rival",
                    f"{where}: a head rival's answer is not a burn; only a non-rival burns",
                    **at,
                )
            )
        if rules.burn_requires_point and burner not in outcome.points:
            errors.append(
                RuleViolation(
                    "R21",
                    "burn_without_point",
                    f"{where}: under burn_requires_point the burner must have opened a point",
                    **at,
                )
            )
        interrupts_previous = previous and previous[0] == burned and previous[2] == "stopped"
        if result == "counter" and not interrupts_previous:
            errors.append(
                RuleViolation(
                    "R22",
                    "counter_without_burn",
                    f"{where}: a counter-burn must follow the burn by seat {burned} that it "
                    "interrupted, listed just before it as 'stopped'",
                    **at,
                )
            )
        if finish_ok and result in ("success", "counter"):
            # D7/R48/D11: a burner plays out while Gou Ji is in force, so among the first
            # (n − r) − m places: 1st–2nd at six seats (1st with one or two revolutions), 1st–4th
            # at eight (1st–3rd with one revolution, 1st–2nd with two).
            revolutions = len(outcome.revolution)
            playing = outcome.players - revolutions
            last_burn_place = playing - melee_size(outcome.players, revolutions) - 1
            if outcome.place_of(burner) > last_burn_place:
                places = " or ".join(place_name(i) for i in range(last_burn_place + 1))
                if last_burn_place > 1:
                    places = f"1st to {place_name(last_burn_place)}"
                why = ""
                if revolutions == 1:
                    why = " (one seat revolted, D7)"
                elif revolutions == 2:
                    why = " (two seats revolted, R48)"
                errors.append(
                    RuleViolation(
                        "D11",
                        "burner_not_top_two",
                        f"{where}: a burner who plays out while Gou Ji is in force finishes "
                        f"{places}{why}, not {place_name(outcome.place_of(burner))}",
                        top=last_burn_place + 1,
                        place=outcome.place_of(burner) + 1,
                        **at,
                    )
                )
            if outcome.place_of(burned) < outcome.place_of(burner):
                errors.append(
                    RuleViolation(
                        "R22",
                        "burned_finished_first",
                        f"{where}: the burned seat finished before its burner played out",
                        **at,
                    )
                )
        previous = burn


def _check_suffocation(outcome: Outcome, rules: RuleSet, errors: list[RuleViolation]) -> None:
    if outcome.suffocated and not rules.hold_three:
        errors.append(
            RuleViolation(
                "R27",
                "suffocation_without_hold_three",
                "suffocation (闷) exists only under hold_three, which this rule set does not use",
            )
        )
    seen = set()
    for seat, by in outcome.suffocated:
        if seat == by:
            errors.append(
                RuleViolation(
                    "R27", "suffocated_self", f"seat {seat} cannot suffocate themselves", seat=seat
                )
            )
        if seat in seen:
            errors.append(
                RuleViolation(
                    "R27",
                    "suffocated_twice",
                    f"seat {seat} is listed as suffocated twice",
                    seat=seat,
                )
            )
        seen.add(seat)


def _forced_seats(outcome: Outcome, rules: RuleSet) -> dict[int, str]:
    """The seats put out of play at the lowest open place (R22d false burners, R27 suffocated
    players), with the rule that put them there."""
    forced: dict[int, str] = {}
    if rules.false_burn == "place":
        for burner, _, result in outcome.burns:
            if result == "false":
                forced.setdefault(burner, "R22")
    if rules.hold_three and not rules.suffocated_play_on:
        for seat, _ in outcome.suffocated:
            forced.setdefault(seat, "R27")
    return forced


def _check_forced_places(outcome: Outcome, rules: RuleSet, errors: list[RuleViolation]) -> None:
    """R22d, R27, R30 and D11: false burners and suffocated players hold the lowest open places."""
    forced = _forced_seats(outcome, rules)
    # Revolutionary places are fixed apart (R29); the forced seats take the lowest of the rest.
    open_order = [seat for seat in outcome.finish if seat not in outcome.revolution]
    lowest = set(open_order[len(open_order) - len(forced) :]) if forced else set()
    for seat, rule in forced.items():
        if seat not in lowest:
            who = "false burner" if rule == "R22" else "suffocated seat"
            errors.append(
                RuleViolation(
                    rule,
                    "forced_place",
                    f"{who} {seat} finished {place_name(outcome.place_of(seat))}, but false "
                    "burners and suffocated players take the lowest places still open",
                    seat=seat,
                    place=outcome.place_of(seat) + 1,
                )
            )


# --- scores ---------------------------------------------------------------------------------


def _require_complete(outcome: Outcome, rules: RuleSet) -> None:
    # Callers settle only complete, checked outcomes; anything else is a bug of the caller.
    void = revolutions_void(rules, outcome.revolution)
    if sorted(outcome.finish) != list(outcome.seats) or void is not None:
        raise EngineBug(f"cannot settle an incomplete or void deal: {outcome!r}")


def union_scores(outcome: Outcome, rules: RuleSet) -> UnionScores:
    """R31–R33: each union's deal score, from a complete finishing order."""
    _require_complete(outcome, rules)
    finish = outcome.finish
    n = outcome.players
    own = {"A": 0, "B": 0}
    for place, seat in enumerate(finish):
        own[union_of(seat, n)] += rules.place_points[place]
    # R33 (R47 at eight seats: 1st and 8th)
    if rules.first_last_same_union_draw and union_of(finish[0], n) == union_of(finish[-1], n):
        return UnionScores(0, 0)
    if rules.union_score == "own":
        return UnionScores(own["A"], own["B"])
    strung = outcome.string_three_union
    if strung:
        score = rules.string_three_score
        return UnionScores(
            score if strung == "A" else -score, -score if strung == "A" else score, strung == "B"
        )
    difference = own["A"] - own["B"]
    return UnionScores(difference, -difference)


# --- tributes -------------------------------------------------------------------------------

# R35: w = what the rival owes a declarer who succeeds (1 with no declaration, the plain point
# tribute); f = what a declarer whose declaration fails owes the rival on top.
_POINT_AMOUNTS = {
    "en": ({None: 1, "clear": 2, "unclear": 4}, {None: 0, "clear": 4, "unclear": 8}),
    # ZH knows one 明点: 2 for success, 2 more on failure (3 in all when the declarer also
    # opened no point). `unclear` has no ZH amount of its own and is read as `clear`.
    "zh": ({None: 1, "clear": 2, "unclear": 2}, {None: 0, "clear": 2, "unclear": 2}),
}


#: R34 special declaration (特点, ZH): success, the rival owes 4; failure, the declarer owes 4,
#: or 5 when it opened no point. They replace the R35 amounts of the special declarer.
SPECIAL_SUCCESS, SPECIAL_FAILURE = 4, 4


def _tribute(payer: int, receiver: int, kind: str, cards: int) -> Tribute:
    return Tribute(payer, receiver, kind, cards)


def point_tributes(outcome: Outcome, rules: RuleSet) -> list[Tribute]:
    """R35 for each head-rival pair, payers in seat order; under `point_tributes_cancel` (R55,
    D34, D35) the two debts of a pair offset and only the difference is owed."""
    owed = {payer: _point_debt(outcome, rules, payer) for payer in outcome.seats}
    if rules.point_tributes_cancel:
        for payer in outcome.seats:
            receiver = head_rival(payer, outcome.players)
            if payer < receiver:
                offset = min(owed[payer], owed[receiver])
                owed[payer] -= offset
                owed[receiver] -= offset
    return [
        _tribute(payer, head_rival(payer, outcome.players), "point", cards)
        for payer, cards in owed.items()
        if cards
    ]


def point_offsets(doc: Any) -> list[tuple[int, int, int]]:
    """R55 for the pages: the head-rival pairs of a settled summary whose two point debts
    offset, each (lower seat, its head rival, the cards taken off each debt). The ledger shows
    only what is left, so a pair that cancels out would otherwise vanish without a word. None
    without `point_tributes_cancel`, or when no point tribute is owed at all (R43, R40's
    amnesty, a string of three that waives all). Raises BadDocument."""
    outcome, rules = parse_outcome(doc)
    strung = outcome.string_three_union
    if (
        not rules.point_tributes_cancel
        or not rules.tributes
        or sorted(outcome.finish) != list(outcome.seats)
        or (strung and rules.string_three_amnesty and outcome.string_three_streak >= 2)
        or (strung and rules.string_three_waives == "all")
    ):
        return []
    offsets = []
    for seat in outcome.seats:
        rival = head_rival(seat, outcome.players)
        if seat < rival:
            cards = min(_point_debt(outcome, rules, seat), _point_debt(outcome, rules, rival))
            if cards:
                offsets.append((seat, rival, cards))
    return offsets


def _point_debt(outcome: Outcome, rules: RuleSet, payer: int) -> int:
    """R35/R34/D12: what `payer` owes its head rival in point tributes."""
    success, failure = _POINT_AMOUNTS[rules.declaration_tributes]
    declared = outcome.declarations
    receiver = head_rival(payer, outcome.players)
    receiver_declared = declared.get(receiver)
    payer_declared = declared.get(payer)
    cards = 0
    if receiver_declared:
        # The receiver's declaration succeeded: the rival pays w(declaration).
        if not outcome.declaration_fails(receiver):
            cards += (
                SPECIAL_SUCCESS if receiver_declared == "special" else success[receiver_declared]
            )
    elif payer not in outcome.points and payer_declared != "special":
        # the plain point tribute (a special declarer's is folded into its own amounts)
        cards += success[None]
    if payer_declared and outcome.declaration_fails(payer):
        if payer_declared == "special":
            # R34: 4, or 5 when the declarer opened no point (ZH 特点失败)
            cards += SPECIAL_FAILURE + (payer not in outcome.points)
        else:
            cards += failure[payer_declared]
    return cards


def burn_chain_flags(outcome: Outcome) -> tuple[bool, ...]:
    """For each burn, whether it continues a counter-burn chain: the replay's own flags, or,
    for a summary, whether its burned seat is the previous entry's burner, `stopped`."""
    if len(outcome.counters) == len(outcome.burns):
        return outcome.counters
    flags = []
    previous = None
    for burner, burned, result in outcome.burns:
        flags.append(previous is not None and previous[0] == burned and previous[2] == "stopped")
        previous = (burner, burned, result)
    return tuple(flags)


def burn_tributes(outcome: Outcome, rules: RuleSet) -> list[Tribute]:
    """R22/R36, in the order the burns started."""
    ledger = []
    chain: list[tuple[int, int]] = []  # (burner, burned) of the chain this entry belongs to
    for (burner, burned, result), chained in zip(outcome.burns, burn_chain_flags(outcome)):
        chain = chain + [(burner, burned)] if chained else [(burner, burned)]
        depth = len(chain) - 1  # how many burns deep this entry is in a chain of counter-burns
        if result == "success":
            ledger.append(_tribute(burned, burner, "burn", 1))
        elif result == "counter":
            if rules.counter_burn_tribute == "one_each":
                # ZH 被烧几次，就进几张烧贡: one card for each time the seat was burned in the chain
                cards = sum(1 for _, seat in chain if seat == burned)
            elif rules.counter_burn_tribute == "doubling":
                cards = 2 ** max(depth, 1)
            else:
                cards = 2
            ledger.append(_tribute(burned, burner, "burn", cards))
        elif result == "false" and rules.false_burn == "tribute":
            ledger.append(_tribute(burner, burned, "burn", rules.false_burn_cards))
    return ledger


def suffocation_tributes(outcome: Outcome, rules: RuleSet) -> list[Tribute]:
    """R27/R37: one card from each suffocated seat to its suffocator."""
    return [_tribute(seat, by, "suffocation", 1) for seat, by in outcome.suffocated]


#: R38 (six seats) and R49/D24 (eight): (loser's place, winner's place, cards), 0-based
PLACE_TRIBUTES = {
    6: ((5, 0, 2), (4, 1, 1)),
    8: ((7, 0, 2), (6, 1, 1), (5, 2, 1)),
}


def place_tributes(outcome: Outcome, rules: RuleSet) -> list[Tribute]:
    """R38 and R41: 6th owes 1st two cards, 5th owes 2nd one; waived between union mates.
    R49/D24 at eight seats: 8th owes 1st two, 7th owes 2nd one, 6th owes 3rd one.

    Under `place_tribute = "pool"` the same cards go into a pool instead (entries with
    `"to": null, "pool": "put"`, the payers from the last place up) and the winners take them
    out in order of place (entries with `"from": null, "pool": "pick", "pick": 1, 2, …`): 1st
    picks as many cards as it is owed, then 2nd, then (at eight seats) 3rd.
    """
    owed = []
    n = outcome.players
    for loser, winner, cards in PLACE_TRIBUTES[n]:
        payer, receiver = outcome.finish[loser], outcome.finish[winner]
        if union_of(payer, n) == union_of(receiver, n) and not rules.same_union_tribute:
            continue
        owed.append((payer, receiver, cards))
    if rules.place_tribute != "pool":
        return [_tribute(payer, receiver, "place", cards) for payer, receiver, cards in owed]
    ledger = [Tribute(payer, None, "place", cards, pool="put") for payer, _, cards in owed]
    for pick, (_, receiver, cards) in enumerate(owed, start=1):
        ledger.append(Tribute(None, receiver, "place", cards, pool="pick", pick=pick))
    return ledger


def string_three_tributes(outcome: Outcome, strung: str) -> list[Tribute]:
    """R39 (R49 for a string of four): each loser owes their head rival one card, lowest place
    first."""
    n = outcome.players
    losers = [seat for seat in reversed(outcome.finish) if union_of(seat, n) != strung]
    return [_tribute(seat, head_rival(seat, n), "string_three", 1) for seat in losers]


def tribute_ledger(outcome: Outcome, rules: RuleSet) -> tuple[Tribute, ...]:
    """R35–R43: what is owed at the start of the next deal, in paying order (R42)."""
    _require_complete(outcome, rules)
    if not rules.tributes:  # R43
        return ()
    strung = outcome.string_three_union
    if strung and rules.string_three_amnesty and outcome.string_three_streak >= 2:  # R40
        return ()
    by_kind: dict[str, list[Tribute]] = {kind: [] for kind in rules.tribute_order}
    if strung:
        # R39: stringing three takes the place tribute's slot in the paying order.
        by_kind["place"] = string_three_tributes(outcome, strung)
    else:
        by_kind["place"] = place_tributes(outcome, rules)
    if not (strung and rules.string_three_waives == "all"):
        by_kind["suffocation"] = suffocation_tributes(outcome, rules)
        by_kind["burn"] = burn_tributes(outcome, rules)
        by_kind["point"] = point_tributes(outcome, rules)
    return tuple(entry for kind in rules.tribute_order for entry in by_kind[kind])


# --- the verdict ----------------------------------------------------------------------------


def settle_verdict(doc: Any) -> SettleVerdict:
    """The verdict on a `gouji-outcome/1` summary (deal-record.md). Raises BadDocument."""
    outcome, rules = parse_outcome(doc)
    errors = check_outcome(outcome, rules)
    if errors:
        return SettleVerdict(valid=False, errors=tuple(error.as_error() for error in errors))
    return SettleVerdict(
        valid=True,
        union_scores=union_scores(outcome, rules),
        tributes=tribute_ledger(outcome, rules),
    )


def settle(doc: Any) -> JSONObject:
    """`settle_verdict` as the spec's JSON (the command line and the rules API)."""
    return settle_verdict(doc).to_json()
