"""The one small interface between the shared tournament code and a game.

Every game folder (`matches/games/<game>/`) has a pure engine (`engine/`, never imports Django)
and an adapter, a subclass of `GameAdapter`, registered in `matches/kernel/games/registry.py`. The
shared services, views, API and exports call the adapter of the event's game
(`adapter_for(event)`); they never branch on a game's name. What the adapter answers:

- words and shape: its name and label, whether its sides have captains who may confirm results
  (`sides_have_captains`), which entry types it allows, what a deal is called;
- results: how a report is checked (`check_report`), and whether deals of a match follow on
  from one another (`deals_follow_on`: R35 tributes, R40 streaks); a stored verdict read back
  into the game's own frozen type (`read_verdict`, a `DealVerdict`) and the tributes a deal
  owes (`tributes_owed`): shared code never reads a verdict by key;
- settlement and standings: a deal's tally from its final report (`tally_deal`: a `Tally`, the
  places and side scores every game has plus the game's own typed document) and a stored one
  read back (`read_tally`): shared code never reads a tally's document by key; the tallies
  and the match result (`settle_match`), the deals each union's `strings_of_three` counts
  (`strings_of_three_filters`), player standings rows (`standings_rows`), the result sheet of
  an export (`results_table`);
- the draw: `draw_round` (it writes the match's sides: two unions, or one player a seat),
  re-flagging tables after a hand swap, what a full table is, the game's own seat rules
  (`seat_problems`: Gou Ji's unions on alternate seats);
- pages: the referee's result form (`result_form`) and the public table's rows;
- the deal viewer: a play log step by step (`deal_viewer`), or None for a game without one.

Besides the adapter, what every game hands over or uses through it: its engine's interface
(`Game`), and `mark`, the settings forms' field marks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.kernel.engine_errors import JSONObject
from matches.kernel.engine_types import (
    DealVerdict,
    GameSettings,
    NoSettings,
    PlayedSeat,
    PublicTable,
    TableShape,
    Tally,
    TallyDetail,
    places_from_json,
)
from matches.kernel.games.viewer import viewer_json

if TYPE_CHECKING:  # the models import the registry, which imports the adapters
    from matches.kernel.reports import Checked
    from matches.models import Deal, DealReport, DealTally, Event, Match, Round


class Game(Protocol):
    """A game's rules engine (`GameAdapter.engine`), pure Python: the command line, the
    stateless rules API and the hostile-input tests run it without a database."""

    #: short machine name, e.g. "gouji" or "giog"
    name: str

    def replay(self, document: dict[str, Any]) -> dict[str, Any]:
        """Replay a full record (e.g. `gouji-deal/1`) and return the verdict JSON object.

        Raises `BadDocument` when the document cannot be read; rule violations are reported
        inside the verdict, never raised.
        """

    def check_summary(self, document: dict[str, Any]) -> dict[str, Any]:
        """Check a referee's summary of one deal/hand and return its verdict JSON object
        (for Gou Ji: `gouji settle` on a `gouji-outcome/1`). Raises `BadDocument`."""

    def selfplay(self, count: int, seed: int, **options: Any) -> Iterator[dict[str, Any]]:
        """Yield `count` complete records played by simple bots from `random.Random(seed)`."""


def mark(field: forms.Field, **marks: Any) -> forms.Field:
    """`field` with the marks the games' settings templates read (`rule_id`, `section`,
    `flag`): Django's fields carry no such attributes of their own."""
    for name, value in marks.items():
        setattr(field, name, value)
    return field


@dataclass(frozen=True)
class DemoPlan:
    """A game's demo event for the shared demo builder (`matches/demo/builder.py`)."""

    name: str
    #: the Event's other fields: venue, dates, entry type, deals, confirmation, settings
    event: dict[str, Any]
    #: unions of three (a team event) or players entered
    entrants: int
    #: rounds played and closed before the live round
    closed_rounds: int
    planned_rounds: int
    seed: int
    stage_name: str = "瑞士制"


