"""The organiser's ladder page on a phone's terms (docs/ladder.md, "The page"): its tabs, the
teams by pinyin or by entry order, and the log worded in the reader's language, never with
the keys the code stores (vanguard-2, chief-1) nor in the language of whoever acted."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ladders.models import LadderLog
from ladders.views import LOG_PAGE
from tests.personas import make_user

pytestmark = pytest.mark.django_db

WIN = "10:0 10:0 10:0 10:0\n10:0 10:0 10:0 10:0"
DEFENDERS = ["张家队", "阿里队", "崂山队", "白沙队", "中山队", "安平队", "台东队", "李村队"]
CHALLENGERS = ["黄岛队", "市南队"]


@pytest.fixture
def ladder():
    user = make_user("laoli")
    client = Client()
    client.force_login(user)
    url = reverse("ladders-manage:season", args=[0]).replace("/0/", "/{}/")
    # An organiser who reads English does everything on the page, in English.
    en = {"HTTP_ACCEPT_LANGUAGE": "en"}
    assert (
        client.post(reverse("ladders-manage:seasons"), {"name": "2027 擂台赛"}, **en).status_code
        == 302
    )
    season = user.ladder_seasons.get()
    url = url.format(season.pk)
    text = "\n".join(f"{n} / 黄岛 / 甲、乙、丙" for n in DEFENDERS + CHALLENGERS)
    assert client.post(url, {"action": "teams", "teams": text}, **en).status_code == 302
    ids = dict(season.teams.values_list("name", "pk"))
    seed = {"action": "seed", "rank": [ids[n] for n in DEFENDERS]}
    assert client.post(url, seed, **en).status_code == 302
    assert client.post(url, {"action": "start"}, **en).status_code == 302
    session = season.sessions.get()
    first, second = list(session.challenges.order_by("pk"))[:2]
    assert (
        client.post(
            url, {"action": "result", "challenge": first.pk, "games": WIN}, **en
        ).status_code
        == 302
    )
    reschedule = {
        "action": "reschedule",
        "challenge": second.pk,
        "day": "2027-03-01",
        "challenger_agrees": "王队长",
        "defender_agrees": "李队长",
    }
    assert client.post(url, reschedule, **en).status_code == 302
    no_show = {"action": "no-show", "challenge": second.pk, "side": "defender"}
    assert client.post(url, no_show, **en).status_code == 302
    season.client, season.url, season.user = client, url, user
    return season


def page(season, language="zh-hans", **query) -> str:
    response = season.client.get(season.url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def details(html: str) -> list[str]:
    return re.findall(r'<span class="log-detail">(.*?)</span>', html, re.S)


def test_the_chinese_log_has_no_english_keys_and_the_english_log_no_chinese_words(ladder):
    zh = details(page(ladder, tab="log"))
    assert len(zh) == LadderLog.objects.filter(season=ladder).count() >= 7
    for line in zh:
        assert not re.search(r"[A-Za-z]", line), line  # no chief-1, no "Session 1 opened"
    joined = "\n".join(zh)
    assert "主将：张家队" in joined and "先锋 5：李村队" in joined
    assert "第 1 期开始" in joined
    assert "王队长" in joined and "2027-03-01" in joined
    en = "\n".join(details(page(ladder, "en", tab="log")))
    assert "Chief: 张家队" in en and "Session 1 opened" in en
    assert "chief-1" not in en and "第 1 期" not in en and "先锋" not in en


def test_a_line_written_before_the_values_were_kept_has_its_keys_worded(ladder):
    LadderLog.objects.create(
        season=ladder, by=ladder.user, action="title", detail="vanguard-2: 黄岛队"
    )
    LadderLog.objects.create(season=ladder, by=ladder.user, action="odd", detail="x", data={"n": 1})
    zh = details(page(ladder, tab="log"))
    assert "先锋 2: 黄岛队" in zh[0] or "先锋 2: 黄岛队" in zh[1]
    assert "odd" not in page(ladder, tab="log")  # an unknown action is not shown as its key


def test_the_first_tab_is_the_session_and_the_log_comes_a_page_at_a_time(ladder):
    first = page(ladder)
    assert 'class="card ladder-challenge"' in first and 'href="?tab=titles"' in first
    assert 'id="ladder-log"' not in first and 'id="ladder-teams"' not in first
    assert 'id="ladder-titles"' in page(ladder, tab="titles")
    assert 'data-tab="session" aria-current="page"' in first
    for k in range(2 * LOG_PAGE):
        LadderLog.objects.create(season=ladder, by=ladder.user, action="renamed", detail=f"{k}")
    total = LadderLog.objects.filter(season=ladder).count()
    one = page(ladder, tab="log")
    assert len(details(one)) == LOG_PAGE and 'id="log-pager"' in one
    last = page(ladder, tab="log", page=str((total - 1) // LOG_PAGE + 1))
    assert len(details(last)) == (total - 1) % LOG_PAGE + 1
    assert 'data-tab="session" aria-current="page"' in page(ladder, tab="nonsense<>")
    assert 'id="ladder-log"' in page(ladder, tab="log", page="x")  # a bad page: the first


def test_teams_are_listed_by_pinyin_or_in_the_order_they_were_entered(ladder):
    def order(html):
        return re.findall(r'<li class="card" data-team="\d+"><details><summary>([^ <]+)', html)

    by_pinyin = order(page(ladder, tab="teams"))
    assert by_pinyin[:3] == ["阿里队", "安平队", "白沙队"]  # a li, an ping, bai sha
    html = page(ladder, tab="teams", order="entry")
    assert order(html) == DEFENDERS + CHALLENGERS
    assert 'href="?tab=teams&amp;order=pinyin"' in html  # the toggle back
    assert order(page(ladder, tab="teams", order="bogus")) == by_pinyin


def test_a_team_action_returns_to_the_teams_tab_and_a_refusal_shows_it_there(ladder):
    team = ladder.teams.get(name="市南队")
    data = {"action": "edit-team", "team": team.pk, "name": "市南一队", "club": "", "members": ""}
    done = ladder.client.post(ladder.url, data)
    assert done.status_code == 302 and done["Location"].endswith("?tab=teams")
    refused = ladder.client.post(ladder.url, {**data, "name": "黄岛队"})
    assert refused.status_code == 400
    assert 'id="ladder-teams"' in refused.content.decode()
    assert 'data-tab="teams" aria-current="page"' in refused.content.decode()


def test_no_tab_is_anyone_elses(ladder):
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    for tab in ("session", "titles", "teams", "log"):
        assert stranger.get(ladder.url, {"tab": tab}).status_code == 403
    assert Client().get(ladder.url, {"tab": "log"}).status_code == 302  # to sign in
