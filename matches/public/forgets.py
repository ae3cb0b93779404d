"""Which write makes which public copy stale: the one map (docs/public.md, "who forgets it").

Each model whose rows the public side keeps something of names the layers of
`matches.public.stamps` its change makes stale (`PAGES`, `STANDINGS`, `FIND`, `FILES`). Two
readers, so the rule is written once:

- on the box, one generic receiver per model with `receiver=True` (`matches.receivers`,
  connected at start-up) forgets them on every save and delete;
- on the hall box's mirror, which gets no signals, a trigger per model of the map
  (`hall.publication.trigger_sql`) tells the listener (`hall.listener`) which table changed,
  and it forgets the same layers (the standings files written again rather than removed).

A model with `receiver=False` is forgotten on the box by the code that writes it (find's index
functions write the search terms and forget `FIND`); the mirror only sees its rows arrive.
tests/public/test_forgets.py checks docs/public.md against this map; tests/hall checks the
triggers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Model

from matches.models import Round
from matches.public.stamps import EVERYTHING, FILES, FIND, PAGES, STANDINGS


@dataclass(frozen=True)
class Stale:
    """What a model's change makes stale, and how to find the row's event."""

    layers: frozenset[str]
    # The path from the row to its event id ("match__round__event_id"), followed through the
    # relations already loaded and else in one query; or a function of the row that answers
    # None when the row concerns no public copy.
    event: str | Callable[[Model], int | None] = "event_id"
    # The path to the row's match, followed through loaded relations only (never a query):
    # the staff pages of that table hear of the change at once.
    match: str = ""
    # A save that names its fields (`update_fields`) and none of these forgets nothing: a
    # check-in does not move find my table's answers. None: every save.
    fields: frozenset[str] | None = None
    # Deletes too. A row deleted only with its round (a seat, a log line) is left out: its
    # round's own delete forgets, and a post_delete receiver would make Django fetch every
    # such row of a deleted round to send it.
    deletes: bool = True
    # False: the box's own writer of the rows forgets (see above); only the mirror reacts to
    # the rows.
    receiver: bool = True


def _public_seat_event(seat) -> int | None:
    """A seat of a round the public may see (two players exchanged, a seat given): the answers
    of find my table name it. A draft's seats are not public; its publication moves the count."""
    round_ = seat._state.fields_cache.get("round")
    if round_ is None:
        round_ = Round.objects.filter(pk=seat.round_id).only("event_id", "state").first()
    if round_ is None or round_.state == Round.State.DRAFT:
        return None
    return round_.event_id


MAP: dict[str, Stale] = {
    # The event's own row: its names, dates, release settings, publication.
    "matches.Event": Stale(EVERYTHING, event="pk"),
    # A round published, closed, reopened, taken back: its draw, results and standings.
    "matches.Round": Stale(EVERYTHING),
    # A stage's qualifiers and breaks show on the standings page nginx serves.
    "matches.Stage": Stale(frozenset({FILES})),
    # Reports and tallies move the pages only; the standings move with their snapshots.
    "matches.DealReport": Stale(
        frozenset({PAGES}), event="deal__match__round__event_id", match="deal__match_id"
    ),
    "matches.DealTally": Stale(
        frozenset({PAGES}), event="match__round__event_id", match="match_id"
    ),
    "matches.StandingsSnapshot": Stale(frozenset({PAGES, STANDINGS})),
    # An entry's number shows in find my table's answers.
    "matches.Registration": Stale(frozenset({FIND}), fields=frozenset({"seed", "union", "player"})),
    # A zone's name shows in the answers (a table's place in the hall).
    "matches.RefereeZone": Stale(frozenset({FIND})),
    # Every edit of a round is logged (a late arrival or leaving, a swap, a seat given to the
    # player who sat out, written by queryset updates too): the log line tells find.
    "matches.RoundLog": Stale(frozenset({FIND}), deletes=False),
    "matches.TableSeat": Stale(frozenset({FIND}), event=_public_seat_event, deletes=False),
    # Written by find's index functions on the box, which forget FIND themselves.
    "matches.Union": Stale(frozenset({FIND}), receiver=False),
    "matches.UnionMember": Stale(frozenset({FIND}), receiver=False),
    "matches.SearchTerm": Stale(frozenset({FIND}), receiver=False),
    # Heard of on the mirror for the live notices only (`notify.check`: a table's own channel
    # by the match, the event's by the round): no layer keeps them. On the box the services
    # tell the live notices themselves.
    "matches.Match": Stale(frozenset(), receiver=False),
    "matches.RoundClock": Stale(frozenset(), receiver=False),
}


def layers_of(labels) -> set[str]:
    """The layers the change of these tables (model labels) makes stale."""
    found: set[str] = set()
    for label in labels:
        stale = MAP.get(label)
        if stale is not None:
            found |= stale.layers
    return found


def _follow(row, path: str, query: bool = True):
    """The value at `path` from `row`, through relations already loaded; else, if `query`,
    read in one query from the first relation's row; else None."""
    *relations, attr = path.split("__")
    current = row
    for name in relations:
        cache = current._state.fields_cache
        if name not in cache:
            break
        current = cache[name]
    else:
        return getattr(current, attr)
    if not query:
        return None
    first = row._meta.get_field(relations[0])
    key = getattr(row, first.attname)
    if key is None:
        return None
    rest = "__".join([*relations[1:], attr])
    return first.related_model._default_manager.filter(pk=key).values_list(rest, flat=True).first()


def event_of(stale: Stale, row) -> int | None:
    if callable(stale.event):
        return stale.event(row)
    return _follow(row, stale.event)


def match_of(stale: Stale, row) -> int | None:
    return _follow(row, stale.match, query=False) if stale.match else None


def concerns(stale: Stale, update_fields) -> bool:
    """Whether a save naming `update_fields` (None: all) makes the layers stale."""
    return stale.fields is None or update_fields is None or bool(stale.fields & set(update_fields))
