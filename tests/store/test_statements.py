"""Every statement written once (matches/store/statements.py) against its ORM twin: the same
rows, every field converted the same way (JSON, datetimes, booleans), linked the same way (an
outer join's missing row included), no query when the caller walks the joined objects, and
the same answer for a row that is not there. Run on SQLite by default and on PostgreSQL with
DATABASE_URL, where the locks are real."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches.models import Deal, DealReport, DealTally, Match, RefereeLink, Table
from matches.store.statements import (
    deals_with_finals,
    link_with_table,
    locked_deal,
    locked_report,
    match_unless_locked,
    public_event,
)

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


def test_the_locked_deal_equals_the_orm_query(setup):
    from matches.results.common import locked_deals
    from matches.results.deals import deal_for

    match = Match.objects.get(table=setup.table)
    deal = deal_for(match, 1)
    expected = locked_deals().filter(match_id=match.pk, number=1).get()
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
    from matches.store import statements

    assert statements.public_event(10**30) is None


def test_the_statement_written_once_reads_what_the_orm_reads(build):
    """`deals_with_finals`: the match's deals with their final reports and tallies,
    field by field as the ORM loads them (JSON, dates and booleans included)."""
    b = build(unions=2, deals=3)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, [6, 5, 4, 3, 2, 1], points=[6, 5])
    b.report(match, 2, {"finish": [1, 2, 3, 4, 5, 6]})  # pending: no final report
    found = deals_with_finals(match.pk)
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    assert [d for d, _r, _t in found] == deals
    for (deal, report, tally), orm in zip(found, deals, strict=True):
        fields = [f.attname for f in Deal._meta.concrete_fields]
        assert [getattr(deal, f) for f in fields] == [getattr(orm, f) for f in fields]
        final = orm.reports.final().first()
        assert (report and report.pk) == (final and final.pk)
        if final is not None:
            for f in DealReport._meta.concrete_fields:
                assert getattr(report, f.attname) == getattr(final, f.attname), f.name
        stored = DealTally.objects.filter(deal=orm).first()
        assert (tally and tally.pk) == (stored and stored.pk)
        if stored is not None:
            for f in DealTally._meta.concrete_fields:
                assert getattr(tally, f.attname) == getattr(stored, f.attname), f.name
            assert tally.deal is deal


@pytest.mark.parametrize("confirmed", [False, True])
def test_the_confirmations_report_lock_reads_what_the_orm_reads(build, confirmed):
    """`locked_report`: the report with its deal, match, round, event, stage, table,
    referee link and author, and whether it has a confirmation yet, as the ORM's query."""
    from django.db.models import Exists, OuterRef

    from matches.models import Confirmation

    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    report = b.report(match, 1, {"finish": [6, 5, 4, 3, 2, 1]})
    if confirmed:
        report = b.confirm(report)
    orm = (
        DealReport.objects.select_related(
            "deal__match__round__event",
            "deal__match__round__stage",
            "deal__match__table",
            "referee_link",
            "submitted_by",
        )
        .annotate(confirmed_before=Exists(Confirmation.objects.filter(report=OuterRef("pk"))))
        .get(pk=report.pk)
    )
    with transaction.atomic():
        found = locked_report(report.pk)
    assert found.confirmed_before is orm.confirmed_before is confirmed
    pairs = [
        (found, orm),
        (found.deal, orm.deal),
        (found.deal.match, orm.deal.match),
        (found.deal.match.round, orm.deal.match.round),
        (found.deal.match.round.event, orm.deal.match.round.event),
        (found.deal.match.round.stage, orm.deal.match.round.stage),
        (found.deal.match.table, orm.deal.match.table),
        (found.submitted_by, orm.submitted_by),
        (found.referee_link, orm.referee_link),
    ]
    for ours, theirs in pairs:
        assert (ours is None) == (theirs is None)
        if theirs is None:
            continue
        for f in type(theirs)._meta.concrete_fields:
            assert getattr(ours, f.attname) == getattr(theirs, f.attname), f.name
    assert found.submitted_by is not None  # the organiser reported it
    with transaction.atomic():
        assert locked_report(999_999) is None


def test_the_match_unless_locked_equals_the_orm_query(setup):
    """`match_unless_locked`: the match row read afresh, as the ORM's skip-locked query."""
    match = Match.objects.get(table=setup.table)
    Match.objects.filter(pk=match.pk).update(score_a=7, score_b=5)
    with transaction.atomic():
        expected = (
            Match.objects.select_for_update(no_key=True, of=("self",), skip_locked=True)
            .filter(pk=match.pk)
            .order_by("pk")
            .first()
        )
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        found = match_unless_locked(match.pk)
    assert len(queries.captured_queries) == 1
    assert found is not None and fields(found) == fields(expected)
    assert (found.score_a, found.score_b) == (7, 5)
    with transaction.atomic():
        assert match_unless_locked(match.pk + 1000) is None


