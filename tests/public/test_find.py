"""Issue 26: find my table (the API and the page), the entry card, my page and its token.

A team event of four unions (黄岛五队, 市北一队, 崂山二队, 李沧三队) in two clubs; round 1 has
黄岛五队 (A) against 市北一队 (B) at table 1 and 崂山二队 against 李沧三队 at table 2.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Event, FloorPass, RefereeZone, Registration, SearchTerm
from matches.public import find, find_terms, floor_passes
from matches.views.live import player_stream_url
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

NAMES = ["黄岛五队", "市北一队", "崂山二队", "李沧三队"]
PLAYERS = [
    "王建国", "李红", "张伟",
    "赵强", "钱明", "孙丽",
    "周杰", "吴刚", "郑爽",
    "冯军", "陈静", "褚亮",
]  # fmt: skip


@pytest.fixture
def b(eager_tasks) -> EventBuilder:
    builder = EventBuilder(
        unions=4,
        deals=2,
        names=NAMES,
        player_names=PLAYERS,
        clubs=["青岛港俱乐部", "崂山俱乐部"],  # type: ignore[arg-type]
    ).register()
    RefereeZone.objects.create(event=builder.event, name="A区", first_table=1, last_table=10)
    return builder


def api(event, q, client=None):
    return (client or Client()).get(f"/api/v1/events/{event.pk}/find", {"q": q})


def first(response) -> dict:
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert results, response.json()
    return results[0]


def test_pinyin_initials_find_the_union_and_its_table(b):
    b.round([(0, 1), (2, 3)])
    hit = first(api(b.event, "hdwd"))
    assert (hit["kind"], hit["name"]) == ("union", "黄岛五队")
    place = hit["place"]
    assert place["table"] == 1 and place["side"] == "A" and place["seats"] == [1, 3, 5]
    assert place["opponents"] == ["市北一队"] and place["zone"] == "A区"
    assert hit["card"] == reverse("public:card-union", args=[b.event.pk, b.unions[0].pk])
    # Upper case and spaces are folded; the other side of the table sees the other side.
    assert first(api(b.event, " SB YD "))["place"]["opponents"] == ["黄岛五队"]


def test_full_pinyin_a_suffix_and_a_players_name(b):
    b.round([(0, 1), (2, 3)])
    assert first(api(b.event, "huangdaowudui"))["name"] == "黄岛五队"
    assert first(api(b.event, "wudui"))["name"] == "黄岛五队"
    assert first(api(b.event, "五队"))["name"] == "黄岛五队"
    hit = first(api(b.event, "zhangwei"))  # 张伟 of 黄岛五队, third seat of side A
    assert (hit["kind"], hit["name"], hit["union"]) == ("player", "张伟", "黄岛五队")
    assert hit["place"]["seats"] == [5] and hit["place"]["side"] == "A"
    assert hit["place"]["partners"] == ["王建国", "李红"]
    assert hit["place"]["opponents"] == ["市北一队"]
    assert first(api(b.event, "zw"))["name"] == "张伟"


def test_club_and_entry_number(b):
    b.round([(0, 1), (2, 3)])
    names = {r["name"] for r in api(b.event, "laoshanjulebu").json()["results"]}
    # 崂山俱乐部 is the club of the second and fourth unions and of their players.
    assert {"市北一队", "李沧三队", "赵强", "冯军"} <= names
    assert "黄岛五队" not in names
    hit = first(api(b.event, "3"))  # entry number 3: 崂山二队
    assert (hit["name"], hit["entry"]) == ("崂山二队", 3)
    assert hit["place"]["table"] == 2


def test_a_held_round_is_not_shown(b):
    b.report_all(b.round([(0, 1), (2, 3)])).close()
    # Round 2 drawn but not published: round 1's table still answers, round 2's never.
    b.round([(0, 2), (1, 3)], publish=False)
    body = api(b.event, "hdwd").json()
    assert body["round"] == 1 and body["results"][0]["place"]["opponents"] == ["市北一队"]
    assert "崂山二队" not in str(body["results"][0]["place"])
    page = Client().get(reverse("public:find", args=[b.event.pk]), {"q": "hdwd"})
    assert "市北一队" in page.content.decode() and "崂山二队" not in page.content.decode()
    b.publish()
    body = api(b.event, "hdwd").json()
    assert body["round"] == 2 and body["results"][0]["place"]["opponents"] == ["崂山二队"]


def test_a_draw_released_after_close_shows_no_seat_until_then(b):
    Event.objects.filter(pk=b.event.pk).update(release_draw=Event.Release.AFTER_CLOSE)
    b.round([(0, 1), (2, 3)])
    body = api(b.event, "hdwd").json()
    assert body["round"] is None and body["results"][0]["place"] is None
    b.report_all().close()
    assert api(b.event, "hdwd").json()["results"][0]["place"]["table"] == 1


@pytest.mark.parametrize("q", ["", "   ", "x" * 41, "·-_", "\x00", "\x00\x01 "])
def test_bad_input_is_a_clear_400(b, q):
    response = api(b.event, q)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_query"
    page = Client().get(reverse("public:find", args=[b.event.pk]), {"q": q})
    assert page.status_code in (200, 400)  # an empty box shows the form, the rest say why


def test_no_query_a_miss_and_an_unpublished_event(b):
    assert Client().get(f"/api/v1/events/{b.event.pk}/find").status_code == 400
    assert api(b.event, "qqqqqq").json()["results"] == []
    Event.objects.filter(pk=b.event.pk).update(published=False)
    assert api(b.event, "hdwd").status_code == 404
    assert Client().get(reverse("public:find", args=[b.event.pk]), {"q": "hdwd"}).status_code == 404


def test_renaming_reindexes(b):
    union = b.unions[0]
    union.name = "四方队"
    union.save()
    assert api(b.event, "hdwd").json()["results"] == []
    assert first(api(b.event, "sfd"))["name"] == "四方队"
    player = b.unions[1].players_in_order()[0]
    player.name = "欧阳修"
    player.save()
    assert first(api(b.event, "oyx"))["name"] == "欧阳修"
    assert find_terms.reindex_event(b.event) == SearchTerm.objects.filter(event=b.event).count()


def test_a_save_that_leaves_names_alone_writes_no_terms(b, django_assert_num_queries):
    union = b.unions[0]
    with django_assert_num_queries(1):  # the UPDATE of the PIN only: no reindexing
        union.save(update_fields=["captain_pin"])
    union.name = "四方队"
    union.save(update_fields=["name"])  # an edit that names its fields still reindexes
    assert first(api(b.event, "sfd"))["name"] == "四方队"


def test_the_page_answers_htmx_with_its_fragment(b):
    b.round([(0, 1), (2, 3)])
    url = reverse("public:find", args=[b.event.pk])
    full = Client().get(url, {"q": "hdwd"})
    assert 'id="find-q"' in full.content.decode() and 'data-table="1"' in full.content.decode()
    fragment = Client().get(url, {"q": "hdwd"}, headers={"HX-Request": "true"})
    text = fragment.content.decode()
    assert "<html" not in text and 'data-table="1"' in text and "市北一队" in text
    # The search box sits on the event's other public pages.
    event_page = Client().get(reverse("public:event", args=[b.event.pk])).content.decode()
    assert f'action="{url}"' in event_page


def test_the_page_and_its_fragment_share_an_address_and_vary_on_htmx(b):
    """One address answers htmx with the fragment and the browser with the page: a cache that
    kept the fragment must not give it for Enter's plain GET (the page became the bare,
    unstyled list). Every answer says it varies on HX-Request; the fragment comes from the
    shared answer, the page around it is whole."""
    b.round([(0, 1), (2, 3)])
    url = reverse("public:find", args=[b.event.pk])
    client = Client()
    fragment = client.get(url, {"q": "hdwd"}, headers={"HX-Request": "true"})
    page = client.get(url, {"q": "hdwd"})
    for response in (fragment, page):
        assert response.status_code == 200
        vary = {v.strip().lower() for v in response["Vary"].split(",")}
        assert {"hx-request", "cookie", "accept-language"} <= vary, response["Vary"]
        assert "public" in response["Cache-Control"]
    assert "<html" not in fragment.content.decode()
    text = page.content.decode()
    assert text.startswith("<!doctype html>") and 'id="find-q"' in text and "find.css" in text
    assert 'id="find-results"' in text and "市北一队" in text and "data-search-pending" in text
    assert fragment.content.decode().strip() in text  # the same answer inside the page
    bad = client.get(url, {"q": "x" * 41})
    assert bad.status_code == 400 and "hx-request" in bad["Vary"].lower()


def test_searches_per_address_have_an_allowance(b, settings):
    """A hall behind one address searches freely up to the allowance; beyond it the address
    gets 429 with Retry-After (page and API alike), and another address is not touched."""
    settings.RATE_LIMITS = {"find_requests": {"limit": 4, "window": 10}}
    b.round([(0, 1), (2, 3)])
    url = reverse("public:find", args=[b.event.pk])
    hall = Client(REMOTE_ADDR="10.8.0.1")
    assert [hall.get(url, {"q": q}).status_code for q in ("h", "hd", "hdw")] == [200] * 3
    assert api(b.event, "hdwd", hall).status_code == 200
    for refused in (hall.get(url, {"q": "hdwd"}), api(b.event, "hdwd", hall)):
        assert refused.status_code == 429
        assert 0 < int(refused["Retry-After"]) <= 10
        assert "X-Accel-Expires" not in refused  # never kept by the front cache
    assert Client(REMOTE_ADDR="10.8.0.2").get(url, {"q": "hdwd"}).status_code == 200


def test_the_card_shows_released_results_only(b):
    round_ = b.round([(0, 1), (2, 3)])
    b.report_all(round_).close()
    b.standings()
    b.round([(0, 2), (1, 3)])  # round 2 published, not played
    url = reverse("public:card-union", args=[b.event.pk, b.unions[0].pk])
    text = Client().get(url).content.decode()
    assert 'data-round="1"' in text and 'data-round="2"' in text
    assert "市北一队" in text and "崂山二队" in text
    match = b.match(round_, 1)
    assert f"{match.score_a} : {match.score_b}" in text
    player = b.unions[0].players_in_order()[0]
    assert (
        Client().get(reverse("public:card-player", args=[b.event.pk, player.pk])).status_code == 200
    )
    stranger = EventBuilder(unions=2, names=["外队一", "外队二"]).register()
    other = stranger.unions[0]
    assert (
        Client().get(reverse("public:card-union", args=[b.event.pk, other.pk])).status_code == 404
    )
    outsider = other.players_in_order()[0]
    assert (
        Client().get(reverse("public:card-player", args=[b.event.pk, outsider.pk])).status_code
        == 404
    )


# --- my page ---------------------------------------------------------------------------------------


def test_my_page_shows_the_seat_the_moment_the_round_is_published(b):
    Event.objects.filter(pk=b.event.pk).update(release_draw=Event.Release.AFTER_CLOSE)
    player = b.unions[0].players_in_order()[2]
    token = floor_passes.pass_token(b.event, player=player)
    url = reverse("my-page", args=[token])
    round_ = b.round([(0, 1), (2, 3)], publish=False)
    text = Client().get(url).content.decode()
    assert 'data-table="1"' not in text  # a draft is nobody's
    b.publish(round_)
    response = Client().get(url)
    text = response.content.decode()
    assert 'data-table="1"' in text and "市北一队" in text and "A区" in text
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    # The page listens to the player's own signed stream (docs/live.md), which that URL opens.
    stream = re.search(r'<meta name="live-stream" content="([^"]+)"', text).group(1)
    assert stream == player_stream_url(player.pk)
    assert 'hx-trigger="every 15s, live from:body"' in text
    # The public still sees nothing of the draw (released after the round closes).
    assert api(b.event, "zhangwei").json()["results"][0]["place"] is None


def test_the_token_boundary(b):
    token = floor_passes.pass_token(b.event, union=b.unions[0])
    assert floor_passes.pass_token(b.event, union=b.unions[0]) == token  # made once
    assert len(token) >= 24
    client = Client()
    for bad in ("x", token[:-1], token + "x", token.upper() if token.upper() != token else "y"):
        assert client.get(f"/me/{bad}/").status_code == 404
    assert client.post("/me/nothing/").status_code == 404
    assert client.get(f"/me/{token}/").status_code == 200
    assert client.get(f"/me/{'a' * 300}/").status_code == 404
    assert client.get("/me/%00abc/").status_code == 404
    assert client.get("/me/%E9%BB%84/").status_code == 404
    # A pass opens its own page only: another union's page is another token.
    other = floor_passes.pass_token(b.event, union=b.unions[1])
    assert other != token and "市北一队" in client.get(f"/me/{other}/").content.decode()


def test_self_check_in_from_my_page_where_the_event_allows(eager_tasks):
    b = EventBuilder(unions=2, names=["黄岛五队", "市北一队"]).register(check_in=False)
    token = floor_passes.pass_token(b.event, union=b.unions[0])
    client = Client()
    client.post(f"/me/{token}/")
    entry = Registration.objects.get(union=b.unions[0])
    assert entry.status == Registration.Status.REGISTERED  # not allowed here
    Event.objects.filter(pk=b.event.pk).update(self_check_in=True)
    response = client.post(f"/me/{token}/")
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Registration.Status.CHECKED_IN
    assert Registration.objects.get(union=b.unions[1]).status == Registration.Status.REGISTERED
    # A player's badge in a team event has no entry of its own to check in.
    player = b.unions[1].players_in_order()[0]
    client.post(f"/me/{floor_passes.pass_token(b.event, player=player)}/")
    assert Registration.objects.get(union=b.unions[1]).status == Registration.Status.REGISTERED


def test_the_badge_sheet_gives_everyone_a_pass(b):
    client = Client()
    client.force_login(b.organiser)
    response = client.get(reverse("manage:badges", args=[b.event.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert FloorPass.objects.filter(event=b.event).count() == 4 + 12
    assert text.count("<svg") == 16 and "王建国" in text and "黄岛五队" in text
    token = FloorPass.objects.get(event=b.event, player=b.unions[0].players_in_order()[0]).token
    assert f"/me/{token}/" in text
    assert (
        client.get(reverse("manage:badges", args=[b.event.pk]), {"page": "x9"}).status_code == 200
    )


def test_a_search_costs_the_same_few_queries_however_many_it_finds(
    b, django_assert_max_num_queries
):
    """One indexed lookup of the terms, then a fixed number of reads for all the hits."""
    b.round([(0, 1), (2, 3)])
    client = Client()
    api(b.event, "x", client)  # the first request of a process reads the sessions' tables
    for q in ("hdwd", "julebu", "1"):  # one hit; every union and player of two clubs; numbers
        with django_assert_max_num_queries(11):
            assert api(b.event, q, client).status_code == 200
    assert len(api(b.event, "julebu").json()["results"]) == 16


def test_the_reindex_command_restores_lost_terms(b):
    from io import StringIO

    from django.core.management import CommandError, call_command

    SearchTerm.objects.filter(event=b.event).delete()  # as after an upgrade
    assert api(b.event, "hdwd").json()["results"] == []
    out = StringIO()
    call_command("find_reindex", str(b.event.pk), stdout=out)
    assert f"event {b.event.pk}:" in out.getvalue()
    assert first(api(b.event, "hdwd"))["name"] == "黄岛五队"
    with pytest.raises(CommandError):
        call_command("find_reindex", "999999")


# --- the index each process keeps (find_version): warm, it must never answer stale --------------


def test_a_warm_search_reads_only_the_event(b, django_assert_num_queries):
    """Once a process has read the event's index, a search is the event's row and a cached
    stamp: no query for the terms, the names or the seats, however many it finds."""
    b.round([(0, 1), (2, 3)])
    client = Client()
    api(b.event, "x", client)  # builds the index (and reads the sessions' tables once)
    for q in ("hdwd", "julebu", "1", "qqqq"):
        with django_assert_num_queries(1):
            assert api(b.event, q, client).status_code == 200
    url = reverse("public:find", args=[b.event.pk])
    with django_assert_num_queries(1):
        page = client.get(url, {"q": "julebu"}, headers={"HX-Request": "true"})
    assert page.content.decode().count('class="find-hit"') == 16


def test_renames_show_at_once_in_a_warm_index(b):
    from players.models import Club

    b.round([(0, 1), (2, 3)])
    hit = first(api(b.event, "hdwd"))  # warm
    assert hit["place"]["opponents"] == ["市北一队"] and hit["club"] == "青岛港俱乐部"
    # The opponent renamed: its own terms and everyone's answers that name it.
    b.unions[1].name = "四方队"
    b.unions[1].save()
    assert first(api(b.event, "hdwd"))["place"]["opponents"] == ["四方队"]
    # A partner renamed: a player's answer lists their table's side by name.
    partner = b.unions[0].players_in_order()[1]
    partner.name = "欧阳修"
    partner.save()
    assert first(api(b.event, "zhangwei"))["place"]["partners"] == ["王建国", "欧阳修"]
    # A club renamed, a zone renamed, an entry renumbered.
    club = Club.objects.get(name="青岛港俱乐部")
    club.name = "港城俱乐部"
    club.save()
    assert first(api(b.event, "hdwd"))["club"] == "港城俱乐部"
    zone = RefereeZone.objects.get(event=b.event)
    zone.name = "B区"
    zone.save()
    assert first(api(b.event, "hdwd"))["place"]["zone"] == "B区"
    entry = Registration.objects.get(union=b.unions[0])
    entry.seed = 77
    entry.save()
    assert first(api(b.event, "hdwd"))["entry"] == 77
    # The page's fragment reads the same index.
    url = reverse("public:find", args=[b.event.pk])
    text = Client().get(url, {"q": "hdwd"}, headers={"HX-Request": "true"}).content.decode()
    assert "四方队" in text and "港城俱乐部" in text and "B区" in text


def test_a_publication_and_an_unpublication_show_at_once_in_a_warm_index(b):
    from matches.draw import late

    b.report_all(b.round([(0, 1), (2, 3)])).close()
    second = b.round([(0, 2), (1, 3)], publish=False)
    assert api(b.event, "hdwd").json()["round"] == 1  # warm, round 2 held
    b.publish(second)
    body = api(b.event, "hdwd").json()
    assert body["round"] == 2 and body["results"][0]["place"]["opponents"] == ["崂山二队"]
    late.unpublish_round(second)
    body = api(b.event, "hdwd").json()
    assert body["round"] == 1 and "崂山二队" not in str(body["results"][0]["place"])


def test_two_players_exchanging_seats_in_a_published_round_show_at_once(b, settings):
    """A swap of two entries leaves every sum of the seats as it was (the old checksum stamp
    could not see it): the counter moves with the seats' own writes."""
    from matches.models import TableSeat

    settings.PUBLIC_VERSION_SECONDS = 600
    round_ = b.round([(0, 1), (2, 3)])
    assert first(api(b.event, "zhangwei"))["place"]["table"] == 1  # warm
    assert first(api(b.event, "zhouji"))["place"]["table"] == 2
    zhang = TableSeat.objects.get(round=round_, player__name="张伟")
    zhou = TableSeat.objects.get(round=round_, player__name="周杰")
    zhang.player_id, zhou.player_id = zhou.player_id, zhang.player_id
    for seat in (zhang, zhou):  # two exchanged values, written row by row
        TableSeat.objects.filter(pk=seat.pk).update(player_id=-seat.pk - 1000)
    for seat in (zhang, zhou):
        seat.save()
    assert first(api(b.event, "zhangwei"))["place"]["table"] == 2
    assert first(api(b.event, "zhouji"))["place"]["table"] == 1


