"""The deal viewer at the table: a report's play log step by step, for the table's referee."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _

from matches import selectors
from matches.views.deal_viewer import render_viewer
from matches.views.referee.access import Access, at_table, seats_of


@at_table()
def deal_viewer(request, access: Access, report_id: int):
    """A report's play log step by step: only a report of the table the link or account opens."""
    report = selectors.viewer_report(report_id, deal__match__table=access.table)
    if report is None:
        raise Http404
    names = {s["seat"]: s["player"] for s in seats_of(access.table)}
    title = _("第%(n)s桌") % {"n": access.table.number}
    return render_viewer(request, report, names, back=access.url("table"), title=title)
