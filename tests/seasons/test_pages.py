"""The public seasons pages and the series table: right figures, only public data."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Event
from seasons import ratings, selectors
from seasons.models import PlayerRating, RatedRound, Series, SeriesEvent
from tests.seasons.helpers import pool, rated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    people = pool(18)
    events = [rated_event(people, 3 * k, unions=4, day=1 + 7 * k) for k in range(3)]
    for b in events:
        b.play_rounds(2)
        b.standings()
    ratings.recompute_all()
    series = Series.objects.create(
        name="岛城联赛", place_points=[10, 6, 3, 1], best_of=2, published=True
    )
    for b in events:
        SeriesEvent.objects.create(series=series, event=b.event)
    return people, events, series


def test_the_series_table_counts_the_best_two_of_three_placings(season):
    people, events, series = season
    shown, lines = selectors.series_table(series)
    assert [e.pk for e in shown] == [b.event.pk for b in events]
    for line in lines:
        got = sorted(line.per_event.values(), reverse=True)
        assert line.total == sum(got[:2])
        assert len(line.counted) == min(2, len(got))
    assert [line.total for line in lines] == sorted((line.total for line in lines), reverse=True)
    # Match points instead: each event's union match points, all events counted.
    series.scoring, series.best_of = Series.Scoring.MATCH_POINTS, None
    series.save()
    _, by_points = selectors.series_table(series)
    assert sum(line.total for line in by_points) == sum(
        3 * row["match_points"]
        for b in events
        for row in b.event.snapshots.filter(kind="unions", scope="event")
        .order_by("-round__number")
        .first()
        .rows
    )


def test_the_public_pages_show_the_list_the_card_and_the_series(season):
    people, events, series = season
    client = Client()
    body = client.get(reverse("seasons:ratings")).content.decode()
    top = PlayerRating.objects.first()
    assert top.player.name in body and f"{top.ordinal:.1f}" in body
    one_club = client.get(reverse("seasons:ratings"), {"club": people[0].club_id}).content.decode()
    assert people[0].name in one_club and people[1].name not in one_club
    found = client.get(reverse("seasons:ratings"), {"q": people[5].name}).content.decode()
    assert people[5].name in found and people[6].name not in found
    card = client.get(reverse("seasons:player", args=[people[7].pk])).content.decode()
    assert "<svg" in card and "rating-chart" in card
    for b in events:
        assert b.event.name in card  # person 7 played all three cups
    assert 'id="card-partners"' in card and 'id="card-series"' in card
    table = client.get(reverse("seasons:series", args=[series.pk])).content.decode()
    assert all(b.event.name in table for b in events)
    assert client.get(reverse("seasons:ratings"), {"club": "x", "page": "zz"}).status_code == 200


def test_held_data_stays_off_the_seasons_pages(season):
    people, events, series = season
    client = Client()
    series.published = False
    series.save()
    assert client.get(reverse("seasons:series", args=[series.pk])).status_code == 404
    assert (
        "岛城联赛"
        not in client.get(reverse("seasons:player", args=[people[7].pk])).content.decode()
    )
    # An event whose results are held until the end: its rounds leave the list.
    last = events[2].event
    last.release_results = Event.Release.AT_END
    last.save()
    ratings.update_ratings(last.pk, 1)
    assert not RatedRound.objects.filter(round__event=last).exists()
    # An unpublished event's player of no other public event has no card.
    solo = rated_event(pool(6, clubs=1)[:6], 0, unions=2, day=28)
    Event.objects.filter(pk=solo.event.pk).update(published=False)
    solo.play_rounds(1)
    ratings.recompute_all()
    loner = solo.unions[0].players_in_order()[0]
    assert not PlayerRating.objects.filter(player=loner).exists()
    assert client.get(reverse("seasons:player", args=[loner.pk])).status_code == 404


def test_only_the_series_organiser_edits_its_points_table(season, django_user_model):
    _, events, series = season
    owner = django_user_model.objects.create_user("owner")
    other = django_user_model.objects.create_user("other")
    series.organisers.add(owner)
    client = Client()
    client.force_login(other)
    url = reverse("seasons-manage:series", args=[series.pk])
    assert client.post(url, {"name": "x"}).status_code == 403
    client.force_login(owner)
    bad = client.post(url, {"name": "岛城联赛", "scoring": "placing", "place_points": "10 abc"})
    assert bad.status_code == 400
    ok = client.post(
        url,
        {
            "name": "岛城联赛",
            "scoring": "placing",
            "place_points": "20，10, 5",
            "best_of": "",  # no events chosen here: best-N of them is refused (test_manage.py)
            "published": "on",
        },
    )
    assert ok.status_code == 302
    series.refresh_from_db()
    assert series.place_points == [20, 10, 5] and series.best_of is None
    # Its events: only events the organiser runs may be added (the others are not offered).
    assert series.entries.count() == 0


def test_an_organiser_adds_only_own_events_and_merges_only_own_players(season, django_user_model):
    people, events, series = season
    owner = django_user_model.objects.create_user("owner")
    series.organisers.add(owner)
    client = Client()
    client.force_login(owner)
    url = reverse("seasons-manage:series", args=[series.pk])
    foreign = events[0].event  # run by the builder's organiser, not by `owner`
    extra = Event.objects.create(name="别人的杯赛", start_date=foreign.start_date)
    bad = client.post(url, {"name": "x", "scoring": "placing", "events": [extra.pk]})
    assert bad.status_code == 400
    # Merging players of someone else's events: refused by the form (owner runs no event).
    merge = reverse("seasons-manage:players")
    assert client.post(merge, {"kept": people[0].pk, "merged": people[1].pk}).status_code == 403
    own = Event.objects.create(name="自己的杯赛", start_date=foreign.start_date)
    own.organisers.add(owner)
    refused = client.get(
        reverse("seasons-manage:merge"), {"kept": people[0].pk, "merged": people[13].pk}
    )
    assert refused.status_code == 400
    assert "只能合并自己赛事中的选手" in refused.content.decode()


def test_an_individual_event_of_the_series_counts_by_its_player_standings(season):
    """A city league's monthly cup may be an individual event (unions drawn each round): its
    players' places count (it has no union standings, so it gave no one any points)."""
    from tests.builder import EventBuilder

    people, events, series = season
    solo = EventBuilder(
        players=12, entry_type=Event.EntryType.INDIVIDUAL, name="个人杯", rated=True
    ).register()
    solo.play_rounds(1)
    solo.standings()
    SeriesEvent.objects.create(series=series, event=solo.event)
    series.best_of = None
    series.save()
    _, lines = selectors.series_table(series)
    rows = solo.event.snapshots.filter(kind="players", scope="event").get().rows
    by_player = {line.player.pk: line for line in lines}
    for row in rows:
        assert by_player[row["player"]].per_event[solo.event.pk] == series.points_for(row["rank"])
    assert sum(line.per_event.get(solo.event.pk, 0) for line in lines) > 0
    series.scoring = Series.Scoring.MATCH_POINTS
    series.save()
    _, summed = selectors.series_table(series)
    points = {row["player"]: row["place_points"] for row in rows}
    assert {
        line.player.pk: line.per_event[solo.event.pk]
        for line in summed
        if solo.event.pk in line.per_event
    } == points


