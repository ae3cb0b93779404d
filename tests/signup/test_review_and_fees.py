"""The organiser's side as they use it: the settings page opens registration, the review queue
flags duplicates (the same people twice, a known player, a club typo) and takes each decision
and many at once; the treasurer's page adds up, payments and refunds are kept with who and
when, never changed; the check-in desk and the scan desk show what is unpaid and take it; the
draw leaves unpaid entries out when the organiser holds them out, and the dashboard says who."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.draw import entrants
from matches.events import fees, signup
from matches.models import EntryLog, EntryRequest, EventStaff, FeePayment, PaymentWay, StaffRole
from players.models import Club, Player
from tests.builder import EventBuilder
from tests.personas import make_user
from tests.signup.helpers import open_event, submit, union

pytestmark = pytest.mark.django_db
Status = EntryRequest.Status


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organiser_opens_registration_from_the_settings_page():
    b = open_event(is_open=False)
    client = signed_in(b.organiser_user)
    url = reverse("manage:signup-settings", args=[b.event.pk])
    assert client.get(url).status_code == 200
    data = {
        "is_open": "on",
        "opens_at": "",
        "closes_at": "2030-05-01T20:00",
        "capacity": "3334",
        "waitlist_limit": "100",
        "review": "on",
        "fee": "60",
        "fee_per": "entry",
        "payment_ways": ["cash", "wechat"],
        "ask_club": "required",
        "ask_reach": "required",
        "ask_member_number": "optional",
        "note": "请准时到场",
        "max_per_registrant": "3",
        "retention_days": "30",
    }
    assert client.post(url, data).status_code == 302
    s = signup.settings_of(b.event)
    assert (s.is_open, s.capacity, s.fee_fen, s.payment_ways) == (
        True,
        3334,
        6000,
        ["cash", "wechat"],
    )
    assert EntryLog.objects.filter(event=b.event, action="settings").exists()
    page = Client().get(reverse("public:signup", args=[b.event.pk])).content.decode()
    assert "请准时到场" in page and "报名费：60 元" in page and 'name="member1"' in page


def test_bad_settings_are_said_at_their_field():
    b = open_event()
    client = signed_in(b.organiser_user)
    url = reverse("manage:signup-settings", args=[b.event.pk])
    answer = client.post(
        url,
        {
            "opens_at": "2030-05-02T10:00",
            "closes_at": "2030-05-01T10:00",
            "fee": "60.555",
            "fee_per": "entry",
            "ask_club": "optional",
            "ask_reach": "hidden",
            "ask_member_number": "hidden",
            "max_per_registrant": "3",
            "retention_days": "30",
        },
    )
    body = answer.content.decode()
    assert answer.status_code == 400
    for message in ("截止时间须晚于开始时间", "金额须为数字", "须留下队长的联系方式"):
        assert message in body


def test_only_the_events_organisers_open_registration_assistants_review():
    b = open_event()
    stranger, helper = make_user("stranger"), make_user("assistant")
    EventStaff.objects.create(event=b.event, user=helper, role=StaffRole.ASSISTANT)
    settings_url = reverse("manage:signup-settings", args=[b.event.pk])
    queue_url = reverse("manage:signup-queue", args=[b.event.pk])
    assert signed_in(stranger).get(queue_url).status_code == 403
    assert signed_in(helper).get(settings_url).status_code == 403
    assert signed_in(helper).get(queue_url).status_code == 200
    request = submit(b.event, 1)
    signed_in(stranger).post(reverse("manage:signup-accept", args=[b.event.pk, request.pk]))
    request.refresh_from_db()
    assert request.status == Status.PENDING


def test_the_queue_flags_the_same_people_a_known_player_and_a_club_typo():
    Club.objects.create(name="李沧俱乐部")
    past = EventBuilder(unions=2, player_names=["老将甲"] + [f"x{k}" for k in range(5)]).register()
    b = open_event()
    past.event.organisers.add(b.organiser_user)
    known = Player.objects.get(name="老将甲")
    first = submit(b.event, 1)
    dup = union(2)
    dup["players"][0]["name"] = "报名1-1"  # the same person as in the first
    dup["players"][1]["name"] = "老将甲"
    second = signup.submit(b.event, form_key="dup", **dup)[0]
    submit(b.event, 3, club_name="李仓俱乐部")
    page = signed_in(b.organiser_user).get(reverse("manage:signup-queue", args=[b.event.pk]))
    body = page.content.decode()
    assert f"报名1-1 也在报名 {first.code} 中" in body
    assert f"报名1-1 也在报名 {second.code} 中" in body
    assert "老将甲 可能是已有选手" in body and f'name="known" value="{known.pk}"' in body
    assert "读音相同" in body  # the club guard's homophone note
    # Accepting with the known player ticked links the record instead of copying it.
    signed_in(b.organiser_user).post(
        reverse("manage:signup-accept", args=[b.event.pk, second.pk]), {"known": [known.pk]}
    )
    second.refresh_from_db()
    assert known in second.registration.union.players_in_order()


def test_decline_with_a_reason_waitlist_and_accept_many_from_the_queue():
    b = open_event(capacity=3)
    one, two, three = submit(b.event, 1), submit(b.event, 2), submit(b.event, 3)
    client = signed_in(b.organiser_user)
    event_id = b.event.pk
    client.post(reverse("manage:signup-decline", args=[event_id, one.pk]), {"reason": ""})
    one.refresh_from_db()
    assert one.status == Status.PENDING  # no reason: nothing done
    client.post(reverse("manage:signup-decline", args=[event_id, one.pk]), {"reason": "重复报名"})
    client.post(reverse("manage:signup-waitlist", args=[event_id, two.pk]))
    client.post(reverse("manage:signup-accept-many", args=[event_id]), {"ids": [three.pk, two.pk]})
    for r in (one, two, three):
        r.refresh_from_db()
    assert (one.status, one.reason) == (Status.DECLINED, "重复报名")
    assert two.status == Status.ACCEPTED and three.status == Status.ACCEPTED
    by = set(
        EntryLog.objects.filter(event=b.event, by=b.organiser_user).values_list("action", flat=True)
    )
    assert {"declined", "waitlisted", "accepted"} <= by


def test_payments_refunds_and_the_treasurers_totals():
    b = open_event(review=False, fee_fen=6000, payment_ways=["cash", "wechat"])
    club = {"club_name": "黄岛俱乐部"}
    a, c = submit(b.event, 1, **club), submit(b.event, 2)
    fees.record(a.registration, amount_fen=6000, way="cash", by=b.organiser_user)
    fees.record(
        c.registration, amount_fen=3000, way="wechat", reference="4200001", by=b.organiser_user
    )
    fees.record(a.registration, amount_fen=1000, way="cash", by=b.organiser_user, refund=True)
    totals = fees.totals(b.event)
    assert (totals.owed, totals.paid, totals.refunded) == (12000, 9000, 1000)
    assert totals.outstanding == 1000 + 3000 and totals.unpaid_entries == 2
    assert {w["way"]: (w["paid"], w["refunded"]) for w in totals.by_way} == {
        "cash": (6000, 1000),
        "wechat": (3000, 0),
    }
    clubs = {row["club"]: row for row in totals.by_club}
    assert clubs["黄岛俱乐部"]["paid"] == 6000 and clubs["黄岛俱乐部"]["outstanding"] == 1000
    page = signed_in(b.organiser_user).get(reverse("manage:fees", args=[b.event.pk]))
    assert page.status_code == 200 and 'data-total="paid">90<' in page.content.decode()


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"amount_fen": 0, "way": "cash"}, "amount"),
        ({"amount_fen": 100, "way": "alipay", "reference": "x"}, "way"),  # not a way taken
        ({"amount_fen": 100, "way": "wechat"}, "reference"),  # a transfer needs its number
        ({"amount_fen": 100, "way": "cash", "refund": True}, "amount"),  # nothing paid yet
    ],
)
def test_a_payment_that_does_not_hold_is_refused_at_its_field(kwargs, field):
    b = open_event(review=False, fee_fen=6000, payment_ways=["cash", "wechat"])
    entry = submit(b.event, 1).registration
    with pytest.raises(fees.FeeRefused) as refused:
        fees.record(entry, **kwargs)
    assert refused.value.field == field and FeePayment.objects.count() == 0


def test_a_payment_row_is_never_changed_or_deleted():
    b = open_event(review=False, fee_fen=6000)
    payment = fees.record(submit(b.event, 1).registration, amount_fen=6000, way="cash")
    payment.amount_fen = 1
    with pytest.raises(ValueError):
        payment.save()
    with pytest.raises(ValueError):
        payment.delete()


def test_money_is_parsed_to_fen_exactly():
    assert [fees.parse_yuan(t) for t in ("60", "60.5", "￥60.50", "0.01", "1,200")] == [
        6000,
        6050,
        6050,
        1,
        120000,
    ]
    for bad in ("-1", "abc", "1.001", "nan", "1e3x"):
        with pytest.raises(fees.FeeRefused):
            fees.parse_yuan(bad)


def test_the_check_in_desk_shows_unpaid_and_takes_the_fee():
    b = open_event(review=False, fee_fen=6000, payment_ways=["cash", "wechat"])
    entry = submit(b.event, 1).registration
    client = signed_in(b.organiser_user)
    page = client.get(reverse("manage:checkin", args=[b.event.pk])).content.decode()
    assert (
        "未缴 60 元" in page
        and f'action="{reverse("manage:fee-pay", args=[b.event.pk, entry.pk])}"' in page
    )
    back = reverse("manage:checkin", args=[b.event.pk])
    answer = client.post(
        reverse("manage:fee-pay", args=[b.event.pk, entry.pk]),
        {"amount": "60", "way": "cash", "reference": "", "next": back},
    )
    assert answer.status_code == 302 and answer["Location"] == back
    assert fees.balance(entry).outstanding == 0
    payment = FeePayment.objects.get()
    assert (payment.by, payment.way, payment.amount_fen) == (b.organiser_user, "cash", 6000)
    assert "未缴 60 元" not in client.get(back).content.decode()


@pytest.mark.parametrize("back", ["2", "checkin", "https://elsewhere.example/desk", "//evil"])
def test_a_payment_whose_next_is_no_path_here_goes_back_to_the_entry(back):
    """`next` that is not a path on this site (a mistyped or forged field: "2" was taken by
    `redirect` for a view's name, a 500) is ignored: the payment is kept, and the treasurer
    lands on the entry's page."""
    b = open_event(review=False, fee_fen=6000, payment_ways=["cash"])
    entry = submit(b.event, 1).registration
    client = signed_in(b.organiser_user)
    answer = client.post(
        reverse("manage:fee-pay", args=[b.event.pk, entry.pk]),
        {"amount": "60", "way": "cash", "reference": "", "next": back},
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("manage:fee-entry", args=[b.event.pk, entry.pk])
    assert fees.balance(entry).outstanding == 0


def test_the_scan_desk_shows_unpaid_after_a_scan_and_takes_a_transfer():
    b = open_event(review=False, fee_fen=5000, payment_ways=["cash", "wechat"])
    request = submit(b.event, 1)
    client = signed_in(b.organiser_user)
    url = reverse("manage:checkin-scan", args=[b.event.pk])
    answer = client.post(url, {"code": f"https://hall.example/entry/{request.token}/"})
    body = answer.content.decode()
    assert answer.status_code == 200 and "未缴 50 元" in body and 'value="wechat"' in body
    refused = client.post(
        reverse("manage:fee-pay", args=[b.event.pk, request.registration_id]),
        {"amount": "50", "way": "wechat", "reference": "", "next": url},
        follow=True,
    )
    assert "转账请填写交易单号或备注" in refused.content.decode()
    client.post(
        reverse("manage:fee-pay", args=[b.event.pk, request.registration_id]),
        {"amount": "50", "way": "wechat", "reference": "WX123", "next": url},
    )
    assert fees.balance(request.registration).outstanding == 0


def test_held_out_unpaid_entries_miss_the_draw_and_the_dashboard_names_them():
    b = open_event(review=False, fee_fen=6000, hold_unpaid=True, capacity=10)
    requests = [submit(b.event, k) for k in range(1, 5)]
    for r in requests[:3]:
        fees.record(r.registration, amount_fen=6000, way="cash")
        r.registration.check_in()
    requests[3].registration.check_in()
    field = entrants.active_registrations(b.event, 1)
    assert {e.pk for e in field} == {r.registration_id for r in requests[:3]}
    page = signed_in(b.organiser_user).get(reverse("manage:dashboard", args=[b.event.pk]))
    body = page.content.decode()
    assert 'id="held-out"' in body and "申请联邦4" in body
    s = signup.settings_of(b.event)
    s.hold_unpaid = False
    s.save()
    assert len(entrants.active_registrations(b.event, 1)) == 4


def test_an_entry_the_organiser_typed_in_owes_the_fee_too():
    b = EventBuilder(unions=2).register()
    open_event_settings = signup.settings_of(b.event)
    open_event_settings.fee_fen, open_event_settings.hold_unpaid = 3000, True
    open_event_settings.save()
    assert entrants.active_registrations(b.event, 1) == []  # owed, no row yet: held
    assert fees.totals(b.event).outstanding == 6000


def test_changing_the_fee_reprices_entries_not_set_by_hand():
    b = open_event(review=False, fee_fen=6000)
    one, two = submit(b.event, 1), submit(b.event, 2)
    fees.set_owed(one.registration, 0, b.organiser_user, "减免")
    s = signup.settings_of(b.event)
    s.fee_fen, s.fee_per = 2000, "player"
    s.save()
    fees.reprice(b.event)
    assert fees.balance(one.registration).owed == 0
    assert fees.balance(two.registration).owed == 6000  # 20 yuan × 3 players
    assert EntryLog.objects.filter(action="fee_set", by=b.organiser_user).exists()


def test_treasurer_exports_are_text_never_formulas():
    b = open_event(review=False, fee_fen=6000, payment_ways=["cash", "wechat"])
    entry = submit(b.event, 1, union_name="=HYPERLINK(1)").registration
    fees.record(entry, amount_fen=6000, way="wechat", reference="@SUM(A1)")
    client = signed_in(b.organiser_user)
    entries_csv = client.get(reverse("manage:fees-export", args=[b.event.pk, "entries", "csv"]))
    payments_csv = client.get(reverse("manage:fees-export", args=[b.event.pk, "payments", "csv"]))
    assert "'=HYPERLINK(1)" in entries_csv.content.decode("utf-8-sig")
    assert "'@SUM(A1)" in payments_csv.content.decode("utf-8-sig")
    xlsx = client.get(reverse("manage:fees-export", args=[b.event.pk, "payments", "xlsx"]))
    assert xlsx.status_code == 200 and xlsx["Content-Type"].startswith("application/vnd.openxml")
    assert (
        client.get(reverse("manage:fees-export", args=[b.event.pk, "nope", "csv"])).status_code
        == 404
    )
    assert PaymentWay.WECHAT in ("wechat",)
