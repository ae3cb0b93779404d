"""A ladder season through its service: seeding, the knockout, the 先锋 rounds, a title
changing hands, no-shows, reschedules and the points table (ladders/service/)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from ladders.models import LadderChallenge, LadderLog
from ladders.rules import CHIEF, VICES, Slot
from ladders.service.points import points_table
from ladders.service.results import record_no_show, record_result, reschedule
from ladders.service.season import add_teams, create_season, seed
from ladders.service.sessions import close_session, start_session
from ladders.service.shared import LadderProblem

pytestmark = pytest.mark.django_db

WIN = "10:0 10:0 10:0 10:0\n10:0 10:0 10:0 10:0"  # the challenger wins 2:0
LOSE = "0:10 0:10 0:10 0:10\n0:10 0:10 0:10 0:10"


@pytest.fixture
def season():
    user = get_user_model().objects.create_user("laoli")
    season = create_season(user, "2027 擂台赛")
    names = [f"守{i}" for i in range(1, 9)] + [f"攻{i}" for i in range(1, 8)]
    add_teams(season, user, "\n".join(f"{n} / 黄岛 / 甲、乙、丙" for n in names))
    teams = {t.name: t for t in season.teams.all()}
    seed(season, user, [teams[f"守{i}"].pk for i in range(1, 9)])
    season.user, season.by_name = user, teams
    return season


def open_challenges(session, **filters):
    return list(session.challenges.filter(winner__isnull=True, void=False, **filters))


def test_seven_challengers_play_a_knockout_down_to_five_then_meet_every_vanguard(season):
    session = start_session(season, season.user, seed=7)
    knockouts = open_challenges(session, kind="knockout")
    assert len(knockouts) == 2  # seven challengers, two matches take them to five
    for c in knockouts:
        record_result(c.pk, season.user, WIN)
    titles = open_challenges(session, kind="title")
    assert len(titles) == 25  # five challengers x five 先锋
    losers = {c.defender_id for c in knockouts}
    assert not {c.challenger_id for c in titles} & losers
    assert {Slot.from_key(c.slot).rank for c in titles} == {"vanguard"}


def play_to_the_chief(season, session, hero_name):
    """The named challenger wins everything; the others lose everything."""
    hero = season.by_name[hero_name].pk
    while challenges := open_challenges(session):
        for c in challenges:
            record_result(c.pk, season.user, WIN if c.challenger_id == hero else LOSE)
    return hero


def test_a_challenger_that_beats_everyone_takes_the_chiefs_title_when_the_session_closes(season):
    season.teams.filter(name__in=["攻6", "攻7"]).delete()  # five challengers: no knockout
    session = start_session(season, season.user, seed=3)
    hero = play_to_the_chief(season, session, "攻1")
    mine = session.challenges.filter(challenger_id=hero)
    assert mine.count() == 5 + 2 + 1
    assert mine.get(slot=CHIEF.key).winner_id == hero

    titles = close_session(session.pk, season.user)
    assert titles[CHIEF] == hero
    old_chief = season.by_name["守1"]
    old_chief.refresh_from_db()
    assert old_chief.title == ""  # back among the challengers
    # the 先锋 and 副将 the hero beat keep their titles: it took the highest one
    assert [season.teams.get(title=s.key).name for s in VICES] == ["守2", "守3"]
    points = {row.team.name: row.points for row in points_table(season)}
    assert points["攻1"] == 5 * 1 + 2 * 3 + 6
    assert points["守4"] == 4  # a 先锋 that beat the four other challengers
    assert LadderLog.objects.filter(
        season=season, action="closed", detail__contains="守1 → 攻1"
    ).exists()


def test_the_session_cannot_close_with_a_challenge_open_and_a_closed_one_takes_no_result(season):
    season.teams.filter(name__in=["攻6", "攻7"]).delete()
    session = start_session(season, season.user, seed=3)
    with pytest.raises(LadderProblem):
        close_session(session.pk, season.user)
    play_to_the_chief(season, session, "攻2")
    close_session(session.pk, season.user)
    with pytest.raises(LadderProblem):
        record_result(session.challenges.first().pk, season.user, LOSE)


def test_bad_scores_and_a_game_too_many_are_refused_without_a_trace(season):
    session = start_session(season, season.user, seed=1)
    challenge = open_challenges(session)[0]
    for text, message in [("10-0", "不是"), (WIN + "\n" + WIN.splitlines()[0], "多了一局")]:
        with pytest.raises(LadderProblem, match=message):
            record_result(challenge.pk, season.user, text)
    challenge.refresh_from_db()
    assert challenge.games == [] and challenge.winner_id is None


def test_a_second_no_show_forfeits_and_both_sides_missing_twice_voids(season):
    session = start_session(season, season.user, seed=1)
    one, two = open_challenges(session)[:2]
    record_no_show(one.pk, season.user, "defender")
    one.refresh_from_db()
    assert one.winner_id is None
    record_no_show(one.pk, season.user, "defender")
    one.refresh_from_db()
    assert one.winner_id == one.challenger_id
    for side in ("challenger", "defender", "both"):
        record_no_show(two.pk, season.user, side)
    two.refresh_from_db()
    assert two.void and two.winner_id is None


def test_a_reschedule_needs_both_sides_and_is_logged(season):
    session = start_session(season, season.user, seed=1)
    challenge = open_challenges(session)[0]
    day = datetime.date(2027, 4, 2)
    with pytest.raises(LadderProblem, match="双方"):
        reschedule(challenge.pk, season.user, day, "张三", " ")
    reschedule(challenge.pk, season.user, day, "张三", "李四")
    challenge.refresh_from_db()
    assert challenge.scheduled_for == day
    line = LadderLog.objects.get(season=season, action="rescheduled")
    assert "张三" in line.detail and "李四" in line.detail and line.by == season.user


def test_a_result_later_draws_depend_on_cannot_change_winner(season):
    season.teams.filter(name__in=["攻6", "攻7"]).delete()
    session = start_session(season, season.user, seed=5)
    hero = season.by_name["攻1"].pk
    vanguards = list(session.challenges.filter(challenger_id=hero))
    for c in vanguards[:3]:
        record_result(c.pk, season.user, WIN)
    assert session.challenges.filter(challenger_id=hero, stage=6).count() == 2
    with pytest.raises(LadderProblem):
        record_result(vanguards[0].pk, season.user, LOSE)
    record_result(vanguards[0].pk, season.user, WIN.replace("10:0", "9:0"))  # same winner


def test_next_season_is_seeded_from_this_seasons_points(season):
    season.teams.filter(name__in=["攻6", "攻7"]).delete()
    session = start_session(season, season.user, seed=3)
    play_to_the_chief(season, session, "攻1")
    close_session(session.pk, season.user)
    following = create_season(season.user, "2028 擂台赛", previous=season)
    add_teams(following, season.user, "\n".join(t.name for t in season.teams.all()))
    seed(following, season.user)
    order = [row.team.name for row in points_table(season)][:8]
    assert following.teams.get(title=CHIEF.key).name == order[0] == "攻1"
    assert LadderChallenge.objects.filter(session__season=following).count() == 0
