"""The round pages: the organiser's round pages, release controls on the public pages and the
public API, the projector, the pairings PDF by name."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from matches.draw import service as draw
from matches.models import Event, Round, RoundLog
from matches.standings import service as standings
from tests.standings.test_manage import pdf_text

A_BY_TWO = [1, 2, 3, 4, 5, 6]


@pytest.fixture
def organiser_client(client, build):
    def make(b):
        user = get_user_model().objects.create_user("org", password="pw-org")
        b.event.organisers.add(user)
        client.login(username="org", password="pw-org")
        return client

    return make


def test_round_pages_need_an_organiser(client, build):
    b = build(unions=4)
    b.round([(0, 1), (2, 3)])
    get_user_model().objects.create_user("stranger", password="pw")
    client.login(username="stranger", password="pw")
    e = b.event.pk
    for url in (
        reverse("manage:round", args=[e, 1]),
        reverse("manage:round-close", args=[e, 1]),
        reverse("manage:break", args=[e]),
        reverse("manage:round-settings", args=[e]),
    ):
        assert client.get(url).status_code == 403
    assert client.post(reverse("manage:edit-swap", args=[e, 1])).status_code == 403


def test_draft_page_edits_and_explains(build, organiser_client):
    b = build(unions=5)
    client = organiser_client(b)
    round_ = draw.create_round(b.stage, seed=4)
    page = client.get(reverse("manage:round", args=[b.event.pk, 1])).content.decode()
    assert 'id="edit-swap"' in page and 'id="edit-bye"' in page
    assert "轮空：首轮随机抽签抽中" in page  # not "last in the standings" after a shuffle
    holder = round_.matches.get(table__isnull=True).union_a
    target = next(u for u in b.unions if u != holder)
    response = client.post(
        reverse("manage:edit-bye", args=[b.event.pk, 1]), {"union": target.pk}, follow=True
    )
    text = response.content.decode()
    assert "已调整：" in text and "组织者手动调整" in text
    assert round_.matches.get(table__isnull=True).union_a_id == target.pk
    # Bad input: a message, never a 500.
    response = client.post(
        reverse("manage:edit-move", args=[b.event.pk, 1]),
        {"union": "x", "table": "1"},
        follow=True,
    )
    assert response.status_code == 200 and "请选择联邦" in response.content.decode()
    # An edit the page does not offer has no address.
    assert client.post(f"/manage/events/{b.event.pk}/rounds/1/edit/nonsense/").status_code == 404


def test_close_page_names_missing_tables_first_and_offers_what_to_do(build, organiser_client):
    b = build(unions=6, deals=1)
    client = organiser_client(b)
    round_ = b.round([(0, 1), (2, 3), (4, 5)])
    b.final(b.match(round_, 2), 1, A_BY_TWO)
    standings.settle_match(b.match(round_, 2).pk)
    response = client.post(reverse("manage:round-end", args=[b.event.pk, 1]), follow=True)
    page = response.content.decode()
    assert "以下牌桌尚无最终成绩：第 1 桌、第 3 桌" in page
    assert re.search(r'id="missing-summary">[^<]*第 1 桌、第 3 桌', page)
    assert page.index('data-table="1"') < page.index('data-table="3"')
    assert "催裁判" in page and "判弃权" in page and "等待" in page
    # Chase: a fresh referee link and its QR code on the close page.
    response = client.post(
        reverse("manage:table-chase", args=[b.event.pk, 1, 1]),
        {"back": "close"},
        follow=True,
    )
    assert "/ref/" in response.content.decode() and "qr.svg" in response.content.decode()
    for table in (1, 3):
        client.post(
            reverse("manage:table-forfeit", args=[b.event.pk, 1, table]),
            {"side": "B", "back": "close"},
        )
    page = client.get(reverse("manage:round-close", args=[b.event.pk, 1])).content.decode()
    assert 'id="all-final"' in page
    client.post(reverse("manage:round-close", args=[b.event.pk, 1]))
    round_.refresh_from_db()
    assert round_.state == "closed"


def test_public_pages_say_forfeit_and_bye_plainly(client, build):
    b = build(unions=5, deals=1)
    round_ = b.round([(0, 1), (2, 3), (4, None)])
    from matches.results import forfeits

    forfeits.award_forfeit(b.match(round_, 1), "A")
    page = client.get(reverse("public:round", args=[b.event.pk, 1])).content.decode()
    assert "联邦1 弃权" in page and "轮空" in page
    union_page = client.get(
        reverse("public:union", args=[b.event.pk, b.unions[0].pk])
    ).content.decode()
    assert "弃权" in union_page
    other = client.get(reverse("public:union", args=[b.event.pk, b.unions[1].pk])).content.decode()
    assert "对手弃权" in other
    api = client.get(f"/api/v1/public/events/{b.event.pk}/rounds/1/pairings/").json()
    table_one = next(t for t in api["tables"] if t["table"] == 1)
    assert table_one["result"]["forfeit"] == "A"


def _closed_round_with_results(b):
    round_ = b.round([(0, 1), (2, 3)])
    for k in (1, 2):
        b.final(b.match(round_, k), 1, A_BY_TWO)
        standings.settle_match(b.match(round_, k).pk)
    standings.update_standings(b.event.pk, 1)
    return round_


def test_release_after_close_holds_results_and_standings_until_the_round_closes(client, build):
    b = build(unions=4, deals=1)
    b.event.release_results = b.event.release_standings = Event.Release.AFTER_CLOSE
    b.event.save()
    round_ = _closed_round_with_results(b)
    e = b.event.pk
    api = client.get(f"/api/v1/public/events/{e}/rounds/1/pairings/").json()
    assert api["tables"] and "result" not in api["tables"][0]
    assert client.get(f"/api/v1/public/events/{e}/standings/").json()["rows"] == []
    assert "结果" not in client.get(reverse("public:round", args=[e, 1])).content.decode()
    draw.close_round(round_)
    standings.update_standings(e, 1)
    api = client.get(f"/api/v1/public/events/{e}/rounds/1/pairings/").json()
    assert api["tables"][0]["result"]["points_a"] == 3
    assert len(client.get(f"/api/v1/public/events/{e}/standings/").json()["rows"]) == 4


def test_release_at_the_end_keeps_silent_rounds_until_the_event_ends(client, build):
    b = build(unions=4, deals=1)
    b.event.release_draw = Event.Release.AT_END
    b.event.release_results = b.event.release_standings = Event.Release.AT_END
    b.event.save()
    round_ = _closed_round_with_results(b)
    draw.close_round(round_)
    e = b.event.pk
    assert client.get(reverse("public:round", args=[e, 1])).status_code == 404
    assert client.get(f"/api/v1/public/events/{e}/rounds/").json()["rounds"] == []
    assert client.get(reverse("public:projector-round", args=[e, 1])).status_code == 404
    b.event.concluded_at = timezone.now()
    b.event.save()
    assert client.get(reverse("public:round", args=[e, 1])).status_code == 200
    api = client.get(f"/api/v1/public/events/{e}/rounds/1/pairings/").json()
    assert api["tables"][0]["result"]["points_a"] == 3
    assert len(client.get(f"/api/v1/public/events/{e}/standings/").json()["rows"]) == 4


def test_settings_page_saves_release_and_club_policy(build, organiser_client):
    b = build(unions=4)
    client = organiser_client(b)
    url = reverse("manage:round-settings", args=[b.event.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "club_policy": "ignore",
            "points_bye": 3,
            "bye_score": 10,
            "forfeit_score": 30,
            "score_stopped_matches": "on",
            "release_draw": "at_once",
            "release_results": "after_close",
            "release_standings": "at_end",
        },
    )
    assert response.status_code == 302
    b.event.refresh_from_db()
    assert (b.event.club_policy, b.event.bye_score, b.event.release_standings) == (
        "ignore",
        10,
        "at_end",
    )
    assert client.post(url, {"club_policy": "nope"}).status_code == 400
    client.post(url, {"conclude": "1"})
    b.event.refresh_from_db()
    assert b.event.concluded_at is not None


def test_projector_needs_no_sign_in_and_lists_unions_a_to_z(client, build):
    b = build(unions=4)
    names = ["张家联邦", "Alpha", "王家联邦", "李家联邦"]
    for union, name in zip(b.unions, names):
        union.name = name
        union.save()
    b.round([(0, 1), (2, 3)])
    page = client.get(reverse("public:projector-round", args=[b.event.pk, 1])).content.decode()
    listed = re.findall(r'class="p-name">([^<]+)<', page)
    assert listed == ["Alpha", "李家联邦", "王家联邦", "张家联邦"]  # A→Z: li, wang, zhang
    assert 'data-seconds="12"' in page
    standings_page = client.get(reverse("public:projector-standings", args=[b.event.pk]))
    assert standings_page.status_code == 200
    draft = Round.objects.create(event=b.event, stage=b.stage, number=2, stage_round=2, seed=1)
    assert (
        client.get(reverse("public:projector-round", args=[b.event.pk, draft.number])).status_code
        == 404
    )


def test_pairings_pdf_by_union_name(build, organiser_client):
    b = build(unions=4)
    client = organiser_client(b)
    b.round([(3, 2), (1, 0)])
    response = client.get(reverse("manage:pairings-pdf", args=[b.event.pk, 1]) + "?order=name")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert [text.index(f"联邦{k}") for k in (1, 2, 3, 4)] == sorted(
        text.index(f"联邦{k}") for k in (1, 2, 3, 4)
    )
    assert "按名称" in text


def test_break_page_previews_then_confirms(build, organiser_client):
    b = build(unions=4, deals=1)
    client = organiser_client(b)
    draw.close_round(_closed_round_with_results(b))
    url = reverse("manage:break", args=[b.event.pk])
    page = client.get(url + "?size=2").content.decode()
    assert 'id="confirm-break"' in page and "1 号种子" in page
    assert b.event.stages.count() == 1
    assert client.post(url, {"size": "2", "after": "1"}).status_code == 302
    assert b.event.stages.count() == 2
    assert RoundLog.objects.filter(action="break").exists()
    assert client.post(url, {"size": "99"}).status_code == 400