def test_a_swap_in_the_draft_shows_when_the_round_is_published(b):
    from matches.draw import hand_swaps

    b.report_all(b.round([(0, 1), (2, 3)])).close()
    second = b.round([(0, 2), (1, 3)], publish=False)
    assert first(api(b.event, "hdwd"))["place"]["round"] == 1  # warm, round 2 held
    hand_swaps.swap_unions(second, b.unions[2], b.unions[3])
    assert first(api(b.event, "hdwd"))["place"]["round"] == 1  # a draft is not public
    b.publish(second)
    assert first(api(b.event, "hdwd"))["place"]["opponents"] == ["李沧三队"]


def test_the_counter_moves_with_what_an_answer_shows_only(b):
    from matches.public import stamps

    b.round([(0, 1), (2, 3)])
    before = stamps.find_version(b.event.pk)
    assert stamps.find_version(b.event.pk) == before
    b.report_all()  # results: the answers show no result, the index stays
    assert stamps.find_version(b.event.pk) == before
    b.unions[2].name = "新名字"
    b.unions[2].save()
    assert stamps.find_version(b.event.pk) != before


def test_a_lost_counter_starts_again_elsewhere(b):
    """A cache that lost the counter (a restart of Redis) must not give a process the count its
    old index was read at: it starts again at a random number."""
    from django.core.cache import cache

    from matches.public import stamps

    seen = {stamps.find_version(b.event.pk)}
    for _ in range(5):
        cache.delete(stamps._find_key(b.event.pk))
        seen.add(stamps.find_version(b.event.pk))
    assert len(seen) == 6