@pytest.mark.django_db(transaction=True)
def test_a_locked_match_is_skipped_not_waited_for(build, eager_tasks):
    """Where rows lock (PostgreSQL), the statement skips a match another connection holds, as
    the ORM's `skip_locked=True` does, and reads it once it is free. (`eager_tasks`: the round it
    publishes must not have CI's worker computing standings while the test's TRUNCATE runs.)"""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only")
    import psycopg

    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    for number in (1, 2):
        Deal.objects.get_or_create(match=match, number=number)
    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname=s["NAME"],
    ) as other:
        other.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk])
        with transaction.atomic():
            orm = Match.objects.select_for_update(no_key=True, of=("self",), skip_locked=True)
            assert orm.filter(pk=match.pk).first() is None
            assert match_unless_locked(match.pk) is None
        other.rollback()
        other.execute(
            "SELECT id FROM matches_deal WHERE match_id = %s AND number = 1 FOR UPDATE",
            [match.pk],
        )
        with transaction.atomic():
            assert match_unless_locked(match.pk) == match
            numbers = [deal.number for deal, _report, _tally in deals_with_finals(match.pk)]
            orm_deals = Deal.objects.select_for_update(
                no_key=True, of=("self",), skip_locked=True
            ).filter(match=match)
            assert numbers == sorted(d.number for d in orm_deals) == [2]
        other.rollback()


# --- the querysets compiled once (issue 40) -------------------------------------------------------


def test_the_standings_run_read_equals_the_orm_query(build):
    """`standings_run`: the queued standings run's state and arguments (JSON decoded) as the
    ORM's `values_list(...).first()` reads them, another event's or another key's left out."""
    from django.utils import timezone

    from matches.models import ComputationRun
    from matches.store.statements import standings_run

    b = build(unions=2)
    other = build(unions=2)

    def orm_row(event_id):
        return (
            ComputationRun.objects.filter(
                event_id=event_id, task="update_standings", key="standings"
            )
            .values_list("state", "args")
            .first()
        )

    assert standings_run(b.event.pk) is None and orm_row(b.event.pk) is None
    ComputationRun.objects.create(
        event=b.event, task="update_standings", key="match:1", args={"x": 1}
    )
    ComputationRun.objects.create(
        event=other.event, task="update_standings", key="standings", args={"from_round": 7}
    )
    assert standings_run(b.event.pk) is None
    ComputationRun.objects.create(
        event=b.event,
        task="update_standings",
        key="standings",
        args={"from_round": 2, "names": ["够级", None]},
        queued_at=timezone.now(),
    )
    with CaptureQueriesContext(connection) as queries:
        found = standings_run(b.event.pk)
    assert len(queries.captured_queries) == 1
    assert found == orm_row(b.event.pk) == ("queued", {"from_round": 2, "names": ["够级", None]})
    assert isinstance(found[1], dict)  # decoded, on SQLite too
    assert standings_run(other.event.pk) == orm_row(other.event.pk)
    assert standings_run(10**30) is None


def test_the_round_unfinished_read_equals_the_orm_query(build):
    from matches.store.statements import round_unfinished

    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    orm = Match.objects.filter(round_id=round_.pk).unfinished().exists
    assert round_unfinished(round_.pk) is True and orm() is True
    Match.objects.filter(round=round_).update(completed_at=round_.created_at)
    assert round_unfinished(round_.pk) is False and orm() is False
    Match.objects.filter(round=round_).update(completed_at=None, table=None)  # byes only
    assert round_unfinished(round_.pk) is False and orm() is False
    assert round_unfinished(round_.pk + 1000) is False


