"""The ladder's one service: moves a season between its rows and the pure rules
(`ladders/rules.py`). Every change is one transaction and one `LadderLog` line."""

from __future__ import annotations

import datetime
import random
import re
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ladders import rules
from ladders.models import LadderChallenge, LadderLog, LadderSeason, LadderSession, LadderTeam
from ladders.rules import LadderError, Rank, Slot

VICE_STAGE, CHIEF_STAGE = 6, 7  # after the five 先锋 rounds


class LadderProblem(Exception):
    """A step the season cannot take now; the message is for the organiser."""


def _explain(error: LadderError) -> LadderProblem:
    """The rules' refusal in the user's language (the rules speak English, for the logs)."""
    messages = {
        "deal_too_many": _("第 %(game)d 局在第 %(deal)d 把已分胜负，多了一把"),
        "game_too_many": _("这场挑战在第 %(game)d 局已分胜负，多了一局"),
        "game_open": _("第 %(game)d 局还没分胜负（四把，平分加把），不能开始下一局"),
        "seed_twice": _("同一支队排了两次"),
        "seed_short": _("八个擂位需要八支队，现在只有 %(n)d 支"),
    }
    template = messages.get(error.code)
    return LadderProblem(template % error.params if template else str(error))


def _log(season: LadderSeason, user, action: str, detail: str, **data) -> None:
    """One line of the season's log: `data` holds its values (names, title keys, numbers) for
    the page to word in the reader's language; `detail` is the same as text, as written."""
    LadderLog.objects.create(season=season, by=user, action=action, detail=detail, data=data)


def create_season(
    user, name: str, previous: LadderSeason | None = None, *, copy_teams: bool = False
) -> LadderSeason:
    """A new season; following `previous`, optionally with its teams (not those that
    withdrew), so that the seeding from last season's points finds them by name."""
    name = name.strip()
    if not name:
        raise LadderProblem(_("请填写赛季名称"))
    if len(name) > 120:
        raise LadderProblem(_("赛季名称最多 120 个字"))
    with transaction.atomic():
        season = LadderSeason.objects.create(name=name, previous=previous)
        season.organisers.add(user)
        _log(season, user, "created", name, name=name)
        if previous is not None and copy_teams:
            kept = previous.teams.filter(withdrawn=False)
            LadderTeam.objects.bulk_create(
                LadderTeam(season=season, name=t.name, club=t.club, members=t.members) for t in kept
            )
            names = [t.name for t in kept]
            _log(season, user, "teams", "、".join(names), teams=names)
    return season


def rename_season(season: LadderSeason, user, name: str) -> None:
    name = name.strip()
    if not name or len(name) > 120:
        raise LadderProblem(_("赛季名称不能为空，最多 120 个字"))
    old, season.name = season.name, name
    with transaction.atomic():
        season.save(update_fields=["name"])
        _log(season, user, "renamed", f"{old} → {name}", old=old, new=name)


def set_published(season: LadderSeason, user, published: bool) -> None:
    with transaction.atomic():
        season.published = published
        season.save(update_fields=["published"])
        _log(
            season,
            user,
            "published" if published else "unpublished",
            season.name,
            name=season.name,
        )


def _team(season: LadderSeason, team_id: int) -> LadderTeam:
    team = season.teams.filter(pk=team_id).first()
    if team is None:
        raise LadderProblem(_("找不到这支队"))
    return team


def edit_team(season: LadderSeason, user, team_id: int, name: str, club: str, members: str):
    """A typo in a team's name, club or members: the team keeps its results and title."""
    team = _team(season, team_id)
    name, club, members = name.strip(), club.strip(), members.strip()
    if not name or len(name) > 80:
        raise LadderProblem(_("队名不能为空，最多 80 个字"))
    if len(club) > 80 or len(members) > 200:
        raise LadderProblem(_("俱乐部最多 80 个字，队员最多 200 个字"))
    if season.teams.filter(name=name).exclude(pk=team.pk).exists():
        raise LadderProblem(_("队名重复：%(names)s") % {"names": name})
    before = f"{team.name} / {team.club} / {team.members}"
    team.name, team.club, team.members = name, club, members
    with transaction.atomic():
        team.save(update_fields=["name", "club", "members"])
        after = f"{name} / {club} / {members}"
        _log(season, user, "team", f"{before} → {after}", before=before, after=after)


def _has_played(team: LadderTeam) -> bool:
    return LadderChallenge.objects.filter(Q(challenger=team) | Q(defender=team)).exists() or any(
        team.pk in s.challengers for s in team.season.sessions.all()
    )


