"""Issue 27: tamper-evident results. Every accepted result, confirmation, correction and forfeit
is appended to its event's hash chain in the same transaction; `manage.py verify_results`
recomputes the chain and names the first entry changed behind the application's back."""

from __future__ import annotations

import hashlib
import io
import json
import os

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from matches.kernel.reports import ResultError
from matches.models import Deal, DealReport, Event, ResultChainEntry
from matches.permissions import Actor
from matches.results import forfeits
from matches.results.confirm import check_captain_pin, confirm_report
from matches.results.correct import correct_result, uphold_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from matches.standings import service as standings
from matches.store import chain

from .conftest import STRING_THREE_A, SUMMARY

pytestmark = pytest.mark.django_db


def verify(event) -> str:
    """`verify_results` once the computations the results queued have run: a test's own
    transaction never commits, so its on-commit tasks never do, and the check names a derived
    row that no run under way will write (tests/results/test_chain_coverage.py)."""
    if Event.objects.filter(pk=event.pk).exists():
        standings.recompute_event(event.pk)
    out = io.StringIO()
    call_command("verify_results", str(event.pk), stdout=out)
    return out.getvalue()


def refused(event) -> str:
    with pytest.raises(CommandError) as error:
        verify(event)
    assert error.value.returncode == 1
    return str(error.value)


def entries(event) -> list[ResultChainEntry]:
    return list(ResultChainEntry.objects.filter(event=event).order_by("seq"))


def build_chain(setup):
    """Through the service: a deal confirmed by both captains' PINs on the table's phone, a
    second deal disputed and decided, a correction of the first; a forfeit at table 2."""
    link = Actor.from_link(setup.link)
    first, _ = submit_report(deal_for(setup.match, 1), SUMMARY, None, link, "1")
    for side, union in (("A", setup.union_a), ("B", setup.union_b)):
        pin = check_captain_pin(setup.match, side, union.captain_pin, "10.0.0.1", link)
        confirm_report(first, link, True, pin_union=pin)
    second, _ = submit_report(deal_for(setup.match, 2), SUMMARY, None, link, "2")
    confirm_report(second, Actor(user=setup.captain_b), False, reason="points")
    uphold_report(second, Actor(user=setup.organiser), "as reported")
    correction = correct_result(
        deal_for(setup.match, 1), STRING_THREE_A, None, Actor(user=setup.organiser), "typo"
    )
    forfeits.award_forfeit(setup.match_at(2), "B", user=setup.organiser)
    return first, second, correction


@pytest.mark.tables(2)
def test_the_service_builds_a_chain_that_verifies(setup):
    first, second, correction = build_chain(setup)
    chained = entries(setup.event)
    assert [(e.seq, e.kind) for e in chained] == [
        (1, "confirmation"),  # union A agrees: still pending
        (2, "confirmation"),  # union B agrees...
        (3, "result"),  # ...and deal 1 is final, in the same append
        (4, "confirmation"),  # union B disputes deal 2
        (5, "confirmation"),  # the organiser upholds it...
        (6, "result"),  # ...final
        (7, "correction"),  # deal 1 corrected
        (8, "forfeit"),
    ]
    assert [e.object_id for e in chained if e.kind != "confirmation"] == [
        first.pk,
        second.pk,
        correction.pk,
        setup.match_at(2).pk,
    ]
    # Each digest is sha256(previous digest + the canonical payload), from the event's genesis.
    prev = chain.genesis_digest(setup.event.pk)
    for entry in chained:
        assert entry.prev_digest == prev
        assert entry.digest == hashlib.sha256((prev + entry.payload).encode()).hexdigest()
        prev = entry.digest
    assert json.loads(chained[2].payload)["summary"]["finish"] == SUMMARY["finish"]
    assert json.loads(chained[6].payload)["replaces"] == first.pk
    out = verify(setup.event)
    assert out.startswith("OK:") and "8 entries" in out and chained[-1].digest in out


def test_a_report_waiting_for_confirmation_is_not_yet_in_the_chain(setup):
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "k"
    )
    assert report.state == "pending" and entries(setup.event) == []
    assert verify(setup.event).startswith("OK:")


