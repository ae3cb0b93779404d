"""Issue 27, findings 5 and 6: lockouts must not let one table (or one guesser) stop the hall.

5. Wrong captain PINs counted against the union *and the client's address*: behind a venue's NAT
   every phone shares that address, so five typos at one table stopped PIN confirmation at every
   table for 10 minutes. Now the lock is the union's at that table; the organiser's queue shows it
   and lifts it.
6. After 20 wrong invitation tokens from the hall's address, `/manage/join/<token>/` refused even
   a valid 192-bit link: the address lock was checked before the token was looked up.
"""

from __future__ import annotations

import pytest
from django.test import Client

from matches.events import staff as staff_service
from matches.models import EventStaff, RefereeLink, RoundLog, StaffRole
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.personas import make_user

from ..results.conftest import SUMMARY

pytestmark = pytest.mark.django_db

HALL = "203.0.113.7"  # every phone of the venue, behind one NAT


def signed_in(user) -> Client:
    client = Client(REMOTE_ADDR=HALL)
    client.force_login(user)
    return client


def pending_at(setup, match, link):
    deal = deal_for(match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor.from_link(link), "")
    assert report.state == "pending"
    return report


def pin_post(link, report, side: str, pin: str):
    return Client(REMOTE_ADDR=HALL).post(
        f"/ref/{link.token}/reports/{report.pk}/pin", {"side": side, "pin": pin, "agrees": "yes"}
    )


def agreed(report) -> set[int]:
    return set(report.confirmations.filter(agrees=True).values_list("union_id", flat=True))


def wrong_pin(union) -> str:
    return "1000" if union.captain_pin != "1000" else "1001"


@pytest.fixture
def two_tables(setup):
    match_2 = setup.match_at(2)
    link_2 = RefereeLink.objects.create(table=match_2.table, created_by=setup.organiser)
    return {
        1: (setup.match, setup.link, pending_at(setup, setup.match, setup.link)),
        2: (match_2, link_2, pending_at(setup, match_2, link_2)),
    }


@pytest.mark.tables(2)
def test_five_wrong_pins_at_one_table_do_not_lock_the_hall(setup, two_tables):
    match_1, link_1, report_1 = two_tables[1]
    match_2, link_2, report_2 = two_tables[2]
    for _ in range(5):
        pin_post(link_1, report_1, "B", wrong_pin(match_1.union_b))
    # Union B is locked at table 1: even its right PIN is refused there.
    pin_post(link_1, report_1, "B", match_1.union_b.captain_pin)
    assert agreed(report_1) == set()
    # The other union at the same table, and every other table behind the same address, go on.
    pin_post(link_1, report_1, "A", match_1.union_a.captain_pin)
    assert agreed(report_1) == {match_1.union_a.pk}
    pin_post(link_2, report_2, "B", match_2.union_b.captain_pin)
    pin_post(link_2, report_2, "A", match_2.union_a.captain_pin)
    report_2.refresh_from_db()
    assert agreed(report_2) == {match_2.union_a.pk, match_2.union_b.pk}
    assert report_2.state == "final"


@pytest.mark.tables(2)
def test_the_queue_shows_a_locked_union_and_its_organiser_lifts_the_lock(setup, two_tables):
    match_1, link_1, report_1 = two_tables[1]
    for _ in range(5):
        pin_post(link_1, report_1, "B", wrong_pin(match_1.union_b))
    queue = f"/manage/events/{setup.event.pk}/results/queue/"
    page = signed_in(setup.organiser).get(queue).content.decode()
    assert 'id="pin-locks"' in page and match_1.union_b.name in page
    assert f'data-union="{match_1.union_a.pk}"' not in page
    lift = (
        f"/manage/events/{setup.event.pk}/results/tables/{match_1.table.pk}"
        f"/unions/{match_1.union_b.pk}/pin-unlock"
    )
    # Nobody but the event's organisers and assistants lifts it, and only by POST.
    assert Client().post(lift).status_code == 302  # to the sign-in page
    for person in (setup.outsider, setup.captain_b, setup.referee):
        assert signed_in(person).post(lift).status_code == 403
    other = make_user("other_organiser")
    setup.builder.people.other_event.organisers.add(other)
    assert signed_in(other).post(lift).status_code == 403
    assert signed_in(setup.organiser).get(lift).status_code == 405
    pin_post(link_1, report_1, "B", match_1.union_b.captain_pin)
    assert agreed(report_1) == set()  # still locked
    # A table and union that do not belong together: 404.
    elsewhere = lift.replace(
        f"/unions/{match_1.union_b.pk}/", f"/unions/{setup.match_at(2).union_a.pk}/"
    )
    assert signed_in(setup.organiser).post(elsewhere).status_code == 404
    # The event's assistant lifts it; it is logged; the captain's PIN works again.
    assistant = make_user("assistant")
    EventStaff.objects.create(event=setup.event, user=assistant, role=StaffRole.ASSISTANT)
    assert signed_in(assistant).post(lift).status_code == 302
    log = RoundLog.objects.get(action=RoundLog.Action.PIN_UNLOCK)
    assert log.user == assistant and log.details["union_id"] == match_1.union_b.pk
    assert log.details["table"] == match_1.table.number
    assert 'id="pin-locks"' not in signed_in(setup.organiser).get(queue).content.decode()
    pin_post(link_1, report_1, "B", match_1.union_b.captain_pin)
    assert agreed(report_1) == {match_1.union_b.pk}


def test_pin_fields_are_masked_with_a_numeric_keypad(setup):
    pending_at(setup, setup.match, setup.link)
    page = Client().get(f"/ref/{setup.link.token}/").content.decode()
    fields = [line for line in page.splitlines() if 'name="pin"' in line]
    assert len(fields) == 2
    for field in fields:
        assert 'type="password"' in field and 'inputmode="numeric"' in field
        assert 'autocomplete="off"' in field


# --- finding 6 --------------------------------------------------------------------------------


@pytest.fixture
def low_limits(settings):
    settings.RATE_LIMITS = {"referee_token_failures": {"limit": 3, "window": 60, "lockout": 60}}


def test_a_valid_invitation_link_works_from_an_address_locked_by_a_guesser(setup, low_limits):
    invitation = staff_service.invite(setup.event, StaffRole.REFEREE, by=setup.organiser)
    hall = Client(REMOTE_ADDR=HALL)
    statuses = [hall.get(f"/manage/join/{'x' * 32}{k}/").status_code for k in range(3)]
    assert statuses == [404] * 3
    assert hall.get(f"/manage/join/{'y' * 32}/").status_code == 429  # the guesser is locked
    # ...but the valid 192-bit link from the same address opens, and accepting it works.
    page = hall.get(f"/manage/join/{invitation.token}/")
    assert page.status_code == 200 and setup.event.name in page.content.decode()
    newcomer = signed_in(make_user("newcomer"))
    response = newcomer.post(f"/manage/join/{invitation.token}/", {"accept": "1"})
    assert response.status_code == 302
    assert EventStaff.objects.filter(event=setup.event, user__username="newcomer").exists()
    # A short typed code is still refused unchecked while the address is locked.
    other = staff_service.invite(setup.event, StaffRole.REFEREE, by=setup.organiser)
    assert hall.post("/manage/join/", {"code": other.code}).status_code == 429
    assert (
        Client(REMOTE_ADDR="198.51.100.1").post("/manage/join/", {"code": other.code}).status_code
        == 200
    )
