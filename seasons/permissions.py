"""Who may do what in the seasons app: a series is its organisers' (who made it, and the
co-organisers they add); merging two player records is for organisers of events: at once on players of
their own events only, otherwise with the consent of each other organiser concerned; a split is
its merger's and every organiser's whose event it touched. A superuser acts on everything (the one rule,
`matches.permissions.is_admin`). The public reads only published series."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from matches.models import Event
from matches.permissions import is_admin
from players.identity import seen_in
from players.models import Player
from seasons.models import MergeRequest, PlayerMerge, Series, SeriesLog
from seasons.selectors import events_of_players

# --- series ------------------------------------------------------------------------------------


def can_manage_series(user, series: Series) -> bool:
    if is_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return series.organisers.filter(pk=user.pk).exists()


def series_managed_by(user) -> QuerySet[Series]:
    if is_admin(user):
        return Series.objects.all()
    if not getattr(user, "is_authenticated", False):
        return Series.objects.none()
    return Series.objects.filter(organisers=user)


def can_restore_series(user, log: SeriesLog) -> bool:
    """A deleted series is made again by whoever deleted it or organised it."""
    if is_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return log.by_id == user.pk or user.pk in log.snapshot.get("organisers", [])


def managed_series(request, series_id: int) -> Series:
    """The organisers' gate: the series, 404 when there is none, 403 when it is not theirs."""
    series = get_object_or_404(Series, pk=series_id)
    if not can_manage_series(request.user, series):
        raise PermissionDenied("not an organiser of this series")
    return series


# --- player records ------------------------------------------------------------------------------


def events_seen_by(user) -> QuerySet[Event]:
    """The events an organiser may see the players of: their own and the public ones."""
    if is_admin(user):
        return Event.objects.all()
    return Event.objects.filter(Q(organisers=user) | Q(published=True, archived_at__isnull=True))


def players_seen_by(user) -> QuerySet[Player]:
    """The records an organiser may look up and choose: players of their own events, of public
    events, or of no event (one only in another organiser's unpublished event is not theirs to
    know of)."""
    if is_admin(user):
        return Player.objects.all()
    return seen_in(events_seen_by(user))


def may_merge(user) -> bool:
    """The merge page: for organisers of events."""
    if is_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return Event.objects.filter(organisers=user).exists()


def organised(user) -> set[int]:
    return set(Event.objects.filter(organisers=user).values_list("pk", flat=True))


def concerned_events(user, kept: Player, merged: Player) -> set[int]:
    """The events of the two records that `user` does not run: a merge rewrites them, so each
    needs the consent of one of its organisers (an empty set: the merge is the user's own)."""
    if is_admin(user):
        return set()
    played = events_of_players([kept.pk, merged.pk])
    return (played[kept.pk] | played[merged.pk]) - organised(user)


def may_merge_players(user, kept: Player, merged: Player) -> bool:
    """An organiser merges at once only records whose every event they run (a record in no
    event counts as theirs). Otherwise `identity.request_merge` asks the other organisers
    (two of another organiser's records pulled into one's own events were merged)."""
    if is_admin(user):
        return True
    return bool(organised(user)) and not concerned_events(user, kept, merged)


def may_request_merge(user, kept: Player, merged: Player) -> bool:
    """A merge that touches other organisers' events may be asked for by an organiser who runs
    an event of one of the two records."""
    played = events_of_players([kept.pk, merged.pk])
    return bool((played[kept.pk] | played[merged.pk]) & organised(user))


def waiting_events(request: MergeRequest) -> set[int]:
    """The events whose consent an open request still needs, worked out now, not when it was
    made: every event of the two records that its requester does not run, less those already
    accepted. An organiser who entered either record since is asked too; an event that no
    longer holds either record is not waited for."""
    merged = request.merged
    if merged is None or request.state != MergeRequest.State.OPEN:
        return set()
    accepted = {a["event"] for a in request.answers if a.get("accepted")}
    return concerned_events(request.by, request.kept, merged) - accepted


def requests_waiting_for(user, event_id: int | None = None) -> list[MergeRequest]:
    """The open merge requests waiting for this organiser's answer (for one of their events,
    or for `event_id` only), worked out as `waiting_events` does, in a few queries for all of
    them: the events list and a dashboard tell the organiser, not only the players page. Each
    has `waiting` set to its events still to answer now."""
    if not getattr(user, "is_authenticated", False):
        return []
    mine = set(Event.objects.values_list("pk", flat=True)) if is_admin(user) else organised(user)
    if event_id is not None:
        mine &= {event_id}
    if not mine:
        return []
    rows = list(
        MergeRequest.objects.filter(state=MergeRequest.State.OPEN, merged__isnull=False)
        .select_related("kept__club", "merged__club", "by")
        .order_by("at", "pk")
    )
    pairs = [(r, r.kept_id, r.merged_id) for r in rows if r.merged_id is not None]
    played = events_of_players(sorted({k for _r, k, _m in pairs} | {m for _r, _k, m in pairs}))
    runs: dict[int, set[int]] = {}
    found = []
    for r, kept, merged in pairs:
        if r.by_id not in runs:
            runs[r.by_id] = organised(r.by)
        accepted = {a["event"] for a in r.answers if a.get("accepted")}
        r.waiting = sorted((played[kept] | played[merged]) - runs[r.by_id] - accepted)
        if set(r.waiting) & mine:
            found.append(r)
    return found


def may_answer(user, request: MergeRequest) -> bool:
    """A merge request is answered by an organiser of an event still waiting for consent."""
    return is_admin(user) or bool(waiting_events(request) & organised(user))


def may_split(user, merge: PlayerMerge) -> bool:
    """Whoever made the merge, and every organiser of an event it touched: a merge of their
    players made by someone else is always theirs to undo. The events are those of both
    records when the merge was made (`PlayerMerge.touched`): an organiser who links the kept
    record into an event of theirs afterwards gains no say over it."""
    if is_admin(user) or merge.by_id == user.pk:
        return True
    return bool(set(merge.touched) & organised(user))


def merges_visible_to(user) -> list[PlayerMerge]:
    """The merges an organiser made, and those that touched their events (theirs to split)."""
    rows = PlayerMerge.objects.select_related("kept", "by")
    if is_admin(user):
        return list(rows[:200])
    mine = organised(user)
    return [m for m in rows[:200] if m.by_id == user.pk or set(m.touched) & mine]
