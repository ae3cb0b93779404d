"""Issue 25, problem 2 (events): archive and restore, delete an event without results, the
wizard's same-name warning and its one event per submit, copying an event's settings."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.draw import service as draw
from matches.events import lifecycle
from matches.models import Event, EventStaff, RoundLog, Stage
from tests.builder import EventBuilder
from tests.personas import owned, signed_in_organiser, wizard_rules_step

pytestmark = pytest.mark.django_db

BASICS = {
    "step": "basics",
    "game": "gouji",
    "name": "市北杯",
    "start_date": "2026-06-01",
    "entry_type": "team",
}
FORMAT = {
    "step": "format",
    "stage1_format": "swiss",
    "stage1_rounds": "5",
    "stage2_format": "single_elimination",
    "stage2_qualifiers": "8",
    "deals_per_match": "4",
    "result_confirmation": "captain",
}


@pytest.fixture
def organiser(client):
    return signed_in_organiser(client, "org-25")


# --- archive and restore ------------------------------------------------------------------------


def test_archive_hides_the_event_and_restore_brings_it_back(client, organiser):
    b = owned(organiser, unions=4, name="去年的杯赛")
    e = b.event.pk
    assert client.get(reverse("public:event", args=[e])).status_code == 200
    page = client.get(reverse("manage:archive", args=[e])).content.decode()
    assert "确认归档" in page
    response = client.post(reverse("manage:archive", args=[e]), follow=True)
    assert "已归档" in response.content.decode()
    b.event.refresh_from_db()
    assert b.event.archived_at is not None
    assert "去年的杯赛" not in client.get(reverse("manage:events")).content.decode()
    archived = client.get(reverse("manage:events") + "?archived=1").content.decode()
    assert "去年的杯赛" in archived
    assert client.get(reverse("public:event", args=[e])).status_code == 404
    assert "去年的杯赛" not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("manage:dashboard", args=[e])).status_code == 200  # to restore
    client.post(reverse("manage:archive", args=[e]))
    b.event.refresh_from_db()
    assert b.event.archived_at is None
    assert client.get(reverse("public:event", args=[e])).status_code == 200
    actions = list(RoundLog.objects.filter(event=b.event).values_list("action", flat=True))
    assert RoundLog.Action.ARCHIVE in actions and RoundLog.Action.RESTORE in actions


def test_assistants_and_other_organisers_cannot_archive_or_delete(client):
    b = EventBuilder(unions=4).register()
    assistant = get_user_model().objects.create_user("assistant-25", password="pw")
    EventStaff.objects.create(event=b.event, user=assistant, role="assistant")
    stranger = get_user_model().objects.create_user("other-org", password="pw")
    for user in (assistant, stranger):
        client.force_login(user)
        for name in ("manage:archive", "manage:delete", "manage:copy"):
            assert client.post(reverse(name, args=[b.event.pk])).status_code == 403
    b.event.refresh_from_db()
    assert b.event.archived_at is None and Event.objects.count() == 1


# --- delete -------------------------------------------------------------------------------------


def test_an_event_without_results_is_deleted_after_typing_its_name(client, organiser):
    b = owned(organiser, unions=5, name="重复的杯赛")
    draw.create_round(b.stage, seed=1)  # a draft: no result yet
    url = reverse("manage:delete", args=[b.event.pk])
    wrong = client.post(url, {"name": "别的名字"})
    assert wrong.status_code == 400 and "请输入赛事名称以确认删除" in wrong.content.decode()
    assert Event.objects.filter(pk=b.event.pk).exists()
    response = client.post(url, {"name": "重复的杯赛"}, follow=True)
    assert "赛事“重复的杯赛”已删除" in response.content.decode()
    assert not Event.objects.filter(pk=b.event.pk).exists()


def test_an_event_with_results_is_not_deleted(client, organiser):
    b = owned(organiser, unions=4, deals=1)
    b.draw_round().report_all()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("manage:delete", args=[b.event.pk])
    assert "archive it instead" in client.get(url).content.decode()
    response = client.post(url, {"name": b.event.name})
    assert response.status_code == 400
    assert Event.objects.filter(pk=b.event.pk).exists()
    with pytest.raises(lifecycle.EventRefused):
        lifecycle.delete(b.event)


# --- the wizard ---------------------------------------------------------------------------------


def test_a_double_submit_of_the_wizard_makes_one_event(client, organiser):
    url = reverse("manage:new-event")
    page = client.get(url + "?restart=1", follow=True).content.decode()
    token = page.split('name="token" value="')[1].split('"')[0]
    client.post(url, {**BASICS, "token": token})
    client.post(url, {**FORMAT, "token": token})
    first = client.post(url, {**wizard_rules_step(), "token": token})
    second = client.post(url, {**wizard_rules_step(), "token": token}, follow=True)
    assert first.status_code == 302
    assert Event.objects.filter(name="市北杯").count() == 1
    event = Event.objects.get(name="市北杯")
    assert second.redirect_chain[-1][0] == reverse("manage:dashboard", args=[event.pk])
    assert "没有重复创建" in second.content.decode()
    # Two stages from the wizard: Swiss then the knockout of eight.
    assert list(event.stages.values_list("format", "qualifiers")) == [
        ("swiss", None),
        ("single_elimination", 8),
    ]


def test_the_wizard_warns_on_a_same_name_event(client, organiser):
    owned(organiser, unions=2, name="市北杯")
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    step2 = client.post(url, BASICS).content.decode()
    assert 'id="same-name-warning"' in step2 and "你已有同名赛事“市北杯”" in step2
    other = {**BASICS, "name": "市南杯"}
    client.get(url + "?restart=1")
    assert 'id="same-name-warning"' not in client.post(url, other).content.decode()


def test_the_service_gives_the_same_event_for_the_same_token(organiser):
    from matches.events import setup

    details = {"name": "杯", "start_date": datetime.date(2026, 6, 1), "game": "gouji"}
    stages = [{"format": "swiss", "planned_rounds": 3, "name": ""}]
    one = setup.create_event(organiser, details=details, stages=stages, token="t-1")
    two = setup.create_event(organiser, details=details, stages=stages, token="t-1")
    assert one.pk == two.pk and Event.objects.count() == 1


# --- copy ---------------------------------------------------------------------------------------


def test_copy_takes_the_settings_and_stages_but_no_entries_or_results(client, organiser):
    b = owned(
        organiser,
        unions=4,
        deals=3,
        name="2026 市北杯",
        rules={"preset": "six-decks"},
        tie_breaks=["match_points", "seed"],
        stage_name="瑞士轮",
    )
    event = b.event
    event.labels = {"round": "轮"}
    event.release_results = Event.Release.AT_END
    event.save()
    Stage.objects.create(
        event=event, order=2, format=Stage.Format.SINGLE_ELIMINATION, qualifiers=8, break_unions=[1]
    )
    b.draw_round().report_all()
    url = reverse("manage:copy", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'value="2027 市北杯"' in page and "瑞士轮" in page  # next year's name proposed
    response = client.post(url, {"name": "2027 市北杯", "start_date": "2027-05-01"}, follow=True)
    copy = Event.objects.get(name="2027 市北杯")
    assert response.redirect_chain[-1][0] == reverse("manage:dashboard", args=[copy.pk])
    for field in (
        "game",
        "entry_type",
        "game_settings",
        "deals_per_match",
        "tie_breaks",
        "labels",
        "release_draw",
        "release_results",
        "release_standings",
        "club_policy",
        "result_confirmation",
    ):
        assert getattr(copy, field) == getattr(event, field), field
    assert copy.start_date == datetime.date(2027, 5, 1) and not copy.published
    assert copy.rules_frozen_at is None and copy.archived_at is None
    assert list(
        copy.stages.values_list("order", "name", "format", "qualifiers", "break_unions")
    ) == [
        (1, "瑞士轮", "swiss", None, []),
        (2, "", "single_elimination", 8, []),
    ]
    assert not copy.registrations.exists() and not copy.rounds.exists()
    assert copy.organisers.filter(pk=organiser.pk).exists()


def test_copy_refuses_an_empty_name_in_both_languages(client, organiser):
    b = owned(organiser, unions=2)
    url = reverse("manage:copy", args=[b.event.pk])
    assert client.post(url, {"name": "", "start_date": "2027-05-01"}).status_code == 400
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(url, {"name": "x", "start_date": "2027-05-01", "end_date": "2027-04-01"})
    assert (
        response.status_code == 400 and "The end date cannot be before" in response.content.decode()
    )
    assert Event.objects.count() == 1
