"""A report's tributes in words (R55, R35–R42): offset point debts are said beside what is owed,
and a match's last deal prints no "下局进贡" (what it would owe goes to nobody)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from matches.games.gouji.engine.settle import point_offsets
from matches.models import Event
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.builder import EventBuilder

from .conftest import SUMMARY

pytestmark = pytest.mark.django_db

CANCEL = {"preset": "standard", "point_tributes_cancel": True}


def summary_html(report, event) -> str:
    template = Template("{% load results_tags %}{% deal_summary report names %}")
    return template.render(Context({"report": report, "names": {}, "event": event}))


def test_the_pairs_whose_point_debts_offset():
    doc = {**SUMMARY, "rules": CANCEL}
    # Seats 1/4 and 2/5 opened no point: each owes its head rival 1, and the two offset.
    assert point_offsets(doc) == [(1, 4, 1), (2, 5, 1)]
    assert point_offsets({**SUMMARY, "rules": {"preset": "standard"}}) == []
    assert point_offsets({**SUMMARY, "rules": {**CANCEL, "tributes": False}}) == []


def test_offsets_are_said_and_the_last_deal_owes_nobody():
    b = EventBuilder(
        unions=2, deals=2, rules=CANCEL, confirmation=Event.Confirmation.NONE
    ).register()
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    link = b.people.referee_link
    first, _ = submit_report(deal_for(match, 1), dict(SUMMARY), None, Actor(link=link), "d1")
    html = summary_html(first, b.event)
    assert "下局进贡" in html and html.count('class="point-offset"') == 2
    assert "1号 ↔ 4号：点贡相抵 1 张" in html
    last, _ = submit_report(deal_for(match, 2), dict(SUMMARY), None, Actor(link=link), "d2")
    assert last.verdict["tributes"]  # the engine still computes them …
    html = summary_html(last, b.event)
    assert "下局进贡" not in html and "point-offset" not in html  # … but nobody is owed them
