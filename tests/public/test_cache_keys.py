"""Issue 17, finding 6: the ETag and the shared cache key are built from what a page reads, not
from the raw query string; the events-list ETag follows everything the list shows."""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.test import Client

from matches.models import Event
from tests.public.conftest import events  # noqa: F401 (fixture)


def _page_keys() -> set:
    # LocMemCache's own keys: a private attribute, which django-stubs does not declare.
    return {key for key in cache._cache if "public-" in key}  # type: ignore[attr-defined]


def test_junk_query_parameters_neither_bypass_nor_fill_the_cache(events):
    t = events.team.event.pk
    for url in (
        f"/events/{t}/standings/",
        f"/events/{t}/",
        f"/events/{t}/rounds/1/",
        f"/api/v1/public/events/{t}/standings/",
        f"/api/v1/public/events/{t}/",
    ):
        first = Client().get(url)
        assert first.status_code == 200, url
        for junk in ("z=1", "z=2&y=3", "kind=nonsense", "scope=x", "round=abc"):
            other = Client().get(f"{url}?{junk}")
            if other.status_code == 200:
                assert other["ETag"] == first["ETag"], (url, junk)
        assert Client().get(url + "?z=9", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # The parameters a page does read still make their own answers.
    plain = Client().get(f"/events/{t}/standings/")["ETag"]
    assert Client().get(f"/events/{t}/standings/?kind=players")["ETag"] != plain


def test_junk_queries_store_no_extra_copies_of_a_fragment(events):
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if not isinstance(caches["default"], LocMemCache):
        import pytest

        pytest.skip("counts the keys of the local-memory cache (CACHE_URL is set)")
    t = events.team.event.pk
    hx = {"HTTP_HX_REQUEST": "true"}
    Client().get(f"/events/{t}/standings/", **hx)
    Client().get(f"/events/{t}/standings/")
    before = _page_keys()
    for k in range(20):
        Client().get(f"/events/{t}/standings/?z={k}", **hx)
        Client().get(f"/events/{t}/standings/?z={k}")
    assert _page_keys() == before


def test_the_events_list_etag_follows_venue_and_dates(events):
    url = "/api/v1/public/events/"
    first = Client().get(url)["ETag"]
    Event.objects.filter(pk=events.team.event.pk).update(venue="青岛市体育馆")
    second = Client().get(url)["ETag"]
    assert second != first
    Event.objects.filter(pk=events.team.event.pk).update(start_date=datetime.date(2027, 1, 1))
    third = Client().get(url)
    assert third["ETag"] != second
    assert Client().get(url, HTTP_IF_NONE_MATCH=second).status_code == 200