class _Numbers(dict[str, Any]):
    """A message's numbers; one an engine call did not give shows as "?" (never a crash)."""

    def __missing__(self, key: str) -> str:
        return "?"


def fill(template: str, params: JSONObject | None) -> str:
    """`template` (a catalogue message, "%(seat)s 号座…") with the error's numbers."""
    if "%(" not in template:
        return template
    numbers = _Numbers(
        {
            k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v
            for k, v in (params or {}).items()
        }
    )
    try:
        return template % numbers
    except (TypeError, ValueError):
        return template


def describe_error(messages: Mapping[str, Any], error: JSONObject) -> str:
    """One engine error for a person, in the active language: its catalogue message (a game's
    `messages.MESSAGES`) with its numbers, after the play log's step when it comes from a
    replay. "" when the catalogue has no message for its code."""
    text = messages.get(error.get("code") or "")
    if text is None:
        return ""
    text = fill(str(text), error.get("params"))
    action = error.get("action")
    if isinstance(action, int) and not isinstance(action, bool):
        return _("牌谱第 %(n)s 步：") % {"n": action + 1} + text
    return text


class GameAdapter:
    #: machine name, stored in `Event.game`
    name: str = ""
    #: the game's rules engine (the `Game` interface above)
    engine: Game
    #: the game's name as people read it (lazy translation)
    label: Any = ""
    #: True: each side of a match is a union with a captain, so the event may have results
    #: confirmed by both sides' captains (`Event.Confirmation.CAPTAIN`)
    sides_have_captains: bool = True
    #: Event.EntryType values the game allows
    entry_types: tuple[str, ...] = ("team", "individual")
    #: the player standings columns after rank and name: (row key, title, numeric)
    player_columns: tuple[tuple[str, Any, bool], ...] = ()
    #: the same for the standings export: (row key, title)
    export_player_columns: tuple[tuple[str, Any], ...] = ()
    #: the site's title on the game's pages (lazy translation)
    site_title: Any = ""
    #: a short template explaining the game's own standings columns, or None
    column_note_template: str | None = None
    #: dotted path of the organiser's form for the game's settings (the rule set). What the
    #: wizard and the rules page ask of it, whatever the game: `from_values(values, data)` (the
    #: wizard's stored values), `for_event(event, data, frozen)`, `from_preset(preset)`
    #: (refilled from a preset the organiser picked; a game without presets ignores it) and
    #: `preset_values(preset)` (the values it is refilled from, which the wizard keeps),
    #: `values()` (what `Event.game_settings` stores), and for the page `groups()`,
    #: `preset_rows()` and `diff()`. The shared views never look inside the values: they are
    #: the game's document.
    settings_form: str = ""
    #: True: a deal's result feeds the next deal of the match (it must be final first, and a
    #: correction makes the later deals' results to be checked again)
    deals_follow_on: bool = False

    # --- words ----------------------------------------------------------------------------
    def deal_name(self, number: int) -> str:
        """ "第 3 局" / "第 3 手" in the page's language."""
        raise NotImplementedError

    # --- the demo event (`matches/demo/builder.py` builds it) ------------------------------
    def demo_plan(self) -> DemoPlan | None:
        """The game's demo event for `make demo`; None: the game has none."""
        return None

    def demo_report(
        self, match: Match, number: int, rng: Any
    ) -> tuple[JSONObject | None, JSONObject | None]:
        """(summary, play log) of a random deal `number` at `match`'s table, drawn from `rng`
        (the demo's and the tests' random results); the results service checks it."""
        raise NotImplementedError

    # --- settings ---------------------------------------------------------------------------
    def read_settings(self, data: JSONObject) -> GameSettings:
        """`Event.game_settings` as the game's frozen settings type; raises ValueError (the
        game's SettingsError) with the reason when the game cannot read them."""
        if data:
            raise ValueError("this game has no settings")
        return NoSettings()

    def validate_event(self, event: Event) -> dict[str, Any]:
        """Field name -> error message for settings the game refuses (empty: fine)."""
        try:
            self.read_settings(event.game_settings)
        except ValueError as error:
            return {"game_settings": str(error)}
        return {}

    def rules_line(self, event: Event) -> str:
        """The event's rule set in one line of the page's language, for the pages that name
        it beside the event (the dashboard, entries, check-in, the table card): a game says
        what it plays by in its own words. The default: the game's name."""
        return str(self.label)

    # --- results ----------------------------------------------------------------------------
    def check_report(
        self,
        match: Match,
        number: int,
        summary: Any,
        play_log: Any,
        earlier: Mapping[int, JSONObject] | None = None,
    ) -> Checked:
        """The engine's reading of a report for deal `number` (a `Checked`); raises
        `ResultError` when a document cannot be read. Nothing is stored. `earlier`: the
        outcomes (summaries) of deals before `number` played at the table but not final yet
        (a feature table's deals behind its delay); a game whose deals follow on reads them
        where no final result says otherwise."""
        raise NotImplementedError

    def favoured_seats(self, report: DealReport, sides: Mapping[int, str]) -> frozenset[int]:
        """The seats whose players this report's result favours (`sides`: seat -> "A"/"B"): in
        an event confirmed by players, none of them may be the one to confirm it. Two sides
        with a score each: the seats of the side that scored more; none on equal scores (a
        draw: either side checks it)."""
        a, b = report.score_a, report.score_b
        if a is None or b is None or a == b:
            return frozenset()
        ahead = "A" if a > b else "B"
        return frozenset(seat for seat, side in sides.items() if side == ahead)

    def read_verdict(self, data: JSONObject) -> DealVerdict:
        """A stored `DealReport.verdict` as the game's verdict type."""
        raise NotImplementedError

    def tributes_owed(self, deal: Deal) -> list[JSONObject] | None:
        """The ledger `deal` owes from the deal before it, as the API shows it; None for a game
        whose deals do not follow on, or while it is unknown."""
        return None

    # --- settlement and standings -----------------------------------------------------------
    def tally_deal(
        self, match: Match, report: DealReport, before: Tally[Any] | None
    ) -> Tally[Any] | None:
        """The tally of a deal from its final report (its verdict read by the game), given the
        tally of the deal just before it (None for the first deal, or while that one has no
        final result; a game whose deals follow on reads its streaks and ledgers from it).
        None when the report cannot be read: the deal counts as missing."""
        raise NotImplementedError

    def read_tally_detail(self, data: JSONObject) -> TallyDetail:
        """A stored `DealTally.detail` as the game's tally type."""
        raise NotImplementedError

    def read_tally(self, row: DealTally) -> Tally[Any]:
        """A stored `DealTally` as a `Tally` holding the game's typed document."""
        return Tally(
            places=places_from_json(row.places),
            detail=self.read_tally_detail(row.detail),
            score_a=row.score_a,
            score_b=row.score_b,
        )

    def settle_match(self, match: Match) -> None:
        """Write every deal tally of the match and its result from the final reports. The
        default suits a game of two scored sides whose deals stand alone: each final deal's
        `tally_deal`, then the match result from the side scores (a tied knockout match gets
        its extra deals)."""
        from matches.kernel.match_result import write_match_result
        from matches.kernel.tallies import write_tallies

        deals = list(match.deals.order_by("number"))
        write_tallies(match, deals, lambda report, before: self.tally_deal(match, report, before))
        write_match_result(match, deals)

    def settle_new_deal(
        self,
        match: Match,
        deals: list[Deal],
        reports: dict[int, DealReport],
        rows: dict[int, DealTally],
        deal: Deal,
    ) -> bool:
        """Settle `deal`, final in the current transaction, by itself: its tally and
        what follows from it, exactly the rows `settle_match` would write. Called (match row
        locked) only when the deals before it are settled already: `deals` are the match's
        deals by number, all regular; `reports` deal id -> final report (this deal's too);
        `rows` deal id -> `DealTally` of deals 1..deal.number - 1, each of its deal's current
        final report. False, having written nothing: this game settles a match whole (its
        `settle_match`, in the settlement task), the default; see `settles_deal_by_deal`."""
        return False

    #: Whether `settle_new_deal` settles a deal by itself (else it is not even asked).
    settles_deal_by_deal: bool = False

    def strings_of_three_filters(self) -> tuple[Q, Q] | None:
        """Which `DealTally` rows of a match count for side A's and side B's
        `strings_of_three` (the union tie-break; Gou Ji's 串三户), as filters the union
        standings count in the database; None for a game without."""
        return None

    def strings_of_three_label(self, event: Event) -> str:
        """The name of the union column `strings_of_three_filters` counts, in the page's
        language (Gou Ji's 串三户, or 串四户 at an eight-seat table)."""
        return _("串三户")

    def standings_rows(self, event: Event, rounds: list[Round], scope: str) -> list[JSONObject]:
        """The player standings rows after the last of `rounds` (a StandingsSnapshot's rows)."""
        raise NotImplementedError

    def head_rival_seat(self, seat: int, table_size: int) -> int | None:
        """The seat that faces `seat` as its head rival (对头) at a table of `table_size` seats,
        in a game that has one: a player's card lists the head rivals met
        (seasons/selectors.py)."""
        return None

    @property
    def player_points_column(self) -> tuple[str, Any]:
        """(row key, title) of the points a player standings row is ranked by, where a page
        has room for one figure only (the hall's screen): the first numeric column."""
        return next(
            ((key, title) for key, title, numeric in self.player_columns if numeric), ("", "")
        )

    def results_table(
        self, event: Event, matches: Any, tallies: dict[int, Any]
    ) -> tuple[list[str], list[list[Any]]]:
        """The export's result sheet: header and one row per tallied deal."""
        raise NotImplementedError

    # --- the draw ---------------------------------------------------------------------------
    #: False: the shared draw seats the round (`matches.draw.union_tables`: two unions a table,
    #: paired by the stage's format, or an individual field drawn into unions). True: the game
    #: seats its own tables (`draw_round`, `reflag_tables`), writing them with
    #: `matches.kernel.draw_rows`; the draw service calls it with the round's field.
    seats_own_tables: bool = False

    def draw_round(self, round_: Round, field: list[Any]) -> None:
        """Seat the draft round `round_` (tables, matches, seats) from `field`, the round's
        registrations in seed order (a game with `seats_own_tables`)."""
        raise NotImplementedError

    def reflag_tables(self, round_: Round, table_ids: set[int], field: list[Any]) -> None:
        """Flags of tables an organiser changed by hand, and the round's quality again (a game
        with `seats_own_tables`)."""
        raise NotImplementedError

    def table_is_full(self, event: Event, seat_numbers: list[int]) -> bool:
        """Whether a table seated on these seat numbers may play."""
        raise NotImplementedError

    def table_shape(self, event: Event) -> TableShape:
        """The seats of a table at `event` and the side each belongs to, for a game whose
        tables seat two unions (the shared draw, entries, table cards and score sheets ask it:
        how many seats, how many players a union holds, which seats are union A's)."""
        raise NotImplementedError

    def seat_problems(self, match: Match, seats: list[Any]) -> list[str]:
        """The game's own rules on who sits where at `match`'s table (its `TableSeat` rows),
        as messages for the organiser; empty when the seating is fine. Called before a round
        is published and after a draft is edited by hand."""
        return []

    # --- pages ------------------------------------------------------------------------------
    #: the referee's result form: an object with `blank`, `from_post`, `from_report`,
    #: `context` and `templates` (see `matches/views/referee/table.py`)
    result_form: Any = None
    #: the readable paper score sheet (docs/scoresheets.md), None for a game without one: an
    #: object with `magic` (the corner codes' first word), `seats(event, table)`, `boxes(key)`
    #: (every digit box, `matches.paper.layout.Box`), `rows(reading)` (a row per deal, each
    #: with `number`, `unsure` and `blank`) and `row_json(reading, row)` (what the result form's
    #: `from_sheet` takes), `draw(pen, key, deals_per_match)` (its part of the page),
    #: `seat_line(seat)`, `signers(match)`, `blank_seat_lines(key)`, `box_label(name)`, and
    #: `desk` (what the desk's stack types its boxes with: `matches/kernel/games/sheet_desk.py`,
    #: None for none). The shared printer, service and pages ask it and never the game's name
    #: (matches/draw/sheet_printing.py, matches/sheets/, matches/views/organiser/sheet_stack.py).
    score_sheet: Any = None
    #: The game's rule messages (code -> lazy zh-hans text) and rule names (matches/games/<game>/
    #: messages.py): `message(code)` renders one in the active language.
    messages: Mapping[str, Any] = {}
    rule_names: Mapping[str, Any] = {}

    def message(self, code: str, params: JSONObject | None = None, default: str = "") -> str:
        """The message of an engine code in the active language, its numbers (`params`: seats,
        places, burn numbers) filled in; `default` for a code the catalogue lacks."""
        text = self.messages.get(code or "")
        return fill(str(text), params) if text is not None else default

    def describe_error(self, error: JSONObject) -> str:
        return describe_error(self.messages, error)

    def describe_errors(self, errors: list[JSONObject]) -> list[JSONObject]:
        """The engine's errors for a person: `message` in the active language, the engine's own
        (English) text kept as `engine_message`."""
        return [
            {
                **e,
                "message": self.describe_error(e) or e.get("message", ""),
                "engine_message": e.get("message", ""),
            }
            for e in errors
        ]

    def public_table(
        self, event: Event, round_: Round, match: Match | None, read: PublicTable
    ) -> tuple[str, str, JSONObject]:
        """The public table page: (page template, live fragment template, its context)."""
        raise NotImplementedError

    def public_player(
        self, event: Event, player: Any, seats: list[PlayedSeat]
    ) -> tuple[str, JSONObject]:
        """A player's public page: (template, context) from their seats in visible rounds."""
        raise NotImplementedError

    def public_event_json(self, event: Event) -> JSONObject:
        """Game settings the public event API adds (e.g. Giog's points per place)."""
        return {}

    def public_table_json(self, row: JSONObject, visible: bool) -> JSONObject:
        """One table of the public pairings API, from a `selectors.round_tables` row."""
        raise NotImplementedError

    # --- the deal viewer --------------------------------------------------------------------
    #: True: `deal_viewer` steps through the game's play logs (pages show a link to it)
    has_deal_viewer: bool = False

    def deal_viewer(
        self,
        event: Event,
        play_log: Any,
        summary: Any = None,
        seat_names: Mapping[int, str] | None = None,
    ) -> JSONObject | None:
        """A play log step by step for the viewer page: the game's `play_log_steps` and `json`,
        what the page's script reads of them (`viewer.viewer_json`). None when the game has no
        viewer or the log cannot be read."""
        found = self.play_log_steps(event, play_log, summary, seat_names)
        if found is not None:
            found["json"] = viewer_json(found)
        return found

    def play_log_steps(
        self,
        event: Event,
        play_log: Any,
        summary: Any = None,
        seat_names: Mapping[int, str] | None = None,
    ) -> JSONObject | None:
        """The game's wording of a play log step by step, in the page's language (see
        `matches/kernel/games/viewer.py` for a step's fields): `steps`, `labels` and `kinds` of
        the cards, `table_title`, `legend`, `count_text`, `disagreement` (the first step where
        the log and `summary` disagree, or None) and its `disagreement_text`, `error` (an
        illegal action) and `complete`. None when the game has no viewer or the log cannot be
        read."""
        return None

    def live_play(
        self, event: Event, setup: JSONObject, actions: list[JSONObject], *, legal: bool = False
    ) -> JSONObject | None:
        """Where a deal played live stands after `actions` (its hands and start in `setup`):
        `error` (the first action refused: `action` index, `rule`, `code`, `message`; or None),
        `accepted` (how many actions stand), `complete`, `turn`, `finish`, `places`, `points`,
        `burns`, `left` and `hands` per seat, `record` (the play log of the accepted actions),
        and with `legal` the actions the engine accepts now. None when the game has no live
        play."""
        return None