def remove_team(season: LadderSeason, user, team_id: int) -> None:
    """A team added by mistake: gone without a trace but the log line. Once it has been drawn
    it has a history: it can only withdraw."""
    team = _team(season, team_id)
    if _has_played(team):
        raise LadderProblem(_("这支队已参加过抽签，不能删除；请用“退出”"))
    if team.title and season.sessions.exists():
        raise LadderProblem(_("这支队是擂主，不能删除；请用“退出”"))
    with transaction.atomic():
        _log(
            season,
            user,
            "removed",
            team.name + (f" ({team.title})" if team.title else ""),
            team=team.name,
            slot=team.title,
        )
        team.delete()


def _fill_vacant(season: LadderSeason, user) -> None:
    """Titles held by withdrawn teams go, top title first, to the best team on this season's
    points table that is still playing and holds no title (docs/ladder.md)."""
    vacant = [Slot.from_key(t.title) for t in season.teams.filter(withdrawn=True).exclude(title="")]
    if not vacant:
        return
    season.teams.filter(withdrawn=True).update(title="")
    candidates = [
        row.team for row in points_table(season) if not row.team.withdrawn and not row.team.title
    ]
    for slot in sorted(vacant):
        if not candidates:
            break  # left vacant: the next session cannot start until the organiser seeds it
        team = candidates.pop(0)
        LadderTeam.objects.filter(pk=team.pk).update(title=slot.key)
        _log(season, user, "title", f"{slot.key}: {team.name}", slot=slot.key, team=team.name)


def withdraw_team(season: LadderSeason, user, team_id: int) -> None:
    """A team that stops playing: its undecided challenges of the open session are forfeited
    to the other side; a title it holds passes at the session's close (now, between sessions)."""
    team = _team(season, team_id)
    if team.withdrawn:
        raise LadderProblem(_("这支队已经退出"))
    with transaction.atomic():
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        _log(season, user, "withdrawn", team.name, team=team.name)
        current = open_session(season)
        if current is not None:
            _advance(current)
        else:
            _fill_vacant(season, user)


def reinstate_team(season: LadderSeason, user, team_id: int) -> None:
    """A withdrawal by mistake: the team plays again from the next draw. Challenges already
    forfeited and a title already passed on stay as they are (correct them one by one)."""
    team = _team(season, team_id)
    if not team.withdrawn:
        raise LadderProblem(_("这支队没有退出"))
    with transaction.atomic():
        team.withdrawn = False
        team.save(update_fields=["withdrawn"])
        _log(season, user, "reinstated", team.name, team=team.name)


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
        _log(season, user, "teams", "、".join(names), teams=names)
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
        if len(ranking) < len(rules.SLOTS):
            raise LadderProblem(
                _("上赛季积分榜上只有 %(n)d 支队与本赛季的队同名：请先添加或改名，或按名次手动排定")
                % {"n": len(ranking)}
            )
    if any(pk not in teams for pk in ranking):
        raise LadderProblem(_("名次里有不属于本赛季的队"))
    try:
        titles = rules.seed_titles(ranking)
    except LadderError as error:
        raise _explain(error)
    with transaction.atomic():
        season.teams.update(title="")
        for slot, pk in titles.items():
            LadderTeam.objects.filter(pk=pk).update(title=slot.key)
        held = [[slot.key, teams[pk].name] for slot, pk in titles.items()]
        _log(season, user, "seeded", "; ".join(f"{k}: {n}" for k, n in held), titles=held)


def start_session(season: LadderSeason, user, seed: int | None = None) -> LadderSession:
    if len(holders(season)) != len(rules.SLOTS):
        raise LadderProblem(_("先排定八位擂主"))
    if open_session(season):
        raise LadderProblem(_("上一期还没有结束"))
    challengers = list(season.teams.filter(title="", withdrawn=False).values_list("pk", flat=True))
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
        _log(season, user, "session", _("第 %(n)d 期开始") % {"n": number}, n=number)
        _advance(session)
    return session


def _rng(session: LadderSession, stage: str) -> random.Random:
    return random.Random(f"{session.seed}-{stage}")


def _advance(session: LadderSession) -> None:
    """Draw whatever the session's results have earned, and forfeit what a withdrawn team
    cannot play, until nothing changes (a forfeit can earn a draw, a draw can meet a withdrawn
    team)."""
    while _draw(session) | _forfeit_withdrawn(session):
        pass


def _forfeit_withdrawn(session: LadderSession) -> bool:
    """A withdrawn team's undecided challenges go to the other side (both withdrawn: void)."""
    gone = set(session.season.teams.filter(withdrawn=True).values_list("pk", flat=True))
    changed = False
    for c in session.challenges.filter(winner__isnull=True, void=False):
        out = {c.challenger_id, c.defender_id} & gone
        if not out:
            continue
        if len(out) == 2:
            _decide(c, None, void=True)
        else:
            _decide(c, c.defender_id if c.challenger_id in out else c.challenger_id)
        c.save()
        changed = True
    return changed


