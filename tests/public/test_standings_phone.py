"""Standings on a phone and at festival size (issue 26): in pages of 50 rows, the first
response under 30 KiB for 1,700 unions; "jump to my row" (`?entry=` to the page holding the
row, at its `#entry-<id>` anchor); the columns a phone shows in portrait."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from matches.models import StandingsSnapshot
from matches.public.standings import STANDINGS_PAGE_ROWS
from matches.standings import service as standings
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

FESTIVAL_UNIONS = 1_700
FIRST_SCREEN_BYTES = 30 * 1024


@pytest.fixture
def festival():
    """A real event whose union standings are then widened to a festival's 1,700 rows (the
    same keys as a computed row; long union names, as a city's unions are named)."""
    cache.clear()
    b = EventBuilder(unions=4, deals=1).register()
    b.play_rounds(1)
    b.standings()
    snapshot = StandingsSnapshot.objects.get(event=b.event, kind="unions", scope="event")
    model = snapshot.rows[0]
    rows = []
    for k in range(FESTIVAL_UNIONS):
        row = dict(model)
        row.update(
            union=100_000 + k,
            rank=k + 1,
            name=f"青岛市黄岛区第{k + 1}联邦队",
            match_points=27 - k // 70,
            score_difference=400 - k,
        )
        rows.append(row)
    snapshot.rows = rows
    snapshot.save(update_fields=["rows"])
    return b


def url(b):
    return reverse("public:standings", args=[b.event.pk])


def test_the_first_screen_of_a_festivals_standings_is_under_30_kib(festival):
    response = Client().get(url(festival))
    assert response.status_code == 200
    size = len(response.content)
    assert size <= FIRST_SCREEN_BYTES, f"the first screen is {size} bytes"
    page = response.content.decode()
    assert page.count('<tr id="entry-') == STANDINGS_PAGE_ROWS
    assert 'id="entry-100000"' in page and 'id="entry-100050"' not in page
    pages = -(-FESTIVAL_UNIONS // STANDINGS_PAGE_ROWS)
    assert f"page={pages}" in page and 'rel="next"' in page
    # The live fragment (htmx) is the same page of rows, smaller still.
    fragment = Client().get(url(festival), headers={"HX-Request": "true"})
    assert len(fragment.content) < size and fragment.content.count(b'<tr id="entry-') == 50


def test_a_later_page_and_a_page_past_the_end(festival):
    page = Client().get(url(festival) + "?kind=unions&scope=event&page=3").content.decode()
    ranks = [int(r) for r in re.findall(r'<tr id="entry-\d+"><td class="num">(\d+)<', page)]
    assert ranks == list(range(101, 151))
    last = Client().get(url(festival) + "?page=999").content.decode()
    assert 'id="entry-101699"' in last and 'rel="next"' not in last
    # Junk is the first page, never a 500.
    for junk in ("x", "-1", "1" * 40, "٣"):
        assert Client().get(url(festival) + f"?page={junk}").status_code == 200


def test_jump_to_my_row(festival):
    response = Client().get(url(festival) + "?entry=101234")
    # Row 1,235 sits on page 25 (50 rows a page).
    assert response.status_code == 302
    assert response["Location"].endswith("?kind=unions&scope=event&page=25#entry-101234")
    page = Client().get(response["Location"].split("#")[0]).content.decode()
    assert 'id="entry-101234"' in page
    assert Client().get(url(festival) + "?entry=99").status_code == 404
    assert Client().get(url(festival) + "?entry=abc").status_code == 200  # ignored


def test_phone_columns_and_names_that_do_not_break(festival):
    page = Client().get(url(festival)).content.decode()
    head = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    shown = [
        re.sub(r"<.*?>", "", cell)
        for cell in re.findall(r'<th class="num">(.*?)</th>|<th>(.*?)</th>', head)
        for cell in cell
        if cell
    ]
    # What a phone shows in portrait; the others carry col-more (shown on tap, in landscape).
    assert shown == ["名次", "联邦", "场分", "净胜分"]
    assert head.count("col-more") == 5
    assert 'id="all-columns"' in page and "显示全部列" in page
    assert 'class="entry-name"' in page


def test_a_small_event_has_no_pager_and_the_players_keep_one_figure_on_a_phone():
    cache.clear()
    b = EventBuilder(unions=4, deals=1).register()
    b.play_rounds(1)
    standings.recompute_event(b.event.pk)
    page = Client().get(url(b)).content.decode()
    assert 'class="pager"' not in page and page.count('<tr id="entry-') == 4
    players = Client().get(url(b) + "?kind=players").content.decode()
    head = re.search(r"<thead>(.*?)</thead>", players, re.S).group(1)
    # Gou Ji's player columns: union, place points, points opened, burns, deals; a phone keeps
    # the place points.
    assert head.count("col-more") == 4 and '<th class="num">' in head
