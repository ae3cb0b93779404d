"""Language (issue 25, problem 7): labels the app writes into the database are keys shown in
the page's language, an organiser's own names stay as typed, and joined clauses and lists use
the page's punctuation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from matches.draw import control
from matches.draw import service as draw
from matches.games.gouji.settings_form import show_value
from matches.kernel import punctuation
from matches.models import Stage
from matches.standings import breaks
from matches.standings import service as standings
from players.models import Club

A_BY_TWO = [1, 2, 3, 4, 5, 6]


def _label(stage, language):
    with translation.override(language):
        return stage.label


@pytest.mark.django_db
def test_stage_names_the_app_wrote_follow_the_page_and_typed_names_stay(build):
    b = build(unions=4)
    stage = b.stage
    stage.name = ""  # the wizard names no stage: its format is its name
    assert (_label(stage, "zh-hans"), _label(stage, "en")) == ("瑞士制", "Swiss")
    for legacy in ("淘汰赛", "Knockout"):  # written by an earlier break, on either page
        stage.name = legacy
        assert (_label(stage, "zh-hans"), _label(stage, "en")) == ("淘汰赛", "Knockout")
    stage.name = "春季杯决赛圈"
    assert _label(stage, "en") == "春季杯决赛圈"


@pytest.mark.django_db
def test_the_break_confirmed_on_an_english_page_stores_no_english_name(build):
    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    for k in (1, 2):
        for deal in (1, 2):
            b.final(b.match(round_, k), deal, A_BY_TWO)
        standings.settle_match(b.match(round_, k).pk)
    draw.close_round(round_)
    with translation.override("en"):
        stage = breaks.confirm_break(b.event, 2)
    stage = Stage.objects.get(pk=stage.pk)
    assert stage.name == ""
    assert (_label(stage, "zh-hans"), _label(stage, "en")) == ("淘汰赛", "Knockout")


@pytest.mark.django_db
def test_the_english_round_page_shows_english_stage_names_and_punctuation(client, build):
    b = build(unions=4)
    Stage.objects.filter(pk=b.stage.pk).update(name="淘汰赛")  # as an older break saved it
    club = Club.objects.create(name="青岛俱乐部")
    for union in b.unions[:2]:
        union.club = club
        union.save()
    round_ = draw.create_round(b.stage, seed=1)
    control.pair_by_hand(round_, 1, b.unions[0], b.unions[1])
    user = get_user_model().objects.create_user("org", password="pw-org")
    b.event.organisers.add(user)
    client.force_login(user)
    url = reverse("manage:round", args=[b.event.pk, 1])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Knockout" in english and "淘汰赛" not in english
    assert "Unions of one club meet; " in english or "; Unions of one club meet" in english
    assert "；" not in english
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "淘汰赛" in chinese
    assert "同俱乐部联邦相遇；" in chinese or "；同俱乐部联邦相遇" in chinese
    dashboard = client.get(
        reverse("manage:dashboard", args=[b.event.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Knockout" in dashboard.content.decode()


def test_joiners_follow_the_language():
    with translation.override("en"):
        assert punctuation.clauses(["a", "b"]) == "a; b"
        assert punctuation.listed(["x", "y"]) == "x, y"
        assert punctuation.labelled("Table 1", "A") == "Table 1: A"
        assert show_value("tribute_order", ["burn", "point"]) == "burn, point"
    with translation.override("zh-hans"):
        assert punctuation.clauses(["甲", "乙"]) == "甲；乙"
        assert punctuation.listed(["甲", "乙"]) == "甲、乙"
        assert show_value("tribute_order", ["burn", "point"]) == "烧、点"


@pytest.mark.django_db
def test_the_withdrawn_list_of_a_closed_round_follows_the_page_s_punctuation(client, build):
    from matches.draw import late

    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    for k in (1, 2):
        for deal in (1, 2):
            b.final(b.match(round_, k), deal, A_BY_TWO)
        standings.settle_match(b.match(round_, k).pk)
    draw.close_round(round_)
    late.withdraw_union(b.event, b.unions[0])
    late.withdraw_union(b.event, b.unions[1])
    client.force_login(b.organiser)
    url = reverse("manage:round", args=[b.event.pk, 1])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"{b.unions[0].name} (After round 1), " in english
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f"{b.unions[0].name}（第 1 轮后）、" in chinese
