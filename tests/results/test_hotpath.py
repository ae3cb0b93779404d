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
