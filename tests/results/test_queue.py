"""The organiser's queue (issue 16): pending, disputed and stale reports of a round, one-click
accept, uphold, and a decide form that starts from the reported result."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from matches.models import DealReport
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report

from .conftest import SUMMARY

pytestmark = pytest.mark.django_db


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def queue_url(setup, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/manage/events/{setup.event.pk}/results/queue/" + (f"?{query}" if query else "")


def report(setup, match=None, key=""):
    deal = deal_for(match or setup.match, 1)
    return submit_report(deal, SUMMARY, None, Actor(user=setup.organiser), key)[0]


@pytest.mark.tables(2)
def test_the_queue_lists_pending_disputed_and_stale_reports_with_the_reason(setup):
    pending = report(setup)
    disputed = report(setup, setup.match_at(2))
    confirm_report(disputed, Actor(user=setup.organiser), False, "第3名不对", reason="finish")
    DealReport.objects.filter(pk=pending.pk).update(
        created_at=pending.created_at - datetime.timedelta(minutes=25)
    )
    html = logged_in(setup.organiser).get(queue_url(setup)).content.decode()
    assert f'data-report="{pending.pk}"' in html and f'data-report="{disputed.pk}"' in html
    assert "已等 25 分钟" in html  # stale: more than 10 minutes
    assert "出完顺序" in html and "第3名不对" in html
    # The stale threshold is the organiser's: at 30 minutes nothing is stale.
    html = logged_in(setup.organiser).get(queue_url(setup, stale=30)).content.decode()
    assert "已等" not in html
    # Only the event's organisers.
    assert logged_in(setup.referee).get(queue_url(setup)).status_code == 403


@pytest.mark.tables(2)
def test_one_click_accept_makes_a_pending_report_final(setup):
    pending = report(setup)
    client = logged_in(setup.organiser)
    response = client.post(f"/manage/events/{setup.event.pk}/results/reports/{pending.pk}/decide")
    assert response.status_code == 302 and response["Location"].endswith("/results/queue/")
    pending.refresh_from_db()
    assert pending.state == "final"
    assert pending.confirmations.get().role == "organiser"
    assert "没有待处理的成绩" in client.get(queue_url(setup)).content.decode()
    # Nobody else decides.
    other = report(setup, setup.match_at(2))
    logged_in(setup.captain_b).post(
        f"/manage/events/{setup.event.pk}/results/reports/{other.pk}/decide"
    )
    other.refresh_from_db()
    assert other.state == "pending"


def test_uphold_decides_a_dispute_and_unblocks_the_table_at_once(setup):
    disputed = report(setup)
    confirm_report(disputed, Actor(user=setup.captain_b), False, reason="burn")
    link = f"/ref/{setup.link.token}/"
    assert 'id="deal-form"' not in Client().get(link).content.decode()
    logged_in(setup.organiser).post(
        f"/manage/events/{setup.event.pk}/results/reports/{disputed.pk}/decide"
    )
    disputed.refresh_from_db()
    assert disputed.state == "final"
    page = Client().get(link).content.decode()
    assert 'id="deal-form"' in page and "第2局" in page.replace(" ", "")


def test_the_decide_form_starts_from_the_reported_result_and_shows_the_reason(setup):
    disputed = report(setup)
    confirm_report(disputed, Actor(user=setup.captain_b), False, "没开点", reason="points")
    url = f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"
    html = logged_in(setup.organiser).get(url).content.decode()
    assert 'value="1,2,3,4,5,6"' in html  # the reported finishing order, ready to edit
    assert "开点" in html and "没开点" in html and 'id="uphold"' in html
    # Deciding with a change: a correction, the disputed report superseded, the table free.
    logged_in(setup.organiser).post(
        url, {"finish": "1,3,5,2,4,6", "reason": "裁决", "idempotency_key": "decide"}
    )
    disputed.refresh_from_db()
    assert disputed.state == "superseded"
    assert DealReport.objects.final().get().kind == "correction"
    # The audit keeps the reason.
    history = (
        logged_in(setup.organiser)
        .get(f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/")
        .content.decode()
    )
    assert "异议原因" in history and "开点" in history and "没开点" in history


def test_the_unions_private_page_shows_the_pin_to_its_captain_and_organisers_reset_it(setup):
    url = f"/referee/unions/{setup.union_a.pk}/"
    pin = setup.union_a.captain_pin
    assert len(pin) == 4 and pin.isdigit() and pin != ""
    assert f'id="captain-pin">{pin}<' in logged_in(setup.captain_a).get(url).content.decode()
    assert url in logged_in(setup.captain_a).get("/referee/").content.decode()
    for outsider in (setup.captain_b, setup.referee, setup.outsider):
        assert logged_in(outsider).get(url).status_code == 403
    reset = f"/manage/events/{setup.event.pk}/unions/{setup.union_a.pk}/pin"
    logged_in(setup.captain_a).post(reset)
    setup.union_a.refresh_from_db()
    assert setup.union_a.captain_pin == pin  # a captain cannot reset it
    for _ in range(5):  # a new random PIN (five tries: 1 in 9000 to draw the same one each time)
        logged_in(setup.organiser).post(reset)
        setup.union_a.refresh_from_db()
        if setup.union_a.captain_pin != pin:
            break
    assert setup.union_a.captain_pin != pin


def test_each_state_has_one_wording_on_every_page_and_in_the_api(setup):
    """Pending and disputed read the same on the phone, the organiser's pages and the API."""
    from rest_framework.test import APIClient

    pending = report(setup)
    words = "已提交，等待确认"
    link = Client().get(f"/ref/{setup.link.token}/").content.decode()
    organiser = logged_in(setup.organiser)
    table = organiser.get(
        f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/"
    ).content.decode()
    overview = organiser.get(f"/manage/events/{setup.event.pk}/results/").content.decode()
    queue = organiser.get(queue_url(setup)).content.decode()
    for page in (link, table, overview, queue):
        assert words in page
    api = APIClient()
    api.force_authenticate(setup.organiser)
    body = api.get(f"/api/v1/reports/{pending.pk}", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["report"]["state"] == "pending"
    assert body["report"]["state_label"] == "Submitted, waiting for confirmation"
    table_json = api.get(f"/api/v1/tables/{setup.table.pk}", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert table_json["state"] == "reported" and table_json["state_label"] == words

    confirm_report(pending, Actor(user=setup.captain_b), False, "不对", reason="score")
    disputed = "有争议，等待组织者裁决"
    link = Client().get(f"/ref/{setup.link.token}/").content.decode()
    queue = organiser.get(queue_url(setup)).content.decode()
    table = organiser.get(
        f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/"
    ).content.decode()
    for page in (link, queue, table):
        assert disputed in page