def test_a_player_finds_themself_on_the_list_by_pinyin_partial_name_or_club():
    people = pool(12)
    people[4].name = "黄晓明"
    people[4].save()
    b = rated_event(people, 0, unions=2, day=2)
    b.play_rounds(1)
    ratings.recompute_all()
    client = Client()

    def found(**query) -> set[int]:
        page = client.get(reverse("seasons:ratings"), query)
        assert page.status_code == 200
        return {r.player_id for _, r in page.context["ranked"]}

    star = people[4].pk
    assert found(q="hxm") == {star}  # initials
    assert found(q="HuangXiao") == {star}  # full pinyin, any case
    assert found(q="晓明") == {star}  # part of the name
    assert found(q="xiaoming") == {star}  # pinyin of part of it
    assert star in found(q="俱乐部1") and found(q="俱乐部1", club=people[0].club_id) == set()
    assert found(q="zzq") == set()
    assert found(q="x" * 500) == set()


def test_a_stranger_sees_no_unpublished_series_or_event_anywhere(season):
    people, events, series = season
    hidden = events[1].event
    hidden.name = "内部杯"
    hidden.save()
    client = Client()
    secret = Series.objects.create(name="内部系列", published=False)
    SeriesEvent.objects.create(series=secret, event=events[0].event)
    Event.objects.filter(pk=hidden.pk).update(published=False)
    ratings.recompute_all()
    pages = [
        reverse("seasons:series-list"),
        reverse("seasons:series", args=[series.pk]),
        reverse("seasons:ratings"),
        *(reverse("seasons:player", args=[p.pk]) for p in people),
    ]
    for url in pages:
        answer = client.get(url)
        body = answer.content.decode()
        assert "内部杯" not in body and "内部系列" not in body, url
    assert client.get(reverse("seasons:series", args=[secret.pk])).status_code == 404
    # The series table counts the public events only.
    shown, lines = selectors.series_table(series)
    assert hidden.pk not in {e.pk for e in shown}
    assert all(hidden.pk not in line.per_event for line in lines)


def test_head_rivals_are_the_players_sitting_opposite(season):
    """对头 is the seat opposite (s±3): one per table, not the three opponents."""
    from matches.models import DealTally, TableSeat

    people, events, series = season
    star = people[7]
    expected: dict[int, list[int]] = {}
    for seat in TableSeat.objects.filter(player=star):
        facing = TableSeat.objects.get(
            table=seat.table, seat=seat.seat + 3 if seat.seat <= 3 else seat.seat - 3
        )
        assert facing.side != seat.side
        got = expected.setdefault(facing.player_id, [0, 0])
        for places in DealTally.objects.filter(match__table=seat.table).values_list(
            "places", flat=True
        ):
            got[0] += 1
            order = [s for group in places for s in group]
            got[1] += order.index(seat.seat) < order.index(facing.seat)
    _, rivals = selectors.partners_and_rivals(star, limit=20)
    assert {m.player.pk: [m.together, m.won] for m in rivals} == expected
