"""Who may do what in the seasons app: a series is its organisers' (who made it, and the
co-organisers they add); merging two player records is for organisers of events, on players of
their own events; a split is its merger's. A superuser acts on everything (the one rule,
`matches.permissions.is_admin`). The public reads only published series."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from matches.models import Event
from matches.permissions import is_admin
from players.models import Player
from seasons.models import PlayerMerge, Series, SeriesLog
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


def may_merge(user) -> bool:
    """The merge page: for organisers of events."""
    if is_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return Event.objects.filter(organisers=user).exists()


def may_merge_players(user, kept: Player, merged: Player) -> bool:
    """An organiser merges records of players of their own events (both seen there or one
    of them, the other in no event of another organiser's)."""
    if is_admin(user):
        return True
    mine = set(Event.objects.filter(organisers=user).values_list("pk", flat=True))
    if not mine:
        return False
    played = events_of_players([kept.pk, merged.pk])
    of_kept, of_merged = played[kept.pk], played[merged.pk]
    return (of_kept | of_merged) <= mine or bool((of_kept & mine) and (of_merged & mine))


def may_split(user, merge: PlayerMerge) -> bool:
    return is_admin(user) or merge.by_id == user.pk


def merges_visible_to(user) -> QuerySet[PlayerMerge]:
    rows = PlayerMerge.objects.select_related("kept", "by")
    return rows if is_admin(user) else rows.filter(by=user)
