"""Who may do what. Every view and API endpoint asks here, so the boundaries live in one place.
(The other apps keep theirs beside them: `seasons/permissions.py`, `ladders/permissions.py`.)

- An organiser acts only on their own events; a superuser (admin) acts everywhere: `is_admin`,
  the one superuser rule, which the other apps ask too.
- A referee acts on their own tables: a referee link's one table, or the tables of a signed-in
  referee (`referee_tables`: their zones and single tables, docs/floor.md, or tables given in
  the admin); an organiser enters results on any table of their events.
- Who may confirm a reported result depends on the event's confirmation mode
  (`confirmation_role`; docs/results.md).
- Per-event staff (`EventStaff`): an assistant runs the event's day (entries,
  check-in, rounds, results) but never its settings or its staff; a referee enters results for
  their tables and sees no organiser page. `can_manage_event`: settings, rules, staff;
  `can_run_event`: the day's work.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from matches.kernel.games.registry import adapter_for
from matches.models import (
    Confirmation,
    DealReport,
    Event,
    EventStaff,
    Match,
    PlayerAccount,
    RefereeLink,
    RefereeTable,
    RefereeZone,
    Round,
    Table,
)

ORGANISER = "organiser"
ASSISTANT = "assistant"
REFEREE = "referee"


def is_admin(user) -> bool:
    """The one superuser rule: a signed-in superuser acts on every event, series and ladder
    season as their organiser would (and merges or splits any player records)."""
    return bool(getattr(user, "is_authenticated", False) and user.is_superuser)


def role_in_event(user, event) -> str | None:
    """organiser, assistant, referee or None (a superuser counts as an organiser)."""
    if not getattr(user, "is_authenticated", False):
        return None
    if is_admin(user) or event.organisers.filter(pk=user.pk).exists():
        return ORGANISER
    staff = EventStaff.objects.filter(event=event, user=user, revoked_at__isnull=True).first()
    return staff.role if staff else None


def can_manage_event(user, event) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_admin(user) or event.organisers.filter(pk=user.pk).exists()


def can_run_event(user, event) -> bool:
    """The day's work (entries, check-in, rounds, results): organisers and assistants."""
    return role_in_event(user, event) in (ORGANISER, ASSISTANT)


def events_run_by(user):
    """Events the user organises or assists (the /manage/ list)."""
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if is_admin(user):
        return Event.objects.all()
    return Event.objects.filter(
        Q(organisers=user)
        | Q(staff__user=user, staff__role=ASSISTANT, staff__revoked_at__isnull=True)
    ).distinct()


def events_managed_by(user):
    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if is_admin(user):
        return Event.objects.all()
    return Event.objects.filter(organisers=user)


# --- who is acting ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Actor:
    """Who sends a request: a signed-in user (session or API token) or a referee link."""

    user: Any = None
    link: RefereeLink | None = None
    via: str = DealReport.Via.SESSION

    @classmethod
    def from_link(cls, link: RefereeLink) -> Actor:
        return cls(user=None, link=link, via=DealReport.Via.REFEREE_LINK)

    @property
    def is_authenticated(self) -> bool:
        return bool(self.user is not None and getattr(self.user, "is_authenticated", False))

    @property
    def identity(self) -> tuple:
        """Two actors with the same identity are one person for confirmation purposes."""
        if self.link is not None:
            return ("link", self.link.pk)
        return ("user", getattr(self.user, "pk", None))


# secrets.token_urlsafe: letters, digits, "-" and "_" (RefereeLink.token, at most 64 characters).
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def link_for_token(token: str) -> RefereeLink | None:
    """The active link with this token (None when unknown or revoked)."""
    if not token or not LINK_TOKEN.fullmatch(token):
        return None  # not even the shape of a token: no query (a NUL would fail in PostgreSQL)
    # The table's match comes along: the referee's requests need it (one query per request).
    # One statement written once (matches/store/statements.py), not compiled per request.
    from matches.store.statements import link_with_table

    link = link_with_table(token)
    if link is None or link.revoked_at is not None:
        return None
    return link


