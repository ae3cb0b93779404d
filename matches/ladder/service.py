"""The ladder's one service: moves a season between its rows and the pure rules
(`matches/ladder/rules.py`). Every change is one transaction and one `LadderLog` line."""

from __future__ import annotations

import datetime
import random
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.ladder import rules
from matches.ladder.rules import LadderError, Rank, Slot
from matches.models import LadderChallenge, LadderLog, LadderSeason, LadderSession, LadderTeam

VICE_STAGE, CHIEF_STAGE = 6, 7  # after the five 先锋 rounds


class LadderProblem(Exception):
    """A step the season cannot take now; the message is for the organiser."""


def _log(season: LadderSeason, user, action: str, detail: str) -> None:
    LadderLog.objects.create(season=season, by=user, action=action, detail=detail)


def create_season(user, name: str, previous: LadderSeason | None = None) -> LadderSeason:
    name = name.strip()
    if not name:
        raise LadderProblem(_("请填写赛季名称"))
    with transaction.atomic():
        season = LadderSeason.objects.create(name=name, previous=previous)
        season.organisers.add(user)
        _log(season, user, "created", name)
    return season


def add_teams(season: LadderSeason, user, text: str) -> list[LadderTeam]:
    """One team a line: `name / club / members` (club and members optional)."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, _sep, rest = (part.strip() for part in line.partition("/"))
        club, _sep, members = (part.strip() for part in rest.partition("/"))
        if not name or len(name) > 80:
            raise LadderProblem(_("第 %(n)d 行：队名不能为空，最多 80 个字") % {"n": number})
        rows.append(LadderTeam(season=season, name=name, club=club[:80], members=members[:200]))
    names = [r.name for r in rows]
    taken = set(season.teams.filter(name__in=names).values_list("name", flat=True))
    doubles = {n for n in names if names.count(n) > 1} | taken
    if doubles:
        raise LadderProblem(_("队名重复：%(names)s") % {"names": "、".join(sorted(doubles))})
    with transaction.atomic():
        LadderTeam.objects.bulk_create(rows)
        _log(season, user, "teams", "、".join(names))
    return rows


def holders(season: LadderSeason) -> dict[Slot, LadderTeam]:
    return {Slot.from_key(t.title): t for t in season.teams.exclude(title="")}


def open_session(season: LadderSeason) -> LadderSession | None:
    return season.sessions.filter(closed_at__isnull=True).first()


def seed(season: LadderSeason, user, ranking: list[int] | None = None) -> None:
    """Hand out the eight titles: from `ranking` (team ids, best first) or, without one, from
    last season's points table (its teams matched to this season's by name)."""
    if season.sessions.exists():
        raise LadderProblem(_("赛季已开始，不能重新排定擂主"))
    teams = {t.pk: t for t in season.teams.all()}
    if ranking is None:
        if season.previous is None:
            raise LadderProblem(_("没有上赛季：请按名次选出八支守擂队"))
        by_name = {t.name: t.pk for t in teams.values()}
        ranking = [
            by_name[row.team.name]
            for row in points_table(season.previous)
            if row.team.name in by_name
        ]
    if any(pk not in teams for pk in ranking):
        raise LadderProblem(_("名次里有不属于本赛季的队"))
    try:
        titles = rules.seed_titles(ranking)
    except LadderError as error:
        raise LadderProblem(str(error))
    with transaction.atomic():
        season.teams.update(title="")
        for slot, pk in titles.items():
            LadderTeam.objects.filter(pk=pk).update(title=slot.key)
        _log(
            season,
            user,
            "seeded",
            "; ".join(f"{slot.key}: {teams[pk].name}" for slot, pk in titles.items()),
        )


def start_session(season: LadderSeason, user, seed: int | None = None) -> LadderSession:
    if len(holders(season)) != len(rules.SLOTS):
        raise LadderProblem(_("先排定八位擂主"))
    if open_session(season):
        raise LadderProblem(_("上一期还没有结束"))
    challengers = list(season.teams.filter(title="").values_list("pk", flat=True))
    if not challengers:
        raise LadderProblem(_("没有攻擂队"))
    with transaction.atomic():
        number = season.sessions.count() + 1
        session = LadderSession.objects.create(
            season=season,
            number=number,
            seed=seed if seed is not None else secrets.randbelow(2**31),
            challengers=challengers,
        )
        _log(season, user, "session", _("第 %(n)d 期开始") % {"n": number})
        _advance(session)
    return session


def _rng(session: LadderSession, stage: str) -> random.Random:
    return random.Random(f"{session.seed}-{stage}")


def _advance(session: LadderSession) -> None:
    """Draw whatever the session's results have earned: the next knockout round, the 先锋
    rounds once five challengers are left, a challenger's 副将 and 主将 challenges."""
    challenges = list(session.challenges.all())
    knockouts = [c for c in challenges if c.kind == LadderChallenge.Kind.KNOCKOUT]
    if any(not c.decided for c in knockouts):
        return
    titles = [c for c in challenges if c.kind == LadderChallenge.Kind.TITLE]
    if not titles:
        losers = {
            c.challenger_id if c.winner_id == c.defender_id else c.defender_id for c in knockouts
        }
        remaining = [pk for pk in session.challengers if pk not in losers]
        stage = max((c.stage for c in knockouts), default=0) + 1
        pairs, _through = rules.knockout_round(remaining, _rng(session, f"knockout-{stage}"))
        if pairs:
            LadderChallenge.objects.bulk_create(
                LadderChallenge(
                    session=session, kind="knockout", stage=stage, challenger_id=a, defender_id=b
                )
                for a, b in pairs
            )
            return
        held = holders(session.season)
        schedule = rules.vanguard_schedule(remaining, _rng(session, "vanguards"))
        LadderChallenge.objects.bulk_create(
            LadderChallenge(
                session=session,
                kind="title",
                stage=number,
                slot=slot.key,
                challenger_id=team,
                defender=held[slot],
            )
            for number, round_ in enumerate(schedule, start=1)
            for team, slot in round_
        )
        return
    held = holders(session.season)
    for challenger_id in {c.challenger_id for c in titles}:
        mine = [c for c in titles if c.challenger_id == challenger_id]
        won = [Slot.from_key(c.slot).rank for c in mine if c.winner_id == challenger_id]
        played = [Slot.from_key(c.slot).rank for c in mine]
        earned = rules.next_challenges(
            won.count(Rank.VANGUARD),
            won.count(Rank.VICE),
            vice_played=played.count(Rank.VICE),
            chief_played=Rank.CHIEF in played,
        )
        if Rank.VICE in earned:
            order = list(rules.VICES)
            _rng(session, f"vices-{challenger_id}").shuffle(order)
            for slot in order:
                LadderChallenge.objects.create(
                    session=session, kind="title", stage=VICE_STAGE, slot=slot.key,
                    challenger_id=challenger_id, defender=held[slot],
                )  # fmt: skip
        if Rank.CHIEF in earned:
            LadderChallenge.objects.create(
                session=session, kind="title", stage=CHIEF_STAGE, slot=rules.CHIEF.key,
                challenger_id=challenger_id, defender=held[rules.CHIEF],
            )  # fmt: skip