def test_the_events_release_settings_count_at_once_even_written_by_update(b):
    """The stamp is cached, but each search mixes in the event's settings as it read them."""
    b.round([(0, 1), (2, 3)])
    assert first(api(b.event, "hdwd"))["place"]["table"] == 1  # warm
    Event.objects.filter(pk=b.event.pk).update(release_draw=Event.Release.AFTER_CLOSE)
    body = api(b.event, "hdwd").json()
    assert body["round"] is None and body["results"][0]["place"] is None
    Event.objects.filter(pk=b.event.pk).update(published=False)
    assert api(b.event, "hdwd").status_code == 404


def test_each_language_gets_its_own_rendered_hits(b, settings):
    b.round([(0, 1), (2, 3)])
    url = reverse("public:find", args=[b.event.pk])
    zh = Client().get(url, {"q": "hdwd"}, headers={"HX-Request": "true"}).content.decode()
    assert "对手：" in zh and "Opponents" not in zh
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    en = english.get(url, {"q": "hdwd"}, headers={"HX-Request": "true"}).content.decode()
    assert "Opponents" in en and "对手：" not in en and "Union" in en
    again = Client().get(url, {"q": "hdwd"}, headers={"HX-Request": "true"}).content.decode()
    assert again == zh


def test_a_late_arrival_on_a_published_round_shows_at_once(b, settings):
    """A late change writes seats, a table and the bye's match; the round's flags and its audit
    entry are saved with them, so the next search reads the stamp (and so the seats) anew, long
    before it expires."""
    from matches.draw import late

    settings.PUBLIC_VERSION_SECONDS = 600

    round_ = b.round([(0, 1), (2, None)])  # 李沧三队 (3) not drawn, 崂山二队 (2) has the bye
    bye = first(api(b.event, "lsed"))  # warm
    assert bye["name"] == "崂山二队" and bye["place"]["bye"] is True
    assert first(api(b.event, "lcsd"))["place"] is None
    late.late_add(round_, b.unions[3])
    arrived = first(api(b.event, "lcsd"))["place"]
    assert arrived["table"] == 2 and arrived["opponents"] == ["崂山二队"]
    assert first(api(b.event, "lsed"))["place"]["opponents"] == ["李沧三队"]