def referee_tables(user):
    """The tables a signed-in user referees, as a queryset.

    - tables given to them one by one in the admin (`Table.referees`, kept for existing data);
    - while they are an active referee of the event (revoking the role ends it): the tables of
      the event's *published* rounds whose numbers fall in one of their zones or single-table
      assignments. Tables are places in the hall, so a zone holds in every round.
    """
    if not getattr(user, "is_authenticated", False):
        return Table.objects.none()
    where = Q(pk__in=Table.referees.through.objects.filter(user=user).values("table_id"))
    events = EventStaff.objects.filter(
        user=user, role=REFEREE, revoked_at__isnull=True
    ).values_list("event_id", flat=True)
    published = Q(round__state=Round.State.PUBLISHED)
    zones = RefereeZone.objects.filter(referees=user, event_id__in=events)
    for event_id, first, last in zones.values_list("event_id", "first_table", "last_table"):
        where |= published & Q(round__event_id=event_id, number__range=(first, last))
    singles = defaultdict(list)
    for event_id, number in RefereeTable.objects.filter(
        referee=user, event_id__in=events
    ).values_list("event_id", "number"):
        singles[event_id].append(number)
    for event_id, numbers in singles.items():
        where |= published & Q(round__event_id=event_id, number__in=numbers)
    return Table.objects.filter(where)


def is_table_referee(actor: Actor, table: Table) -> bool:
    """A referee acts on their own tables only: the link's table, or their tables."""
    if actor.link is not None:
        return actor.link.revoked_at is None and actor.link.table_id == table.pk
    if not actor.is_authenticated:
        return False
    return referee_tables(actor.user).filter(pk=table.pk).exists()


def can_enter_results(actor: Actor, table: Table) -> bool:
    if is_table_referee(actor, table):
        return True
    return actor.is_authenticated and can_run_event(actor.user, table.round.event)


def player_of(actor: Actor):
    if not actor.is_authenticated:
        return None
    account = PlayerAccount.objects.select_related("player").filter(user=actor.user).first()
    return account.player if account else None


def captain_union(actor: Actor, match: Match):
    """The union of the match this actor captains, or None."""
    player = player_of(actor)
    if player is None:
        return None
    for union in (side.union for side in match.union_sides):
        if union.members.filter(player=player, is_captain=True).exists():
            return union
    return None


def captained_unions(actor: Actor):
    """The unions this signed-in actor captains (their PINs are on the union's private page)."""
    from matches.models import Union

    player = player_of(actor)
    if player is None:
        return Union.objects.none()
    return (
        Union.objects.filter(members__player=player, members__is_captain=True)
        .select_related("event")
        .order_by("-event__start_date", "name")
    )


def can_see_union_pin(actor: Actor, union) -> bool:
    """The union's private page (its captain's PIN): its captain and the event's organisers."""
    if actor.is_authenticated and can_run_event(actor.user, union.event):
        return True
    return captained_unions(actor).filter(pk=union.pk).exists()


def tables_of(actor: Actor):
    """The tables this actor referees, newest round first."""
    if actor.link is not None:
        return Table.objects.filter(pk=actor.link.table_id)
    if not actor.is_authenticated:
        return Table.objects.none()
    return referee_tables(actor.user).order_by("-round__id", "number")


def confirmable_reports(actor: Actor):
    """Pending reports this actor may confirm (as a captain or a second referee)."""
    candidates = DealReport.objects.filter(state=DealReport.State.PENDING).select_related(
        "deal__match__round__event", "deal__match__table", "submitted_by", "referee_link"
    )
    if actor.link is not None:
        candidates = candidates.filter(deal__match__table_id=actor.link.table_id)
    elif actor.is_authenticated:
        player = player_of(actor)
        captain_matches = Match.objects.none()
        if player is not None:
            captain_matches = Match.objects.filter(
                sides__union__members__player=player, sides__union__members__is_captain=True
            )
        candidates = candidates.filter(
            Q(deal__match__in=captain_matches)
            | Q(deal__match__table__in=referee_tables(actor.user))
        ).distinct()
    else:
        return []
    return [report for report in candidates if confirmation_role(actor, report) is not None]


