"""Issue 28: the referee link's precompiled lookup (matches/hotpath.py) gives what the ORM's
`select_related` query gives: the same rows, every field converted the same way (JSON,
datetimes, booleans), linked the same way, a table without a match included, and no query
when the caller walks from the link to the event and the match."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.hotpath import link_with_table
from matches.models import Match, RefereeLink, Table

pytestmark = pytest.mark.django_db


def orm(token: str) -> RefereeLink:
    return (
        RefereeLink.objects.select_related("table__round__event", "table__match")
        .filter(token=token)
        .get()
    )


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_lookup_equals_the_orm_query(setup):
    expected = orm(setup.link.token)
    with CaptureQueriesContext(connection) as queries:
        link = link_with_table(setup.link.token)
        assert link is not None
        table, round_, event = link.table, link.table.round, link.table.round.event
        match = table.match
    assert len(queries.captured_queries) == 1
    assert fields(link) == fields(expected)
    assert fields(table) == fields(expected.table)
    assert fields(round_) == fields(expected.table.round)
    assert fields(event) == fields(expected.table.round.event)
    assert fields(match) == fields(expected.table.match)
    assert isinstance(event.game_settings, dict)  # JSON decoded, as the ORM does
    assert isinstance(event.published, bool)  # a boolean, not SQLite's 1
    assert match.table is table and not link._state.adding


def test_a_table_without_a_match_and_an_unknown_token(setup):
    Match.objects.filter(table=setup.table).update(table=None)
    link = link_with_table(setup.link.token)
    assert link is not None and getattr(link.table, "match", None) is None
    assert getattr(orm(setup.link.token).table, "match", None) is None
    assert link_with_table("no-such-token") is None
    assert Table.objects.filter(pk=setup.table.pk).exists()


def test_a_rate_limit_window_counts_in_one_round_trip_on_redis():
    """`count_in_window` (gouji_tournament/cache.py): 1, 2, 3 in a window its first count
    started, with the window's expiry; counts from one while Redis is away."""
    import redis

    from gouji_tournament.cache import TolerantRedisCache

    url = "redis://127.0.0.1:6379/10"
    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    cache = TolerantRedisCache(url, {"KEY_PREFIX": "test-hotpath"})
    key = "rl:test:window"
    cache.delete(key)
    try:
        assert [cache.count_in_window(key, 60) for _ in range(3)] == [1, 2, 3]
        raw = redis.Redis.from_url(url)
        assert 0 < raw.ttl(cache.make_and_validate_key(key)) <= 60
        assert cache.get(key) == 3  # the plain int the ORM-side readers expect
    finally:
        cache.delete(key)
    away = TolerantRedisCache("redis://127.0.0.1:1/0", {})
    assert away.count_in_window(key, 60) == 1


def test_the_locked_deal_equals_the_orm_query(setup):
    from matches.hotpath import locked_deal
    from matches.results.service import _locked_deals, deal_for

    match = Match.objects.get(table=setup.table)
    deal = deal_for(match, 1)
    expected = _locked_deals().filter(match_id=match.pk, number=1).get()
    with CaptureQueriesContext(connection) as queries:
        found = locked_deal(match.pk, 1)
        assert found is not None
        walked = (found.match, found.match.round, found.match.round.event)
        walked += (found.match.round.stage, found.match.table)
    assert len(queries.captured_queries) == 1
    assert found.pk == deal.pk and fields(found) == fields(expected)
    for mine, theirs in zip(
        walked,
        (
            expected.match,
            expected.match.round,
            expected.match.round.event,
            expected.match.round.stage,
            expected.match.table,
        ),
        strict=True,
    ):
        assert fields(mine) == fields(theirs)
    assert locked_deal(match.pk, 99) is None
    Match.objects.filter(pk=match.pk).update(table=None)
    assert locked_deal(match.pk, 1).match.table is None


def test_the_public_event_read_equals_the_public_events_query(setup):
    from django.utils import timezone

    from matches.hotpath import public_event
    from matches.models import Event
    from matches.public.visibility import public_events

    event = setup.link.table.round.event
    Event.objects.filter(pk=event.pk).update(published=True, archived_at=None)
    read = public_event(event.pk)
    assert read is not None and fields(read) == fields(public_events().get(pk=event.pk))
    Event.objects.filter(pk=event.pk).update(published=False)
    assert public_event(event.pk) is None
    Event.objects.filter(pk=event.pk).update(published=True, archived_at=timezone.now())
    assert public_event(event.pk) is None
    assert public_event(event.pk + 1000) is None


@pytest.mark.django_db
def test_an_id_beyond_any_column_finds_no_row():
    """A URL's <int:...> takes any number of digits: no row, as the ORM answers, never a
    driver's overflow error (a 500)."""
    from matches import hotpath

    assert hotpath.public_event(10**30) is None
