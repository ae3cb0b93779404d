"""Entries as the organiser edits them: add (a late entry joins the next round), edit, withdraw
from round N on (kept in history and standings), reinstate, search and page.

Unions of three players with a captain (team events) or single players (individual events and
Giog). Registering itself goes through matches.events.registration.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.events import registration as registering
from matches.events.known import own_events, sources
from matches.models import Event, FloorPass, MatchSide, Registration, TableSeat, UnionMember
from matches.public import find_terms
from matches.signals import request_recompute
from players import clubs
from players.identity import find_existing, find_or_create, seen_in
from players.models import Player

PAGE_SIZE = 50


class EntryRefused(Exception):
    pass


union_size = registering.union_size


def _club(name: str):
    return clubs.get_or_create(name)  # one club however its name was spaced (players/clubs.py)


def search(event: Event, query: str = "", status: str = ""):
    """The event's entries matching a name (union, player or club), in seed order. One query for
    the page's rows (the caller pages it) plus a prefetch of the members."""
    entries = event.registrations.select_related("union__club", "player__club")
    query = (query or "").strip()
    if query:
        if event.is_team:
            union_ids = UnionMember.objects.filter(
                event=event, round__isnull=True, player__name__icontains=query
            ).values("union_id")
            entries = entries.filter(
                Q(union__name__icontains=query)
                | Q(union__club__name__icontains=query)
                | Q(union_id__in=union_ids)
            )
        else:
            entries = entries.filter(
                Q(player__name__icontains=query) | Q(player__club__name__icontains=query)
            )
    if status in Registration.Status.values:
        entries = entries.filter(status=status)
    return entries.order_by(*Registration.SEED_ORDER).prefetch_related("union__members__player")


def entered_players(event: Event) -> set[int]:
    """The players already entered in the event (a union's member or a player's entry)."""
    return set(
        UnionMember.objects.filter(event=event, round__isnull=True).values_list(
            "player_id", flat=True
        )
    ) | set(
        Registration.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )


def known_players(entry: Registration) -> list[Player]:
    """The entry's players who were already on record from another event (registration
    entered the known person, not a copy: the organiser is told so)."""
    people = entry.union.players_in_order() if entry.union is not None else [entry.player]
    elsewhere = set(
        UnionMember.objects.filter(player__in=people, round__isnull=True)
        .exclude(event=entry.event)
        .values_list("player_id", flat=True)
    ) | set(
        Registration.objects.filter(player__in=people)
        .exclude(event=entry.event)
        .values_list("player_id", flat=True)
    )
    return [p for p in people if p is not None and p.pk in elsewhere]


def matchable(event: Event, user=None):
    """The records a new entry may be matched with: players of the organiser's own events, of
    public events, or of none (never one only in another organiser's unpublished event)."""
    public = Event.objects.filter(published=True, archived_at__isnull=True)
    own = own_events(event, user)
    return seen_in(Event.objects.filter(Q(pk__in=own.values("pk")) | Q(pk__in=public.values("pk"))))


def known_matches(event: Event, players: list[str], club: str = "", user=None) -> list[dict]:
    """The known records the typed names match, for the organiser to confirm one by one: each
    with the events it played that the organiser may see and their organisers, to tell
    namesakes apart; `own` when every event it played is the organiser's (the form ticks only
    those: a name and a club alone never link another organiser's player unasked)."""
    club_ref = clubs.same_club(club) or club
    among = matchable(event, user)
    taken = entered_players(event)
    found = []
    for order, typed in enumerate(players, start=1):
        if not (typed or "").strip():
            continue
        record = find_existing(typed, club_ref, among=among)
        if record is None or record.pk in taken:
            continue
        taken.add(record.pk)
        found.append((order, typed.strip(), record))
    where = sources([record for _o, _t, record in found], event, user)
    return [
        {
            "order": order,
            "name": typed,
            "id": record.pk,
            "club": record.club.name if record.club else "",
            "own": where[record.pk].own,
            "events": where[record.pk].events,
        }
        for order, typed, record in found
    ]


@transaction.atomic
def add(
    event: Event,
    *,
    players: list[str],
    name: str = "",
    club: str = "",
    seed=None,
    captain: int = 1,
    user=None,
    known: set[int] | frozenset[int] = frozenset(),
) -> Registration:
    """A union of named players (`union_size`; captain: their number) or one player. Between
    rounds only; after round 1 this is a late entry that joins from the next round. `known`: the
    known records the organiser confirmed (`known_matches`); every other name is a new record."""
    club_obj = _club(club)
    among = matchable(event, user)
    try:
        if event.is_team:
            # One person across events: a confirmed known player is entered, not copied.
            taken = entered_players(event)
            people = [
                find_or_create(p, club_obj, taken=taken, among=among, confirmed=known)
                for p in players
            ]
            return registering.register_union(
                event, name.strip(), people, captain=people[captain - 1], club=club_obj, seed=seed
            )
        person = find_or_create(
            players[0], club_obj, taken=entered_players(event), among=among, confirmed=known
        )
        entry = registering.register_player(event, person, seed=seed)
        return entry
    except registering.RegistrationRefused as error:
        raise EntryRefused(str(error)) from error


