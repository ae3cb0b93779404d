"""What a reader sees of a hall cut (docs/hall-box.md, step 7), in Chinese and in English, at
390 and 1280 px (with SHOTS_DIR set, screenshots of each into that folder):
- on the mirror, a badge link made in the hall during the cut: a page that says it will open
  when the hall's link returns, under the banner, instead of "not found";
- on the box's dashboard, the time the public site shows data up to: the mirror's banner's time.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from hall import status
from hall.models import HallBeat

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(os.environ.get("SHOTS_DIR", "")) if os.environ.get("SHOTS_DIR") else None
WORDS = {
    "zh-hans": ("这个链接稍后可用", "赛场网络中断", "公开网站显示到"),
    "en": ("This link will work shortly", "the hall's network is down", "the public site shows"),
}


def _shot(page, name: str) -> None:
    if SHOTS is not None and SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_badge_made_during_the_cut_says_it_will_open_later(
    live_server, page, settings, built, language
):
    settings.SITE_ROLE = "mirror"
    settings.HALLBOX_STALE_SECONDS = 30
    settings.STAFF_BASE_URL = "http://192.168.1.10"
    built.event.published = True
    built.event.save()
    cut_at = timezone.now() - datetime.timedelta(minutes=7)
    HallBeat.objects.create(pk=1, beat_at=cut_at)
    heading, banner, _ = WORDS[language]
    page.goto(f"{live_server.url}/lang/?language={language}&next=/")
    unknown = "/me/" + "n" * 24 + "/"
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        answer = page.goto(live_server.url + unknown)
        assert answer.status == 503
        expect(page.locator("#link-not-yet h1")).to_have_text(heading)
        expect(page.locator("#hall-status")).to_contain_text(banner)
        hhmm = timezone.localtime(cut_at).strftime("%H:%M")
        expect(page.locator("#link-not-yet")).to_contain_text(hhmm)
        expect(page.locator("#link-not-yet a.button.primary")).to_be_visible()
        _fits(page, width)
        _shot(page, f"hallbox-link-not-yet-{language}-{width}")
    # The hall reports again: the same unknown link is an ordinary "not found".
    HallBeat.objects.filter(pk=1).update(beat_at=timezone.now())
    page.wait_for_timeout(1100)  # the process keeps the beat one second (hall/status.py)
    assert page.goto(live_server.url + unknown).status == 404


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_box_dashboard_names_the_mirrors_time(
    live_server, page, settings, setup, signed_in, monkeypatch, language
):
    settings.SITE_ROLE = "box"
    held = timezone.now() - datetime.timedelta(minutes=3)
    monkeypatch.setattr(
        status,
        "mirror_lag",
        lambda: status.MirrorLag(True, False, 268_768, None, held),
    )
    signed_in(page, setup.organiser.username)
    page.goto(f"{live_server.url}/lang/?language={language}&next=/manage/")
    _, _, shows = WORDS[language]
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 844})
        page.goto(f"{live_server.url}/manage/events/{setup.event.pk}/")
        lag = page.locator("#mirror-lag")
        expect(lag).to_contain_text(shows)
        expect(lag).to_contain_text(timezone.localtime(held).strftime("%H:%M"))
        _fits(page, width)
        _shot(page, f"hallbox-dashboard-link-down-{language}-{width}")