def _draw(session: LadderSession) -> bool:
    """The next knockout round, the 先锋 rounds once five challengers are left, a
    challenger's 副将 and 主将 challenges; True when it drew something."""
    challenges = list(session.challenges.all())
    knockouts = [c for c in challenges if c.kind == LadderChallenge.Kind.KNOCKOUT]
    if any(not c.decided for c in knockouts):
        return False
    titles = [c for c in challenges if c.kind == LadderChallenge.Kind.TITLE]
    if not titles:
        losers = set()
        for c in knockouts:
            # A void knockout (both sides missed twice) puts both out.
            if c.winner_id != c.challenger_id:
                losers.add(c.challenger_id)
            if c.winner_id != c.defender_id:
                losers.add(c.defender_id)
        gone = set(session.season.teams.filter(withdrawn=True).values_list("pk", flat=True))
        remaining = [pk for pk in session.challengers if pk not in losers | gone]
        stage = max((c.stage for c in knockouts), default=0) + 1
        pairs, _through = rules.knockout_round(remaining, _rng(session, f"knockout-{stage}"))
        if pairs:
            LadderChallenge.objects.bulk_create(
                LadderChallenge(
                    session=session, kind="knockout", stage=stage, challenger_id=a, defender_id=b
                )
                for a, b in pairs
            )
            return True
        if not remaining:
            return False
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
        return True
    held = holders(session.season)
    drew = False
    gone = set(session.season.teams.filter(withdrawn=True).values_list("pk", flat=True))
    for challenger_id in sorted({c.challenger_id for c in titles} - gone):
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
                drew = True
        if Rank.CHIEF in earned:
            LadderChallenge.objects.create(
                session=session, kind="title", stage=CHIEF_STAGE, slot=rules.CHIEF.key,
                challenger_id=challenger_id, defender=held[rules.CHIEF],
            )  # fmt: skip
            drew = True
    return drew


# Full-width digits and punctuation, as a Chinese keyboard types them: read as their ASCII twins.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９：，、", "0123456789:  ")
_DEAL = re.compile(r"(\d{1,3}):(\d{1,3})", re.ASCII)


def parse_games(text: str) -> list[list[tuple[int, int]]]:
    """One 局 a line, its 把 as `challenger:defender` pairs separated by spaces or commas.
    Empty lines are skipped (the 局 are counted, not the lines); anything else that is not two
    numbers of at most three digits around a colon is refused with the 局 and the cell."""
    games: list[list[tuple[int, int]]] = []
    for line in text.translate(_FULL_WIDTH).splitlines():
        cells = line.replace(",", " ").split()
        if not cells:
            continue
        deals = []
        for cell in cells:
            match = _DEAL.fullmatch(cell)
            if match is None:
                raise LadderProblem(
                    _("第 %(n)d 局：“%(cell)s”不是“攻:守”的比分（如 10:0）")
                    % {"n": len(games) + 1, "cell": cell[:20]}
                )
            deals.append((int(match[1]), int(match[2])))
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
        if not games and not challenge.games:
            raise LadderProblem(_("请填写比分"))
        try:
            side = rules.challenge_winner(games)
        except LadderError as error:
            raise _explain(error)
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
            challenge=challenge.pk,
            challenger=challenge.challenger.name,
            defender=challenge.defender.name,
            games=text.strip(),
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
        _log(
            challenge.session.season,
            user,
            "no-show",
            f"#{challenge.pk} {'、'.join(teams)}",
            challenge=challenge.pk,
            teams=teams,
        )
        _advance(challenge.session)
    return challenge


def undo_no_show(challenge_id: int, user, side: str) -> LadderChallenge:
    """A no-show recorded on the wrong side: take one back. A forfeit it caused is undone too,
    unless a later draw depends on that winner (then nothing changes)."""
    if side not in ("challenger", "defender"):
        raise LadderProblem(_("请选择未到场的一方"))
    with transaction.atomic():
        challenge = _locked(challenge_id)
        field = f"{side}_no_shows"
        if getattr(challenge, field) == 0:
            raise LadderProblem(_("这一方没有缺席记录"))
        setattr(challenge, field, getattr(challenge, field) - 1)
        counts = (challenge.challenger_no_shows, challenge.defender_no_shows)
        if challenge.games:
            side_won = rules.challenge_winner([[tuple(d) for d in g] for g in challenge.games])
            void = False
        else:
            side_won = rules.forfeit_winner(counts)
            void = rules.both_forfeit(counts)
        winner_id = (
            None if side_won is None else (challenge.challenger_id, challenge.defender_id)[side_won]
        )
        if (winner_id, void) != (challenge.winner_id, challenge.void) and _drawn_from(challenge):
            raise LadderProblem(_("之后的抽签取决于这场的胜负，不能再改"))
        _decide(challenge, winner_id, void=void)
        challenge.save()
        _log(
            challenge.session.season,
            user,
            "no-show-undone",
            f"#{challenge.pk} {getattr(challenge, side)}",
            challenge=challenge.pk,
            team=str(getattr(challenge, side)),
        )
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
            challenge=challenge.pk, old=old.isoformat() if old else "", new=day.isoformat(),
            challenger=challenge.challenger.name, challenger_agrees=challenger_agrees.strip(),
            defender=challenge.defender.name, defender_agrees=defender_agrees.strip(),
        )  # fmt: skip