@dataclass(frozen=True)
class Right:
    """In which role an actor answers a report, and for which union (a captain's answer)."""

    role: str
    union_id: int | None = None


def pin_matches(union, pin: str) -> bool:
    """Whether `pin` is this union's captain PIN (compared in constant time)."""
    import hmac

    given = (pin or "").strip()
    return bool(given) and hmac.compare_digest(given.encode(), (union.captain_pin or "").encode())


def may_take_captain_pins(actor: Actor, table) -> bool:
    """Captains answer with their PIN on the table's own device: the table's referee link (or a
    referee of the table) or an organiser's; a PIN given from anywhere else counts for nothing
    and is not even checked (so it cannot be guessed from outside the table)."""
    if table is None:
        return False
    return is_table_referee(actor, table) or (
        actor.is_authenticated and can_run_event(actor.user, table.round.event)
    )


def may_stand_in(actor: Actor, table) -> bool:
    """The table's referee (signed in, assigned to the table) or an organiser may answer for a
    union in its captain's place, as a director's PIN does on a Bridgemate; never a bare link
    (anyone at the table holds it)."""
    if table is None or not actor.is_authenticated:
        return False
    if can_run_event(actor.user, table.round.event):
        return True
    return referee_tables(actor.user).filter(pk=table.pk).exists()


def referees_of(table) -> list:
    """The signed-in referees who cover this table (its zone, a single-table assignment, or the
    admin's list): who can lift a PIN lock there, named on the table's phone."""
    from django.contrib.auth import get_user_model

    event = table.round.event
    active = EventStaff.objects.filter(event=event, role=REFEREE, revoked_at__isnull=True)
    users = Q(pk__in=Table.referees.through.objects.filter(table=table).values("user_id"))
    if table.round.state == Round.State.PUBLISHED:
        zoned = RefereeZone.objects.filter(
            event=event, first_table__lte=table.number, last_table__gte=table.number
        ).values("referees")
        single = RefereeTable.objects.filter(event=event, number=table.number).values("referee")
        users |= (Q(pk__in=zoned) | Q(pk__in=single)) & Q(pk__in=active.values("user_id"))
    return list(get_user_model().objects.filter(users).order_by("username")[:6])


def is_second_referee(actor: Actor, report: DealReport, links_count: bool) -> bool:
    """A referee of the table other than the reporter: a different person *and* a different
    link. `links_count`: whether a referee link (anyone holding the table card's QR code) may be
    the second referee; otherwise only a signed-in referee assigned to the table."""
    table = report.deal.match.table
    if table is None:
        return False
    if actor.link is not None and report.referee_link_id == actor.link.pk:
        return False
    if actor.is_authenticated and report.submitted_by_id == actor.user.pk:
        return False
    if actor.link is not None:
        return links_count and actor.link.revoked_at is None and actor.link.table_id == table.pk
    return actor.is_authenticated and referee_tables(actor.user).filter(pk=table.pk).exists()


