"""Issue 37: a series counted an event still in round 3 of 4 as if it were final. An event
not finished counts only provisionally, marked in the series table in both languages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from matches.draw import service as draw
from seasons import selectors
from seasons.models import Series, SeriesEvent
from tests.seasons.helpers import pool, rated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def series():
    people = pool(12)
    done = rated_event(people, 0, unions=4, day=1)  # 4 of 4 planned rounds, all closed
    done.play_rounds(4).standings()
    running = rated_event(people, 0, unions=4, day=8)  # round 3 of 4 being played
    running.play_rounds(2)
    draw.publish_round(draw.create_round(running.stage, seed=3))
    running.standings()
    series = Series.objects.create(name="岛城联赛", place_points=[10, 6, 3, 1], published=True)
    for b in (done, running):
        SeriesEvent.objects.create(series=series, event=b.event)
    return series, done, running


def test_an_unfinished_event_counts_only_provisionally(series):
    series, done, running = series
    events, lines = selectors.series_table(series)
    assert [(e.pk, e.provisional) for e in events] == [
        (done.event.pk, False),
        (running.event.pk, True),
    ]
    assert lines and all(line.provisional == {running.event.pk} for line in lines)
    # Its points still count (marked), the finished event's are final.
    assert all(running.event.pk in line.counted for line in lines)
    # Ended by the organiser: final, whatever the plan said.
    running.event.concluded_at = running.event.rounds.first().published_at
    running.event.save(update_fields=["concluded_at"])
    events, lines = selectors.series_table(series)
    assert not any(e.provisional for e in events) and not any(line.provisional for line in lines)


def test_the_series_table_marks_it_in_both_languages(series):
    series, done, running = series
    url = reverse("seasons:series", args=[series.pk])
    zh = Client().get(url).content.decode()
    assert zh.count("data-provisional") == 1 + len(selectors.series_table(series)[1])
    assert "进行中（暂定）" in zh and "该站比赛尚未结束" in zh
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    en = english.get(url).content.decode()
    assert "in progress (provisional)" in en and "that event is not finished yet" in en
