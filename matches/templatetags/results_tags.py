"""Showing a deal result in words: finishing order with names, points, burns, tributes."""
from __future__ import annotations

from django import template
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from matches.games.gouji.referee_form import BURN_OUTCOME_LABELS, DECLARATION_LABELS

register = template.Library()

TRIBUTE_KINDS = {"suffocation": _("闷贡"), "burn": _("烧贡"), "point": _("点贡"),
                 "place": _("落贡"), "string_three": _("串三户贡")}


def _name(seat_names: dict, seat) -> str:
    player = seat_names.get(seat) or seat_names.get(str(seat))
    label = gettext("%(seat)s号") % {"seat": seat}
    return f"{label} {player}" if player else label


def tribute_rows(tributes, seat_names: dict) -> list[dict]:
    return [{"from": _name(seat_names, t.get("from")), "to": _name(seat_names, t.get("to")),
             "kind": TRIBUTE_KINDS.get(t.get("kind"), t.get("kind")), "cards": t.get("cards")}
            for t in tributes or []]


@register.inclusion_tag("referee/_summary.html")
def deal_summary(report, seat_names):
    summary = report.summary or {}
    names = seat_names or {}
    if summary.get("format") == "giog-outcome/1":
        # A Giog hand: places, pieces won and beheadings (templates/referee/giog/).
        return {"report": report, "giog": True, "verdict": report.verdict or {}}
    return {
        "report": report,
        "finish": [(place, _name(names, seat))
                   for place, seat in enumerate(summary.get("finish") or [], 1)],
        "points": [_name(names, seat) for seat in summary.get("points") or []],
        "declarations": [(_name(names, int(seat)), DECLARATION_LABELS.get(kind, kind))
                         for seat, kind in (summary.get("declarations") or {}).items()],
        "burns": [(_name(names, b.get("burner")), _name(names, b.get("burned")),
                   BURN_OUTCOME_LABELS.get(b.get("outcome"), b.get("outcome")))
                  for b in summary.get("burns") or []],
        "suffocated": [(_name(names, s.get("seat")), _name(names, s.get("by")))
                       for s in summary.get("suffocated") or []],
        "revolution": [_name(names, seat) for seat in summary.get("revolution") or []],
        "union_scores": report.union_scores,
        "tributes": tribute_rows(report.tributes, names),
    }


@register.inclusion_tag("referee/_tributes.html")
def tributes_owed(tributes, seat_names):
    return {"tributes": tribute_rows(tributes, seat_names or {}), "known": tributes is not None}