# --- the index is bounded: no sequence of searches makes each one a rebuild ------------------------


def test_searching_more_events_than_a_process_keeps_rebuilds_within_its_allowance(
    b, monkeypatch, django_assert_max_num_queries
):
    """Each process keeps `INDEX_EVENTS` indexes. Searching one event more than that in turn
    used to read a whole index for every search; now an index for an event the process holds
    none of is read only within its allowance, and beyond it the answer comes from the
    database, the same answer."""
    b.round([(0, 1), (2, 3)])
    others = []
    for _ in range(find.INDEX_EVENTS):
        other = EventBuilder(unions=4, deals=2, names=NAMES, player_names=PLAYERS).register()
        other.round([(0, 1), (2, 3)])
        others.append(other)
    builds = []
    real = find._Index

    def counted(event, version):
        builds.append(event.pk)
        return real(event, version)

    monkeypatch.setattr(find, "_Index", counted)
    monkeypatch.setattr(find, "_indexes", find.OrderedDict())
    monkeypatch.setattr(find, "_allowance", {"seconds": 0.0, "at": find.time.monotonic()})
    monkeypatch.setattr(find, "BUILD_SHARE", 0.0)  # spent: no index may be read now
    warm = first(api(b.event, "hdwd"))
    for _turn in range(3):
        for event in [b.event] + [o.event for o in others]:
            with django_assert_max_num_queries(12):
                hit = first(api(event, "hdwd"))
            assert hit["place"]["table"] == 1 and hit["place"]["opponents"] == ["市北一队"]
    assert builds == []
    assert first(api(b.event, "hdwd")) == warm  # the cold path answers as the index does
    assert first(api(b.event, "zhangwei"))["place"]["partners"] == ["王建国", "李红"]
    # With an allowance, the indexes are read once each, then kept while they fit.
    monkeypatch.setattr(find, "_allowance", {"seconds": 10.0, "at": find.time.monotonic()})
    for event in [b.event] + [o.event for o in others[:-1]]:
        first(api(event, "hdwd"))
    assert len(builds) == find.INDEX_EVENTS
    for _turn in range(3):
        for event in [b.event] + [o.event for o in others[:-1]]:
            first(api(event, "hdwd"))
    assert len(builds) == find.INDEX_EVENTS
