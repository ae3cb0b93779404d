"""A session's draw: whatever its results have earned is drawn (the knockout rounds, the
先锋 rounds, a challenger's 副将 and 主将 challenges), and what a withdrawn team cannot play
is forfeited, until nothing changes. Called after every change to a session."""

from __future__ import annotations

import random

from ladders import rules
from ladders.models import LadderChallenge, LadderSession
from ladders.rules import Rank, Slot
from ladders.service.shared import decide, holders

VICE_STAGE, CHIEF_STAGE = 6, 7  # after the five 先锋 rounds


def _rng(session: LadderSession, stage: str) -> random.Random:
    return random.Random(f"{session.seed}-{stage}")


def advance(session: LadderSession) -> None:
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
            decide(c, None, void=True)
        else:
            decide(c, c.defender_id if c.challenger_id in out else c.challenger_id)
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
