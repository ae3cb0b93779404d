"""A challenge's record: its scores (typed one 局 a line), no-shows (and one taken back), and
a new date both sides agreed to. A change a later draw depends on is refused."""

from __future__ import annotations

import datetime
import re

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ladders import rules
from ladders.models import LadderChallenge
from ladders.rules import LadderError
from ladders.service.draw import advance
from ladders.service.shared import LadderProblem, decide, explain, write_log

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
            raise explain(error)
        winner_id = None if side is None else (challenge.challenger_id, challenge.defender_id)[side]
        if challenge.decided and winner_id != challenge.winner_id and _drawn_from(challenge):
            raise LadderProblem(_("之后的抽签取决于这场的胜负，不能再改"))
        challenge.games = [[list(d) for d in g] for g in games]
        decide(challenge, winner_id)
        challenge.save()
        write_log(
            challenge.session.season,
            user,
            "result",
            f"#{challenge.pk} {challenge.challenger} – {challenge.defender}: {text.strip()}",
            challenge=challenge.pk,
            challenger=challenge.challenger.name,
            defender=challenge.defender.name,
            games=text.strip(),
        )
        advance(challenge.session)
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
        decide(
            challenge,
            None if winner is None else (challenge.challenger_id, challenge.defender_id)[winner],
            void=rules.both_forfeit(counts),
        )
        challenge.save()
        teams = [str(getattr(challenge, missing)) for missing in sides]
        write_log(
            challenge.session.season,
            user,
            "no-show",
            f"#{challenge.pk} {'、'.join(teams)}",
            challenge=challenge.pk,
            teams=teams,
        )
        advance(challenge.session)
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
        decide(challenge, winner_id, void=void)
        challenge.save()
        write_log(
            challenge.session.season,
            user,
            "no-show-undone",
            f"#{challenge.pk} {getattr(challenge, side)}",
            challenge=challenge.pk,
            team=str(getattr(challenge, side)),
        )
        advance(challenge.session)
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
        write_log(
            challenge.session.season, user, "rescheduled",
            f"#{challenge.pk} {old or '—'} → {day}; {challenge.challenger}: {challenger_agrees.strip()}; "
            f"{challenge.defender}: {defender_agrees.strip()}",
            challenge=challenge.pk, old=old.isoformat() if old else "", new=day.isoformat(),
            challenger=challenge.challenger.name, challenger_agrees=challenger_agrees.strip(),
            defender=challenge.defender.name, defender_agrees=defender_agrees.strip(),
        )  # fmt: skip
