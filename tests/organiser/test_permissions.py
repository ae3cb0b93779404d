"""Per-event roles (issue 14): an assistant runs the day but cannot change settings; a referee
sees no organiser page; the organiser of another event can do nothing here."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.events import checkin
from matches.events import staff as staff_service
from matches.models import EventStaff, StaffInvitation, StaffRole
from matches.permissions import can_manage_event, can_run_event, events_run_by, role_in_event
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    b = EventBuilder(unions=4, deals=1).register()
    event = b.event
    # The personas (organiser of this event, organiser of another, a signed-in stranger) and
    # two staff accounts that accept their invitations below.
    people = {
        name: getattr(b.people, name) for name in ("organiser", "stranger", "other_organiser")
    }
    people.update({name: make_user(name) for name in ("assistant", "referee")})
    for role in ("assistant", "referee"):
        invitation = staff_service.invite(event, role, by=people["organiser"])
        staff_service.accept(invitation, people[role])
    return event, people


def pages(event) -> dict[str, str]:
    e = event.pk
    entry = event.registrations.first().pk
    return {
        "dashboard": reverse("manage:dashboard", args=[e]),
        "entries": reverse("manage:entries", args=[e]),
        "entry": reverse("manage:entry", args=[e, entry]),
        "checkin": reverse("manage:checkin", args=[e]),
        "import": reverse("manage:import", args=[e]),
        "results": reverse("manage:results", args=[e]),
        "rules": reverse("manage:rules", args=[e]),
        "settings": reverse("manage:settings", args=[e]),
        "staff": reverse("manage:staff", args=[e]),
    }


SETTINGS_PAGES = ("settings", "staff")


def test_roles_are_per_event(world):
    event, people = world
    assert role_in_event(people["organiser"], event) == "organiser"
    assert role_in_event(people["assistant"], event) == "assistant"
    assert role_in_event(people["referee"], event) == "referee"
    assert role_in_event(people["other_organiser"], event) is None
    assert can_run_event(people["assistant"], event) and not can_manage_event(
        people["assistant"], event
    )
    assert not can_run_event(people["referee"], event)
    assert list(events_run_by(people["assistant"])) == [event]
    assert not events_run_by(people["referee"]).exists()


def test_an_assistant_runs_the_day_but_cannot_change_settings(client, world):
    event, people = world
    client.force_login(people["assistant"])
    for name, url in pages(event).items():
        expected = 403 if name in SETTINGS_PAGES else 200
        assert client.get(url).status_code == expected, name
    before = (event.name, event.game_settings, event.deals_per_match)
    response = client.post(
        reverse("manage:settings", args=[event.pk]),
        {
            "name": "改名",
            "start_date": "2026-05-01",
            "deals_per_match": 9,
            "points_win": 3,
            "points_draw": 1,
            "points_loss": 0,
            "result_confirmation": "none",
        },
    )
    assert response.status_code == 403
    response = client.post(
        reverse("manage:rules", args=[event.pk]), {"preset": "six-decks", "decks": "6"}
    )
    assert response.status_code == 403
    response = client.post(reverse("manage:staff", args=[event.pk]), {"role": "assistant"})
    assert response.status_code == 403
    event.refresh_from_db()
    assert (event.name, event.game_settings, event.deals_per_match) == before
    assert StaffInvitation.objects.filter(event=event).count() == 2  # only the two accepted
    # The rules page shows them read-only, without a save button.
    page = client.get(reverse("manage:rules", args=[event.pk])).content.decode()
    assert "save-rules" not in page and "只有组织者可以修改规则" in page
    # The day's work is open to them: check a union in.
    entry = event.registrations.first()
    checkin.undo(entry)  # not checked in yet
    client.post(reverse("manage:checkin-toggle", args=[event.pk, entry.pk]))
    entry.refresh_from_db()
    assert entry.status == "checked_in"


def test_a_referee_sees_no_organiser_page(client, world):
    event, people = world
    client.force_login(people["referee"])
    for name, url in pages(event).items():
        assert client.get(url).status_code == 403, name
    assert event.name not in client.get(reverse("manage:events")).content.decode()
    assert client.get(reverse("referee:home")).status_code == 200


def test_the_organiser_of_another_event_can_do_nothing_here(client, world):
    event, people = world
    client.force_login(people["other_organiser"])
    for name, url in pages(event).items():
        assert client.get(url).status_code == 403, name
    entry = event.registrations.first()
    member = EventStaff.objects.get(event=event, role=StaffRole.ASSISTANT)
    posts = [
        (reverse("manage:entry-withdraw", args=[event.pk, entry.pk]), {"from_round": 1}),
        (
            reverse("manage:entry", args=[event.pk, entry.pk]),
            {"union": "X", "player1": "a", "player2": "b", "player3": "c"},
        ),
        (reverse("manage:checkin-toggle", args=[event.pk, entry.pk]), {}),
        (reverse("manage:checkin-many", args=[event.pk]), {}),
        (reverse("manage:checkin-carry-over", args=[event.pk]), {"carry_over": "no"}),
        (reverse("manage:staff", args=[event.pk]), {"role": "assistant"}),
        (reverse("manage:staff-revoke", args=[event.pk, member.pk]), {}),
        (reverse("manage:rules", args=[event.pk]), {"preset": "six-decks"}),
        (
            reverse("manage:entries", args=[event.pk]),
            {"union": "新", "player1": "a", "player2": "b", "player3": "c"},
        ),
        (reverse("manage:round-publish", args=[event.pk, 1]), {}),
        (reverse("manage:draw", args=[event.pk]), {}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    entry.refresh_from_db()
    member.refresh_from_db()
    assert entry.status == "checked_in" and member.revoked_at is None
    assert event.registrations.count() == 4 and not event.rounds.exists()
    assert event.name not in client.get(reverse("manage:events")).content.decode()


def test_a_revoked_assistant_is_out_and_an_invitation_works_once(client, world):
    event, people = world
    member = EventStaff.objects.get(event=event, user=people["assistant"])
    client.force_login(people["organiser"])
    client.post(reverse("manage:staff-revoke", args=[event.pk, member.pk]))
    client.force_login(people["assistant"])
    assert client.get(reverse("manage:dashboard", args=[event.pk])).status_code == 403
    used = StaffInvitation.objects.filter(event=event).first()
    response = client.get(reverse("manage:join", args=[used.token]))
    assert response.status_code == 404 and "邀请无效" in response.content.decode()
    response = client.post(reverse("manage:join-code"), {"code": used.code.lower()})
    assert response.status_code == 404


def test_an_invitation_code_typed_by_hand_gives_the_role(client, world):
    event, people = world
    invitation = staff_service.invite(event, StaffRole.ASSISTANT, by=people["organiser"])
    client.force_login(people["stranger"])
    code = f"{invitation.code[:4].lower()} {invitation.code[4:]}"  # as read out, with a space
    page = client.post(reverse("manage:join-code"), {"code": code})
    assert page.status_code == 200 and event.name in page.content.decode()
    response = client.post(
        reverse("manage:join-code"), {"invitation_code": invitation.code, "accept": "1"}
    )
    assert response.status_code == 302
    assert role_in_event(people["stranger"], event) == "assistant"
    assert client.get(reverse("manage:dashboard", args=[event.pk])).status_code == 200
    assert client.get(reverse("manage:settings", args=[event.pk])).status_code == 403
