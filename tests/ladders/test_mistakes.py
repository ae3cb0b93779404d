"""An organiser who makes mistakes, on the ladder's page (docs/ladder.md, "Undoing mistakes"):
a typo in a team, a team added by mistake or withdrawing, seeding redone, a wrong score or
malformed score text, a no-show on the wrong side, a draw or a close by mistake, a reschedule
without agreement. Each mistake is refused with a clear message or undone on the page, and
each change is logged. Then the next season, seeded from this one on the page; and a stranger,
who can do none of it."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from ladders.models import LadderChallenge, LadderLog, LadderSeason, LadderSession
from ladders.rules import CHIEF, VANGUARDS
from ladders.service.points import points_table
from ladders.service.season import add_teams, create_season, seed
from tests.personas import make_user

pytestmark = pytest.mark.django_db

WIN = "10:0 10:0 10:0 10:0\n10:0 10:0 10:0 10:0"
LOSE = "0:10 0:10 0:10 0:10\n0:10 0:10 0:10 0:10"


@pytest.fixture
def ladder():
    user = make_user("laoli")
    season = create_season(user, "2027 擂台赛")
    names = [f"守{i}" for i in range(1, 9)] + [f"攻{i}" for i in range(1, 6)]
    add_teams(season, user, "\n".join(f"{n} / 黄岛 / 甲、乙、丙" for n in names))
    teams = {t.name: t for t in season.teams.all()}
    seed(season, user, [teams[f"守{i}"].pk for i in range(1, 9)])
    client = Client()
    client.force_login(user)
    season.user, season.by_name, season.client = user, teams, client
    season.url = reverse("ladders-manage:season", args=[season.pk])
    return season


def post(season, language="zh-hans", **data):
    return season.client.post(season.url, data, HTTP_ACCEPT_LANGUAGE=language)


def problem(response) -> str:
    assert response.status_code == 400, response.status_code
    return response.context["problem"]


def start(season) -> LadderSession:
    assert post(season, action="start").status_code == 302
    return season.sessions.get(closed_at__isnull=True)


def play(season, session, hero: str) -> None:
    """The named challenger wins every challenge, the others lose every one."""
    hero_pk = season.by_name[hero].pk
    while todo := list(session.challenges.filter(winner__isnull=True, void=False)):
        for c in todo:
            text = WIN if c.challenger_id == hero_pk else LOSE
            assert post(season, action="result", challenge=c.pk, games=text).status_code == 302


# --- teams -----------------------------------------------------------------------------------


def test_a_team_name_typo_is_corrected_on_the_page_and_logged(ladder):
    team = ladder.by_name["攻1"]
    response = post(ladder, action="edit-team", team=team.pk, name="攻一", club="市南", members="")
    assert response.status_code == 302
    team.refresh_from_db()
    assert (team.name, team.club) == ("攻一", "市南")
    assert LadderLog.objects.filter(action="team", detail__contains="攻1 / 黄岛").exists()
    # a name another team has, or none, is refused in the user's language
    assert "重复" in problem(post(ladder, action="edit-team", team=team.pk, name="攻2"))
    assert "empty" in problem(post(ladder, "en", action="edit-team", team=team.pk, name=" "))


def test_a_team_added_by_mistake_is_deleted_until_it_has_been_drawn(ladder):
    post(ladder, action="teams", teams="错队")
    wrong = ladder.teams.get(name="错队")
    assert post(ladder, action="remove-team", team=wrong.pk).status_code == 302
    assert not ladder.teams.filter(name="错队").exists()
    assert LadderLog.objects.filter(action="removed", detail="错队").exists()
    start(ladder)
    message = problem(post(ladder, "en", action="remove-team", team=ladder.by_name["攻1"].pk))
    assert "Withdraw" in message


def test_a_team_that_withdraws_forfeits_its_open_challenges_and_can_be_reinstated(ladder):
    session = start(ladder)
    quitter = ladder.by_name["攻1"]
    assert post(ladder, action="withdraw", team=quitter.pk).status_code == 302
    theirs = session.challenges.filter(challenger=quitter)
    assert theirs.count() == 5 and all(c.winner_id == c.defender_id for c in theirs)
    play(ladder, session, "攻2")
    post(ladder, action="close")
    assert post(ladder, action="reinstate", team=quitter.pk).status_code == 302
    second = start(ladder)
    assert quitter.pk in second.challengers


def test_a_title_holder_that_withdraws_between_sessions_passes_its_title_on(ladder):
    session = start(ladder)
    play(ladder, session, "攻2")  # 攻2 takes the 主将's title; 守1 drops to the challengers
    post(ladder, action="close")
    chief = ladder.teams.get(title=CHIEF.key)
    assert chief.name == "攻2"
    untitled = [r.team for r in points_table(ladder) if not r.team.title]
    assert post(ladder, action="withdraw", team=chief.pk).status_code == 302
    chief.refresh_from_db()
    assert chief.title == "" and chief.withdrawn
    # the best team on the points table without a title takes it
    assert ladder.teams.get(title=CHIEF.key).pk == untitled[0].pk
    assert LadderLog.objects.filter(action="title", detail__startswith="chief-1").exists()
    assert start(ladder)  # eight titles held again: the next session can start


def test_a_withdrawn_challenger_keeps_its_points_but_takes_no_title(ladder):
    session = start(ladder)
    hero = ladder.by_name["攻3"]
    for c in session.challenges.filter(challenger=hero):
        post(ladder, action="result", challenge=c.pk, games=WIN)
    post(ladder, action="withdraw", team=hero.pk)
    play(ladder, session, "攻4")
    post(ladder, action="close")
    hero.refresh_from_db()
    assert hero.title == ""
    points = {r.team.name: r.points for r in points_table(ladder)}
    assert points["攻3"] == len(VANGUARDS)


# --- seeding and the draw --------------------------------------------------------------------


def test_seeding_typed_wrong_is_redone_until_the_first_draw_and_the_form_shows_it(ladder):
    order = [ladder.by_name[f"守{i}"].pk for i in (2, 1, 3, 4, 5, 6, 7, 8)]
    assert post(ladder, action="seed", rank=order).status_code == 302
    assert ladder.teams.get(title=CHIEF.key).name == "守2"
    page = ladder.client.get(ladder.url).content.decode()
    assert f'<option value="{order[0]}" selected>' in page  # the form starts from the seeding
    # seven teams: refused, in English too
    assert "only 7" in problem(post(ladder, "en", action="seed", rank=order[:7]))
    start(ladder)
    assert "已开始" in problem(post(ladder, action="seed", rank=order))


def test_a_draw_by_mistake_is_taken_back_while_nothing_is_recorded(ladder):
    session = start(ladder)
    assert post(ladder, action="cancel-session").status_code == 302
    assert not LadderSession.objects.filter(pk=session.pk).exists()
    assert LadderLog.objects.filter(action="session-cancelled").exists()
    order = [ladder.by_name[f"守{i}"].pk for i in (8, 1, 2, 3, 4, 5, 6, 7)]
    assert post(ladder, action="seed", rank=order).status_code == 302  # seeding open again
    session = start(ladder)
    first = session.challenges.first()
    post(ladder, action="result", challenge=first.pk, games="10:0")
    assert "不能撤销" in problem(post(ladder, action="cancel-session"))


def test_a_session_closed_by_mistake_is_reopened_with_its_titles_put_back(ladder):
    session = start(ladder)
    play(ladder, session, "攻1")
    post(ladder, action="close")
    assert ladder.teams.get(title=CHIEF.key).name == "攻1"
    assert "重开第 1 期" in ladder.client.get(ladder.url).content.decode()
    assert post(ladder, action="reopen").status_code == 302
    session.refresh_from_db()
    assert session.closed_at is None
    assert ladder.teams.get(title=CHIEF.key).name == "守1"
    assert LadderLog.objects.filter(action="reopened").exists()
    # a correction, then the close again
    chief_challenge = session.challenges.get(slot=CHIEF.key)
    post(ladder, action="result", challenge=chief_challenge.pk, games=LOSE)
    post(ladder, action="close")
    assert ladder.teams.get(title=CHIEF.key).name == "守1"
    # once the next session has opened, the page says why it cannot be reopened
    start(ladder)
    assert "没有进行中的一期时重开" in ladder.client.get(ladder.url).content.decode()
    assert "才能重开上一期" in problem(post(ladder, action="reopen"))


# --- scores ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, zh, en",
    [
        ("10-0 0:1", "“10-0”不是", "“10-0” is not"),
        ("10:0 1²:0", "“1²:0”不是", "“1²:0” is not"),  # a digit Python's int() would choke on
        ("1000:0", "“1000:0”不是", "“1000:0” is not"),
        ("10:0 0:10 5:5\n10:0 10:0 10:0 10:0", "第 1 局还没分胜负", "Game 1 is not decided"),
        ("10:0 10:0 10:0 10:0 1:0", "第 1 局在第 4 把已分胜负", "Game 1 was decided after deal 4"),
        (WIN + "\n" + WIN.splitlines()[0], "第 2 局已分胜负", "decided after game 2"),
    ],
)
def test_a_malformed_score_gets_a_clear_message_in_both_languages(ladder, text, zh, en):
    session = start(ladder)
    challenge = session.challenges.first()
    assert zh in problem(post(ladder, action="result", challenge=challenge.pk, games=text))
    assert en in problem(post(ladder, "en", action="result", challenge=challenge.pk, games=text))
    challenge.refresh_from_db()
    assert challenge.games == [] and challenge.winner_id is None


def test_full_width_digits_and_empty_lines_are_read_and_games_counted_not_lines(ladder):
    session = start(ladder)
    challenge = session.challenges.first()
    text = "１０：０ １０：０，１０：０ １０：０\n\n\n10:0 10:0 10:0 10:0"
    assert post(ladder, action="result", challenge=challenge.pk, games=text).status_code == 302
    challenge.refresh_from_db()
    assert challenge.winner_id == challenge.challenger_id and len(challenge.games) == 2
    # the error names the 局, not the line: the blank line does not count
    other = session.challenges.exclude(pk=challenge.pk).first()
    response = post(ladder, action="result", challenge=other.pk, games="10:0\n\n10-0")
    assert "第 2 局" in problem(response)


def test_a_decided_challenge_is_corrected_on_the_page(ladder):
    session = start(ladder)
    challenge = session.challenges.filter(stage=1).first()
    post(ladder, action="result", challenge=challenge.pk, games=WIN)
    page = ladder.client.get(ladder.url).content.decode()
    assert f'id="games-{challenge.pk}"' in page  # the decided challenge keeps its form
    assert post(ladder, action="result", challenge=challenge.pk, games=LOSE).status_code == 302
    challenge.refresh_from_db()
    assert challenge.winner_id == challenge.defender_id


def test_a_no_show_on_the_wrong_side_is_taken_back_and_so_is_its_forfeit(ladder):
    session = start(ladder)
    challenge = session.challenges.first()
    for _ in range(2):
        post(ladder, action="no-show", challenge=challenge.pk, side="defender")
    challenge.refresh_from_db()
    assert challenge.winner_id == challenge.challenger_id  # forfeited, wrongly
    page = ladder.client.get(ladder.url).content.decode()
    assert 'value="undo-no-show"' in page
    response = post(ladder, action="undo-no-show", challenge=challenge.pk, side="defender")
    assert response.status_code == 302
    challenge.refresh_from_db()
    assert (challenge.defender_no_shows, challenge.winner_id) == (1, None)
    assert LadderLog.objects.filter(action="no-show-undone").exists()
    message = problem(
        post(ladder, action="undo-no-show", challenge=challenge.pk, side="challenger")
    )
    assert "没有缺席" in message


def test_a_reschedule_without_both_sides_agreement_is_refused_on_the_page(ladder):
    session = start(ladder)
    challenge = session.challenges.first()
    data = {"action": "reschedule", "challenge": challenge.pk, "day": "2027-05-01"}
    message = problem(post(ladder, "en", **data, challenger_agrees="张三", defender_agrees=""))
    assert "both sides" in message.lower() or "双方" in message
    assert post(ladder, **data, challenger_agrees="张三", defender_agrees="李四").status_code == 302
    challenge.refresh_from_db()
    assert challenge.scheduled_for == datetime.date(2027, 5, 1)


def test_publishing_and_renaming_the_season_are_logged(ladder):
    post(ladder, action="publish")
    post(ladder, action="rename-season", name="2027 青岛擂台赛")
    ladder.refresh_from_db()
    assert ladder.published and ladder.name == "2027 青岛擂台赛"
    actions = set(LadderLog.objects.filter(season=ladder).values_list("action", flat=True))
    assert {"published", "renamed"} <= actions
    assert LadderLog.objects.get(action="published").by == ladder.user


# --- the next season -------------------------------------------------------------------------


def test_the_next_season_takes_last_seasons_teams_and_is_seeded_from_its_points(ladder):
    session = start(ladder)
    play(ladder, session, "攻5")
    post(ladder, action="close")
    post(ladder, action="withdraw", team=ladder.by_name["攻4"].pk)
    response = ladder.client.post(
        reverse("ladders-manage:seasons"),
        {"name": "2028 擂台赛", "previous": ladder.pk, "copy_teams": "1"},
    )
    following = LadderSeason.objects.get(name="2028 擂台赛")
    assert response.status_code == 302 and following.previous == ladder
    names = set(following.teams.values_list("name", flat=True))
    assert "攻4" not in names and len(names) == 12
    url = reverse("ladders-manage:season", args=[following.pk])
    assert ladder.client.post(url, {"action": "seed", "from_previous": "1"}).status_code == 302
    table = [r.team.name for r in points_table(ladder) if r.team.name in names]
    seeded = [following.teams.get(title=s).name for s in ("chief-1", "vice-1", "vice-2")]
    assert seeded == table[:3] and seeded[0] == "攻5"


def test_a_new_season_following_another_organisers_season_is_refused_with_a_reason(ladder):
    other = Client()
    other.force_login(make_user("xiaowang"))
    response = other.post(
        reverse("ladders-manage:seasons"),
        {"name": "借来的赛季", "previous": ladder.pk, "copy_teams": "1"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 200  # the list again, the problem above its form
    assert response.context["problem"] == "找不到所选的上赛季（只能选择自己的赛季）"
    assert not LadderSeason.objects.filter(name="借来的赛季").exists()


# --- a stranger ------------------------------------------------------------------------------

ACTIONS = [
    "teams", "seed", "start", "result", "no-show", "undo-no-show", "reschedule", "close",
    "publish", "rename-season", "edit-team", "remove-team", "withdraw", "reinstate",
    "cancel-session", "reopen",
]  # fmt: skip


@pytest.mark.parametrize("action", ACTIONS)
def test_another_organiser_can_take_no_action_on_the_season(ladder, action):
    session = start(ladder)
    challenge = session.challenges.first()
    other = Client()
    other.force_login(make_user("xiaowang"))
    before = LadderLog.objects.count()
    response = other.post(
        ladder.url,
        {
            "action": action, "challenge": challenge.pk, "team": ladder.by_name["攻1"].pk,
            "games": WIN, "side": "defender", "name": "改", "teams": "x", "day": "2027-01-01",
            "challenger_agrees": "a", "defender_agrees": "b",
        },
    )  # fmt: skip
    assert response.status_code == 403
    assert LadderLog.objects.count() == before
    assert not LadderChallenge.objects.filter(pk=challenge.pk, winner__isnull=False).exists()


def test_an_unpublished_ladder_leaks_nowhere(ladder, client):
    public = reverse("ladders:season", args=[ladder.pk])
    assert client.get(public).status_code == 404
    assert "2027 擂台赛" not in client.get("/").content.decode()
    post(ladder, action="publish")
    assert client.get(public).status_code == 200
    assert "2027 擂台赛" in client.get("/").content.decode()
    post(ladder, action="publish")  # taken back
    assert client.get(public).status_code == 404


def test_seeding_from_last_season_without_its_teams_says_what_is_missing(ladder):
    following = create_season(ladder.user, "2028 擂台赛", previous=ladder)
    add_teams(following, ladder.user, "新队1\n新队2\n守1")
    url = reverse("ladders-manage:season", args=[following.pk])
    response = ladder.client.post(url, {"action": "seed", "from_previous": "1"})
    assert response.status_code == 400
    assert "只有 1 支队与本赛季的队同名" in response.context["problem"]


def test_teams_level_on_points_go_by_the_title_they_hold_not_their_name(ladder):
    order = [ladder.by_name[f"守{i}"].pk for i in (8, 7, 6, 5, 4, 3, 2, 1)]
    post(ladder, action="seed", rank=order)
    table = [r.team.name for r in points_table(ladder)]
    assert table[:8] == [f"守{i}" for i in (8, 7, 6, 5, 4, 3, 2, 1)]


def test_a_void_knockout_puts_both_sides_out(ladder):
    post(ladder, action="teams", teams="攻6\n攻7")  # seven challengers: two knockout matches
    session = start(ladder)
    void, other = session.challenges.filter(kind="knockout")
    for side in ("both", "both"):
        post(ladder, action="no-show", challenge=void.pk, side=side)
    post(ladder, action="result", challenge=other.pk, games=WIN)
    through = {c.challenger_id for c in session.challenges.filter(kind="title")}
    assert len(through) == 4  # seven, less the knockout's loser, less both void sides
    assert not through & {void.challenger_id, void.defender_id}


GARBAGE = {
    "challenge": "１２", "team": "²", "games": "\x00:1", "side": "nobody", "day": "2027-02-30",
    "name": "名" * 500, "club": "俱" * 100, "rank": ["a", "9" * 30], "teams": "队" * 100,
    "challenger_agrees": "", "defender_agrees": "", "previous": "¹",
}  # fmt: skip


@pytest.mark.parametrize("action", ACTIONS + ["nonsense", ""])
def test_garbage_in_any_action_is_a_clear_refusal_never_a_500(ladder, action):
    session = start(ladder)
    play(ladder, session, "攻1")
    for data in (GARBAGE, {**GARBAGE, "challenge": session.challenges.first().pk}):
        response = post(ladder, action=action, **data)
        assert response.status_code in (302, 400), (action, response.status_code)
    listing = ladder.client.post(reverse("ladders-manage:seasons"), {**GARBAGE, "name": " "})
    assert listing.status_code == 200 and listing.context["problem"]


def test_saving_an_empty_score_for_an_unplayed_challenge_is_refused(ladder):
    session = start(ladder)
    challenge = session.challenges.first()
    assert "请填写比分" in problem(
        post(ladder, action="result", challenge=challenge.pk, games=" \n")
    )
    assert not LadderLog.objects.filter(action="result").exists()


def test_the_publish_button_says_publish_in_english_not_published(ladder):
    page = ladder.client.get(ladder.url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<button type="submit" id="ladder-publish">Publish</button>' in page
