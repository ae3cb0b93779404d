"""What each side shows of the other: the mirror's "赛场网络中断" banner while the hall's
heartbeat is old, the box's view of the mirror on the dashboard; and the two base addresses of
printed links (docs/hall-box.md)."""

from __future__ import annotations

import datetime
import time

import pytest
from django.test import Client
from django.utils import timezone

from hall.models import HallBeat
from hall.status import beat
from matches.models import Registration, StaffInvitation, StaffRole

pytestmark = pytest.mark.django_db


def _status(client, language="zh-hans") -> str:
    client.cookies["django_language"] = language
    return client.get("/hall/status/").content.decode()


def test_the_mirror_says_when_the_hall_last_reported(settings):
    settings.SITE_ROLE = "mirror"
    settings.HALLBOX_STALE_SECONDS = 30
    client = Client()
    assert "赛场网络中断" not in _status(client)  # never heard of a hall: nothing to say
    beat()
    assert "赛场网络中断" not in _status(client)  # fresh
    at = timezone.now() - datetime.timedelta(minutes=7)
    HallBeat.objects.filter(pk=1).update(beat_at=at)
    time.sleep(1.1)  # the process keeps the beat for a second
    text = _status(client)
    local = timezone.localtime(at).strftime("%H:%M")
    assert f"最后更新 {local} · 赛场网络中断" in text
    assert "the hall's network is down" in _status(client, "en")
    assert f"Last update {local}" in _status(client, "en")


def test_elsewhere_there_is_no_banner(settings, built):
    settings.SITE_ROLE = "single"
    HallBeat.objects.create(beat_at=timezone.now() - datetime.timedelta(hours=1))
    built.event.published = True
    built.event.save()
    page = Client().get(f"/events/{built.event.pk}/").content.decode()
    assert 'id="hall-status"' not in page
    assert "赛场网络中断" not in _status(Client())


def test_the_box_dashboard_shows_the_mirror(settings, setup):
    client = Client()
    client.force_login(setup.organiser)
    settings.SITE_ROLE = "single"
    assert 'id="mirror-lag"' not in client.get(f"/manage/events/{setup.event.pk}/").content.decode()
    settings.SITE_ROLE = "box"
    page = client.get(f"/manage/events/{setup.event.pk}/").content.decode()
    assert 'id="mirror-lag"' in page
    # No subscription on this database (SQLite in the tests; the drill reads a real one).
    assert "尚未订阅" in page


def test_printed_links_use_the_staff_and_public_addresses(settings, setup):
    client = Client()
    client.force_login(setup.organiser)
    entry = Registration.objects.filter(event=setup.event).first()
    page = client.get(f"/manage/events/{setup.event.pk}/entries/{entry.pk}/link/")
    assert "http://testserver/entry/" in page.content.decode()  # unset: as before
    settings.STAFF_BASE_URL = "http://192.168.1.10"
    settings.PUBLIC_BASE_URL = "https://gouji.example.org"
    page = client.get(f"/manage/events/{setup.event.pk}/entries/{entry.pk}/link/")
    assert "https://gouji.example.org/entry/" in page.content.decode()
    StaffInvitation.objects.create(event=setup.event, role=StaffRole.REFEREE)
    staff = client.get(f"/manage/events/{setup.event.pk}/staff/").content.decode()
    assert "http://192.168.1.10/manage/join/" in staff
