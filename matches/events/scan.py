"""Check-in by scanning a badge at the desk (docs/floor.md, "The check-in desk").

What a badge gives the desk: the QR code of its holder's own page (`/me/<token>/`, a
`FloorPass`), read by the phone's camera or typed by a USB scanner, or the short desk code
printed under it (`desk_code`: the first ten hex digits of the token's digest, typed by hand).
An entry's private link (`/entry/<token>/`) is recognised too. Tokens are found by their
digest, as the pages themselves find them; the desk never shows a token back.

The scan checks the entry in for the round check-in is for (`checkin.next_round`); a second scan
says since when it is here; each check-in and undo is written to the event's log (`RoundLog`)
with who and when.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import checkin
from matches.models import Event, FloorPass, Registration, RoundLog, UnionMember
from matches.models.digest import token_digest

#: the longest input read: a badge's address is well under this; more is not a badge
MAX_CODE = 300
#: hex digits of the token's digest that make the desk code printed on a badge
DESK_CODE_LENGTH = 10
#: log lines the desk shows
RECENT = 8

_PAGE = re.compile(r"/(me|entry)/([A-Za-z0-9_-]{1,64})(?:[/?#]|$)")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_DESK_CODE = re.compile(r"([0-9A-Fa-f]{5})[\s-]?([0-9A-Fa-f]{5})")


class ScanRefused(Exception):
    """A scan that checks nothing in: `code` names why (for tests and the page's styling)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Scanned:
    entry: Registration
    round: int
    at: datetime | None  # when the entry was checked in (now, or earlier when `already`)
    already: bool
    holder: str  # whose badge it was when not the entry's own (a union member's), else ""


def desk_code(token: str) -> str:
    """The short code printed on a badge under its QR code: `3F9A2-C710B`. It is cut from the
    token's digest, so it does not give the token (nor the private page) away."""
    digest = (token_digest(token) or "")[:DESK_CODE_LENGTH].upper()
    return f"{digest[:5]}-{digest[5:]}"


def _owner_of_pass(event: Event, floor_pass: FloorPass) -> tuple[Registration, str]:
    """The registration a badge checks in: the player's (individual) or the union's (a team's
    captain card, or any member's badge: the union is the entry)."""
    if floor_pass.event_id != event.pk:
        raise ScanRefused("other_event", _("这张胸牌属于另一项赛事，不是本赛事的"))
    entry, holder, player_id = None, "", floor_pass.player_id
    if floor_pass.union_id:
        entry = event.registrations.filter(union_id=floor_pass.union_id).first()
    elif player_id is not None:
        entry = event.registrations.filter(player_id=player_id).first()
        if entry is None:
            member = (
                UnionMember.objects.filter(event=event, round__isnull=True, player_id=player_id)
                .select_related("player")
                .first()
            )
            if member is not None:
                entry = event.registrations.filter(union_id=member.union_id).first()
                holder = str(member.player)
    if entry is None:
        # A badge printed before its holder left the union or the entry was deleted.
        raise ScanRefused("expired", _("这张胸牌已失效：持有人不在本赛事的报名中"))
    return entry, holder


def find_entry(event: Event, code: str) -> tuple[Registration, str]:
    """The entry a scanned or typed code names, and whose badge it was; ScanRefused else."""
    code = (code or "").strip()
    if not code:
        raise ScanRefused("empty", _("请扫描胸牌二维码，或输入胸牌上的签到码"))
    if len(code) > MAX_CODE:
        raise ScanRefused("unknown", _("无法识别：这不是本系统的胸牌码"))
    page = _PAGE.search(code)
    desk = _DESK_CODE.fullmatch(code)
    if page is not None:
        kind, token = page.groups()
        tokens = [(kind, token)]
    elif desk is not None:
        return _by_desk_code(event, (desk.group(1) + desk.group(2)).lower())
    elif _TOKEN.fullmatch(code):
        tokens = [("me", code), ("entry", code)]
    else:
        raise ScanRefused("unknown", _("无法识别：这不是本系统的胸牌码"))
    for kind, token in tokens:
        digest = token_digest(token)
        if kind == "me":
            floor_pass = FloorPass.objects.filter(token_digest=digest).first()
            if floor_pass is not None:
                return _owner_of_pass(event, floor_pass)
        else:
            entry = Registration.objects.filter(private_token_digest=digest).first()
            if entry is not None:
                if entry.event_id != event.pk:
                    raise ScanRefused("other_event", _("这张胸牌属于另一项赛事，不是本赛事的"))
                return entry, ""
    raise ScanRefused("unknown", _("未找到这张胸牌：二维码有误或已失效"))


def _by_desk_code(event: Event, prefix: str) -> tuple[Registration, str]:
    passes = list(FloorPass.objects.filter(event=event, token_digest__startswith=prefix)[:2])
    if len(passes) > 1:  # 40 bits: a festival of 10,000 badges has a pair once in ~20,000
        raise ScanRefused("ambiguous", _("这个签到码对应多张胸牌，请扫描二维码"))
    if passes:
        return _owner_of_pass(event, passes[0])
    if FloorPass.objects.filter(token_digest__startswith=prefix).exists():
        raise ScanRefused("other_event", _("这张胸牌属于另一项赛事，不是本赛事的"))
    raise ScanRefused("unknown", _("未找到这个签到码：请核对后重新输入"))


def log(event: Event, action: str, user, entry: Registration, number: int, via: str) -> None:
    """Who checked the entry in or took it back, when, for which round and from where (`via`:
    the desk's scan, or the check-in list)."""
    RoundLog.objects.create(
        event=event,
        action=action,
        user=user if getattr(user, "is_authenticated", False) else None,
        details={"entry": entry.pk, "name": str(entry.entrant), "round": number, "via": via},
    )


def tick(event: Event, entry: Registration, user, number: int, present: bool) -> None:
    """The check-in list's tick on an entry: its check-in taken back (`present`) or made for
    round `number`, logged as done from the list. checkin.CheckInRefused passes through, and
    nothing is logged then."""
    if present:
        checkin.undo(entry)
    else:
        checkin.check_in(entry, number)
    action = RoundLog.Action.CHECK_IN_UNDO if present else RoundLog.Action.CHECK_IN
    log(event, action, user, entry, number, "list")


@transaction.atomic
def scan_check_in(event: Event, code: str, user) -> Scanned:
    """Check in the entry the code names, once: a second scan answers `already` with the time
    of the first. Refusals (ScanRefused) name the reason; nothing is written then."""
    entry, holder = find_entry(event, code)
    entry = Registration.objects.select_for_update().get(pk=entry.pk)
    number = checkin.next_round(event)
    if entry.status == Registration.Status.WITHDRAWN:
        raise ScanRefused("withdrawn", _("%(name)s 已退赛，不能签到") % {"name": entry.entrant})
    if not event.registrations.filter(checkin.listed_q(event, number), pk=entry.pk).exists():
        raise ScanRefused(
            "later",
            _("%(name)s 从第 %(n)s 轮起参赛，现在签到的是第 %(r)s 轮")
            % {"name": entry.entrant, "n": entry.joins_round, "r": number},
        )
    present = event.registrations.filter(checkin.present_q(event, number), pk=entry.pk).exists()
    if present:
        return Scanned(entry, number, entry.checked_in_at, True, holder)
    checkin.check_in(entry, number)
    log(event, RoundLog.Action.CHECK_IN, user, entry, number, "scan")
    return Scanned(entry, number, entry.checked_in_at or timezone.now(), False, holder)


@transaction.atomic
def undo_check_in(event: Event, entry: Registration, user, via: str = "scan") -> bool:
    """Take the entry's check-in back (logged); False when it was not checked in."""
    entry = Registration.objects.select_for_update().get(pk=entry.pk, event=event)
    if entry.status != Registration.Status.CHECKED_IN:
        return False
    number = checkin.next_round(event)
    checkin.undo(entry)
    log(event, RoundLog.Action.CHECK_IN_UNDO, user, entry, number, via)
    return True


def recent(event: Event) -> list[RoundLog]:
    """The desk's last check-ins and undos, newest first."""
    return list(
        RoundLog.objects.filter(
            event=event, action__in=[RoundLog.Action.CHECK_IN, RoundLog.Action.CHECK_IN_UNDO]
        )
        .select_related("user")
        .order_by("-at", "-id")[:RECENT]
    )
