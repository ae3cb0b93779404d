"""Issue 25, problems 1 and 3: the draw's defaults, deleting a draft, late arrivals.

1. The dashboard preselects, and a draw posted without a stage draws, the first unfinished
   stage; a knockout after a Swiss stage waits for its break; a draft can be deleted (organiser
   or assistant, logged), a published round cannot.
3. An entry can be made while a round is a draft or running; check-in works on the draft until
   it is published; a draft without a checked-in entry names it and its redraw takes it in.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.draw import entrants as draw_entrants
from matches.draw import refusals, stages, undo
from matches.draw import service as draw
from matches.events import checkin, entries
from matches.models import EventStaff, Registration, Round, RoundLog, Stage
from matches.standings import breaks

pytestmark = pytest.mark.django_db


def swiss_then_knockout(build, unions=10, swiss_rounds=2):
    b = build(unions=unions, planned_rounds=swiss_rounds)
    knockout = Stage.objects.create(
        event=b.event, order=2, format=Stage.Format.SINGLE_ELIMINATION, qualifiers=8
    )
    return b, knockout


def login(client, b, role="organiser"):
    user = get_user_model().objects.create_user(f"{role}-25", password="pw")
    if role == "organiser":
        b.event.organisers.add(user)
    else:
        EventStaff.objects.create(event=b.event, user=user, role=role)
    client.force_login(user)
    return user


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


# --- 1. safe draw defaults ----------------------------------------------------------------------


def test_the_draw_defaults_to_the_first_unfinished_stage(client, build):
    b, knockout = swiss_then_knockout(build)
    login(client, b)
    page = client.get(reverse("manage:dashboard", args=[b.event.pk])).content.decode()
    assert f'<option value="{b.stage.pk}" selected>' in page
    assert f'<option value="{knockout.pk}" selected>' not in page
    # The press of 编排下一轮 with the defaults: a Swiss round 1 of all ten unions.
    client.post(reverse("manage:draw", args=[b.event.pk]), {"stage": str(b.stage.pk)})
    client.post(reverse("manage:round-redraw", args=[b.event.pk, 1]))
    round_ = b.event.rounds.get(number=1)
    assert round_.stage == b.stage and round_.sides.count() == 10
    # Without a stage posted (an old form, a script): the same stage.
    undo.delete_draft(round_)
    client.post(reverse("manage:draw", args=[b.event.pk]))
    assert b.event.rounds.get(number=1).stage == b.stage


def test_a_knockout_waits_for_its_break(client, build):
    b, knockout = swiss_then_knockout(build, swiss_rounds=1)
    b.draw_round(seed=2).report_all().close()
    assert stages.next_stage(b.event) == knockout and stages.needs_break(knockout)
    with pytest.raises(refusals.SeatingRefused, match="晋级名单"):
        draw.create_round(knockout)
    login(client, b)
    english(client)
    page = client.get(reverse("manage:dashboard", args=[b.event.pk])).content.decode()
    assert 'id="needs-break"' in page and "confirm the break" in page
    response = client.post(reverse("manage:draw", args=[b.event.pk]), follow=True)
    assert "confirm the break" in response.content.decode()
    assert b.event.rounds.count() == 1
    # Once confirmed, the knockout draws its eight (the break's stage, whichever it is).
    stage = breaks.confirm_break(b.event, 8)
    round_ = draw.create_round(stage)
    assert round_.sides.count() == 8


def test_a_draft_is_deleted_by_an_assistant_and_logged(client, build):
    b = build(unions=6)
    round_ = draw.create_round(b.stage, seed=5)
    login(client, b, role="assistant")
    url = reverse("manage:round-delete", args=[b.event.pk, 1])
    page = client.get(url).content.decode()
    assert "确认删除草稿" in page and not Round.objects.filter(pk=round_.pk).count() == 0
    response = client.post(url, follow=True)
    assert "第 1 轮草稿已删除" in response.content.decode()
    assert not b.event.rounds.exists()
    entry = RoundLog.objects.get(action=RoundLog.Action.DELETE_DRAFT)
    assert entry.event == b.event and entry.round is None and entry.details["number"] == 1
    # The earlier log of the deleted round stays too, with its event.
    assert RoundLog.objects.filter(event=b.event, action=RoundLog.Action.DRAW).exists()
    # The next draw takes number 1 again.
    assert draw.create_round(b.stage, seed=6).number == 1


def test_a_published_round_is_not_deleted(client, build):
    b = build(unions=4)
    b.draw_round()
    with pytest.raises(refusals.SeatingRefused):
        undo.delete_draft(b.latest)
    login(client, b)
    english(client)
    response = client.post(reverse("manage:round-delete", args=[b.event.pk, 1]))
    assert response.status_code == 400
    assert "Only a draft round can be deleted" in response.content.decode()
    assert b.event.rounds.count() == 1


def test_strangers_and_referees_cannot_delete_a_draft(client, build):
    b = build(unions=4)
    draw.create_round(b.stage)
    login(client, b, role="referee")
    assert client.post(reverse("manage:round-delete", args=[b.event.pk, 1])).status_code == 403
    assert b.event.rounds.count() == 1


# --- 3. late arrivals ---------------------------------------------------------------------------


def test_a_union_arriving_during_a_draft_is_named_and_taken_in_by_the_redraw(client, build):
    b = build(unions=6)
    draft = draw.create_round(b.stage, seed=1)
    # Registered while the round is a draft (refused before issue 25), then checked in.
    late = entries.add(b.event, name="迟到联邦", players=["甲", "乙", "丙"])
    assert late.joins_round == 2
    assert checkin.next_round(b.event) == 1  # check-in is for the draft until it is published
    checkin.check_in(late)
    late.refresh_from_db()
    assert late.checked_in_round == 1
    assert [r.pk for r in draw_entrants.missing_from_draft(draft)] == [late.pk]
    login(client, b)
    for url in (
        reverse("manage:dashboard", args=[b.event.pk]),
        reverse("manage:round", args=[b.event.pk, 1]),
    ):
        page = client.get(url).content.decode()
        assert 'id="late-arrivals"' in page and "迟到联邦" in page and 'id="redraw-late"' in page
    response = client.post(reverse("manage:round-redraw", args=[b.event.pk, 1]), follow=True)
    assert "已排入本轮：迟到联邦" in response.content.decode()
    draft.refresh_from_db()
    assert draft.sides.filter(union=late.union).exists() and draft.sides.count() == 7
    assert draw_entrants.missing_from_draft(draft) == []
    log = RoundLog.objects.filter(round=draft, action=RoundLog.Action.REDRAW).get()
    assert log.details["admitted"] == [late.pk]


def test_a_union_checked_in_after_the_draft_is_missing_by_name(build):
    b = build(unions=5)
    absent = b.event.registrations.get(union=b.unions[4])
    checkin.undo(absent)
    draft = draw.create_round(b.stage, seed=1)
    assert not draft.sides.filter(union=b.unions[4]).exists()
    checkin.check_in(absent)
    assert [str(r.entrant) for r in draw_entrants.missing_from_draft(draft)] == [b.unions[4].name]
    draw.redraw_round(draft)
    assert draft.sides.filter(union=b.unions[4]).exists()


def test_a_union_arriving_during_a_running_round_joins_the_next(build):
    b = build(unions=4)
    b.draw_round()
    late = entries.add(b.event, name="迟到联邦", players=["甲", "乙", "丙"])
    assert late.joins_round == 2 and checkin.next_round(b.event) == 2
    checkin.check_in(late)
    b.report_all().close()
    round_2 = draw.create_round(b.stage, seed=3)
    assert round_2.sides.filter(union=late.union).exists()


def test_publishing_without_the_redraw_keeps_the_late_entry_for_the_next_round(build):
    b = build(unions=4)
    draft = draw.create_round(b.stage, seed=1)
    late = entries.add(b.event, name="迟到联邦", players=["甲", "乙", "丙"])
    checkin.check_in(late)
    draft = draw.publish_round(draft)
    assert draw_entrants.missing_from_draft(draft) == []  # published: nothing to redraw
    late.refresh_from_db()
    assert not late.plays_in(1) and late.joins_round == 2


def test_the_absent_warning_names_the_entries(client, build):
    b = build(unions=4)
    for union in b.unions[:2]:
        checkin.undo(b.event.registrations.get(union=union))
    summary = checkin.summary(b.event)
    assert summary["missing"] == 2 and summary["absent"] == [u.name for u in b.unions[:2]]
    login(client, b)
    page = client.get(reverse("manage:checkin", args=[b.event.pk])).content.decode()
    assert "未签到：" in page and b.unions[0].name in page and b.unions[1].name in page


def test_the_checkin_page_stays_on_the_draft_until_it_is_published(client, build):
    b = build(unions=4)
    draft = draw.create_round(b.stage, seed=1)
    login(client, b)
    page = client.get(reverse("manage:checkin", args=[b.event.pk])).content.decode()
    assert "第 1 轮" in page and "第 2 轮" not in page
    draw.publish_round(draft)
    page = client.get(reverse("manage:checkin", args=[b.event.pk])).content.decode()
    assert "第 2 轮" in page


def test_late_entry_form_on_a_draft_says_how_to_take_it_in(client, build):
    b = build(unions=4)
    draw.create_round(b.stage, seed=1)
    login(client, b)
    response = client.post(
        reverse("manage:entries", args=[b.event.pk]),
        {"union": "迟到联邦", "player1": "甲", "player2": "乙", "player3": "丙", "captain": "1"},
        follow=True,
    )
    text = response.content.decode()
    assert Registration.objects.filter(union__name="迟到联邦").exists(), text[:3000]
    assert "从第 2 轮起参赛" in text and "重新编排" in text


def test_an_individual_late_arrival_is_named_and_taken_in(build):
    g = build(game="giog", players=8)
    draft = draw.create_round(g.stage, seed=1)
    late = entries.add(g.event, players=["迟到棋手"])
    checkin.check_in(late)
    assert [str(r.entrant) for r in draw_entrants.missing_from_draft(draft)] == ["迟到棋手"]
    draw.redraw_round(draft)
    seated = set(draft.tables.values_list("seats__player_id", flat=True))
    assert late.player_id in seated | set(draft.quality.get("sitting_out", []))
    assert draw_entrants.missing_from_draft(draft) == []