def test_a_refused_result_writes_no_entry_and_a_failed_entry_writes_no_result(setup, monkeypatch):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    deal = deal_for(setup.match, 1)
    with pytest.raises(ResultError):
        submit_report(
            deal,
            {"format": "gouji-outcome/1", "finish": [1]},
            None,
            Actor(user=setup.referee),
            "bad",
        )
    assert entries(setup.event) == []

    def broken(*args, **kwargs):
        raise RuntimeError("the chain could not be written")

    monkeypatch.setattr(chain, "_append", broken)
    with pytest.raises(RuntimeError):
        submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "k")
    assert not DealReport.objects.filter(deal=deal).exists()  # together or not at all


@pytest.mark.tables(2)
def test_a_result_changed_by_sql_is_named(setup):
    first, second, correction = build_chain(setup)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE matches_dealreport SET score_a = 99 WHERE id = %s", [second.pk])
    message = refused(setup.event)
    assert "entry 6 (result" in message and f"#{second.pk}" in message and "score_a" in message


@pytest.mark.tables(2)
def test_a_confirmation_or_a_forfeit_changed_by_sql_is_named(setup):
    build_chain(setup)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE matches_match SET forfeit = 'A' WHERE id = %s", [setup.match_at(2).pk]
        )
    assert "entry 8 (forfeit" in refused(setup.event)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE matches_confirmation SET agrees = %s WHERE reason = 'points'", [True]
        )
    assert "entry 4 (confirmation" in refused(setup.event)  # the first one changed


@pytest.mark.tables(2)
def test_an_entry_rewritten_to_match_is_named_too(setup):
    """Changing the result *and* its entry's payload breaks the entry's digest."""
    first, second, correction = build_chain(setup)
    entry = ResultChainEntry.objects.get(event=setup.event, seq=6)
    payload = json.loads(entry.payload)
    payload["score_a"] = 99
    with connection.cursor() as cursor:
        cursor.execute("UPDATE matches_dealreport SET score_a = 99 WHERE id = %s", [second.pk])
        cursor.execute(
            "UPDATE matches_resultchainentry SET payload = %s WHERE id = %s",
            [chain.canonical(payload), entry.pk],
        )
    assert "entry 6 (result" in refused(setup.event)
    ResultChainEntry.objects.filter(pk=entry.pk).delete()
    assert "entry 6 is missing" in refused(setup.event)


@pytest.mark.tables(2)
def test_a_result_hidden_or_slipped_in_by_sql_is_found(setup):
    first, second, correction = build_chain(setup)
    with connection.cursor() as cursor:  # the correction withdrawn: deal 1's result hidden
        cursor.execute(
            "UPDATE matches_dealreport SET state = 'superseded' WHERE id = %s", [correction.pk]
        )
    assert "entry 7 (correction" in refused(setup.event)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE matches_dealreport SET state = 'final' WHERE id = %s", [correction.pk]
        )
    assert verify(setup.event).startswith("OK:")
    # A final result written around the service (no entry) after the chain began.
    slipped = DealReport.objects.create(
        deal=deal_for(setup.match, 3), state="final", summary=SUMMARY, verdict={}
    )
    assert f"reports {slipped.pk}" in refused(setup.event)


def copy_report(report: DealReport, new_id: int, deal_id: int, made: str) -> None:
    """A final result written by SQL around the service: a copy of `report` under `new_id`, on
    deal `deal_id`, made at `made`."""
    columns = [str(f.column) for f in DealReport._meta.concrete_fields if f.column != "id"]
    chosen = {"deal_id": "%s", "state": "'final'", "created_at": "%s"}
    picked = ", ".join(chosen.get(c, c) for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO matches_dealreport (id, {', '.join(columns)}) "
            f"SELECT %s, {picked} FROM matches_dealreport WHERE id = %s",
            [new_id, deal_id, made, report.pk],
        )


@pytest.mark.tables(2)
@pytest.mark.parametrize("new_id", [-7, 0], ids=["negative", "unused-low"])
def test_a_result_slipped_in_with_a_low_id_is_found_whatever_its_time(setup, new_id):
    """The finding: the scan looked only above the event's first chained report's id."""
    first, _second, _correction = build_chain(setup)
    deal = deal_for(setup.match, 3)
    copy_report(first, new_id, deal.pk, "2001-01-01 00:00:00")  # dated long before the chain
    assert f"reports {new_id}" in refused(setup.event)


