"""Handing out the private links: every entry's private link with its players' own pages
(`/me/`, the badges' QR codes), and every open staff invitation, as rows for a spreadsheet
(CSV/XLSX) or a printed sheet with QR codes, to paste into
a WeChat group or hand out on paper. The organiser's only (the views check it).

An entry's token is made on first use, like the entry's link page (`checkin.private_token`), and
stays where it is: the hall box keeps the token, the mirror only its digest (docs/hall-box.md).
An entry whose token is gone but whose digest is still there (a mirror turned into the server)
is left without a link: a new token would silently break the link already handed out.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.events import zones
from matches.models import (
    Event,
    FloorPass,
    Registration,
    Round,
    StaffInvitation,
    TableSeat,
    UnionMember,
)
from matches.models.digest import token_digest
from matches.public import floor_passes
from players.models import Player


@dataclass
class EntryLink:
    entry_id: int
    name: str
    club: str
    players: list[str]
    table: int | None
    token: str  # "" when the link cannot be shown again (see the module's note)
    url: str = ""
    qr: str = field(default="", repr=False)
    # Each player's own page (`/me/<token>/`, the badge's QR code), in member order: the
    # token ("" when it stayed on the hall box), and the caller's URL for it.
    me_tokens: list[str] = field(default_factory=list)
    me_urls: list[str] = field(default_factory=list)


@dataclass
class InvitationLink:
    invitation: StaffInvitation
    url: str
    qr: str = field(default="", repr=False)

    @property
    def place(self) -> str:
        return invitation_place(self.invitation)


def invitation_place(invitation: StaffInvitation) -> str:
    """ "A区 1-120 · 5, 17" (the zone, then the single tables), or ""."""
    parts = []
    if invitation.zone_id:
        parts.append(invitation.zone.label)  # type: ignore[union-attr]
    if invitation.tables:
        parts.append(_("桌 %(tables)s") % {"tables": invitation.tables})
    return " · ".join(parts)


def drawn_round(event: Event) -> Round | None:
    """The round whose tables the sheet names: the one being played (or the latest shown)."""
    return zones.current_round(event) or (
        event.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()
    )


@transaction.atomic
def ensure_entry_tokens(event: Event) -> int:
    """Make the private tokens the entries lack (all at once: a festival has thousands)."""
    missing = list(
        Registration.objects.select_for_update()
        .filter(Q(private_token__isnull=True) | Q(private_token=""), event=event)
        .filter(private_token_digest__isnull=True)
        .only("pk")
    )
    for entry in missing:
        entry.private_token = secrets.token_urlsafe(18)
        entry.private_token_digest = token_digest(entry.private_token)
    Registration.objects.bulk_update(
        missing, ["private_token", "private_token_digest"], batch_size=1000
    )
    return len(missing)


def entries_in_order(event: Event):
    return (
        event.registrations.exclude(status=Registration.Status.WITHDRAWN)
        .select_related("union__club", "player__club")
        .order_by("seed", "id")
    )


def entry_links(event: Event, entries=None) -> list[EntryLink]:
    """One row per entry (withdrawn ones left out), in seed order: its union or player, club,
    players, the table of the drawn round and the private token. `url` is the caller's."""
    ensure_entry_tokens(event)
    floor_passes.ensure_passes(event)  # the players' own pages, as the badge sheet makes them
    entries = list(entries if entries is not None else entries_in_order(event))
    union_ids = [e.union_id for e in entries if e.union_id]
    members: dict[int, list[Player]] = {}
    for m in (
        UnionMember.objects.filter(union_id__in=union_ids)
        .select_related("player")
        .order_by("union_id", "order")
    ):
        members.setdefault(m.union_id, []).append(m.player)
    passes = dict(
        FloorPass.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", "token"
        )
    )
    round_ = drawn_round(event)
    by_union: dict[int, int] = {}
    by_player: dict[int, int] = {}
    if round_ is not None:
        for union_id, player_id, number in TableSeat.objects.filter(round=round_).values_list(
            "union_id", "player_id", "table__number"
        ):
            if union_id:
                by_union.setdefault(union_id, number)
            by_player.setdefault(player_id, number)
    rows = []
    for entry in entries:
        if entry.union_id:
            union = entry.union
            name, club = union.name, str(union.club or "")
            people = members.get(union.pk, [])
            table = by_union.get(union.pk)
        else:
            player = entry.player
            name, club = str(player), str(player.club or "")
            people = [player]
            table = by_player.get(player.pk)
        row = EntryLink(
            entry.pk, name, club, [str(p) for p in people], table, entry.private_token or ""
        )
        row.me_tokens = [passes.get(p.pk) or "" for p in people]
        rows.append(row)
    return rows


def entry_table(event: Event, rows: list[EntryLink]) -> tuple[list[str], list[list]]:
    """The rows as a spreadsheet: header and cells."""
    round_ = drawn_round(event)
    table_title = _("桌号（第%(n)d轮）") % {"n": round_.number} if round_ is not None else _("桌号")
    kept = _("链接留在赛场主机上")
    own_pages = max((len(r.me_urls) for r in rows), default=1 if not event.is_team else 0)
    header = [
        _("联邦") if event.is_team else _("选手"),
        _("俱乐部"),
        _("队员"),
        table_title,
        _("链接"),
        *(
            _("队员%(n)d个人页") % {"n": n} if event.is_team else _("选手个人页")
            for n in range(1, own_pages + 1)
        ),
    ]
    cells = [
        [
            r.name,
            r.club,
            "、".join(r.players),
            r.table or "",
            r.url or kept,
            *(url or kept for url in r.me_urls),
            *([""] * (own_pages - len(r.me_urls))),
        ]
        for r in rows
    ]
    return header, cells


def open_invitations(event: Event):
    return (
        event.invitations.filter(used_at__isnull=True, revoked_at__isnull=True)
        .select_related("zone")
        .order_by("created_at", "id")
    )


def invitation_table(links: list[InvitationLink]) -> tuple[list[str], list[list]]:
    header = [_("角色"), _("备注"), _("区域 / 桌号"), _("邀请码"), _("邀请链接")]
    cells = [
        [
            link.invitation.get_role_display(),
            link.invitation.note,
            link.place,
            link.invitation.code,
            link.url,
        ]
        for link in links
    ]
    return header, cells
