"""净胜分 on the public standings is the figure the table wrote: a match the sheet records as
A +4 : B −4 shows 4 and −4 on the standings, the same numbers the union pages show."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.builder import EventBuilder

A_BY_TWO = [1, 2, 3, 4, 5, 6]  # seats 1-3-5 (A) take 1st, 3rd, 5th: A +2, B −2 a deal


@pytest.fixture
def played(db, eager_tasks, client):
    b = EventBuilder(unions=2, deals=2).register()
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, A_BY_TWO, points=[1])
    b.final(match, 2, A_BY_TWO, points=[1])
    b.close(round_)
    b.standings()
    return b


def standings_figures(client, event) -> dict[str, int]:
    html = client.get(reverse("public:standings", args=[event.pk])).content.decode()
    figures = {}
    for row in re.findall(r'<tr id="entry-\d+">(.*?)</tr>', html, re.S):
        found = re.search(r'class="entry-name"><a [^>]*>([^<]+)</a>', row)
        assert found, row
        name = found.group(1)
        cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
        figures[name] = int(cells[5])  # 名次, 场分, 胜-平-负, 轮空, 弃权, 净胜分
    return figures


def union_page_score(client, event, union) -> str:
    html = client.get(reverse("public:union", args=[event.pk, union.pk])).content.decode()
    found = re.search(r'<td class="num">(-?\d+ : -?\d+)</td>', html)
    assert found, html
    return found.group(1)


def test_standings_show_the_sheets_figure_not_twice_it(client, played):
    event = played.event
    a, b = played.unions
    assert union_page_score(client, event, a) == "4 : -4"
    assert union_page_score(client, event, b) == "-4 : 4"
    assert standings_figures(client, event) == {a.name: 4, b.name: -4}
