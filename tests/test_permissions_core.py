from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from matches.permissions import can_manage_event, events_managed_by


def test_an_organiser_manages_only_their_own_events_and_an_admin_all(built):
    alice, bob = built.people.organiser, built.people.other_organiser
    mine, theirs = built.event, built.people.other_event
    admin = get_user_model().objects.create_superuser("root", password="x")

    assert can_manage_event(alice, mine) and not can_manage_event(alice, theirs)
    assert can_manage_event(admin, theirs)
    assert not can_manage_event(AnonymousUser(), mine)
    assert list(events_managed_by(alice)) == [mine]
    assert list(events_managed_by(bob)) == [theirs]
    assert set(events_managed_by(admin)) == {mine, theirs}
    assert not events_managed_by(AnonymousUser()).exists()


def test_one_superuser_rule_across_events_series_and_ladder_seasons(built):
    """`is_admin` is the one superuser rule: the events, the series and the ladder seasons all
    ask it, and each otherwise answers for their own organisers only."""
    from ladders.permissions import can_run_season, seasons_run_by
    from ladders.service.season import create_season
    from matches.permissions import is_admin
    from seasons.models import Series
    from seasons.permissions import can_manage_series, series_managed_by

    alice, bob = built.people.organiser, built.people.other_organiser
    admin = get_user_model().objects.create_superuser("root", password="x")
    anyone = AnonymousUser()
    assert is_admin(admin) and not is_admin(alice) and not is_admin(anyone)

    series = Series.objects.create(name="青岛联赛")
    series.organisers.add(alice)
    season = create_season(alice, "擂台赛")

    for can, thing in ((can_manage_series, series), (can_run_season, season)):
        assert can(alice, thing) and can(admin, thing)
        assert not can(bob, thing) and not can(anyone, thing)
    for listed, thing in ((series_managed_by, series), (seasons_run_by, season)):
        assert list(listed(alice)) == [thing] and list(listed(admin)) == [thing]
        assert not listed(bob).exists() and not listed(anyone).exists()
