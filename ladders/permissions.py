"""Who may run a 擂台赛 season: its organisers (who made it), and a superuser (the one rule,
`matches.permissions.is_admin`). Any signed-in account may start a season of its own. The
public reads only published seasons (`views.public_ladder`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from ladders.models import LadderSeason
from matches.permissions import is_admin


def can_run_season(user, season: LadderSeason) -> bool:
    if is_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return season.organisers.filter(pk=user.pk).exists()


def seasons_run_by(user) -> QuerySet[LadderSeason]:
    """The seasons on the user's list (and the ones a new season may follow)."""
    if is_admin(user):
        return LadderSeason.objects.all()
    if not getattr(user, "is_authenticated", False):
        return LadderSeason.objects.none()
    return LadderSeason.objects.filter(organisers=user)


def run_season(request, season_id: int) -> LadderSeason:
    """The organiser's gate: the season, 404 when there is none, 403 when it is not theirs."""
    season = get_object_or_404(LadderSeason, pk=season_id)
    if not can_run_season(request.user, season):
        raise PermissionDenied("not an organiser of this ladder")
    return season
