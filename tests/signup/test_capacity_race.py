"""Capacity under concurrent registrations, on PostgreSQL: the last places taken by many
registrants at once never make more entries than places, the waiting list takes exactly its
limit, and the same form sent twice at once makes one request. Each thread has its own database
connection and transaction, as gunicorn's workers do."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from matches.events import signup
from matches.models import EntryRequest, Registration
from players.models import Club, Player
from tests.signup.helpers import open_event, union

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

Status = EntryRequest.Status


def _at_once(count: int, work) -> list:
    """Run `work(k)` in `count` threads released together; each result or exception."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def run(k: int) -> None:
        try:
            start.wait()
            results[k] = work(k)
        except Exception as error:  # noqa: BLE001 (the test reads each outcome)
            results[k] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("review", [True, False])
def test_the_last_places_taken_at_once_never_exceed_the_capacity(review):
    b = open_event(capacity=5, waitlist_limit=3, review=review)
    event = b.event
    results = _at_once(
        20, lambda k: signup.submit(event, form_key=f"race-{k}", **union(k + 1))[0].status
    )
    refused = [r for r in results if isinstance(r, signup.SignupRefused)]
    unexpected = [r for r in results if isinstance(r, Exception) and r not in refused]
    assert unexpected == []
    assert {r.code for r in refused} == {"full"} and len(refused) == 12
    holding = EntryRequest.objects.filter(event=event, status__in=EntryRequest.HOLDING).count()
    assert holding == 5
    assert EntryRequest.objects.filter(event=event, status=Status.WAITLISTED).count() == 3
    entries = Registration.objects.filter(event=event).count()
    assert entries == (0 if review else 5)


def test_the_same_form_sent_twice_at_once_makes_one_request():
    b = open_event(capacity=5)
    event = b.event
    results = _at_once(6, lambda k: signup.submit(event, form_key="one-form", **union(1))[0].pk)
    assert all(isinstance(r, int) for r in results), results
    assert len(set(results)) == 1
    assert EntryRequest.objects.filter(event=event).count() == 1


def test_one_union_sent_from_two_forms_at_once_is_entered_once():
    b = open_event(capacity=5, review=False)
    event = b.event
    results = _at_once(4, lambda k: signup.submit(event, form_key=f"phone-{k}", **union(1))[0].pk)
    made = [r for r in results if isinstance(r, int)]
    assert len(made) == 1, results
    assert all(
        isinstance(r, signup.SignupRefused) and r.code == "duplicate"
        for r in results
        if r not in made
    )
    assert Registration.objects.filter(event=event).count() == 1


def test_unions_of_one_new_club_registering_at_once_make_one_club():
    """Without review the entry is made before the event's lock is taken (the lock is held
    only to count places): the same new club typed by several captains at once is one club."""
    b = open_event(capacity=3, waitlist_limit=5, review=False)
    event = b.event
    results = _at_once(
        6,
        lambda k: (
            signup.submit(event, form_key=f"club-{k}", **union(k + 1, club="新开俱乐部"))[0].status
        ),
    )
    assert sorted(results) == [Status.ACCEPTED] * 3 + [Status.WAITLISTED] * 3, results
    assert Club.objects.filter(name="新开俱乐部").count() == 1
    entries = Registration.objects.filter(event=event)
    assert entries.count() == 3 and {e.union.club.name for e in entries} == {"新开俱乐部"}
    assert Player.objects.filter(name__startswith="报名").count() == 9
