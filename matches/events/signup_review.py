"""What the review queue flags on a request (nothing is refused here: the organiser decides):
the same person in two entries, a known player the names match (offered to link only as the
ownership rules allow: `entries.known_matches` with the reviewing organiser), a club name that
looks like a typo of a known club (the club guard), and a contact shared with other requests.
Also the queue's page of requests and the exports of the list."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import entries, privacy
from matches.events.importing import why_alike
from matches.models import EntryRequest, Event, Registration, UnionMember
from players import clubs

PAGE_SIZE = 50


@dataclass
class Reviewed:
    request: EntryRequest
    flags: list[str] = field(default_factory=list)
    known: list[dict] = field(default_factory=list)  # entries.known_matches' rows
    place: int | None = None


def _entered_names(event: Event) -> dict[str, str]:
    """Player name → the entry it is in (union or player), for the event's entries typed in."""
    names: dict[str, str] = {}
    for name, union in UnionMember.objects.filter(
        event=event, round__isnull=True, union__registrations__entry_request__isnull=True
    ).values_list("player__name", "union__name"):
        names.setdefault(name, union)
    for (name,) in Registration.objects.filter(
        event=event, player__isnull=False, entry_request__isnull=True
    ).values_list("player__name"):
        names.setdefault(name, name)
    return names


def review(event: Event, requests: list[EntryRequest], user) -> list[Reviewed]:
    live = list(
        EntryRequest.objects.filter(event=event)
        .exclude(status__in=(EntryRequest.Status.DECLINED, EntryRequest.Status.WITHDRAWN))
        .only("pk", "code", "players", "contact_key")
    )
    by_name: dict[str, set[str]] = defaultdict(set)
    by_contact: dict[str, set[str]] = defaultdict(set)
    for other in live:
        for name in other.player_names:
            by_name[name].add(other.code)
        if other.contact_key:
            by_contact[other.contact_key].add(other.code)
    typed_in = _entered_names(event)
    known_clubs = clubs.all_names()
    waiting_order = {
        pk: n
        for n, pk in enumerate(
            EntryRequest.objects.filter(event=event, status=EntryRequest.Status.WAITLISTED)
            .order_by("waitlisted_at", "id")
            .values_list("pk", flat=True),
            start=1,
        )
    }
    found = []
    for request in requests:
        row = Reviewed(request, place=waiting_order.get(request.pk))
        for name in request.player_names:
            others = sorted(by_name.get(name, set()) - {request.code})
            if others:
                row.flags.append(
                    _("%(name)s 也在报名 %(codes)s 中") % {"name": name, "codes": "、".join(others)}
                )
            if name in typed_in:
                row.flags.append(
                    _("%(name)s 已在报名名单中（%(entry)s）")
                    % {"name": name, "entry": typed_in[name]}
                )
        club = request.club_name
        if club and club not in known_clubs and clubs.same_club(club) is None:
            near = clubs.near_duplicates(club, known_clubs)
            if near:
                notes = why_alike(club, near)
                row.flags.append(
                    "; ".join(notes)
                    or _("俱乐部“%(club)s”与已有的“%(near)s”相近")
                    % {"club": club, "near": "、".join(near)}
                )
        shared = sorted(by_contact.get(request.contact_key, set()) - {request.code})
        if request.contact_key and shared:
            row.flags.append(_("与报名 %(codes)s 联系方式相同") % {"codes": "、".join(shared)})
        if request.status in (EntryRequest.Status.PENDING, EntryRequest.Status.WAITLISTED):
            row.known = entries.known_matches(event, request.player_names, club, user)
            for match in row.known:
                row.flags.append(
                    _("%(name)s 可能是已有选手（%(club)s）")
                    % {"name": match["name"], "club": match["club"] or "—"}
                )
        found.append(row)
    return found


def queue(event: Event, status: str = "", query: str = ""):
    found = EntryRequest.objects.filter(event=event)
    if status in EntryRequest.Status.values:
        found = found.filter(status=status)
    query = (query or "").strip()
    if query:
        found = (
            found.filter(names_key__icontains=query)
            | found.filter(union_name__icontains=query)
            | found.filter(code__iexact=query)
            | found.filter(club_name__icontains=query)
        )
    if status == EntryRequest.Status.WAITLISTED:
        return found.order_by("waitlisted_at", "id")
    return found.order_by("created_at", "id")


def counts(event: Event) -> dict[str, int]:
    """Requests by status, every status named (0 too: the queue's tabs show each count)."""
    tally = dict.fromkeys(EntryRequest.Status.values, 0)
    rows = (
        EntryRequest.objects.filter(event=event)
        .order_by()
        .values_list("status")
        .annotate(n=Count("pk"))
    )
    tally.update(dict(rows))
    return tally


def request_table(event: Event, whole_contacts: bool) -> tuple[list[str], list[list]]:
    """Every request as a spreadsheet; contacts whole only for the event's organisers."""
    header = [
        _("报名码"),
        _("状态"),
        _("联邦") if event.is_team else _("选手"),
        _("俱乐部"),
        _("队员"),
        _("联系方式"),
        _("提交时间"),
        _("原因"),
    ]
    labels = dict(EntryRequest.Status.choices)
    rows = []
    for request in EntryRequest.objects.filter(event=event).order_by("created_at", "id"):
        contact = request.contact if whole_contacts else privacy.mask(request.contact)
        rows.append(
            [
                request.code,
                str(labels.get(request.status, request.status)),
                request.name,
                request.club_name,
                "、".join(request.player_names),
                contact,
                timezone.localtime(request.created_at).strftime("%Y-%m-%d %H:%M"),
                request.reason,
            ]
        )
    return header, rows
