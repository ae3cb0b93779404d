"""A season and its teams: created (after last season, with its teams), renamed, published;
teams added, corrected, removed, withdrawn and reinstated; the eight titles seeded."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ladders import rules
from ladders.models import LadderChallenge, LadderSeason, LadderTeam
from ladders.rules import LadderError
from ladders.service.draw import advance
from ladders.service.points import points_table
from ladders.service.sessions import fill_vacant
from ladders.service.shared import LadderProblem, explain, open_session, write_log


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
        write_log(season, user, "created", name, name=name)
        if previous is not None and copy_teams:
            kept = previous.teams.filter(withdrawn=False)
            LadderTeam.objects.bulk_create(
                LadderTeam(season=season, name=t.name, club=t.club, members=t.members) for t in kept
            )
            names = [t.name for t in kept]
            write_log(season, user, "teams", "、".join(names), teams=names)
    return season


def rename_season(season: LadderSeason, user, name: str) -> None:
    name = name.strip()
    if not name or len(name) > 120:
        raise LadderProblem(_("赛季名称不能为空，最多 120 个字"))
    old, season.name = season.name, name
    with transaction.atomic():
        season.save(update_fields=["name"])
        write_log(season, user, "renamed", f"{old} → {name}", old=old, new=name)


def set_published(season: LadderSeason, user, published: bool) -> None:
    with transaction.atomic():
        season.published = published
        season.save(update_fields=["published"])
        write_log(
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
        write_log(season, user, "team", f"{before} → {after}", before=before, after=after)


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
        write_log(
            season,
            user,
            "removed",
            team.name + (f" ({team.title})" if team.title else ""),
            team=team.name,
            slot=team.title,
        )
        team.delete()


def withdraw_team(season: LadderSeason, user, team_id: int) -> None:
    """A team that stops playing: its undecided challenges of the open session are forfeited
    to the other side; a title it holds passes at the session's close (now, between sessions)."""
    team = _team(season, team_id)
    if team.withdrawn:
        raise LadderProblem(_("这支队已经退出"))
    with transaction.atomic():
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        write_log(season, user, "withdrawn", team.name, team=team.name)
        current = open_session(season)
        if current is not None:
            advance(current)
        else:
            fill_vacant(season, user)


def reinstate_team(season: LadderSeason, user, team_id: int) -> None:
    """A withdrawal by mistake: the team plays again from the next draw. Challenges already
    forfeited and a title already passed on stay as they are (correct them one by one)."""
    team = _team(season, team_id)
    if not team.withdrawn:
        raise LadderProblem(_("这支队没有退出"))
    with transaction.atomic():
        team.withdrawn = False
        team.save(update_fields=["withdrawn"])
        write_log(season, user, "reinstated", team.name, team=team.name)


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
        write_log(season, user, "teams", "、".join(names), teams=names)
    return rows


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
        raise explain(error)
    with transaction.atomic():
        season.teams.update(title="")
        for slot, pk in titles.items():
            LadderTeam.objects.filter(pk=pk).update(title=slot.key)
        held = [[slot.key, teams[pk].name] for slot, pk in titles.items()]
        write_log(season, user, "seeded", "; ".join(f"{k}: {n}" for k, n in held), titles=held)
