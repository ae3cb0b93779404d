"""Festival load (issue 8): the public standings page shares its table and its version stamp
through the cache, and both change when the standings do."""

from __future__ import annotations

import re

from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from matches.public import stamps
from matches.standings import service as standings

A_BY_TWO = [1, 2, 3, 4, 5, 6]


def _csrf(html: bytes) -> str:
    found = re.search(rb'X-CSRFToken": "([^"]+)"', html)
    assert found is not None, "the page has no CSRF token"
    return found.group(1).decode()


# The test counts the keys of an in-process cache; in CI's second pass the default is Redis.
@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "festival-cache-test",
        }
    }
)
def test_full_pages_share_the_table_but_not_the_csrf_token(build):
    from django.contrib.auth import get_user_model

    b = build(unions=2, deals=1)
    r1 = b.round([(0, 1)])
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    url = reverse("public:standings", args=[b.event.pk])
    for name in ("first", "second"):
        get_user_model().objects.create_user(name, password="pw-" + name)
    first, second = Client(), Client()
    first.login(username="first", password="pw-first")
    second.login(username="second", password="pw-second")
    first, second = first.get(url), second.get(url)
    assert first.status_code == second.status_code == 200
    # Signed-in visitors each get their own token (anonymous readers get none at all).
    assert _csrf(first.content) != _csrf(second.content)
    keys = [k for k in cache._cache if "public-fragment:" in k and not k.endswith(":lock")]
    assert len(keys) == 1  # one rendering of the table served both
    table = re.search(rb'<div id="standings-live".*?</div>', first.content, re.S).group(0)
    assert table in second.content


def test_the_standings_stamp_changes_with_a_snapshot_not_with_a_report(build):
    b = build(unions=2, deals=2)
    r1 = b.round([(0, 1)])
    before = stamps.standings_version(b.event)
    event_before = stamps.event_version(b.event)
    b.final(b.match(r1, 1), 1, A_BY_TWO)  # a report: the event's stamp changes at once
    assert stamps.event_version(b.event) != event_before
    assert stamps.standings_version(b.event) == before
    standings.recompute_event(b.event.pk)  # new snapshots: the standings' stamp changes
    assert stamps.standings_version(b.event) != before
