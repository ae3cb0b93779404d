"""The organiser's feature tables of a round (docs/live-tables.md): which tables are shown live,
behind what delay, with all hands or only the cards played; each one's operator link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches.events import features
from matches.models import FeatureTable, Round, Table
from matches.models.live import DEFAULT_DELAY_MINUTES, MAX_DELAY_MINUTES
from matches.views.organiser.access import posted_pk, running_event


def _round(event, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event"), event=event, number=number)


@login_required
@require_http_methods(["GET", "POST"])
def features_page(request, event_id: int, number: int):
    """GET: the round's tables, the feature ones with their delay, what spectators see and the
    operator's link. POST: mark a table (or change it)."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    error, status = "", 200
    if request.method == "POST":
        table = get_object_or_404(Table, pk=posted_pk(request, "table"), round=round_)
        try:
            features.feature_table(
                table, request.POST.get("delay"), request.POST.get("shows"), request.user
            )
        except features.FeatureRefused as refused:
            error, status = str(refused), 400
        else:
            messages.success(request, _("第 %(n)s 桌已设为直播桌") % {"n": table.number})
            return redirect("manage:features", event.pk, round_.number)
    featured = features.round_features(round_)
    tables = [
        {"table": table, "feature": featured.get(table.pk)}
        for table in Table.objects.filter(round=round_)
        .select_related("match")
        .prefetch_related("match__sides__union")
        .order_by("number")
    ]
    return render(
        request,
        "manage/features.html",
        {
            "event": event,
            "round": round_,
            "tables": tables,
            "error": error,
            "default_delay": DEFAULT_DELAY_MINUTES,
            "most": MAX_DELAY_MINUTES,
            "shows": FeatureTable.Shows.choices,
        },
        status=status,
    )


@login_required
@require_POST
def feature_remove(request, event_id: int, number: int, table: int):
    event = running_event(request, event_id)
    round_ = _round(event, number)
    feature = get_object_or_404(FeatureTable, table__round=round_, table__number=table)
    try:
        features.unfeature(feature)
    except features.FeatureRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("第 %(n)s 桌不再直播") % {"n": table})
    return redirect("manage:features", event.pk, round_.number)
