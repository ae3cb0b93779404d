"""The chain covers every result (issue 38, finding 3): forfeits, time stops and byes are chain
entries, a forfeit, a stop or a bye written by SQL without one is named, and `verify_results`
recomputes every derived row (match results, deal tallies, standings) from the chained results
and names each row that differs."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from matches.models import DealReport, Event, Match, ResultChainEntry, StandingsSnapshot
from matches.results import forfeits
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db


def verify(event) -> str:
    out = io.StringIO()
    call_command("verify_results", str(event.pk), stdout=out)
    return out.getvalue()


def refused(event) -> str:
    with pytest.raises(CommandError) as error:
        verify(event)
    assert error.value.returncode == 1
    return str(error.value)


def sql(statement: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


@pytest.fixture
def played():
    """Five unions, two rounds played and closed through the services (a bye each round),
    standings written: a chain that verifies."""
    b = EventBuilder(unions=5, deals=2, planned_rounds=3).register()
    b.play_rounds(2)
    b.standings()
    assert verify(b.event).startswith("OK:")
    return b


def test_a_forfeit_written_by_sql_is_named(played):
    """The finding: a forfeit set on a played match passed, and a recompute flipped it."""
    match = played.matches(played.event.rounds.get(number=1))[0]
    sql("UPDATE matches_match SET forfeit = 'A' WHERE id = %s", [match.pk])
    message = refused(played.event)
    assert f"match #{match.pk} has a forfeit (A) that is not in the chain" in message


def test_a_time_stop_is_an_entry_and_one_written_by_sql_is_named():
    b = EventBuilder(unions=4, deals=3).register()
    Event.objects.filter(pk=b.event.pk).update(score_stopped_matches=True)
    b.event.refresh_from_db()
    round_ = b.draw()
    first, second = b.matches(round_)
    forfeits.stop_by_time(first, 2, user=b.organiser)
    b.standings()  # what the tasks the stop queues write (the check names a missing table)
    stop = ResultChainEntry.objects.get(event=b.event, kind="stop")
    assert stop.object_id == first.pk and '"stopped_after":2' in stop.payload
    assert verify(b.event).startswith("OK:")
    sql("UPDATE matches_match SET stopped_after = 1 WHERE id = %s", [first.pk])
    assert "(stop" in refused(b.event) and "stopped_after" in refused(b.event)
    sql("UPDATE matches_match SET stopped_after = 2 WHERE id = %s", [first.pk])
    sql("UPDATE matches_match SET stopped_after = 1 WHERE id = %s", [second.pk])
    assert f"match #{second.pk} has a time stop" in refused(b.event)


def test_byes_are_entries_and_a_bye_changed_by_sql_is_named(played):
    byes = ResultChainEntry.objects.filter(event=played.event, kind="bye")
    assert byes.count() == 2  # one a round, appended when the round was published
    bye = Match.objects.get(pk=byes.first().object_id)
    sql("UPDATE matches_match SET points_a = 0 WHERE id = %s", [bye.pk])
    message = refused(played.event)
    assert "(bye" in message and f"#{bye.pk}" in message and "points" in message


@pytest.mark.parametrize("where", ["match", "standings", "tally"])
def test_a_derived_row_changed_by_sql_is_named(played, where):
    match = played.matches(played.event.rounds.get(number=2))[0]
    if where == "match":
        sql("UPDATE matches_match SET score_a = 999 WHERE id = %s", [match.pk])
        name = f"match #{match.pk}"
    elif where == "tally":
        deal = match.deals.order_by("number").first()
        sql("UPDATE matches_dealtally SET score_a = 77 WHERE deal_id = %s", [deal.pk])
        name = f"tally of deal #{deal.pk}"
    else:
        snapshot = StandingsSnapshot.objects.filter(event=played.event).order_by("pk").last()
        sql(
            "UPDATE matches_standingssnapshot SET rows = %s WHERE id = %s",
            ['[{"union": 1, "points": 99}]', snapshot.pk],
        )
        name = f"standings of round #{snapshot.round_id} ({snapshot.kind}, {snapshot.scope})"
    message = refused(played.event)
    assert "derived rows differ" in message and name in message, message
    # The check changed nothing: the row is still as SQL left it.
    assert refused(played.event) == message


def pending(event) -> str:
    """What `verify_results` says when rows differ only while computations are under way."""
    with pytest.raises(CommandError) as error:
        verify(event)
    assert error.value.returncode == 3, str(error.value)
    return str(error.value)


def test_a_tally_pointed_at_another_report_is_named_unless_its_settlement_is_under_way(played):
    """The finding: one UPDATE of a tally's report made its match look "still queued", and the
    check then skipped the match, its deals and the standings from its round on."""
    match = played.matches(played.event.rounds.get(number=1))[0]
    first, second = match.deals.order_by("number")[:2]
    other = DealReport.objects.final().get(deal=second)
    sql(
        "UPDATE matches_dealtally SET report_id = %s, score_a = score_a + 5 WHERE deal_id = %s",
        [other.pk, first.pk],
    )
    message = refused(played.event)
    assert f"tally of deal #{first.pk}" in message, message
    # A computation really under way excuses it, and says so: never an OK.
    sql(
        "INSERT INTO matches_computationrun (event_id, task, key, args, state, attempts, error)"
        " VALUES (%s, 'settle_deal', %s, '{}', 'queued', 0, '')",
        [played.event.pk, f"match:{match.pk}"],
    )
    said = pending(played.event)
    assert said.startswith("PENDING") and f"tally of deal #{first.pk}" in said, said
    # A run of another match excuses nothing of this one.
    sql(
        "UPDATE matches_computationrun SET key = %s WHERE key = %s",
        [f"match:{match.pk + 1000}", f"match:{match.pk}"],
    )
    assert f"tally of deal #{first.pk}" in refused(played.event)


def test_a_deleted_tally_or_snapshot_is_named(played):
    match = played.matches(played.event.rounds.get(number=2))[0]
    deal = match.deals.order_by("number").first()
    sql("DELETE FROM matches_dealtally WHERE deal_id = %s", [deal.pk])
    assert f"tally of deal #{deal.pk}" in refused(played.event)


def test_the_organisers_page_shows_the_chain_s_state(
    played, eager_tasks, django_capture_on_commit_callbacks
):
    from django.test import Client

    client = Client()
    client.force_login(played.organiser)
    url = f"/manage/events/{played.event.pk}/chain/"
    check = reverse("manage:chain-derived", args=[played.event.pk])
    page = client.get(url).content.decode()
    assert 'id="chain-state" data-ok="1"' in page
    assert 'id="derived-state"' not in page and 'id="check-derived"' in page
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(check).status_code == 302
    checked = client.get(url).content.decode()
    assert 'id="derived-state" data-state="done" data-ok="1"' in checked
    match = played.matches(played.event.rounds.get(number=2))[0]
    sql("UPDATE matches_match SET score_a = 999 WHERE id = %s", [match.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(check)
    changed = client.get(url).content.decode()
    assert 'id="derived-state" data-state="done" data-ok="0"' in changed
    assert f"match #{match.pk}" in changed
    sql("UPDATE matches_match SET forfeit = 'B' WHERE id = %s", [match.pk])
    broken = client.get(url).content.decode()
    assert 'id="chain-state" data-ok="0"' in broken and "not in the chain" in broken


def test_the_derived_check_is_a_task_with_progress_for_the_organisers_only(
    played, eager_tasks, monkeypatch
):
    """The finding: `?derived=1` recomputed every match inside one GET (minutes at festival
    size), for assistants too."""
    from django.test import Client

    from matches.models import DerivedCheck, EventStaff, StaffRole
    from matches.standings import verify as checks
    from tests.personas import make_user

    event = played.event
    url = f"/manage/events/{event.pk}/chain/"
    check = reverse("manage:chain-derived", args=[event.pk])
    assistant = make_user("assistant")
    EventStaff.objects.create(event=event, user=assistant, role=StaffRole.ASSISTANT)
    helper = Client()
    helper.force_login(assistant)
    page = helper.get(url)
    assert page.status_code == 200 and 'id="check-derived"' not in page.content.decode()
    assert helper.post(check).status_code == 403 and helper.get(check).status_code == 403
    assert not DerivedCheck.objects.exists()
    # No page request recomputes anything, whatever its query says.
    monkeypatch.setattr(checks, "differences", lambda *a, **k: pytest.fail("in a request"))
    client = Client()
    client.force_login(played.organiser)
    assert client.get(url + "?derived=1").status_code == 200
    # Asked for, it is queued (the task runs after the request) and shown as such, polled.
    assert client.post(check).status_code == 302
    queued = DerivedCheck.objects.get(event=event)
    assert queued.state == "queued" and queued.requested_by == played.organiser
    fragment = client.get(check).content.decode()
    assert 'data-state="queued"' in fragment and 'hx-trigger="every 2s"' in fragment
    assert 'id="check-derived"' not in fragment  # one at a time
    monkeypatch.undo()
    # The task: progress match by match, then the answer stored with the chain's head.
    steps = []
    found = checks.differences(event, lambda done, total: steps.append((done, total)))
    matches = Match.objects.filter(round__event=event, table__isnull=False).count()
    assert found.matches == matches and not found.rows and not found.pending
    assert steps == [(k, matches + 1) for k in range(1, matches + 2)]
    checks.run_check(event.pk)
    done = DerivedCheck.objects.get(event=event)
    assert (done.state, done.done, done.total, done.rows) == ("done", matches + 1, matches + 1, [])
    assert done.digest == ResultChainEntry.objects.filter(event=event).order_by("-seq")[0].digest
    DerivedCheck.objects.filter(pk=done.pk).update(state="running", done=3)
    running = client.get(check).content.decode()
    assert 'id="derived-progress"' in running and f"3/{matches + 1}" in running
