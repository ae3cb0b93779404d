from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command


@pytest.fixture(autouse=True)
def debug_on(settings):
    settings.DEBUG = True  # load_demo refuses demo/demo otherwise (tests/hostile/test_deploy.py)


@pytest.mark.django_db
def test_load_demo_twice_creates_one_organiser_who_can_log_in(client):
    call_command("load_demo")
    call_command("load_demo")
    assert get_user_model().objects.filter(username="demo").count() == 1
    assert client.login(username="demo", password="demo")


@pytest.mark.django_db
def test_the_demo_event_has_results_standings_and_a_live_round(client):
    from matches.models import DealReport, Event, Match, StandingsSnapshot

    call_command("load_demo")
    event = Event.objects.get(organisers__username="demo", game="gouji")
    assert event.published and event.unions.count() == 12
    closed = event.rounds.filter(state="closed")
    assert closed.count() == 3
    assert not Match.objects.filter(round__in=closed, completed_at__isnull=True).exists()
    assert DealReport.objects.final().filter(deal__match__round__in=closed).count() == 3 * 6 * 6
    assert event.rounds.get(number=4).state == "published"
    assert DealReport.objects.filter(deal__match__round__event=event, state="disputed").count() == 1
    unions = StandingsSnapshot.objects.get(
        round__number=3, round__event=event, kind="unions", scope="event"
    )
    assert len(unions.rows) == 12 and sum(r["match_points"] for r in unions.rows) > 0
    call_command("load_demo")
    assert Event.objects.filter(organisers__username="demo", game="gouji").count() == 1
    assert client.get(f"/events/{event.pk}/standings/").status_code == 200


@pytest.mark.django_db
def test_the_giog_demo_event_has_hands_and_standings(client):
    from matches.models import DealReport, Event, StandingsSnapshot

    call_command("load_demo")
    event = Event.objects.get(organisers__username="demo", game="giog")
    assert event.published and event.registrations.count() == 10
    assert event.rounds.get(number=1).state == "closed"
    finals = DealReport.objects.final().filter(deal__match__round__event=event)
    assert (
        finals.filter(play_log__isnull=False).exists()
        and finals.filter(play_log__isnull=True).exists()
    )
    snapshot = StandingsSnapshot.objects.get(
        round__event=event, round__number=2, kind="players", scope="event"
    )
    assert len(snapshot.rows) == 10 and snapshot.unfinished == 1
    call_command("load_demo")
    assert Event.objects.filter(game="giog").count() == 1
    page = client.get(f"/events/{event.pk}/standings/")
    assert page.status_code == 200 and 'data-game="giog"' in page.content.decode()
