"""Issue 37, problem 8: numbers that look final before they are.

- While a round is played the standings say "live: N of M tables final" (page, fragment, the
  files nginx serves, the projector), and it follows each table that becomes final: the
  snapshot moves, so the standings stamp (ETag) moves and the files are written again.
- No rank before an entry's first result ("–", on the standings and the private page).
- A shared rank shows as "=3", with the documented order of full ties under the table.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from matches.public import floor_passes, stamps
from matches.standings import service as standings
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

LANG = settings.LANGUAGE_COOKIE_NAME
A_WINS = [1, 2, 3, 4, 5, 6]  # union A finishes 1st, 3rd, 5th


def fragment(event, language="zh-hans", **headers) -> tuple[int, str, str]:
    client = Client()
    client.cookies[LANG] = language
    response = client.get(
        reverse("public:standings", args=[event.pk]),
        headers={"HX-Request": "true", **headers},
    )
    return response.status_code, response.content.decode(), response.get("ETag", "")


def test_live_n_of_m_tables_final_follows_each_result(
    settings, tmp_path, eager_tasks, django_capture_on_commit_callbacks
):
    settings.STANDINGS_FILES_DIR = str(tmp_path / "standings")
    b = EventBuilder(unions=4, deals=1).register()
    round_ = b.round([(0, 1), (2, 3)])
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    status, zh, etag = fragment(b.event)
    assert status == 200
    assert "进行中" in zh and "第 1 轮：2 桌中 0 桌已完成" in zh and "第 1 轮后" not in zh
    assert "round 1: 0 of 2 tables final" in fragment(b.event, "en")[1]
    written = tmp_path / "standings" / "events" / str(b.event.pk) / "standings" / "zh-hans.hx.html"
    assert "2 桌中 0 桌已完成" in written.read_text()
    stamp = stamps.standings_version(b.event)

    # One table becomes final: its commit queues the standings run (here in-process), whose
    # snapshot save forgets the standings stamp; the old ETag no longer answers 304.
    with django_capture_on_commit_callbacks(execute=True):
        b.final(b.match(round_, 1), 1, A_WINS)
    assert stamps.standings_version(b.event) != stamp
    status, zh, new_etag = fragment(b.event, **{"If-None-Match": etag})
    assert status == 200 and new_etag != etag
    assert "第 1 轮：2 桌中 1 桌已完成" in zh
    assert "2 桌中 1 桌已完成" in written.read_text()  # the file nginx serves, rewritten
    projector = Client().get(reverse("public:projector-standings", args=[b.event.pk]))
    assert "进行中：第 1 轮 2 桌中 1 桌已完成" in projector.content.decode()

    # The last table: the round's standings are final, said as before.
    with django_capture_on_commit_callbacks(execute=True):
        b.final(b.match(round_, 2), 1, A_WINS)
    _status, zh, _etag = fragment(b.event)
    assert "第 1 轮后" in zh and "进行中" not in zh
    assert "第 1 轮后" in written.read_text()
    english = Client()
    english.cookies[LANG] = "en"
    projector = english.get(reverse("public:projector-standings", args=[b.event.pk]))
    assert "After round 1" in projector.content.decode()


def _rank_cells(html: str) -> list[str]:
    import re

    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r'<tr id="entry-\d+"><td class="num">(.*?)</td>', html, re.S)
    ]


def test_no_rank_before_a_result_and_shared_ranks_are_marked(
    eager_tasks, django_capture_on_commit_callbacks
):
    b = EventBuilder(unions=4, deals=1).register()
    round_ = b.round([(0, 1), (2, 3)])
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    _status, zh, _etag = fragment(b.event)
    # Four unions, no result: no rank (was "1" for all four, in no visible order).
    assert _rank_cells(zh) == ["–"] * 4
    assert "按种子号、再按名称排列" in zh
    with django_capture_on_commit_callbacks(execute=True):
        b.final(b.match(round_, 1), 1, A_WINS)
        b.final(b.match(round_, 2), 1, A_WINS)
    _status, zh, _etag = fragment(b.event)
    # The two winners equal on every tie-break, the two losers too: "=1 =1 =3 =3", the
    # winners listed by seed then name.
    assert _rank_cells(zh) == ["=1", "=1", "=3", "=3"]
    en = fragment(b.event, "en")[1]
    assert "marks a shared rank" in en and "listed by seed, then name" in en


def test_the_private_page_shows_no_rank_before_the_first_result(
    eager_tasks, django_capture_on_commit_callbacks
):
    b = EventBuilder(unions=4, deals=1).register()
    round_ = b.round([(0, 1), (2, 3)])
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    union = b.match(round_, 1).union_a
    url = reverse("my-page", args=[floor_passes.pass_token(b.event, union=union)])
    page = Client().get(url).content.decode()
    assert '<span class="muted">/4</span>' not in page  # was "1/4" before any game
    assert 'title="还没有成绩"' in page
    with django_capture_on_commit_callbacks(execute=True):
        b.final(b.match(round_, 1), 1, A_WINS)
    page = Client().get(url).content.decode()
    assert '1<span class="muted">/4</span>' in page
