"""The desk's score sheets (docs/scoresheets.md): a round's tables with their photographed
sheets, a photo sent for any of them (it lands on the table's page, filled, to check and
submit), and each photo shown to the event's staff as evidence (disputes, corrections)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from matches.models import Round, SheetPhoto
from matches.views.organiser.access import running_event
from matches.views.organiser.results import _round
from matches.views.referee.sheet import photo_response, photo_rows


@login_required
def desk(request, event_id: int):
    """One line per table of the round: its latest photo's state, an upload, the table's page."""
    event = running_event(request, event_id)
    round_ = _round(event, request)
    tables = []
    if round_ is not None:
        latest: dict[int, SheetPhoto] = {}
        for kept in SheetPhoto.objects.filter(match__round=round_).order_by("uploaded_at", "id"):
            latest[kept.match_id] = kept  # the last one wins
        matches = round_.matches.played().with_sides().select_related("table")
        for match in matches.order_by("table__number"):
            shown = latest.get(match.pk)
            tables.append(
                {
                    "match": match,
                    "table": match.table,
                    "photo": photo_rows(event, [shown])[0] if shown else None,
                    "upload_url": reverse("referee:table-photo", args=[match.table_id]),
                    "page_url": reverse("referee:table-table", args=[match.table_id]),
                }
            )
    return render(
        request,
        "manage/results/sheets.html",
        {
            "event": event,
            "round": round_,
            "rounds": event.rounds.exclude(state=Round.State.DRAFT).order_by("-number"),
            "tables": tables,
        },
    )


@login_required
def photo(request, event_id: int, photo_id: int):
    """A photo of the event's sheets, to its staff only."""
    event = running_event(request, event_id)
    kept = get_object_or_404(SheetPhoto, pk=photo_id, match__round__event=event)
    return photo_response(kept)