def parse_games(text: str) -> list[list[tuple[int, int]]]:
    """One 局 a line, its 把 as `challenger:defender` pairs separated by spaces or commas."""
    games = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = line.replace(",", " ").replace("，", " ").replace("：", ":").split()
        if not cells:
            continue
        deals = []
        for cell in cells:
            a, sep, b = cell.partition(":")
            if not sep or not (a.isdigit() and b.isdigit()) or len(a) > 3 or len(b) > 3:
                raise LadderProblem(
                    _("第 %(n)d 局：“%(cell)s”不是“攻:守”的比分") % {"n": number, "cell": cell}
                )
            deals.append((int(a), int(b)))
        games.append(deals)
    return games


def _locked(challenge_id: int) -> LadderChallenge:
    challenge = (
        LadderChallenge.objects.select_for_update()
        .select_related("session__season")
        .get(pk=challenge_id)
    )
    if challenge.session.closed_at:
        raise LadderProblem(_("本期已结束"))
    return challenge


def _decide(challenge: LadderChallenge, winner_id: int | None, *, void: bool = False) -> None:
    challenge.winner_id = winner_id
    challenge.void = void
    challenge.decided_at = timezone.now() if (winner_id or void) else None


def _drawn_from(challenge: LadderChallenge) -> bool:
    """Whether a later draw of the session depended on this challenge's winner: a later
    knockout round (or the 先锋 rounds) after a knockout, a challenger's 副将 or 主将
    challenges after a title challenge."""
    later = challenge.session.challenges.all()
    if challenge.kind == LadderChallenge.Kind.KNOCKOUT:
        return later.filter(Q(kind="title") | Q(stage__gt=challenge.stage)).exists()
    return later.filter(
        challenger_id=challenge.challenger_id, stage__gt=max(challenge.stage, 5)
    ).exists()


def record_result(challenge_id: int, user, text: str) -> LadderChallenge:
    """The challenge's 局 as played so far; the rules say whether it is decided."""
    games = parse_games(text)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        try:
            side = rules.challenge_winner(games)
        except LadderError as error:
            raise LadderProblem(str(error))
        winner_id = None if side is None else (challenge.challenger_id, challenge.defender_id)[side]
        if challenge.decided and winner_id != challenge.winner_id and _drawn_from(challenge):
            raise LadderProblem(_("之后的抽签取决于这场的胜负，不能再改"))
        challenge.games = [[list(d) for d in g] for g in games]
        _decide(challenge, winner_id)
        challenge.save()
        _log(
            challenge.session.season,
            user,
            "result",
            f"#{challenge.pk} {challenge.challenger} – {challenge.defender}: {text.strip()}",
        )
        _advance(challenge.session)
    return challenge