def test_only_a_result_older_than_the_chain_by_round_and_time_is_exempt():
    """An event begun before the chain existed: round 1's results have no entries, its chain
    begins with round 2. They verify; a result slipped into round 2, or into round 1 after the
    chain began, does not."""
    from tests.builder import EventBuilder

    b = EventBuilder(unions=4, deals=2, planned_rounds=3).register()
    b.play_rounds(1)
    round_1 = DealReport.objects.final().filter(deal__match__round__number=1)
    legacy = round_1.first()
    # As before the chain: no entries, the results a year old.
    ResultChainEntry.objects.filter(event=b.event).delete()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE matches_dealreport SET created_at = '2025-01-01 00:00:00' WHERE id IN "
            f"({', '.join(str(pk) for pk in round_1.values_list('pk', flat=True))})"
        )
    b.play_rounds(1)
    assert verify(b.event).startswith("OK:")
    second = b.matches(b.event.rounds.get(number=2))[0]
    # A deal row to hold it (one final result a deal), written by SQL's hand too.
    copy_report(legacy, -21, Deal.objects.create(match=second, number=9).pk, "2024-01-01 00:00:00")
    assert "reports -21" in refused(b.event)  # round 2: the chain's, whatever its date
    DealReport.objects.filter(pk=-21).delete()
    first = b.matches(b.event.rounds.get(number=1))[0]
    copy_report(legacy, -22, Deal.objects.create(match=first, number=9).pk, "2099-01-01 00:00:00")
    assert "reports -22" in refused(b.event)  # round 1, but after the chain began


def test_an_unknown_event_is_an_error_not_a_traceback(db):
    with pytest.raises(CommandError) as error:
        verify(Event(pk=987654))
    assert error.value.returncode == 2


@pytest.mark.tables(2)
def test_the_public_page_shows_the_digest_only_while_nothing_is_held(setup):
    build_chain(setup)
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    head = entries(setup.event)[-1]
    page = Client().get(f"/events/{setup.event.pk}/").content.decode()
    assert f'title="{head.digest}"' in page and f">{head.digest[:16]}</code>" in page
    assert "已记录 8 条成绩记录" in page
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/events/{setup.event.pk}/").content.decode()
    assert "8 result records so far" in english
    # Results held until the round closes: a changing digest would tell that one arrived.
    Event.objects.filter(pk=setup.event.pk).update(release_results="after_close")
    page = Client().get(f"/events/{setup.event.pk}/").content.decode()
    assert 'id="result-chain"' not in page and head.digest not in page


# --- PostgreSQL: concurrent appends do not fork the chain ------------------------------------


@pytest.fixture
def require_postgres():
    if connection.vendor != "postgresql":
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("the chain's concurrency test needs DATABASE_URL pointing at PostgreSQL")
        pytest.skip("needs PostgreSQL (concurrent writers); set DATABASE_URL")


@pytest.mark.django_db(transaction=True)
@pytest.mark.tables(6)
@pytest.mark.parametrize("attempt", range(2))
def test_concurrent_results_do_not_fork_the_chain(require_postgres, setup, attempt, eager_tasks):
    from django.utils import timezone

    from .test_concurrency import race

    # Rules frozen already (as after the first result): freezing them would lock the event row
    # and serialise the writers before they reach the chain.
    Event.objects.filter(pk=setup.event.pk).update(
        result_confirmation="none", rules_frozen_at=timezone.now()
    )
    organiser = Actor(user=setup.organiser)
    matches = [setup.match_at(n) for n in range(1, 7)]
    deals = [deal_for(m, 1) for m in matches]
    outcomes = race(
        *[(lambda deal=deal: submit_report(deal, SUMMARY, None, organiser, "k")) for deal in deals]
    )
    assert all(isinstance(o, tuple) and o[1] for o in outcomes), outcomes
    chained = entries(setup.event)
    assert [e.seq for e in chained] == [1, 2, 3, 4, 5, 6]
    assert sorted(e.object_id for e in chained) == sorted(o[0].pk for o in outcomes)
    assert len({e.prev_digest for e in chained}) == 6  # no two entries after the same head
    assert verify(setup.event).startswith("OK:")
