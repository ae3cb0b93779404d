"""The chain covers every result (issue 38, finding 3): forfeits, time stops and byes are chain
entries, a forfeit, a stop or a bye written by SQL without one is named, and `verify_results`
recomputes every derived row (match results, deal tallies, standings) from the chained results
and names each row that differs."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from matches.models import Event, Match, ResultChainEntry, StandingsSnapshot
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


def test_the_organisers_page_shows_the_chain_s_state(played):
    from django.test import Client

    client = Client()
    client.force_login(played.organiser)
    url = f"/manage/events/{played.event.pk}/chain/"
    page = client.get(url).content.decode()
    assert 'id="chain-state" data-ok="1"' in page
    assert 'id="derived-state"' not in page and 'id="check-derived"' in page
    checked = client.get(url + "?derived=1").content.decode()
    assert 'id="derived-state" data-ok="1"' in checked
    match = played.matches(played.event.rounds.get(number=2))[0]
    sql("UPDATE matches_match SET score_a = 999 WHERE id = %s", [match.pk])
    changed = client.get(url + "?derived=1").content.decode()
    assert 'id="derived-state" data-ok="0"' in changed and f"match #{match.pk}" in changed
    sql("UPDATE matches_match SET forfeit = 'B' WHERE id = %s", [match.pk])
    broken = client.get(url).content.decode()
    assert 'id="chain-state" data-ok="0"' in broken and "not in the chain" in broken