def test_the_earlier_reports_read_equals_the_orm_query(build):
    """`earlier_reports`: a deal's reports, and the previous deal's final or pending ones, as
    the submission's ORM query read them (a superseded report of the previous deal left out)."""
    from django.db.models import Q

    from matches.store.statements import earlier_reports

    b = build(unions=2, deals=3)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, [6, 5, 4, 3, 2, 1], points=[6, 5])
    first = b.report(match, 2, {"finish": [1, 2, 3, 4, 5, 6]}, key="k1")
    second = b.report(match, 2, {"finish": [2, 1, 3, 4, 5, 6]}, key="k2")  # supersedes it
    deal1, deal2, deal3 = (Deal.objects.get(match=match, number=n) for n in (1, 2, 3))

    def orm(deal, previous=False):
        wanted = Q(deal=deal)
        if previous:
            wanted |= Q(
                deal__match_id=deal.match_id,
                deal__number=deal.number - 1,
                state__in=(DealReport.State.FINAL, DealReport.State.PENDING),
            )
        return sorted(
            DealReport.objects.filter(wanted)
            .order_by()
            .values_list("pk", "deal_id", "state", "idempotency_key")
        )

    assert sorted(earlier_reports(deal2.pk)) == orm(deal2)
    assert {pk for pk, *_ in orm(deal2)} == {first.pk, second.pk}
    assert sorted(earlier_reports(deal2.pk, (match.pk, 1))) == orm(deal2, True)
    assert sorted(earlier_reports(deal3.pk, (match.pk, 2))) == orm(deal3, True)
    # deal 3 has none; deal 2's pending report is there, its superseded one is not
    assert [pk for pk, *_ in earlier_reports(deal3.pk, (match.pk, 2))] == [second.pk]
    assert earlier_reports(deal1.pk + 10**6) == [] and earlier_reports(10**30) == []


def test_a_compiled_query_refuses_a_marker_it_cannot_place(db):
    """The compiled form replaces each marker where the ORM put it: a marker the ORM turned
    into something else (or used twice) fails loudly at its first compilation."""
    from matches.store.statements import Compiled

    twice = Compiled(lambda n: Deal.objects.filter(number=n, match_id=n).values_list("pk"), 99)
    with pytest.raises(ValueError):
        twice(1)
    gone = Compiled(lambda n: Deal.objects.filter(number=-n).values_list("pk"), 98)
    with pytest.raises(ValueError):
        gone(1)


# --- the result chain's head, and the rows written in one INSERT ----------------------------------


def _chain_rows(event_id: int, seqs) -> list[tuple]:
    from django.utils import timezone

    from matches.models import ResultChainEntry

    at = ResultChainEntry._meta.get_field("at").get_db_prep_value(
        timezone.now(), connection, prepared=False
    )
    return [
        (
            event_id,
            seq,
            "result",
            1000 + seq,
            f'{{"n": {seq}}}',
            f"{seq - 1:064x}",
            f"{seq:064x}",
            at,
        )
        for seq in seqs
    ]


CHAIN_COLUMNS = ("event_id", "seq", "kind", "object_id", "payload", "prev_digest", "digest", "at")


def test_the_chain_head_read_equals_the_orm_query(build):
    """`chain_head`: the last (seq, digest) of the event's chain, another event's left out."""
    from matches.models import ResultChainEntry
    from matches.store.statements import chain_head, insert_rows

    b = build(unions=2)
    other = build(unions=2)

    def orm_head(event_id):
        return (
            ResultChainEntry.objects.filter(event_id=event_id)
            .order_by("-seq")
            .values_list("seq", "digest")
            .first()
        )

    assert chain_head(b.event.pk) is None and orm_head(b.event.pk) is None
    insert_rows(ResultChainEntry, CHAIN_COLUMNS, _chain_rows(b.event.pk, [1, 3, 2]))
    insert_rows(ResultChainEntry, CHAIN_COLUMNS, _chain_rows(other.event.pk, [1, 2, 3, 4]))
    with CaptureQueriesContext(connection) as queries:
        head = chain_head(b.event.pk)
    assert len(queries.captured_queries) == 1
    assert head == orm_head(b.event.pk) == (3, f"{3:064x}")
    assert chain_head(other.event.pk) == orm_head(other.event.pk) == (4, f"{4:064x}")
    assert chain_head(10**30) is None


def test_insert_rows_writes_every_row_as_the_orm_reads_it(build):
    """A few rows in one statement; many (more than one statement carries) in one driver
    `executemany`, not one statement a row; every value read back by the ORM as given; no
    rows, no statement."""
    from matches.models import ResultChainEntry
    from matches.store.statements import insert_rows

    b = build(unions=2)
    with CaptureQueriesContext(connection) as queries:
        insert_rows(ResultChainEntry, CHAIN_COLUMNS, [])
    assert queries.captured_queries == []
    few, many = _chain_rows(b.event.pk, range(1, 4)), _chain_rows(b.event.pk, range(4, 1205))
    for rows in (few, many):
        with CaptureQueriesContext(connection) as queries:
            insert_rows(ResultChainEntry, CHAIN_COLUMNS, rows)
        assert len(queries.captured_queries) == 1
    stored = list(
        ResultChainEntry.objects.filter(event=b.event)
        .order_by("seq")
        .values_list("event_id", "seq", "kind", "object_id", "payload", "prev_digest", "digest")
    )
    assert stored == [row[:7] for row in few + many]
    assert ResultChainEntry.objects.filter(event=b.event, at__isnull=True).count() == 0
