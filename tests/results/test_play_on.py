"""The table plays on while a deal awaits its captains (issue 28): the next deal may be reported
while the one before is pending; the tributes it owes (R35) are written when that one becomes
final, and a streak (R40) it was settled with before then is flagged for the organiser's recheck."""

from __future__ import annotations

import pytest

from matches.kernel.reports import ResultError
from matches.models import Deal, DealReport
from matches.permissions import Actor
from matches.results.correct import recheck_deal, uphold_report
from matches.standings import service as standings

from .conftest import STRING_THREE_A
from .test_service import confirm, submit

pytestmark = pytest.mark.django_db


def both_captains(setup, report):
    assert confirm(setup, report, user=setup.captain_a).state == DealReport.State.PENDING
    return confirm(setup, report)


def test_a_deal_follows_one_that_awaits_its_captains(setup):
    first, _ = submit(setup, 1)
    assert first.state == DealReport.State.PENDING
    second, created = submit(setup, 2, key="d2")
    assert created and second.state == DealReport.State.PENDING
    third, _ = submit(setup, 3, key="d3")  # a chain of pending deals
    assert third.state == DealReport.State.PENDING
    # A retry of deal 2 is a replay, not a second report.
    again, created = submit(setup, 2, key="d2")
    assert again.pk == second.pk and not created


def test_no_deal_follows_a_deal_without_a_report_or_a_disputed_one(setup):
    with pytest.raises(ResultError) as error:
        submit(setup, 2)
    assert error.value.code == "previous_deal_open" and error.value.rule == "R35"
    first, _ = submit(setup, 1)
    confirm(setup, first, agrees=False)  # disputed: the organiser decides deal 1 first
    with pytest.raises(ResultError) as error:
        submit(setup, 2)
    assert error.value.code == "previous_deal_open"
    assert not DealReport.objects.filter(deal__number=2).exists()


def test_the_tribute_ledger_follows_when_the_previous_deal_becomes_final(setup):
    first, _ = submit(setup, 1)
    second, _ = submit(setup, 2, key="d2")
    standings.settle_match(setup.match.pk)
    # Deal 1 awaits its captains: what deal 2 owes is not known yet.
    assert Deal.objects.get(match=setup.match, number=2).tributes_owed is None
    both_captains(setup, first)
    standings.settle_match(setup.match.pk)  # what the Celery computation does on commit
    owed = Deal.objects.get(match=setup.match, number=2).tributes_owed
    assert {"from": 6, "to": 1, "kind": "place", "cards": 2} in owed  # R38, from deal 1
    assert owed == setup.match.deals.get(number=1).tally.detail["tributes"]
    # Deal 2 becomes final in its turn; deal 3 owes its tributes.
    both_captains(setup, second)
    standings.settle_match(setup.match.pk)
    assert Deal.objects.get(match=setup.match, number=3).tributes_owed is not None
    assert not Deal.objects.filter(match=setup.match, needs_recheck=True).exists()


def test_a_streak_settled_before_the_previous_deal_was_final_is_rechecked(setup):
    # Union A strings three in deals 1, 2 and 3: deal 3's amnesty (R40) needs a streak of 2.
    both_captains(setup, submit(setup, 1, summary=STRING_THREE_A)[0])
    second, _ = submit(setup, 2, summary=STRING_THREE_A, key="d2")
    third, _ = submit(setup, 3, summary=STRING_THREE_A, key="d3")
    assert third.summary["string_three_streak"] == 0  # deal 2 was not final yet
    both_captains(setup, third)  # the captains confirm deal 3 first
    standings.settle_match(setup.match.pk)
    assert not Deal.objects.filter(match=setup.match, needs_recheck=True).exists()
    both_captains(setup, second)
    standings.settle_match(setup.match.pk)
    deal3 = Deal.objects.get(match=setup.match, number=3)
    assert deal3.needs_recheck
    assert deal3.tally.detail["streak"] == 2  # the standings count it already
    correction = recheck_deal(deal3, Actor(user=setup.organiser))
    assert correction is not None and correction.summary["string_three_streak"] == 2
    assert correction.replaces_id == third.pk
    standings.settle_match(setup.match.pk)
    deal3.refresh_from_db()
    assert not deal3.needs_recheck


def test_a_streak_reported_after_the_previous_deal_was_final_needs_no_recheck(setup):
    first, _ = submit(setup, 1, summary=STRING_THREE_A)
    both_captains(setup, first)
    second, _ = submit(setup, 2, summary=STRING_THREE_A, key="d2")
    assert second.summary["string_three_streak"] == 1
    both_captains(setup, second)
    standings.settle_match(setup.match.pk)
    assert not Deal.objects.filter(match=setup.match, needs_recheck=True).exists()


def test_uphold_still_needs_the_previous_deal_final(setup):
    submit(setup, 1)
    second, _ = submit(setup, 2, key="d2")
    with pytest.raises(ResultError) as error:
        uphold_report(second, Actor(user=setup.organiser))
    assert error.value.code == "previous_deal_open"
    assert DealReport.objects.get(pk=second.pk).state == DealReport.State.PENDING
