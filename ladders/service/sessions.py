"""A session's life: started (its first draw), cancelled while nothing is recorded, closed
(the titles change hands, vacant titles filled), reopened after a close by mistake."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ladders import rules
from ladders.models import LadderChallenge, LadderSeason, LadderSession, LadderTeam
from ladders.rules import Slot
from ladders.service.draw import advance
from ladders.service.points import points_table, title_outcomes
from ladders.service.shared import LadderProblem, holders, open_session, write_log


def fill_vacant(season: LadderSeason, user) -> None:
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
        write_log(season, user, "title", f"{slot.key}: {team.name}", slot=slot.key, team=team.name)


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
        write_log(season, user, "session", _("第 %(n)d 期开始") % {"n": number}, n=number)
        advance(session)
    return session


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
        write_log(
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
        write_log(
            season,
            user,
            "reopened",
            _("第 %(n)d 期重新开放") % {"n": session.number}
            + "; "
            + "; ".join(f"{key}: {names.get(pk, pk)}" for key, pk in session.titles_before.items()),
            n=session.number,
            titles=[[key, names.get(pk, str(pk))] for key, pk in session.titles_before.items()],
        )
        advance(session)


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
        claims = [o for o in title_outcomes(challenges) if o.challenger not in gone]
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
        write_log(
            season,
            user,
            "closed",
            _("第 %(n)d 期结束") % {"n": session.number}
            + ("; " + "; ".join(changes) if changes else ""),
            n=session.number,
            changes=moves,
        )
        fill_vacant(season, user)
    return {slot: team.pk for slot, team in holders(season).items()}