def confirmation_right(
    actor: Actor, report: DealReport, pin_union=None, stand_in=None, pin_player=None
) -> Right | None:
    """The role (and union) in which this actor may answer this report, or None.

    The rule (docs/results.md, "Who may confirm"): a result becomes final when both unions have
    agreed (the reporting captain's union counts as agreed; the other captain answers by account
    or by PIN on the table's phone), or when a second referee or an organiser confirms.
    `pin_union`: a union of the match whose captain's PIN was given (checked by the caller).
    `stand_in`: a union the table's referee answers for in its captain's place.
    `pin_player`: a player whose own PIN was given (checked by the caller): in an event confirmed
    by players, a player seated at the table on a side the result does not favour (either side
    on equal scores), never the one who reported it (`player_refusals`).
    """
    match = report.deal.match
    event = match.round.event
    mode = event.confirmation
    if mode == Event.Confirmation.NONE:
        return None
    if pin_player is not None:
        table = match.table
        if mode != Event.Confirmation.PLAYER or table is None:
            return None
        if not may_take_captain_pins(actor, table):
            return None
        seat = table.seats.filter(player=pin_player).values_list("seat", flat=True).first()
        if seat is None or seat in player_refusals(report):
            return None
        return Right(Confirmation.Role.PLAYER)
    if stand_in is not None:
        if stand_in.pk in {s.union_id for s in match.union_sides} and may_stand_in(
            actor, match.table
        ):
            return Right(Confirmation.Role.CAPTAIN, stand_in.pk)
        return None
    if actor.is_authenticated and can_run_event(actor.user, event):
        return Right(Confirmation.Role.ORGANISER)
    if pin_union is not None:
        if pin_union.pk in {s.union_id for s in match.union_sides} and may_take_captain_pins(
            actor, match.table
        ):
            return Right(Confirmation.Role.CAPTAIN, pin_union.pk)
        return None
    union = captain_union(actor, match)
    if union is not None:
        return Right(Confirmation.Role.CAPTAIN, union.pk)
    if is_second_referee(actor, report, links_count=mode == Event.Confirmation.REFEREE):
        return Right(Confirmation.Role.REFEREE)
    return None


PLAYER_REPORTED = "player_reported"
PLAYER_FAVOURED = "player_favoured"


def player_refusals(report: DealReport) -> dict[int, str]:
    """The seats of the report's table whose players may not confirm it with their PIN, each
    with why: the player who reported it from their own account (`PLAYER_REPORTED`; a report
    through the table's link names nobody), and the seats the result favours
    (`PLAYER_FAVOURED`: the side that scored more, as the game's adapter says; a draw favours
    nobody). One player alone must never make their own side's result final."""
    match = report.deal.match
    if match.table is None:
        return {}  # no table, no seat: no player's PIN is taken (`check_player_pin`)
    seats = list(match.table.seats.values_list("seat", "side", "player_id"))
    favoured = adapter_for(match.round.event).favoured_seats(
        report, {seat: side for seat, side, _player in seats}
    )
    refusals = {}
    if report.submitted_by_id is not None:
        reporters = set(
            PlayerAccount.objects.filter(user_id=report.submitted_by_id).values_list(
                "player_id", flat=True
            )
        )
        refusals = {seat: PLAYER_REPORTED for seat, _side, player in seats if player in reporters}
    # A reporter on the favoured side is refused as one of it (the message names the side).
    return refusals | {seat: PLAYER_FAVOURED for seat in favoured}


def player_pin_matches(registration, pin: str) -> bool:
    """Whether `pin` is this entry's own PIN (compared in constant time)."""
    import hmac

    given = (pin or "").strip()
    return bool(given) and hmac.compare_digest(given.encode(), (registration.pin or "").encode())


def confirmation_role(actor: Actor, report: DealReport) -> str | None:
    """The role in which this actor may confirm this report, or None when they may not."""
    right = confirmation_right(actor, report)
    if right is None:
        return None
    if right.union_id is not None and right.union_id in agreed_unions(report):
        return None  # their union has agreed already (it reported the deal, or confirmed it)
    return right.role


def agreed_unions(report: DealReport) -> set[int]:
    """The unions whose captains have agreed to this report (by account, PIN or reporting it)."""
    return {
        c.union_id
        for c in report.confirmations.all()
        if c.agrees and c.role == Confirmation.Role.CAPTAIN and c.union_id is not None
    }
