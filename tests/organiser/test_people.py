"""People (issue 25, problem 6): the first organiser from the command line with DEBUG off, an
invited assistant who signs up lands on the event signed in, tabs an assistant cannot use are
hidden, and a refused page is a styled page in the reader's language."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from matches.events import staff as staff_service
from matches.models import StaffRole
from matches.permissions import role_in_event
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    return EventBuilder(unions=4, deals=1).register()


@pytest.fixture
def event(built):
    return built.event


@override_settings(DEBUG=False)
def test_create_organiser_makes_an_account_that_signs_in_and_creates_an_event(monkeypatch):
    monkeypatch.setenv("ORGANISER_PASSWORD", "gouji-cup-2026")
    out = io.StringIO()
    call_command("create_organiser", "alice", stdout=out)
    assert "/manage/new/" in out.getvalue()
    client = Client()
    signed_in = client.post(reverse("login"), {"username": "alice", "password": "gouji-cup-2026"})
    assert signed_in.status_code == 302
    assert client.get("/manage/new/").status_code == 200
    # Once only, and no weak password.
    with pytest.raises(CommandError, match="exists already"):
        call_command("create_organiser", "alice")
    monkeypatch.setenv("ORGANISER_PASSWORD", "123")
    with pytest.raises(CommandError):
        call_command("create_organiser", "bob")


def test_an_invited_assistant_signs_up_and_lands_on_the_event_signed_in(built, event):
    organiser = built.people.organiser
    invitation = staff_service.invite(event, StaffRole.ASSISTANT, by=organiser)
    client = Client()
    response = client.post(
        reverse("manage:join", args=[invitation.token]),
        {
            "invitation_code": invitation.code,
            "signup": "1",
            "accept": "1",
            "username": "xiaowang",
            "password1": "a-long-pass-2026",
            "password2": "a-long-pass-2026",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("manage:dashboard", args=[event.pk])
    assert response.status_code == 200 and response.context["user"].username == "xiaowang"
    assert role_in_event(response.context["user"], event) == "assistant"
    # Still signed in on the next page (the session's backend is one the site has).
    assert client.get(reverse("manage:entries", args=[event.pk])).status_code == 200


def test_an_assistant_sees_only_the_tabs_they_can_use(built, event):
    organiser = built.people.organiser
    invitation = staff_service.invite(event, StaffRole.ASSISTANT, by=organiser)
    assistant = staff_service.accept(invitation, _user("helper")).user
    client = Client()
    client.force_login(assistant)
    page = client.get(reverse("manage:dashboard", args=[event.pk])).content.decode()
    nav = page[page.index('class="event-nav"') :].split("</nav>")[0]
    for tab in ("总览", "报名", "签到"):
        assert tab in nav
    for tab, name in (("规则", "rules"), ("设置", "settings"), ("工作人员", "staff")):
        assert reverse(f"manage:{name}", args=[event.pk]) not in nav, tab
    client.force_login(organiser)
    page = client.get(reverse("manage:dashboard", args=[event.pk])).content.decode()
    assert reverse("manage:staff", args=[event.pk]) in page


@override_settings(DEBUG=False)
def test_a_refused_page_is_styled_and_in_the_reader_s_language(built, event):
    organiser = built.people.organiser
    invitation = staff_service.invite(event, StaffRole.ASSISTANT, by=organiser)
    assistant = staff_service.accept(invitation, _user("helper")).user
    client = Client()
    client.force_login(assistant)
    url = reverse("manage:settings", args=[event.pk])
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert chinese.status_code == 403
    html = chinese.content.decode()
    assert 'id="forbidden"' in html and "没有权限打开这个页面" in html and "site.css" in html
    assert "我的赛事" in html
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "You may not open this page" in english and "没有权限" not in english
    missing = client.get("/manage/events/999999/", HTTP_ACCEPT_LANGUAGE="en")
    assert missing.status_code == 404 and "This page cannot be found" in missing.content.decode()


def _user(name):
    from tests.personas import make_user

    return make_user(name)
