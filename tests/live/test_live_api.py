"""Issue 50, step 2: a digital table sends a feature table's deal over the API, the hands and
then each action, checked by the engine at arrival: in order, out of order, repeated, illegal,
after the end; the completed log becomes the deal's report through the normal result path."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from matches.models import DealReport, LiveAction, LiveDeal
from matches.results import live

pytestmark = pytest.mark.django_db

SETUP = ("hands", "leader", "declarations", "revolution")


def post(client, url, body, token):
    return client.post(
        url,
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Referee {token}",
    )


def urls(feature, number=1):
    args = [feature.table_id, number]
    return reverse("api:live-hands", args=args), reverse("api:live-actions", args=args)


def send_hands(client, feature, record, number=1):
    hands_url, _ = urls(feature, number)
    setup = {key: record[key] for key in SETUP if key in record}
    return post(client, hands_url, setup, feature.operator_link.token)


def test_a_whole_deal_in_order_becomes_the_tables_report(client, featured, deal_record):
    b, feature = featured(delay=0)
    token = feature.operator_link.token
    answer = send_hands(client, feature, deal_record)
    assert answer.status_code == 201 and answer.json()["turn"] == deal_record["leader"]
    _, actions_url = urls(feature)
    for seq, action in enumerate(deal_record["actions"], start=1):
        response = post(client, actions_url, {"seq": seq, **action}, token)
        assert response.status_code == 201, response.content
    body = response.json()
    assert body["complete"] is True and body["finish"] == deal_record["claimed"]["finish"]
    deal = LiveDeal.objects.get()
    assert deal.completed_at is not None and deal.report is not None
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    # Confirmation as the event says: this event asks for one, so the report waits for it.
    assert b.event.confirmation != "none" and report.state == DealReport.State.PENDING
    assert (
        report.via == DealReport.Via.REFEREE_LINK and report.referee_link == feature.operator_link
    )
    assert report.play_log["actions"] == deal_record["actions"]
    assert report.summary["finish"] == deal_record["claimed"]["finish"]
    # After the end: refused with R30, nothing stored.
    after = post(client, actions_url, {"seq": seq + 1, "seat": 1, "pass": True}, token)
    assert after.status_code == 409 and after.json()["error"]["code"] == "deal_over"
    assert after.json()["error"]["rule"] == "R30"
    assert LiveAction.objects.count() == len(deal_record["actions"])


def test_repeated_out_of_order_and_illegal(client, featured, deal_record):
    b, feature = featured()
    token = feature.operator_link.token
    assert send_hands(client, feature, deal_record).status_code == 201
    assert send_hands(client, feature, deal_record).status_code == 200  # the same hands again
    _, actions_url = urls(feature)
    first, second = deal_record["actions"][:2]
    assert post(client, actions_url, {"seq": 1, **first}, token).status_code == 201
    again = post(client, actions_url, {"seq": 1, **first}, token)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["seq"] == 1 and again.json()["accepted"] == 1
    other = post(client, actions_url, {"seq": 1, "seat": first["seat"], "pass": True}, token)
    assert other.status_code == 409 and other.json()["error"]["code"] == "seq_taken"
    early = post(client, actions_url, {"seq": 3, **second}, token)
    assert early.status_code == 409 and early.json()["error"]["code"] == "out_of_order"
    # Illegal: the wrong seat plays out of turn; refused with its rule id, nothing stored.
    wrong_seat = second["seat"] % 6 + 1
    illegal = post(client, actions_url, {"seq": 2, "seat": wrong_seat, "cards": "3"}, token)
    assert illegal.status_code == 422
    error = illegal.json()["error"]
    assert error["rule"].startswith(("R", "D")) and error["code"]
    not_held = post(
        client, actions_url, {"seq": 2, "seat": second["seat"], "cards": "RRRRR"}, token
    )
    assert not_held.status_code == 422 and not_held.json()["error"]["rule"]
    assert LiveAction.objects.count() == 1
    assert post(client, actions_url, {"seq": 2, **second}, token).status_code == 201
    # The hands cannot change once play started.
    changed = {**deal_record, "leader": deal_record["leader"] % 6 + 1}
    assert send_hands(client, feature, changed).status_code == 409


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"seq": 1},
        {"seq": 0, "seat": 1, "pass": True},
        {"seq": "1", "seat": 1, "pass": True},
        {"seq": 1, "seat": 9, "pass": True},
        {"seq": 1, "seat": 1, "cards": "XYZ"},
        {"seq": 1, "seat": 1, "cards": "33", "pass": True},
        {"seq": 1, "seat": 1, "pass": True, "note": "x"},
    ],
)
def test_bad_actions_are_a_clear_error_not_a_500(client, featured, deal_record, body):
    b, feature = featured()
    send_hands(client, feature, deal_record)
    _, actions_url = urls(feature)
    response = post(client, actions_url, body, feature.operator_link.token)
    assert 400 <= response.status_code < 500 and response.json()["error"]["code"]
    assert not LiveAction.objects.exists()


def test_bad_hands_are_refused_with_the_rule(client, featured, deal_record):
    b, feature = featured()
    too_many = {
        **deal_record,
        "hands": {**deal_record["hands"], "1": deal_record["hands"]["1"] + "RRR"},
    }
    response = send_hands(client, feature, too_many)
    assert response.status_code == 422 and response.json()["error"]["rule"] == "R3"
    hands_url, actions_url = urls(feature)
    token = feature.operator_link.token
    assert post(client, hands_url, {"leader": 1}, token).status_code == 400
    no_hands = post(client, actions_url, {"seq": 1, "seat": 1, "pass": True}, token)
    assert no_hands.status_code == 409 and no_hands.json()["error"]["code"] == "no_hands"
    assert not LiveDeal.objects.exists()


def test_only_the_tables_operator(client, featured, deal_record, build):
    b, feature = featured()
    hands_url, actions_url = urls(feature)
    setup = {key: deal_record[key] for key in SETUP if key in deal_record}
    anonymous = client.post(hands_url, data=json.dumps(setup), content_type="application/json")
    assert anonymous.status_code in (401, 403)
    # Another table's referee link of the same event.
    other_table = b.match(b.latest, 2).table
    from matches.models import RefereeLink

    other = RefereeLink.objects.create(table=other_table)
    assert post(client, hands_url, setup, other.token).status_code == 403
    # A table that is not featured.
    plain = reverse("api:live-hands", args=[other_table.pk, 1])
    assert post(client, plain, setup, other.token).status_code == 404
    assert not LiveDeal.objects.exists()


def test_the_report_waits_for_the_delay(client, featured, deal_record, settings):
    """With a delay, the completed log is submitted only once the delay has passed (no result,
    no standings row gives the deal away early)."""
    b, feature = featured(delay=10)
    send_hands(client, feature, deal_record)
    _, actions_url = urls(feature)
    token = feature.operator_link.token
    for seq, action in enumerate(deal_record["actions"], start=1):
        post(client, actions_url, {"seq": seq, **action}, token)
    deal = LiveDeal.objects.get()
    assert deal.completed_at is not None and deal.report is None
    assert live.submit_due_reports() == 0
    assert not DealReport.objects.exists()
    LiveDeal.objects.update(completed_at=deal.completed_at - feature.delay)
    assert live.submit_due_reports() == 1
    assert DealReport.objects.get().play_log["actions"] == deal_record["actions"]


def test_a_deal_already_reported_by_hand_keeps_the_reason(client, featured, deal_record):
    """The referee reported the deal by hand meanwhile: the log is not submitted over it, the
    reason is kept and shown to the organiser."""
    b, feature = featured(delay=0)
    b.final(feature.table.match, 1, [1, 3, 5, 2, 4, 6])
    send_hands(client, feature, deal_record)
    _, actions_url = urls(feature)
    token = feature.operator_link.token
    for seq, action in enumerate(deal_record["actions"], start=1):
        assert post(client, actions_url, {"seq": seq, **action}, token).status_code == 201
    deal = LiveDeal.objects.get()
    assert deal.report is None and deal.report_error.startswith("already_final")
    assert DealReport.objects.filter(play_log__isnull=False).count() == 0
    client.force_login(b.organiser)
    page = client.get(reverse("manage:features", args=[b.event.pk, b.latest.number]))
    assert "already_final" in page.content.decode()


def test_plays_without_hands_over_the_api_end_with_a_finishing_order(client, featured):
    from tests.live.conftest import played_deal
    from tests.live.test_tributes_plays_only import with_last_marks

    b, feature = featured()
    token = feature.operator_link.token
    record = played_deal(3)
    hands_url, actions_url = urls(feature)
    started = post(client, hands_url, {"plays_only": True, "leader": record["leader"]}, token)
    assert started.status_code == 201
    for seq, action in enumerate(with_last_marks(record)[:5], start=1):
        assert post(client, actions_url, {"seq": seq, **action}, token).status_code == 201
    finish_url = reverse("api:live-finish", args=[feature.table_id, 1])
    bad = post(client, finish_url, {"finish": [1, 1, 2, 3, 4, 5]}, token)
    assert bad.status_code == 422 and bad.json()["error"]["rule"]
    assert post(client, finish_url, {"order": [1]}, token).status_code == 400
    done = post(client, finish_url, {"finish": record["claimed"]["finish"]}, token)
    assert (
        done.status_code == 201 and done.json()["summary"]["finish"] == record["claimed"]["finish"]
    )
    assert DealReport.objects.get().summary["finish"] == record["claimed"]["finish"]
    again = post(client, finish_url, {"finish": record["claimed"]["finish"]}, token)
    assert again.status_code == 409 and again.json()["error"]["code"] == "deal_over"
