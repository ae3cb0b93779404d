"""Public pages and the public API: published data only, silent results hidden, ETag/304."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.standings import service as standings

A_BY_TWO = [1, 2, 3, 4, 5, 6]


@pytest.fixture
def played(build):
    """A published event: round 1 closed-ish with results, round 2 silent with results, round 3 draft."""
    b = build(unions=4, deals=1)
    r1 = b.round([(0, 1), (2, 3)])
    b.final(b.match(r1, 1), 1, A_BY_TWO, points=[1])
    b.final(b.match(r1, 2), 1, A_BY_TWO, points=[1])
    r2 = b.round([(0, 2), (1, 3)], silent=True)
    b.final(b.match(r2, 1), 1, [2, 1, 4, 3, 6, 5], points=[2])
    r3 = b.round([(0, 3), (1, 2)], publish=False)
    standings.recompute_event(b.event.pk)
    return b, r1, r2, r3


def test_home_lists_published_events_only(client, played, build):
    hidden = build(unions=2, published=False)
    hidden.event.name = "内部测试赛"
    hidden.event.save()
    page = client.get("/").content.decode()
    assert played[0].event.name in page and "内部测试赛" not in page


def test_an_unpublished_event_is_invisible_everywhere(client, build):
    b = build(unions=2, deals=1, published=False)
    r1 = b.round([(0, 1)])
    e = b.event.pk
    for url in (
        reverse("public:event", args=[e]),
        reverse("public:round", args=[e, 1]),
        reverse("public:standings", args=[e]),
        reverse("public:table", args=[e, 1, 1]),
        f"/api/v1/public/events/{e}/",
        f"/api/v1/public/events/{e}/standings/",
        f"/api/v1/public/events/{e}/rounds/1/pairings/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.get("/api/v1/public/events/").json() == {"events": []}
    assert r1  # the round exists, only unpublished


def test_draft_rounds_are_invisible(client, played):
    b, r1, r2, r3 = played
    e = b.event.pk
    assert client.get(reverse("public:round", args=[e, 3])).status_code == 404
    assert client.get(f"/api/v1/public/events/{e}/rounds/3/pairings/").status_code == 404
    assert [
        r["number"] for r in client.get(f"/api/v1/public/events/{e}/rounds/").json()["rounds"]
    ] == [1, 2]
    event_page = client.get(reverse("public:event", args=[e])).content.decode()
    assert reverse("public:round", args=[e, 3]) not in event_page


def test_a_silent_round_shows_pairings_without_results(client, played):
    b, r1, r2, r3 = played
    e = b.event.pk
    page = client.get(reverse("public:round", args=[e, 2])).content.decode()
    assert b.unions[0].name in page and "本轮成绩不公开" in page
    silent_score = b.match(r2, 1)
    silent_score.refresh_from_db()
    assert silent_score.points_a is not None  # the result exists...
    data = client.get(f"/api/v1/public/events/{e}/rounds/2/pairings/").json()
    assert all("result" not in t for t in data["tables"])  # ...but is not shown
    assert data["tables"][0]["union_a"]["players"][0]["seat"] == 1
    visible = client.get(f"/api/v1/public/events/{e}/rounds/1/pairings/").json()
    assert visible["tables"][0]["result"]["points_a"] == 3
    table = client.get(reverse("public:table", args=[e, 2, 1])).content.decode()
    assert "本轮成绩不公开" in table


def test_public_standings_stop_before_a_silent_round(client, played):
    b, r1, r2, r3 = played
    data = client.get(f"/api/v1/public/events/{b.event.pk}/standings/").json()
    assert data["round"] == 1 and data["kind"] == "unions"
    assert [row["match_points"] for row in data["rows"]] == [3, 3, 0, 0]
    page = client.get(reverse("public:standings", args=[b.event.pk])).content.decode()
    assert "第 1 轮后" in page and "第 2 轮后" not in page
    players = client.get(f"/api/v1/public/events/{b.event.pk}/standings/?kind=players").json()
    assert players["rows"][0]["place_points"] == 2
    assert client.get(f"/api/v1/public/events/{b.event.pk}/standings/?kind=nope").status_code == 404


def test_unchanged_pages_answer_304_and_change_when_a_result_arrives(client, build):
    b = build(unions=2, deals=2)
    r1 = b.round([(0, 1)])
    url = reverse("public:standings", args=[b.event.pk])
    first = client.get(url, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert first.status_code == 200 and "must-revalidate" in first["Cache-Control"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    api = f"/api/v1/public/events/{b.event.pk}/standings/"
    tag = client.get(api)["ETag"]
    assert client.get(api, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_player_and_union_pages(client, played):
    b, r1, r2, r3 = played
    e = b.event.pk
    player = b.unions[0].players_in_order()[0]
    page = client.get(reverse("public:player", args=[e, player.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert player.name in text and "不公开" in text  # round 2 is silent
    union_page = client.get(reverse("public:union", args=[e, b.unions[0].pk])).content.decode()
    assert "<svg" in union_page and "<circle" in union_page
    other = build_other_event_player(b)
    assert client.get(reverse("public:player", args=[e, other.pk])).status_code == 404


def build_other_event_player(b):
    from players.models import Player

    return Player.objects.create(name="局外人")


def test_event_api_lists_rounds(client, played):
    b = played[0]
    data = client.get(f"/api/v1/public/events/{b.event.pk}/").json()
    assert data["name"] == b.event.name
    assert [(r["number"], r["results_visible"]) for r in data["rounds"]] == [(1, True), (2, False)]
    missing = client.get("/api/v1/public/events/999999/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_the_table_page_shows_each_deal_and_the_tributes_owed(client, build):
    b = build(unions=2, deals=2)
    r1 = b.round([(0, 1)])
    match = b.match(r1, 1)
    b.final(match, 1, [1, 3, 5, 2, 4, 6], points=[1, 3, 5])
    standings.recompute_event(b.event.pk)
    page = client.get(reverse("public:table", args=[b.event.pk, 1, 1])).content.decode()
    names = {s.seat: s.player.name for s in match.table.seats.select_related("player")}
    # One card per deal, the tributes folded, the count in words ("1 张", "1 card" in English).
    assert f"串三户贡: 6 {names[6]} → 3 {names[3]} · 1 张" in page
    assert '<details class="deal-tributes">' in page
    assert " +12</span>" in page and " -12</span>" in page
    english = client.get(
        reverse("public:table", args=[b.event.pk, 1, 1]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert f"6 {names[6]} → 3 {names[3]} · 1 card<" in english


def test_an_individual_event_shows_player_standings_everywhere(client, build):
    from django.contrib.auth import get_user_model

    from matches.models import Event

    get_user_model().objects.create_superuser("su", password="pw")
    b = (
        build(
            entry_type=Event.EntryType.INDIVIDUAL,
            players=18,
            deals=1,
            confirmation=Event.Confirmation.NONE,
        )
        .play_rounds(2)
        .standings()
    )
    event = b.event
    api = client.get(f"/api/v1/public/events/{event.pk}/standings/").json()
    assert api["kind"] == "players" and len(api["rows"]) == 18
    page = client.get(reverse("public:standings", args=[event.pk])).content.decode()
    assert api["rows"][0]["name"] in page and 'data-kind="players"' in page
    assert client.get(f"/api/v1/public/events/{event.pk}/standings/?kind=unions").status_code == 404
    client.login(username="su", password="pw")
    for url in (
        reverse("manage:dashboard", args=[event.pk]),
        reverse("manage:register", args=[event.pk]),
        reverse("manage:export", args=[event.pk, "standings", "csv"]),
    ):
        assert client.get(url).status_code == 200, url


def test_live_fragments_are_shared_from_the_cache_and_full_pages_are_not(client, build):
    b = build(unions=2, deals=1)
    r1 = b.round([(0, 1)])
    url = reverse("public:standings", args=[b.event.pk])
    fragment = client.get(url, HTTP_HX_REQUEST="true").content
    assert b"csrf" not in fragment.lower()
    viewer = b.people.stranger
    client.force_login(viewer)
    assert client.get(url, HTTP_HX_REQUEST="true").content == fragment  # from the cache
    assert viewer.username.encode() in client.get(url).content  # a full page is the visitor's own
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    assert client.get(url, HTTP_HX_REQUEST="true").content != fragment  # a new ETag, a new page


def head_rival_cells(html: str) -> list[str]:
    import re

    cells = re.findall(r'<td class="head-rival">(.*?)</td>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


def test_the_event_s_player_page_names_each_round_s_head_rival(client, played):
    """Issue 46 (smaller): the seat facing the player's (R2), round by round, with a link to
    their page; a round whose draw is not public (round 3, a draft) shows none."""
    b, r1, r2, _r3 = played
    player = b.unions[0].players_in_order()[0]  # seat 1 at table 1 of rounds 1 and 2
    rival_1 = r1.tables.get(number=1).seats.get(seat=4).player
    rival_2 = r2.tables.get(number=1).seats.get(seat=4).player
    assert rival_1 == b.unions[1].players_in_order()[1]
    html = client.get(reverse("public:player", args=[b.event.pk, player.pk])).content.decode()
    assert head_rival_cells(html) == [f"4 {rival_1.name}", f"4 {rival_2.name}"]
    assert reverse("public:player", args=[b.event.pk, rival_1.pk]) in html
    assert "本轮对头" in html
    client.cookies["django_language"] = "en"
    english = client.get(reverse("public:player", args=[b.event.pk, player.pk])).content.decode()
    assert "Head rival" in english


def test_at_eight_seats_the_head_rival_sits_four_seats_on(client, build):
    b = build(unions=2, deals=1, rules={"preset": "eight-players"})
    r1 = b.round([(0, 1)])
    table = r1.tables.get()
    assert table.seats.count() == 8
    player = table.seats.get(seat=2).player
    rival = table.seats.get(seat=6).player  # R45: 2 faces 6
    html = client.get(reverse("public:player", args=[b.event.pk, player.pk])).content.decode()
    assert head_rival_cells(html) == [f"6 {rival.name}"]
