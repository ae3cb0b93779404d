"""Issue 25, problem 2 (rounds): reopen the last closed round. Organisers only, with a reason,
logged; the standings are recomputed from the round; results can then be corrected and the round
closed again."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.draw import refusals, undo
from matches.draw import service as draw
from matches.models import ComputationRun, EventStaff, Round, RoundLog
from matches.standings import service as standings

pytestmark = pytest.mark.django_db

A_WINS = [1, 2, 3, 4, 5, 6]  # union A finishes 1st, 3rd, 5th
B_WINS = [2, 1, 4, 3, 6, 5]


def user(b, name, role=None):
    account = get_user_model().objects.create_user(name, password="pw")
    if role is None:
        b.event.organisers.add(account)
    else:
        EventStaff.objects.create(event=b.event, user=account, role=role)
    return account


def points(b, round_number):
    rows = standings.union_rows(b.event, list(b.event.rounds.filter(number__lte=round_number)))
    return {row["union"]: row["match_points"] for row in rows}


def test_reopen_correct_and_close_again(client, build, django_capture_on_commit_callbacks):
    b = build(unions=2, deals=1)
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, A_WINS)
    b.close(round_)
    winner, loser = match.union_a_id, match.union_b_id
    assert points(b, 1)[winner] > points(b, 1)[loser]
    organiser = user(b, "org-25")
    client.force_login(organiser)
    url = reverse("manage:round-reopen", args=[b.event.pk, 1])
    assert "确认重新开启" in client.get(url).content.decode()
    # No reason: refused, in words, and the round stays closed.
    response = client.post(url, {"reason": "  "})
    assert response.status_code == 400 and "请填写重新开启的原因" in response.content.decode()
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED
    with django_capture_on_commit_callbacks(execute=True):  # the queued standings run
        response = client.post(url, {"reason": "第 1 桌记分表抄错"}, follow=True)
    assert "第 1 轮已重新开启" in response.content.decode()
    round_.refresh_from_db()
    assert round_.state == Round.State.PUBLISHED and round_.closed_at is None
    log = RoundLog.objects.get(round=round_, action=RoundLog.Action.REOPEN)
    assert log.user == organiser and log.details["reason"] == "第 1 桌记分表抄错"
    run = ComputationRun.objects.get(event=b.event, key="standings")
    assert run.args["from_round"] == 1 and run.succeeded_at is not None
    # The correction, then closing again: the standings turn round.
    b.final(match, 1, B_WINS)
    b.close(round_)
    assert points(b, 1)[loser] > points(b, 1)[winner]


def test_only_the_last_round_reopens_and_a_later_draft_is_named(build):
    b = build(unions=4, deals=1)
    b.draw_round().report_all().close()
    first = b.latest
    draft = draw.create_round(b.stage, seed=2)
    with pytest.raises(refusals.SeatingRefused, match="第 2 轮已有草稿"):
        undo.reopen_round(first, reason="x")
    draw.publish_round(draft)
    with pytest.raises(refusals.SeatingRefused, match="只能重新开启最后一轮"):
        undo.reopen_round(first, reason="x")
    with pytest.raises(refusals.SeatingRefused, match="只能重新开启已结束的轮次"):
        undo.reopen_round(draft, reason="x")


def test_assistants_cannot_reopen(client, build):
    b = build(unions=2, deals=1)
    round_ = b.round([(0, 1)])
    b.final(b.match(round_, 1), 1, A_WINS)
    b.close(round_)
    client.force_login(user(b, "assistant-25", role="assistant"))
    url = reverse("manage:round-reopen", args=[b.event.pk, 1])
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "x"}).status_code == 403
    page = client.get(reverse("manage:round", args=[b.event.pk, 1])).content.decode()
    assert 'id="reopen-round"' not in page
    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED


def test_the_refusal_is_english_on_an_english_page(client, build):
    b = build(unions=2, deals=1)
    round_ = b.round([(0, 1)])
    b.final(b.match(round_, 1), 1, A_WINS)
    b.close(round_)
    client.force_login(user(b, "org-25"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(reverse("manage:round-reopen", args=[b.event.pk, 1]), {"reason": ""})
    assert "Please give the reason for reopening" in response.content.decode()