def is_shared(player: Player, event: Event, user=None) -> bool:
    """Whether the record also plays in an event this organiser does not run: then it is not
    theirs to rename (another organiser's page would show the new name)."""
    own = own_events(event, user).values("pk")
    return (
        UnionMember.objects.filter(player=player).exclude(event__in=own).exists()
        or Registration.objects.filter(player=player).exclude(event__in=own).exists()
        or TableSeat.objects.filter(player=player).exclude(round__event__in=own).exists()
    )


def fork(event: Event, player: Player, name: str, club) -> Player:
    """A record of this event's own for a shared player renamed here: this event's rows (its
    union places, entry, match sides, seats and badge) move to it; the shared record and every
    other event keep the name they had. The event's standings are computed again (they name
    players) and find-my-table learns the new name."""
    own = Player.objects.create(name=name, club=club)
    moved = 0
    for rows in (
        UnionMember.objects.filter(event=event, player=player),
        Registration.objects.filter(event=event, player=player),
        MatchSide.objects.filter(match__round__event=event, player=player),
        TableSeat.objects.filter(round__event=event, player=player),
        FloorPass.objects.filter(event=event, player=player),
    ):
        moved += rows.update(player=own)
    find_terms.index_player(event.pk, player)
    find_terms.index_player(event.pk, own)
    if moved:
        transaction.on_commit(lambda: request_recompute(event.pk))
    return own


def shared_players(entry: Registration, user=None) -> list[Player]:
    """The entry's players whose record also plays in an event this organiser does not run:
    renamed here, each becomes a record of this event's own (`fork`). The edit page says so
    before the save."""
    people = entry.union.players_in_order() if entry.union is not None else [entry.player]
    return [p for p in people if p is not None and is_shared(p, entry.event, user)]


def _rename(entry: Registration, player: Player, new_name: str, club_obj, user):
    """Rename the record, or fork it when it is shared: the new record, or None."""
    if player.name == new_name and player.club_id == getattr(club_obj, "pk", None):
        return None
    if is_shared(player, entry.event, user):
        return fork(entry.event, player, new_name, club_obj)
    player.name, player.club = new_name, club_obj
    player.save(update_fields=["name", "club"])
    return None


@transaction.atomic
def edit(
    entry: Registration,
    *,
    players: list[str],
    name: str = "",
    club: str = "",
    seed=None,
    captain: int = 1,
    user=None,
) -> Registration:
    """Rename the union or its players, change the club, the captain or the seed. Seats stay.
    A player record that also plays in another organiser's event is not renamed: this event
    gets a record of its own with the new name (`fork`); `entry.forked` lists each such
    (shared record, new record), for the page to say so."""
    event = entry.event
    club_obj = _club(club)
    if seed is not None and event.registrations.filter(seed=seed).exclude(pk=entry.pk).exists():
        raise EntryRefused(_("种子序号 %(s)s 已被占用") % {"s": seed})
    if entry.union is not None:
        union = entry.union
        if event.unions.filter(round__isnull=True, name=name.strip()).exclude(pk=union.pk).exists():
            raise EntryRefused(_("联邦名称“%(n)s”已被占用") % {"n": name})
        union.name, union.club = name.strip(), club_obj
        union.save(update_fields=["name", "club"])
        members = list(union.members.select_related("player").order_by("order"))
        UnionMember.objects.filter(union=union).update(is_captain=False)
        forked = [
            (member.player, _rename(entry, member.player, new_name.strip(), club_obj, user))
            for member, new_name in zip(members, players)
        ]
        UnionMember.objects.filter(union=union, order=captain).update(is_captain=True)
    else:
        assert entry.player is not None  # an entry is a union or a player
        forked = [(entry.player, _rename(entry, entry.player, players[0].strip(), club_obj, user))]
    entry.forked = [(shared, own) for shared, own in forked if own is not None]  # type: ignore[attr-defined]
    entry.seed = seed
    try:
        with transaction.atomic():
            entry.save(update_fields=["seed"])
    except IntegrityError as error:
        raise EntryRefused(_("种子序号 %(s)s 已被占用") % {"s": seed}) from error
    return entry


def first_open_round(event: Event) -> int:
    """The first round a withdrawal can still keep an entry out of: the next one to be drawn."""
    return registering.next_round_number(event)


def withdraw(entry: Registration, from_round: int) -> Registration:
    """Out from `from_round` on; the rounds before stay in history and standings."""
    first = first_open_round(entry.event)
    if from_round < first:
        raise EntryRefused(
            _("第 %(n)s 轮已编排：最早从第 %(first)s 轮起退赛") % {"n": from_round, "first": first}
        )
    if entry.status == Registration.Status.WITHDRAWN:
        raise EntryRefused(_("已经退赛"))
    entry.withdraw(after_round=from_round - 1)
    return entry


def reinstate(entry: Registration) -> Registration:
    """Back in from the next round to be drawn (rounds missed stay missed)."""
    if entry.status != Registration.Status.WITHDRAWN:
        raise EntryRefused(_("没有退赛，无需恢复"))
    entry.status = Registration.Status.REGISTERED
    entry.withdrawn_after, entry.withdrawn_at = None, None
    entry.joins_round = max(entry.joins_round, first_open_round(entry.event))
    entry.save(update_fields=["status", "withdrawn_after", "withdrawn_at", "joins_round"])
    return entry
