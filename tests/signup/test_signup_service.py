"""Registration's service: places held and freed, the waiting list moving up in order, the
refusals (closed, full, duplicate, contact limit), the same form sent twice, every action logged,
an accepted request becoming the event's entry with its fee."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches.events import fees, signup
from matches.models import EntryLog, EntryRequest, Registration
from tests.signup.helpers import open_event, submit, union

Status = EntryRequest.Status
pytestmark = pytest.mark.django_db


def test_review_on_requests_wait_and_hold_places_then_the_waiting_list_takes_the_rest():
    b = open_event(capacity=2, waitlist_limit=1)
    first, second = submit(b.event, 1), submit(b.event, 2)
    third = submit(b.event, 3)
    assert [first.status, second.status, third.status] == [Status.PENDING] * 2 + [Status.WAITLISTED]
    assert signup.waitlist_place(third) == 1
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 4)
    assert refused.value.code == "full"
    assert EntryRequest.objects.filter(event=b.event).count() == 3


def test_accepting_makes_the_entry_with_its_union_players_club_and_fee():
    b = open_event(capacity=4, fee_fen=6000)
    request = submit(b.event, 1, club_name="李沧俱乐部")
    signup.accept(request, b.organiser_user)
    request.refresh_from_db()
    entry = request.registration
    assert request.status == Status.ACCEPTED and entry is not None
    assert entry.union.name == "申请联邦1" and entry.union.club.name == "李沧俱乐部"
    assert [p.name for p in entry.union.players_in_order()] == ["报名1-1", "报名1-2", "报名1-3"]
    assert entry.union.captain.name == "报名1-1"
    assert entry.private_token == request.token  # one link for the registrant
    assert fees.balance(entry).outstanding == 6000
    actions = list(EntryLog.objects.filter(request=request).values_list("action", "by"))
    assert actions == [("submitted", None), ("accepted", b.organiser_user.pk)]


def test_review_off_accepts_at_once_until_full():
    b = open_event(capacity=1, review=False, waitlist_limit=0)
    request = submit(b.event, 1)
    assert request.status == Status.ACCEPTED
    assert Registration.objects.filter(event=b.event).count() == 1
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 2)
    assert refused.value.code == "full"


def test_a_withdrawal_moves_the_waiting_list_up_in_order_logged():
    b = open_event(capacity=1, review=False)
    accepted = submit(b.event, 1)
    waiting_first, waiting_second = submit(b.event, 2), submit(b.event, 3)
    assert signup.waitlist_place(waiting_second) == 2
    signup.withdraw(accepted)
    waiting_first.refresh_from_db()
    waiting_second.refresh_from_db()
    assert waiting_first.status == Status.ACCEPTED and waiting_first.promoted_at is not None
    assert waiting_first.registration is not None
    assert waiting_second.status == Status.WAITLISTED and signup.waitlist_place(waiting_second) == 1
    assert EntryLog.objects.filter(request=waiting_first, action="promoted").exists()
    accepted.refresh_from_db()
    assert accepted.registration.status == Registration.Status.WITHDRAWN


def test_with_review_a_promoted_request_never_reviewed_waits_for_review():
    b = open_event(capacity=1)
    first, second = submit(b.event, 1), submit(b.event, 2)
    signup.decline(first, "名单已满", b.organiser_user)
    second.refresh_from_db()
    assert second.status == Status.PENDING and second.promoted_at is not None


def test_a_request_the_organiser_put_on_the_waiting_list_is_accepted_when_promoted():
    b = open_event(capacity=2)
    first, second = submit(b.event, 1), submit(b.event, 2)
    signup.to_waitlist(second, b.organiser_user)
    third = submit(b.event, 3)  # the place the organiser freed
    assert third.status == Status.PENDING
    signup.accept(first, b.organiser_user)
    signup.withdraw(first)
    second.refresh_from_db()
    assert second.status == Status.ACCEPTED and second.registration is not None


def test_decline_needs_a_reason_the_registrant_sees():
    b = open_event()
    request = submit(b.event, 1)
    with pytest.raises(signup.SignupRefused) as refused:
        signup.decline(request, "  ", b.organiser_user)
    assert refused.value.field == "reason"
    signup.decline(request, "不是本市俱乐部", b.organiser_user)
    request.refresh_from_db()
    assert request.status == Status.DECLINED and request.reason == "不是本市俱乐部"


def test_closed_not_yet_and_over_are_refused():
    b = open_event(is_open=False)
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 1)
    assert refused.value.code == "closed"
    now = timezone.now()
    b.event.signup.is_open = True
    b.event.signup.closes_at = now - dt.timedelta(minutes=1)
    b.event.signup.save()
    with pytest.raises(signup.SignupRefused):
        submit(b.event, 1)
    b.event.signup.closes_at, b.event.signup.opens_at = None, now + dt.timedelta(hours=1)
    b.event.signup.save()
    assert signup.window(b.event.signup) == "not_yet"
    with pytest.raises(signup.SignupRefused):
        submit(b.event, 1)


def test_the_same_form_sent_twice_makes_one_request():
    b = open_event()
    once, new = signup.submit(b.event, form_key="same", **union(1))
    again, new_again = signup.submit(b.event, form_key="same", **union(1))
    assert (once.pk, new, new_again) == (again.pk, True, False)
    assert EntryRequest.objects.filter(event=b.event).count() == 1


@pytest.mark.parametrize(
    "change, field",
    [
        ({"union_name": "申请联邦1"}, "union_name"),
        ({"union_name": "别名"}, None),  # the same three players under another name
    ],
)
def test_duplicates_are_refused(change, field):
    b = open_event()
    submit(b.event, 1)
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 2, **{**union(1), "contact": "13900000000", **change})
    assert refused.value.code == "duplicate" and refused.value.field == field


def test_a_union_name_the_organiser_already_entered_is_a_duplicate():
    b = open_event()
    b.event.unions.create(name="申请联邦1")
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 1)
    assert refused.value.field == "union_name"


def test_at_most_n_entries_per_contact_however_it_is_spaced():
    b = open_event(max_per_registrant=2)
    submit(b.event, 1, contact="138 0000 1234")
    submit(b.event, 2, contact="138-0000-1234")
    with pytest.raises(signup.SignupRefused) as refused:
        submit(b.event, 3, contact="１３８００００１２３４")
    assert (refused.value.code, refused.value.field) == ("contact_limit", "contact")


def test_individual_event_takes_players():
    b = open_event("giog", review=False)
    request, _new = signup.submit(
        b.event,
        form_key="solo",
        players=[{"name": "单人", "member_number": "M1"}],
        contact="13800001111",
    )
    assert request.status == Status.ACCEPTED
    assert request.registration.player.name == "单人"
    assert request.registration.player.member_number == "M1"


def test_accept_many_accepts_each_and_says_what_it_could_not():
    b = open_event(capacity=2)
    one, two, three = submit(b.event, 1), submit(b.event, 2), submit(b.event, 3)
    done, refused = signup.accept_many(b.event, [one.pk, two.pk, three.pk], b.organiser_user)
    assert [r.pk for r in done] == [one.pk, two.pk]
    assert len(refused) == 1 and "申请联邦3" in refused[0]


def test_the_registrant_edits_until_the_closing_time_and_the_entry_follows():
    b = open_event(review=False)
    request = submit(b.event, 1)
    changed = {**union(1), "union_name": "改名联邦", "club_name": "新俱乐部"}
    changed["players"][2]["name"] = "换人"
    signup.edit(request, **changed)
    entry = Registration.objects.get(pk=request.registration_id)
    assert entry.union.name == "改名联邦"
    assert "换人" in [p.name for p in entry.union.players_in_order()]
    b.event.signup.closes_at = timezone.now() - dt.timedelta(seconds=1)
    b.event.signup.save()
    with pytest.raises(signup.SignupRefused):
        signup.edit(request, **union(1))


def test_organiser_withdrawing_an_accepted_entry_frees_its_place_for_the_waiting_list():
    from matches.events import entries

    b = open_event(capacity=1, review=False)
    accepted, waiting = submit(b.event, 1), submit(b.event, 2)
    entries.withdraw(accepted.registration, entries.first_open_round(b.event))
    signup.entry_withdrawn(accepted.registration, b.organiser_user)
    waiting.refresh_from_db()
    accepted.refresh_from_db()
    assert waiting.status == Status.ACCEPTED and accepted.status == Status.WITHDRAWN
