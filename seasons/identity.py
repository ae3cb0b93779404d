"""One person across events (the known player a new entry is: players/identity.py):
merging two records of one person (every row of the merged record moves to the kept one,
logged) or splitting a wrong merge (the rows move back). Both ask the computations
of the events concerned again, so results, standings and ratings stay consistent."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.models import (
    Event,
    FloorPass,
    MatchSide,
    PlayerAccount,
    Registration,
    TableSeat,
    UnionMember,
)
from matches.permissions import is_admin
from matches.public import find_terms
from matches.signals import request_recompute
from players.models import Club, Player
from seasons import permissions, selectors
from seasons.models import MergeRequest, PlayerMerge, PlayerRating
from seasons.permissions import events_seen_by
from seasons.selectors import events_of_players

#: the rows that name a player, moved by a merge and back by a split: (label, model, field)
MOVED = (
    ("union_member", UnionMember, "player"),
    ("registration", Registration, "player"),
    ("match_side", MatchSide, "player"),
    ("table_seat", TableSeat, "player"),
    ("account", PlayerAccount, "player"),
    # A player's own page in an event (its token printed on a badge): deleting the merged
    # record would cascade it away (a dead badge); moved, it stays, and a split gives it back.
    # (Their find-my-table terms are written again instead: `_reindex`.)
    ("floor_pass", FloorPass, "player"),
)
FIELDS = ("name", "name_zh", "club_id", "id_number", "contact", "member_number")


class MergeRefused(Exception):
    pass


def candidates(query: str, user) -> list[Player]:
    """The records an organiser may look up: players of their own events, of public events, or
    of none (a player only in another organiser's unpublished event is theirs to know). Each
    with `events_seen`: the names of those events it played, to tell two namesakes apart."""
    rows = Player.objects.select_related("club").filter(
        Q(name__icontains=query) | Q(name_zh__icontains=query) | Q(member_number=query)
    )
    seen = events_seen_by(user).values("pk")
    if not is_admin(user):
        rows = rows.filter(
            Q(memberships__event__in=seen)
            | Q(registrations__event__in=seen)
            | Q(seats__round__event__in=seen)
            | Q(memberships__isnull=True, registrations__isnull=True, seats__isnull=True)
        ).distinct()
    found = list(rows.order_by("name", "pk")[:50])
    played = events_of_players([p.pk for p in found])
    every = set().union(*played.values()) if played else set()
    names = dict(events_seen_by(user).filter(pk__in=every).values_list("pk", "name"))
    for player in found:
        ids = played[player.pk]
        player.events_seen = sorted(names[e] for e in ids if e in names)  # type: ignore[attr-defined]
    return found


def _events_of(player_id: int) -> set[int]:
    return events_of_players([player_id])[player_id]


@dataclass
class Side:
    """One record as the merge's confirmation shows it: the events listed are those the
    organiser may see (their own and public ones), newest first."""

    player: Player
    events: list[Event]
    rating: PlayerRating | None
    rank: int | None
    has_account: bool


@dataclass
class MergePreview:
    kept: Side
    merged: Side
    # What the kept record will be: its own name and club; the merged record's member number
    # when it has none; the events of both.
    member_number: str
    events: list[Event]
    refusal: str = ""  # why the merge would be refused (then there is nothing to confirm)
    needs_consent: bool = False  # other organisers' events: a request, not a merge
    fingerprint: str = field(default="")


def refusal(kept: Player, merged: Player) -> str:
    """Why two records cannot be one person, or "" (the merge's own checks, said ahead)."""
    if kept.pk == merged.pk:
        return _("不能把一名选手与自己合并")
    both = _events_of(kept.pk) & _events_of(merged.pk)
    if both:
        names = ", ".join(Event.objects.filter(pk__in=both).values_list("name", flat=True))
        return _("两条记录在同一赛事中出现（%(events)s），不是同一人") % {"events": names}
    if (
        PlayerAccount.objects.filter(player=kept).exists()
        and PlayerAccount.objects.filter(player=merged).exists()
    ):
        return _("两条记录都有登录账号，不能合并")
    return ""


def fingerprint(kept: Player, merged: Player) -> str:
    """What the organiser confirmed: both records' fields and events. A confirmation sent
    after either changed (another tab, another organiser) is shown again, not carried out."""
    played = events_of_players([kept.pk, merged.pk])
    text = repr(
        [(p.pk, [getattr(p, f) for f in FIELDS], sorted(played[p.pk])) for p in (kept, merged)]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def preview(kept: Player, merged: Player, user) -> MergePreview:
    """Both records side by side and what the merge would make of them (nothing is written)."""
    played = events_of_players([kept.pk, merged.pk])
    seen = {
        e.pk: e
        for e in events_seen_by(user)
        .filter(pk__in=played[kept.pk] | played[merged.pk])
        .order_by("-start_date", "-pk")
    }
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(player__in=[kept, merged])}
    accounts = set(
        PlayerAccount.objects.filter(player__in=[kept, merged]).values_list("player_id", flat=True)
    )

    def side(player: Player) -> Side:
        rating = ratings.get(player.pk)
        return Side(
            player=player,
            events=[e for e in seen.values() if e.pk in played[player.pk]],
            rating=rating,
            rank=selectors.rank_of(rating) if rating else None,
            has_account=player.pk in accounts,
        )

    return MergePreview(
        kept=side(kept),
        merged=side(merged),
        member_number=kept.member_number or merged.member_number,
        events=list(seen.values()),
        refusal=refusal(kept, merged),
        needs_consent=not permissions.may_merge_players(user, kept, merged),
        fingerprint=fingerprint(kept, merged),
    )


def request_merge(kept: Player, merged: Player, user) -> MergeRequest:
    if kept.pk == merged.pk:
        raise MergeRefused(_("不能把一名选手与自己合并"))
    if not permissions.may_request_merge(user, kept, merged):
        raise MergeRefused(_("只能合并自己赛事中的选手"))
    waiting = sorted(permissions.concerned_events(user, kept, merged))
    open_one = MergeRequest.objects.filter(
        kept=kept, merged=merged, state=MergeRequest.State.OPEN
    ).first()
    if open_one is not None:
        return open_one
    return MergeRequest.objects.create(
        kept=kept,
        merged=merged,
        merged_number=merged.pk,
        merged_name=merged.name,
        by=user,
        waiting=waiting,
    )


def requests_for(user):
    """The open requests waiting for an answer from this organiser (one of their events): who
    is asked is worked out now (an organiser who entered a record since is asked too)."""
    found = permissions.requests_waiting_for(user)
    names = dict(
        Event.objects.filter(pk__in={e for r in found for e in r.waiting}).values_list("pk", "name")
    )
    for r in found:
        r.waiting_names = [names.get(e, f"#{e}") for e in r.waiting]
        # The two records side by side, as the requester saw them (with this organiser's view
        # of the events), so an answer is given on the same facts.
        r.shown = preview(r.kept, r.merged, user) if r.merged is not None else None
    return found


def requests_by(user):
    return MergeRequest.objects.filter(by=user).select_related("kept", "merged")[:50]


def answer_request(request: MergeRequest, user, accepted: bool) -> MergeRequest:
    """One organiser's answer for every waiting event they run. A refusal closes the request;
    the last acceptance makes the merge (in the requester's name)."""
    with transaction.atomic():
        request = MergeRequest.objects.select_for_update().get(pk=request.pk)
        if request.state != MergeRequest.State.OPEN:
            raise MergeRefused(_("这个请求已处理"))
        if request.merged is None:
            raise MergeRefused(_("并入的记录已不存在"))
        # Asked again at each answer: the events of the two records now, not when the
        # request was made (an organiser who entered a record since must consent too).
        waiting = permissions.waiting_events(request)
        theirs = waiting if is_admin(user) else waiting & permissions.organised(user)
        if not theirs:
            raise MergeRefused(_("这个请求不需要您的同意"))
        now = timezone.now().isoformat()
        request.answers = list(request.answers) + [
            {"event": e, "user": user.pk, "accepted": accepted, "at": now} for e in sorted(theirs)
        ]
        request.waiting = sorted(waiting - theirs)
        if not accepted:
            request.state = MergeRequest.State.REFUSED
        elif not request.waiting:
            try:
                with transaction.atomic():
                    request.merge = merge(request.kept, request.merged, request.by)
                request.state = MergeRequest.State.DONE
                # The merge deleted the record (and set this request's reference to it to
                # NULL in the database); saved back with its id, the commit would fail on
                # the foreign key. Its number and name stay on the request.
                request.merged = None
            except MergeRefused as error:
                request.state, request.note = MergeRequest.State.FAILED, str(error)[:200]
        request.save()
    return request


def merge(kept: Player, merged: Player, user) -> PlayerMerge:
    if kept.pk == merged.pk:
        raise MergeRefused(_("不能把一名选手与自己合并"))
    with transaction.atomic():
        kept = Player.objects.select_for_update().get(pk=kept.pk)
        merged = Player.objects.select_for_update().get(pk=merged.pk)
        refused = refusal(kept, merged)
        if refused:
            raise MergeRefused(refused)
        played = events_of_players([kept.pk, merged.pk])
        events = sorted(played[merged.pk])
        moved: dict[str, list[int]] = {}
        for label, model, field in MOVED:
            rows = model.objects.filter(**{field: merged})
            moved[label] = sorted(rows.values_list("pk", flat=True))
            rows.update(**{field: kept})
        log = PlayerMerge.objects.create(
            kept=kept,
            merged_id=merged.pk,
            merged_fields={f: getattr(merged, f) for f in FIELDS},
            moved=moved,
            events=events,
            touched=sorted(played[kept.pk] | played[merged.pk]),
            by=user,
        )
        if not kept.member_number and merged.member_number:
            kept.member_number = merged.member_number
            kept.save(update_fields=["member_number"])
        merged.delete()
        _reindex(events, kept)
        _recompute(events)
    return log


def split(log: PlayerMerge, user) -> Player:
    if log.split_at is not None:
        raise MergeRefused(_("这次合并已拆分"))
    with transaction.atomic():
        log = PlayerMerge.objects.select_for_update().get(pk=log.pk)
        if log.split_at is not None:
            raise MergeRefused(_("这次合并已拆分"))
        if Player.objects.filter(pk=log.merged_id).exists():
            raise MergeRefused(_("原记录编号已被占用"))
        fields = dict(log.merged_fields)
        if fields.get("club_id") and not Club.objects.filter(pk=fields["club_id"]).exists():
            fields["club_id"] = None
        restored = Player.objects.create(pk=log.merged_id, **fields)
        for label, model, field in MOVED:
            model.objects.filter(pk__in=log.moved.get(label, []), **{field: log.kept}).update(
                **{field: restored}
            )
        log.split_at = timezone.now()
        log.split_by = user
        log.save(update_fields=["split_at", "split_by"])
        _reindex(log.events, log.kept, restored)
        _recompute(log.events)
    return restored


def _reindex(event_ids: list[int], *players: Player) -> None:
    """The find-my-table terms of the players in the events concerned, written again from
    their names now (and the events' cached searches forgotten)."""
    for event_id in event_ids:
        for player in players:
            find_terms.index_player(event_id, player)


def _recompute(event_ids: list[int]) -> None:
    """Ask every computation of the events again (standings name players); their refresh
    rates each event again from its first round (seasons/receivers.py), which replays every
    later rated round: the list ends as a recompute from scratch would leave it."""
    for event_id in event_ids:
        request_recompute(event_id)
