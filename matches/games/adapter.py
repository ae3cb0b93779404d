"""The one small interface between the shared tournament code and a game.

Every game folder (`matches/games/<game>/`) has a pure engine (`engine/`, never imports Django)
and an adapter, a subclass of `GameAdapter`, registered in `matches/games/registry.py`. The
shared services, views, API and exports call the adapter of the event's game
(`adapter_for(event)`); they never branch on a game's name. What the adapter answers:

- words and shape: its name and label, whether a table is two unions of three seated
  alternately (`has_unions`), which entry types it allows, what a deal is called;
- results: how a report is checked (`check_report`), and whether deals of a match follow on
  from one another (`deals_follow_on`: R35 tributes, R40 streaks);
- settlement and standings: tallies and the match result (`settle_match`), player standings
  rows (`standings_rows`), the result sheet of an export (`results_table`);
- the draw: `draw_round`, re-flagging tables after a hand swap, what a full table is;
- pages: the referee's result form (`result_form`) and the public table's rows;
- the deal viewer: a play log step by step (`deal_viewer`), or None for a game without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _


@dataclass(frozen=True)
class DemoPlan:
    """A game's demo event for the shared demo builder (`matches/demo/builder.py`)."""

    name: str
    #: the Event's other fields: venue, dates, entry type, deals, confirmation, settings
    event: dict
    #: unions of three (a team event) or players entered
    entrants: int
    #: rounds played and closed before the live round
    closed_rounds: int
    planned_rounds: int
    seed: int
    stage_name: str = "瑞士制"


@dataclass(frozen=True)
class PublicTable:
    """What the public table page read for the game (`public_table`): seat number -> seat,
    deal id -> tally and the numbers of the deals with a play log (both empty while the
    round's results are hidden)."""

    seats: dict
    visible: bool
    tallies: dict = field(default_factory=dict)
    logged: set = field(default_factory=set)


@dataclass(frozen=True)
class PlayedSeat:
    """A player's seat in a visible round for `public_player`, with its table's tallies (deal 1
    first; empty while the round's results are hidden)."""

    seat: Any
    visible: bool
    tallies: list = field(default_factory=list)


class _Numbers(dict):
    """A message's numbers; one an engine call did not give shows as "?" (never a crash)."""

    def __missing__(self, key):
        return "?"


def fill(template: str, params: dict | None) -> str:
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


def describe_error(messages: dict, error: dict) -> str:
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
    #: the game's name as people read it (lazy translation)
    label: Any = ""
    #: True: a table is two unions of three, seated alternately (sides A and B); False: players
    #: sit as individuals and a match is just the table
    has_unions: bool = True
    #: Event.EntryType values the game allows
    entry_types: tuple[str, ...] = ("team", "individual")
    #: the player standings columns after rank and name: (row key, title, numeric)
    player_columns: tuple = ()
    #: the same for the standings export: (row key, title)
    export_player_columns: tuple = ()
    #: the site's title on the game's pages (lazy translation)
    site_title: Any = ""
    #: a short template explaining the game's own standings columns, or None
    column_note_template: str | None = None
    #: dotted path of the organiser's form for the game's settings (the rule set)
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

    def demo_report(self, match, number: int, rng) -> tuple[dict | None, dict | None]:
        """(summary, play log) of a random deal `number` at `match`'s table, drawn from `rng`
        (the demo's and the tests' random results); the results service checks it."""
        raise NotImplementedError

    # --- settings ---------------------------------------------------------------------------
    def validate_event(self, event) -> dict:
        """Field name -> error message for settings the game refuses (empty: fine)."""
        return {}

    # --- results ----------------------------------------------------------------------------
    def check_report(self, match, number: int, summary, play_log):
        """The engine's reading of a report for deal `number` (a `Checked`); raises
        `ResultError` when a document cannot be read. Nothing is stored."""
        raise NotImplementedError

    # --- settlement and standings -----------------------------------------------------------
    def settle_match(self, match) -> None:
        """Write every deal tally of the match and its result from the final reports."""
        raise NotImplementedError

    def standings_rows(self, event, rounds: list, scope: str) -> list[dict]:
        """The player standings rows after the last of `rounds` (a StandingsSnapshot's rows)."""
        raise NotImplementedError

    def results_table(self, event, matches, tallies: dict) -> tuple[list[str], list[list]]:
        """The export's result sheet: header and one row per tallied deal."""
        raise NotImplementedError

    # --- the draw ---------------------------------------------------------------------------
    #: False: the shared draw seats the round (`matches.draw.service`: two unions a table,
    #: paired by the stage's format, or an individual field drawn into unions). True: the game
    #: seats its own tables (`draw_round`, `reflag_tables`), writing them with
    #: `matches.kernel.draw_rows`; the draw service calls it with the round's field.
    seats_own_tables: bool = False

    def draw_round(self, round_, field: list) -> None:
        """Seat the draft round `round_` (tables, matches, seats) from `field`, the round's
        registrations in seed order (a game with `seats_own_tables`)."""
        raise NotImplementedError

    def reflag_tables(self, round_, table_ids: set, field: list) -> None:
        """Flags of tables an organiser changed by hand, and the round's quality again (a game
        with `seats_own_tables`)."""
        raise NotImplementedError

    def table_is_full(self, seat_numbers: list[int]) -> bool:
        """Whether a table seated on these seat numbers may play."""
        raise NotImplementedError

    # --- pages ------------------------------------------------------------------------------
    #: the referee's result form: an object with `blank`, `from_post`, `from_report`,
    #: `context` and `templates` (see `matches/views/referee.py`)
    result_form: Any = None
    #: The game's rule messages (code -> lazy zh-hans text) and rule names (matches/games/<game>/
    #: messages.py): `message(code)` renders one in the active language.
    messages: dict = {}
    rule_names: dict = {}

    def message(self, code: str, params: dict | None = None, default: str = "") -> str:
        """The message of an engine code in the active language, its numbers (`params`: seats,
        places, burn numbers) filled in; `default` for a code the catalogue lacks."""
        text = self.messages.get(code or "")
        return fill(str(text), params) if text is not None else default

    def describe_error(self, error: dict) -> str:
        return describe_error(self.messages, error)

    def describe_errors(self, errors: list[dict]) -> list[dict]:
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

    def public_table(self, event, round_, match, read: PublicTable) -> tuple[str, str, dict]:
        """The public table page: (page template, live fragment template, its context)."""
        raise NotImplementedError

    def public_player(self, event, player, seats: list[PlayedSeat]) -> tuple[str, dict]:
        """A player's public page: (template, context) from their seats in visible rounds."""
        raise NotImplementedError

    def public_event_json(self, event) -> dict:
        """Game settings the public event API adds (e.g. Giog's points per place)."""
        return {}

    def public_table_json(self, row: dict, visible: bool) -> dict:
        """One table of the public pairings API, from a `selectors.round_tables` row."""
        raise NotImplementedError

    # --- the deal viewer --------------------------------------------------------------------
    #: True: `deal_viewer` steps through the game's play logs (pages show a link to it)
    has_deal_viewer: bool = False

    def deal_viewer(self, event, play_log, summary=None, seat_names=None) -> dict | None:
        """A play log step by step for the viewer page, in the page's language (see
        `matches/games/viewer.py` for a step's fields): `steps`, `labels` and `kinds` of the
        cards, `table_title`, `legend`, `count_text`, `disagreement` (the first step where the log and
        `summary` disagree, or None) and its `disagreement_text`, `error` (an illegal action),
        `complete`, and `json` (what the page's script reads). None when the game has no
        viewer or the log cannot be read."""
        return None
