"""The rating list: rounds rated one by one (as the task does after each round) give exactly
what a recompute from scratch gives; corrections and unrated events; the signal path."""

from __future__ import annotations

import pytest

from seasons import ratings
from seasons.models import PlayerRating, RatedRound, RatingStep
from tests.seasons.helpers import pool, rated_event, snapshot

pytestmark = pytest.mark.django_db


def test_incremental_updates_equal_a_full_recompute():
    people = pool(24)
    first = rated_event(people, 0, day=1)
    second = rated_event(people, 5, day=8)
    for b in (first, second):
        for number in (1, 2, 3):
            b.play_rounds(1, seed=number)
            assert ratings.update_ratings(b.event.pk, number) == 1  # only the new round
    incremental = snapshot()
    assert len(incremental["list"]) == 17  # people 0-11 and 5-16
    assert RatedRound.objects.count() == 6
    ratings.recompute_all()
    assert snapshot() == incremental
    # ordinal = mu - 3 sigma sorts the list; every player played 2 events or fewer.
    top = PlayerRating.objects.first()
    assert top.ordinal == pytest.approx(top.mu - 3 * top.sigma)
    assert all(row[4] in (1, 2) for row in incremental["list"])


def test_rating_again_from_an_earlier_event_replays_the_later_ones_identically():
    people = pool(24)
    first = rated_event(people, 0, day=1)
    second = rated_event(people, 7, day=8)
    first.play_rounds(2)
    second.play_rounds(2)
    ratings.recompute_all()
    before = snapshot()
    # An update from the first event's round 2 is idempotent and leaves the same numbers.
    ratings.update_ratings(first.event.pk, 2)
    assert snapshot() == before
    # The first event stops being rated: its steps go, the second's are replayed from scratch.
    first.event.rated = False
    first.event.save()
    ratings.update_ratings(first.event.pk, 1)
    after = snapshot()
    assert not RatingStep.objects.filter(event=first.event).exists()
    ratings.recompute_all()
    assert snapshot() == after
    assert after != before


def test_an_unrated_or_unpublished_event_is_not_rated():
    people = pool(12)
    unrated = rated_event(people, 0, unions=2, day=1, rated=False)
    unrated.play_rounds(1)
    hidden = rated_event(people, 0, unions=2, day=2)
    hidden.event.published = False
    hidden.event.save()
    hidden.play_rounds(1)
    assert ratings.recompute_all() == 0
    assert not PlayerRating.objects.exists()


def test_closing_a_round_rates_it_through_the_standings_refresh(django_capture_on_commit_callbacks):
    people = pool(12)
    b = rated_event(people, 0, unions=2, day=3)
    with django_capture_on_commit_callbacks(execute=True):
        b.play_rounds(1)
    assert RatedRound.objects.filter(round__event=b.event).count() == 1
    assert PlayerRating.objects.count() == 6
    winner_side = RatingStep.objects.order_by("-mu").first()
    assert winner_side.mu > 25.0


def test_the_task_takes_ids_is_recorded_and_can_run_twice():
    from matches.models import ComputationRun
    from seasons.tasks import update_ratings

    people = pool(12)
    b = rated_event(people, 0, unions=2, day=4)
    b.play_rounds(2)
    update_ratings.apply(kwargs={"event_id": b.event.pk, "from_round": 1})
    once = snapshot()
    update_ratings.apply(kwargs={"event_id": b.event.pk, "from_round": 2})
    update_ratings.apply(kwargs={"event_id": b.event.pk, "from_round": 1})
    assert snapshot() == once and len(once["steps"]) == 12
    run = ComputationRun.objects.get(event=b.event, task="update_ratings", key="ratings")
    assert run.state == ComputationRun.State.DONE
    update_ratings.apply(kwargs={"event_id": 999999, "from_round": 1})  # gone: nothing to do


def test_the_list_follows_the_organisers_event_switches_and_equals_a_full_recompute(
    django_capture_on_commit_callbacks,
):
    """Rated after two rounds were played, then unrated; unpublished and published again;
    archived and restored: each through the organiser's pages or the settings' save, the
    list follows through the signals (incrementally) and is what a recompute from scratch
    gives."""
    from django.test import Client
    from django.urls import reverse

    people = pool(24)
    first = rated_event(people, 0, day=1)
    late = rated_event(people, 5, day=8, rated=False)
    with django_capture_on_commit_callbacks(execute=True):
        first.play_rounds(2)
        late.play_rounds(2)
    assert not RatingStep.objects.filter(event=late.event).exists()
    organiser = Client()
    organiser.force_login(first.organiser)

    def check() -> dict:
        now = snapshot()
        ratings.recompute_all()
        assert snapshot() == now
        return now

    only_first = check()
    with django_capture_on_commit_callbacks(execute=True):
        late.event.rated = True  # as the settings form saves it
        late.event.save()
    assert RatedRound.objects.filter(round__event=late.event).count() == 2
    both = check()
    assert both != only_first
    with django_capture_on_commit_callbacks(execute=True):
        late.event.rated = False
        late.event.save()
    assert check() == only_first

    for route, back in (("toggle-published", "toggle-published"), ("archive", "archive")):
        with django_capture_on_commit_callbacks(execute=True):
            answer = organiser.post(reverse(f"manage:{route}", args=[first.event.pk]))
        assert answer.status_code == 302
        assert not RatingStep.objects.filter(event=first.event).exists()
        assert check()["list"] == []  # the only rated event left the list
        with django_capture_on_commit_callbacks(execute=True):
            organiser.post(reverse(f"manage:{back}", args=[first.event.pk]))
        assert check() == only_first
