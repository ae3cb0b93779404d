"""The organiser's correction form (issue 25, problem 5): seat taps work before the reason is
written, the reason is checked when the correction is submitted, and a correction that changes
nothing is refused (service level, with a code, in both languages) with a pointer to uphold."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from matches.kernel.reports import ResultError
from matches.models import DealReport
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.correct import correct_result, uphold_report
from matches.results.deals import deal_for
from matches.results.messages import refusal
from matches.results.submit import submit_report

from .conftest import SUMMARY

pytestmark = pytest.mark.django_db


def organiser(setup) -> Client:
    client = Client()
    client.force_login(setup.organiser)
    return client


def disputed_report(setup) -> DealReport:
    deal = deal_for(setup.match, 1)
    report = submit_report(deal, SUMMARY, None, Actor(user=setup.organiser), "k")[0]
    confirm_report(report, Actor(user=setup.captain_b), False, "没开点", reason="points")
    return report


def correct_url(setup) -> str:
    return f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"


def test_the_reason_is_not_required_for_taps_only_for_the_submit(setup):
    disputed_report(setup)
    client = organiser(setup)
    html = client.get(correct_url(setup)).content.decode()
    reason = html[html.index('id="reason"') :].split(">", 1)[0]
    assert "required" not in reason  # a browser would block every seat tap otherwise
    # A tap without a reason re-renders the form with the seat taken off the order and back.
    tapped = client.post(
        correct_url(setup) + "?check=1", {"finish": "1,2,3,4,5", "tap": "6"}, HTTP_HX_REQUEST="true"
    )
    assert tapped.status_code == 200 and 'value="1,2,3,4,5,6"' in tapped.content.decode()
    # Submitting without a reason: refused by the submit button, with a link to the field.
    refused = client.post(
        correct_url(setup),
        {"finish": "1,3,5,2,4,6", "idempotency_key": "no-reason"},
        HTTP_HX_REQUEST="true",
    )
    page = refused.content.decode()
    assert 'id="refusal"' in page and "更正成绩须写明原因" in page and 'href="#reason"' in page
    assert DealReport.objects.final().count() == 0


def test_a_correction_equal_to_the_disputed_report_is_refused_with_a_pointer_to_uphold(setup):
    report = disputed_report(setup)
    client = organiser(setup)
    response = client.post(
        correct_url(setup),
        {"finish": "1,2,3,4,5,6", "point_3": "1", "reason": "原报告是错的", "idempotency_key": "x"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert 'data-code="same_as_report"' in page and "维持原报告" in page
    assert 'href="#uphold"' in page and 'id="uphold"' in page
    report.refresh_from_db()
    assert report.state == "disputed" and DealReport.objects.final().count() == 0
    # English page, English refusal.
    english = client.post(
        correct_url(setup),
        {"finish": "1,2,3,4,5,6", "point_3": "1", "reason": "wrong", "idempotency_key": "y"},
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Uphold the report" in english and "same as the report awaiting a decision" in english
    # A real change goes through.
    client.post(
        correct_url(setup),
        {"finish": "1,3,5,2,4,6", "reason": "第3名不对", "idempotency_key": "z"},
    )
    assert DealReport.objects.final().get().kind == "correction"


def test_the_service_refuses_an_unchanged_correction_with_a_code(setup):
    report = disputed_report(setup)
    deal = report.deal
    with pytest.raises(ResultError) as caught:
        correct_result(deal, SUMMARY, None, Actor(user=setup.organiser), "反过来", "a")
    assert caught.value.code == "same_as_report" and caught.value.status == 409
    with translation.override("zh-hans"):
        assert "维持原报告" in refusal(caught.value)
    with translation.override("en"):
        assert "Uphold the report" in refusal(caught.value)
    uphold_report(report, Actor(user=setup.organiser))
    # Equal to the result in force: nothing to correct.
    with pytest.raises(ResultError) as caught:
        correct_result(deal, SUMMARY, None, Actor(user=setup.organiser), "再来", "b")
    assert caught.value.code == "same_as_final"
    with translation.override("en"):
        assert "nothing to correct" in refusal(caught.value)