def record_no_show(challenge_id: int, user, side: str) -> LadderChallenge:
    """A side (or both) did not come: the first time the challenge is to be rescheduled, the
    second forfeits it (rules.forfeit_winner); both sides missing twice void it."""
    if side not in ("challenger", "defender", "both"):
        raise LadderProblem(_("请选择未到场的一方"))
    sides = ("challenger", "defender") if side == "both" else (side,)
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.decided:
            raise LadderProblem(_("这场挑战已有结果"))
        for missing in sides:
            setattr(challenge, f"{missing}_no_shows", getattr(challenge, f"{missing}_no_shows") + 1)
        counts = (challenge.challenger_no_shows, challenge.defender_no_shows)
        winner = rules.forfeit_winner(counts)
        _decide(
            challenge,
            None if winner is None else (challenge.challenger_id, challenge.defender_id)[winner],
            void=rules.both_forfeit(counts),
        )
        challenge.save()
        teams = [str(getattr(challenge, missing)) for missing in sides]
        _log(challenge.session.season, user, "no-show", f"#{challenge.pk} {'、'.join(teams)}")
        _advance(challenge.session)
    return challenge


def reschedule(
    challenge_id: int, user, day: datetime.date, challenger_agrees: str, defender_agrees: str
) -> None:
    """A new date needs both sides' agreement: the names of who agreed for each side are kept."""
    if not challenger_agrees.strip() or not defender_agrees.strip():
        raise LadderProblem(_("改期需要双方同意：请填写双方同意人的名字"))
    with transaction.atomic():
        challenge = _locked(challenge_id)
        if challenge.decided:
            raise LadderProblem(_("这场挑战已有结果"))
        old = challenge.scheduled_for
        challenge.scheduled_for = day
        challenge.save(update_fields=["scheduled_for"])
        _log(
            challenge.session.season, user, "rescheduled",
            f"#{challenge.pk} {old or '—'} → {day}; {challenge.challenger}: {challenger_agrees.strip()}; "
            f"{challenge.defender}: {defender_agrees.strip()}",
        )  # fmt: skip


def _outcomes(challenges) -> list[rules.Outcome[int]]:
    outcomes = []
    for c in challenges:
        if c.kind != LadderChallenge.Kind.TITLE or c.winner_id is None:
            continue
        won = sum(1 for g in c.games if rules.game_winner(g) == 0)
        lost = sum(1 for g in c.games if rules.game_winner(g) == 1)
        margin = sum(a - b for g in c.games for a, b in g)
        outcomes.append(
            rules.Outcome(
                c.challenger_id,
                Slot.from_key(c.slot),
                c.defender_id,
                c.winner_id == c.challenger_id,
                won - lost,
                margin,
            )
        )
    return outcomes


def close_session(session_id: int, user) -> dict[Slot, int]:
    """Every challenge decided: the titles change hands (rules.titles_after_session)."""
    with transaction.atomic():
        session = (
            LadderSession.objects.select_for_update().select_related("season").get(pk=session_id)
        )
        if session.closed_at:
            raise LadderProblem(_("本期已结束"))
        challenges = list(session.challenges.all())
        if not challenges or any(not c.decided for c in challenges):
            raise LadderProblem(_("还有挑战没有结果"))
        if any(c.kind == LadderChallenge.Kind.KNOCKOUT for c in challenges) and not any(
            c.kind == LadderChallenge.Kind.TITLE for c in challenges
        ):
            raise LadderProblem(_("还有挑战没有结果"))
        season = session.season
        before = {slot: team.pk for slot, team in holders(season).items()}
        after = rules.titles_after_session(before, _outcomes(challenges))
        names = dict(season.teams.values_list("pk", "name"))
        season.teams.update(title="")
        for slot, pk in after.items():
            LadderTeam.objects.filter(pk=pk).update(title=slot.key)
        changes = [
            f"{slot.key}: {names[before[slot]]} → {names[pk]}"
            for slot, pk in after.items()
            if pk != before[slot]
        ]
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
        _log(
            season,
            user,
            "closed",
            _("第 %(n)d 期结束") % {"n": session.number}
            + ("; " + "; ".join(changes) if changes else ""),
        )
    return after


@dataclass
class PointsRow:
    team: LadderTeam
    points: int
    won: int
    lost: int


def points_table(season: LadderSeason) -> list[PointsRow]:
    """League points over the season's title challenges (knockouts score none), best first;
    ties by challenges won, then by name."""
    challenges = LadderChallenge.objects.filter(session__season=season, kind="title").filter(
        Q(winner__isnull=False)
    )
    outcomes = _outcomes(challenges)
    points = rules.points_table(outcomes)
    won: dict[int, int] = {}
    lost: dict[int, int] = {}
    for o in outcomes:
        winner, loser = (o.challenger, o.holder) if o.challenger_won else (o.holder, o.challenger)
        won[winner] = won.get(winner, 0) + 1
        lost[loser] = lost.get(loser, 0) + 1
    rows = [
        PointsRow(t, points.get(t.pk, 0), won.get(t.pk, 0), lost.get(t.pk, 0))
        for t in season.teams.all()
    ]
    rows.sort(key=lambda r: (-r.points, -r.won, r.team.name))
    return rows
