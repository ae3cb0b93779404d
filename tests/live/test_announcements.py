"""Issue 37: the organiser's announcements. Sent from the organiser's page (the event's
organisers only), pushed on the existing live streams (a notice, no text), shown on the table
phone, the referee's home and this event's projector until withdrawn, logged with who/when."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches import push
from matches.events import announcements
from matches.models import Announcement, EventStaff, RefereeLink, RefereeTable
from matches.models.staff import StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(build):
    b = build(unions=4, deals=1)
    round_ = b.round([(0, 1), (2, 3)])
    organiser = get_user_model().objects.create_user("org-37", password="x")
    b.event.organisers.add(organiser)
    link = RefereeLink.objects.create(table=b.match(round_, 1).table, created_by=organiser)
    return b, organiser, link


def send_url(b):
    return reverse("manage:announcements", args=[b.event.pk])


def test_the_organiser_sends_and_it_shows_everywhere_until_withdrawn(
    client, hall, django_capture_on_commit_callbacks
):
    b, organiser, link = hall
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(send_url(b), {"text": "  第 3 轮 10:30 开始，请回座  "}, follow=True)
    assert response.status_code == 200 and "通知已发送" in response.content.decode()
    sent = Announcement.objects.get(event=b.event)
    assert sent.text == "第 3 轮 10:30 开始，请回座" and sent.author == organiser
    assert sent.created_at is not None and sent.withdrawn_at is None
    # The log on the organiser's page: what, who.
    page = client.get(send_url(b)).content.decode()
    assert "第 3 轮 10:30 开始，请回座" in page and "org-37" in page
    client.logout()
    # The table phone (by its link), its fragment, and the projector of this event.
    phone = client.get(reverse("referee:link-table", args=[link.token])).content.decode()
    assert f'data-announcement="{sent.pk}"' in phone and "第 3 轮 10:30 开始" in phone
    assert reverse("live:link", args=[link.token]) in phone  # the page opens its stream
    fragment = client.get(reverse("referee:link-announcements", args=[link.token]))
    assert fragment.status_code == 200 and "第 3 轮 10:30 开始" in fragment.content.decode()
    assert "no-store" in fragment["Cache-Control"]
    projector = client.get(reverse("public:projector-standings", args=[b.event.pk]))
    assert "第 3 轮 10:30 开始" in projector.content.decode()
    # Withdrawn: gone from every screen, kept in the log with who withdrew it.
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("manage:announcement-withdraw", args=[b.event.pk, sent.pk]))
    sent.refresh_from_db()
    assert sent.withdrawn_at is not None and sent.withdrawn_by == organiser
    client.logout()
    phone = client.get(reverse("referee:link-table", args=[link.token])).content.decode()
    assert "第 3 轮 10:30 开始" not in phone
    assert (
        "第 3 轮 10:30 开始"
        not in client.get(reverse("public:projector-standings", args=[b.event.pk])).content.decode()
    )


def test_the_referee_home_shows_the_events_they_referee(client, hall):
    b, organiser, _link = hall
    referee = get_user_model().objects.create_user("ref-37", password="x")
    EventStaff.objects.create(event=b.event, user=referee, role=StaffRole.REFEREE)
    RefereeTable.objects.create(event=b.event, referee=referee, number=1)
    announcements.send(b.event, organiser, "午饭在二楼")
    other = get_user_model().objects.create_user("other-org-37", password="x")
    other_b = type(b)("gouji", unions=2, name="别的赛事")
    other_b.event.organisers.add(other)
    announcements.send(other_b.event, other, "别的赛事的通知")
    client.force_login(referee)
    home = client.get(reverse("referee:home")).content.decode()
    assert "午饭在二楼" in home and "别的赛事的通知" not in home
    fragment = client.get(reverse("referee:home-announcements")).content.decode()
    assert "午饭在二楼" in fragment and "别的赛事的通知" not in fragment


def test_only_the_events_organiser_may_send_or_withdraw(client, hall):
    b, organiser, link = hall
    sent = announcements.send(b.event, organiser, "原来的通知")
    other = get_user_model().objects.create_user("other-org", password="x")
    type(b)("gouji", unions=2, name="另一个赛事").event.organisers.add(other)
    assistant = get_user_model().objects.create_user("assistant-37", password="x")
    EventStaff.objects.create(event=b.event, user=assistant, role=StaffRole.ASSISTANT)
    for account in (other, assistant):
        client.force_login(account)
        assert client.get(send_url(b)).status_code == 403
        assert client.post(send_url(b), {"text": "冒充的通知"}).status_code == 403
        withdraw = reverse("manage:announcement-withdraw", args=[b.event.pk, sent.pk])
        assert client.post(withdraw).status_code == 403
    client.logout()
    assert client.post(send_url(b), {"text": "匿名"}).status_code == 302  # to sign in
    assert list(Announcement.objects.values_list("text", flat=True)) == ["原来的通知"]
    sent.refresh_from_db()
    assert sent.withdrawn_at is None
    # Another event's announcement cannot be withdrawn through this event's address.
    client.force_login(other)
    elsewhere = reverse("manage:announcement-withdraw", args=[b.event.pk + 999, sent.pk])
    assert client.post(elsewhere).status_code == 404


def test_empty_or_too_long_is_refused_in_words_and_kept_in_the_box(client, hall):
    b, organiser, _link = hall
    client.force_login(organiser)
    response = client.post(send_url(b), {"text": "   \n  "})
    assert response.status_code == 400 and "请填写通知内容" in response.content.decode()
    long_text = "长" * (Announcement.MAX_LENGTH + 1)
    response = client.post(send_url(b), {"text": long_text})
    page = response.content.decode()
    assert response.status_code == 400
    assert f"通知最多 {Announcement.MAX_LENGTH} 字，现在是 {Announcement.MAX_LENGTH + 1} 字" in page
    assert long_text in page  # what was typed is not lost
    assert not Announcement.objects.exists()
    client.cookies["django_language"] = "en"
    response = client.post(send_url(b), {"text": ""})
    assert "Please write the announcement" in response.content.decode()


def test_the_projector_shows_only_its_own_events_announcements(client, hall):
    b, organiser, _link = hall
    announcements.send(b.event, organiser, "本赛事的通知")
    other = type(b)("gouji", unions=2, name="另一个赛事")
    other_org = get_user_model().objects.create_user("o2", password="x")
    other.event.organisers.add(other_org)
    announcements.send(other.event, other_org, "另一个赛事的通知")
    page = client.get(reverse("public:projector-standings", args=[b.event.pk])).content.decode()
    assert "本赛事的通知" in page and "另一个赛事的通知" not in page


def test_a_sent_announcement_is_pushed_to_phones_referees_and_projector(
    hall, django_capture_on_commit_callbacks
):
    """One notice, no text, on the event's rounds channel (every referee's home and table
    phone), its staff channel and its public channel (the projector); none to another event."""
    b, organiser, _link = hall
    sink = push._ThreadSink()
    channels = [
        push.staff_rounds(b.event.pk),
        push.staff_event(b.event.pk),
        push.public_event(b.event.pk),
        push.public_event(b.event.pk + 999),
    ]
    push.hub.subscribe(channels, sink)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sent = announcements.send(b.event, organiser, "比赛暂停十分钟")
        got = [json.loads(m) for m in iter(lambda: sink.get(0), None)]
        assert got == [{"kind": "announcement"}] * 3
        with django_capture_on_commit_callbacks(execute=True):
            assert announcements.withdraw(sent, organiser)
            assert not announcements.withdraw(sent, organiser)  # once
        assert len(list(iter(lambda: sink.get(0), None))) == 3
    finally:
        push.hub.unsubscribe(channels, sink)


def test_the_table_phone_stream_needs_a_live_link(client, hall, settings):
    b, organiser, link = hall
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    response = client.get(reverse("live:link", args=[link.token]))
    assert response.status_code == 200
    it = iter(response.streaming_content)
    assert b"event: hello" in next(it)
    push.send(push.staff_rounds(b.event.pk + 999), "announcement")
    assert next(it) == b": ping\n\n"  # another event's
    push.send(push.staff_rounds(b.event.pk), "announcement")
    assert json.loads(next(it).decode()[6:]) == {"kind": "announcement"}
    link.revoke()
    assert client.get(reverse("live:link", args=[link.token])).status_code == 404
    assert client.get(reverse("live:link", args=["not-a-link"])).status_code == 404
    # Closed last: closing a response ends its request, which closes the database connection
    # (on PostgreSQL the test's transaction with it).
    response.close()


def test_an_archived_event_sends_nothing(hall):
    b, organiser, _link = hall
    from matches.events import lifecycle

    lifecycle.archive(b.event, user=organiser)
    with pytest.raises(announcements.AnnouncementRefused):
        announcements.send(b.event, organiser, "归档后")
