"""What the public may read: one rule, asked by every public reader (the public pages, the
projector, the games' public pages, the public API, the results API for anyone who is not the
table's own people, the deal viewer) and by the public version stamps (`matches.public.stamps`),
so an ETag moves only when something the public may read moved.

The rule is a chain, each step holding back at least what the one before holds back:

- the event: only a published event exists for the public;
- the draw of a round (its tables, unions, seats): a published or closed round, as the event's
  `release_draw` allows (at once, after the round closes, at the end of the event);
- its results (deals, scores, table states, forfeits): only when its draw is public, as
  `release_results` allows, and a silent round's only once the event has ended;
- its standings: only when its results are public (a table of standings gives the results
  away), as `release_standings` allows.

Written on events, rounds and their states only (never on a match's unions), so a change to how
a table's sides are stored does not touch it.
"""

from __future__ import annotations

from django.http import Http404

from matches.models import Event, Round, StandingsSnapshot
from matches.store.statements import public_event

VISIBLE_ROUND_STATES = (Round.State.PUBLISHED, Round.State.CLOSED)


def public_events():
    """Published, not archived (an archived event is off every public page until restored)."""
    return Event.objects.filter(published=True, archived_at__isnull=True)


def public_event_or_none(event_id: int) -> Event | None:
    """The event as a public request reads it: `public_events()` in its precompiled statement,
    and its rounds then read once for the whole request (`_rounds`), however many of the rule's
    steps the page asks."""
    event = public_event(event_id)
    if event is not None:
        event._rounds_once = True  # type: ignore[attr-defined]
    return event


def public_event_or_404(event_id: int) -> Event:
    event = public_event_or_none(event_id)
    if event is None:
        raise Http404("no such event")
    return event


def _released_states(event: Event, release: str) -> tuple:
    """The round states whose draw/results/standings `release` lets the public see: at once
    (published or closed), after the round closes, or only once the event has ended (then
    every visible round). Empty: nothing yet."""
    if release == Event.Release.AT_END:
        return VISIBLE_ROUND_STATES if event.concluded_at else ()
    if release == Event.Release.AFTER_CLOSE:
        return (Round.State.CLOSED,)
    return VISIBLE_ROUND_STATES


def release_stamp(event: Event) -> tuple:
    """What of the release settings the public pages depend on (part of their version)."""
    return (event.release_draw, event.release_results, event.release_standings, event.concluded_at)


# --- one round ------------------------------------------------------------------------------------


def draw_visible(round_: Round) -> bool:
    """Whether the public sees the round's tables, unions and seats."""
    event = round_.event
    return event.published and round_.state in _released_states(event, event.release_draw)


def results_visible(round_: Round) -> bool:
    """Whether the public sees the round's results (deals, scores, table states)."""
    event = round_.event
    if not draw_visible(round_) or round_.state not in _released_states(
        event, event.release_results
    ):
        return False
    return not round_.silent or event.concluded_at is not None


def standings_visible(round_: Round) -> bool:
    """Whether the public sees the standings after this round."""
    event = round_.event
    return results_visible(round_) and round_.state in _released_states(
        event, event.release_standings
    )


# --- an event's rounds ----------------------------------------------------------------------------


def _rounds(event: Event) -> list[Round]:
    """The event's rounds with their stages. An event loaded for one public request
    (`public_event_or_404`) keeps them for that request: the draw, results and standings steps
    of the rule and the version stamps read them once, not three times. Any other
    event object reads them afresh, so a service that changes a round and asks again sees the
    change."""
    memo = getattr(event, "_rounds_memo", None)
    if memo is not None:
        return memo
    rounds = list(event.rounds.select_related("stage").order_by("number"))
    for round_ in rounds:
        round_.event = event  # the same row: no query per round
    if getattr(event, "_rounds_once", False):
        event._rounds_memo = rounds  # type: ignore[attr-defined]
    return rounds


def visible_rounds(event: Event):
    """The rounds whose draw the public sees, first round first."""
    states = _released_states(event, event.release_draw)
    if not event.published or not states:
        return event.rounds.none()
    return event.rounds.filter(state__in=states).select_related("stage").order_by("number")


def visible_round_list(event: Event) -> list[Round]:
    """`visible_rounds` as a list, from the rounds a public request has read already
    (`_rounds`): no query of its own there."""
    return [r for r in _rounds(event) if draw_visible(r)]


def visible_round_or_404(event: Event, number: int) -> Round:
    round_ = visible_rounds(event).filter(number=number).first()
    if round_ is None:
        raise Http404("no such round")
    round_.event = event
    return round_


def results_visible_round_ids(event: Event) -> list[int]:
    """The rounds whose results the public sees."""
    return [r.pk for r in _rounds(event) if results_visible(r)]


def standings_visible_round_ids(event: Event) -> list[int]:
    """The rounds whose standings the public sees."""
    return [r.pk for r in _rounds(event) if standings_visible(r)]


def visible_snapshots(event: Event, kind: str, scope: str = "event"):
    """The standings snapshots the public may see (`standings_visible`)."""
    return StandingsSnapshot.objects.filter(
        event=event, kind=kind, scope=scope, round__in=standings_visible_round_ids(event)
    ).select_related("round", "stage")


def public_snapshot(event: Event, kind: str, scope: str = "event", round_number: int | None = None):
    """The standings snapshot the public may see: the latest visible one by default."""
    snapshots = visible_snapshots(event, kind, scope).order_by("-round__number")
    if round_number is not None:
        snapshots = snapshots.filter(round__number=round_number)
    return snapshots.first()


# --- the results API: what a reader who is not the table's own people sees ------------------------


def table_visibility(table) -> str:
    """For the public: "none" (the table is not public), "draw" (its seats and unions, no
    results) or "results"."""
    round_ = table.round
    if not draw_visible(round_):
        return "none"
    return "results" if results_visible(round_) else "draw"
