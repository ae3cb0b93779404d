"""What every step of the ladder's service shares: the organiser's error (`LadderProblem`, and
the rules' refusals worded for the organiser), the season's log line, the titles held, the
open session, and a challenge marked decided."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from ladders.models import LadderChallenge, LadderLog, LadderSeason, LadderSession, LadderTeam
from ladders.rules import LadderError, Slot


class LadderProblem(Exception):
    """A step the season cannot take now; the message is for the organiser."""


def explain(error: LadderError) -> LadderProblem:
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


def write_log(season: LadderSeason, user, action: str, detail: str, **data) -> None:
    """One line of the season's log: `data` holds its values (names, title keys, numbers) for
    the page to word in the reader's language; `detail` is the same as text, as written."""
    LadderLog.objects.create(season=season, by=user, action=action, detail=detail, data=data)


def holders(season: LadderSeason) -> dict[Slot, LadderTeam]:
    return {Slot.from_key(t.title): t for t in season.teams.exclude(title="")}


def open_session(season: LadderSeason) -> LadderSession | None:
    return season.sessions.filter(closed_at__isnull=True).first()


def decide(challenge: LadderChallenge, winner_id: int | None, *, void: bool = False) -> None:
    challenge.winner_id = winner_id
    challenge.void = void
    challenge.decided_at = timezone.now() if (winner_id or void) else None