def cancellable(session: LadderSession) -> bool:
    """Nothing recorded in the session yet: no score, no no-show, no date, no forfeit."""
    return not session.challenges.filter(
        ~Q(games=[])
        | Q(challenger_no_shows__gt=0)
        | Q(defender_no_shows__gt=0)
        | Q(scheduled_for__isnull=False)
        | Q(winner__isnull=False)
        | Q(void=True)
    ).exists()


def cancel_session(session_id: int, user) -> None:
    """A session opened by mistake: its draw is taken back while nothing has been recorded in
    it (no score, no no-show, no date). Before the first session the seeding can be redone."""
    with transaction.atomic():
        session = (
            LadderSession.objects.select_for_update().select_related("season").get(pk=session_id)
        )
        if session.closed_at:
            raise LadderProblem(_("本期已结束"))
        if not cancellable(session):
            raise LadderProblem(_("本期已有比分、缺席或改期记录，不能撤销抽签；请逐场更正"))
        _log(
            session.season,
            user,
            "session-cancelled",
            _("第 %(n)d 期的抽签已撤销") % {"n": session.number},
            n=session.number,
        )
        session.delete()


def reopen_session(session_id: int, user) -> None:
    """A session closed by mistake: the latest one, while no later one has opened, is open
    again and the titles go back to what they were before its close."""
    with transaction.atomic():
        session = (
            LadderSession.objects.select_for_update().select_related("season").get(pk=session_id)
        )
        season = session.season
        if not session.closed_at:
            raise LadderProblem(_("本期还没有结束"))
        if season.sessions.filter(number__gt=session.number).exists():
            raise LadderProblem(_("之后已有新的一期：只能重开最近结束的一期"))
        if not session.titles_before:
            # Closed before the titles were kept at the close: nothing to put back.
            raise LadderProblem(_("这一期结束时没有保存原擂主，不能重开"))
        names = dict(season.teams.values_list("pk", "name"))
        season.teams.update(title="")
        for key, pk in session.titles_before.items():
            LadderTeam.objects.filter(pk=pk).update(title=key)
        session.closed_at = None
        session.save(update_fields=["closed_at"])
        _log(
            season,
            user,
            "reopened",
            _("第 %(n)d 期重新开放") % {"n": session.number}
            + "; "
            + "; ".join(f"{key}: {names.get(pk, pk)}" for key, pk in session.titles_before.items()),
            n=session.number,
            titles=[[key, names.get(pk, str(pk))] for key, pk in session.titles_before.items()],
        )
        _advance(session)


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
        gone = set(season.teams.filter(withdrawn=True).values_list("pk", flat=True))
        # A challenger that withdrew keeps its points but claims no title.
        claims = [o for o in _outcomes(challenges) if o.challenger not in gone]
        after = rules.titles_after_session(before, claims)
        names = dict(season.teams.values_list("pk", "name"))
        season.teams.update(title="")
        for slot, pk in after.items():
            LadderTeam.objects.filter(pk=pk).update(title=slot.key)
        moves = [
            [slot.key, names[before[slot]], names[pk]]
            for slot, pk in after.items()
            if pk != before[slot]
        ]
        changes = [f"{key}: {old} → {new}" for key, old, new in moves]
        session.closed_at = timezone.now()
        session.titles_before = {slot.key: pk for slot, pk in before.items()}
        session.save(update_fields=["closed_at", "titles_before"])
        _log(
            season,
            user,
            "closed",
            _("第 %(n)d 期结束") % {"n": session.number}
            + ("; " + "; ".join(changes) if changes else ""),
            n=session.number,
            changes=moves,
        )
        _fill_vacant(season, user)
    return {slot: team.pk for slot, team in holders(season).items()}


@dataclass
class PointsRow:
    team: LadderTeam
    points: int
    won: int
    lost: int


def points_table(season: LadderSeason) -> list[PointsRow]:
    """League points over the season's title challenges (knockouts score none), best first;
    ties by challenges won, then the title held, then by name."""
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
    order = {slot.key: i for i, slot in enumerate(rules.SLOTS)}
    # Level on points and wins: the higher title held now goes first (it seeds next season's
    # titles), then the name, so the order never depends on the database.
    rows.sort(key=lambda r: (-r.points, -r.won, order.get(r.team.title, len(order)), r.team.name))
    return rows
