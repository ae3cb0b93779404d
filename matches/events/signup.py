"""Entries from the players themselves (docs/registration.md): a request from the public
registration page, the places it holds, the waiting list, and the entry it becomes.

Places: a request waiting for review or accepted holds one of the event's `capacity` places, as
does every entry the organiser typed in; the rest wait on the waiting list in the order they
came, or are refused when that is full too. Every write that takes or frees a place runs with
the event's `SignupSettings` row locked (`select_for_update`), so concurrent registrations never
take more places than there are (tests/signup/test_capacity_race.py, on PostgreSQL). A place
freed (a withdrawal, a decline, a larger capacity) moves the waiting list up in order, logged.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import entries, fees, privacy
from matches.events import registration as registering
from matches.models import EntryLog, EntryRequest, Event, Registration, SignupSettings, Union
from matches.models.signup import names_key
from players import clubs
from players.models import Player

logger = logging.getLogger("matches.signup")

Status = EntryRequest.Status


class SignupRefused(Exception):
    """`code` says which refusal (closed, full, duplicate, contact_limit, …); `field` the form
    field it belongs to, when one."""

    def __init__(self, message: str, code: str, field: str | None = None):
        super().__init__(message)
        self.code, self.field = code, field


def settings_of(event: Event) -> SignupSettings:
    return fees.settings_of(event)


def window(signup: SignupSettings, now: dt.datetime | None = None) -> str:
    """ "open", "off" (the organiser's switch), "not_yet" or "over" (the times)."""
    now = now or timezone.now()
    if not signup.is_open:
        return "off"
    if signup.opens_at and now < signup.opens_at:
        return "not_yet"
    if signup.closes_at and now >= signup.closes_at:
        return "over"
    return "open"


def places_taken(event: Event, making: int | None = None) -> int:
    """Requests holding a place, and the entries the organiser typed in (not withdrawn);
    `making`: the entry a registration is making, not yet linked to its request. One query
    (each registration counts the places, twice)."""
    return places(event, making)[0]


def places(event: Event, making: int | None = None) -> tuple[int, int]:
    """(`places_taken`, requests on the waiting list) in one query."""
    requests = connection.ops.quote_name(EntryRequest._meta.db_table)
    entries = connection.ops.quote_name(Registration._meta.db_table)
    holding = ", ".join(["%s"] * len(EntryRequest.HOLDING))
    sql = (
        f"SELECT (SELECT COUNT(*) FROM {requests} WHERE event_id = %s AND status IN ({holding}))"
        f" + (SELECT COUNT(*) FROM {entries} e WHERE e.event_id = %s AND e.status <> %s"
        f" AND e.id <> %s AND NOT EXISTS"
        f" (SELECT 1 FROM {requests} r WHERE r.registration_id = e.id)),"
        f" (SELECT COUNT(*) FROM {requests} WHERE event_id = %s AND status = %s)"
    )
    params: list[int | str] = [
        event.pk,
        *EntryRequest.HOLDING,
        event.pk,
        Registration.Status.WITHDRAWN,
        making or 0,
        event.pk,
        Status.WAITLISTED,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        taken, waiting_ = cursor.fetchone()
    return taken, waiting_


def waiting(event: Event):
    return EntryRequest.objects.filter(event=event, status=Status.WAITLISTED).order_by(
        "waitlisted_at", "id"
    )


def waitlist_place(request: EntryRequest) -> int | None:
    if request.status != Status.WAITLISTED:
        return None
    ahead = waiting(request.event).filter(waitlisted_at__lt=request.waitlisted_at).count()
    ties = waiting(request.event).filter(waitlisted_at=request.waitlisted_at, id__lt=request.pk)
    return ahead + ties.count() + 1


def _lock(event: Event) -> SignupSettings:
    """The settings row, locked (made first for an event that has none)."""
    locked = SignupSettings.objects.select_for_update()
    try:
        return locked.get(event=event)
    except SignupSettings.DoesNotExist:
        SignupSettings.objects.get_or_create(event=event)  # the row whose lock is taken
        return locked.get(event=event)


def _has_room(event: Event, signup: SignupSettings, making: int | None = None) -> bool:
    return signup.capacity is None or places_taken(event, making) < signup.capacity


def _waitlist_has_room(event: Event, signup: SignupSettings) -> bool:
    limit = signup.waitlist_limit
    return limit is None or waiting(event).count() < limit


def log(request: EntryRequest, action: str, by=None, note: str = "") -> None:
    EntryLog.objects.create(
        event_id=request.event_id,
        request=request,
        registration_id=request.registration_id,
        action=action,
        note=note[:300],
        by=by,
    )
    logger.info(
        "signup event=%s request=%s %s contact=%s",
        request.event_id,
        request.code,
        action,
        privacy.mask(request.contact),
    )


# --- the registrant's side --------------------------------------------------------------------


def live_requests(event: Event):
    return EntryRequest.objects.filter(event=event).exclude(
        status__in=(Status.DECLINED, Status.WITHDRAWN)
    )


def _check_duplicates(
    event: Event,
    union_name: str,
    players: list[dict],
    contact: str,
    signup: SignupSettings,
    exclude_pk: int | None,
    making: Registration | None = None,
) -> None:
    key = privacy.contact_key(contact)
    people = names_key([p["name"] for p in players])
    found = _same_as(event, union_name, people, key, exclude_pk, making)
    if found["union"]:
        raise SignupRefused(
            _("联邦名称“%(n)s”已被报名") % {"n": union_name}, "duplicate", "union_name"
        )
    live = live_requests(event).exclude(pk=exclude_pk or 0)
    same_people = live.filter(names_key=people).first() if found["people"] else None
    if same_people is not None:
        raise SignupRefused(
            _("这些选手已经报过名（报名码 %(c)s）") % {"c": same_people.code}, "duplicate"
        )
    if key and found["contact"] >= signup.max_per_registrant:
        raise SignupRefused(
            _("同一联系方式最多报名 %(n)s 次") % {"n": signup.max_per_registrant},
            "contact_limit",
            "contact",
        )


def _same_as(
    event: Event,
    union_name: str,
    people: str,
    contact_key: str,
    exclude_pk: int | None,
    making: Registration | None,
) -> dict[str, int]:
    """How many live requests (but `exclude_pk`) have the union's name (and unions of the
    event have it, but the one `making` made), the same players, the same contact: one query,
    under the lock, in every registration."""
    requests = connection.ops.quote_name(EntryRequest._meta.db_table)
    unions = connection.ops.quote_name(Union._meta.db_table)
    sql = (
        "SELECT COALESCE(SUM(CASE WHEN union_name = %s AND %s <> '' THEN 1 ELSE 0 END), 0)"
        f" + (SELECT COUNT(*) FROM {unions} WHERE event_id = %s AND round_id IS NULL"
        " AND name = %s AND %s <> '' AND id <> %s),"
        " COALESCE(SUM(CASE WHEN names_key = %s THEN 1 ELSE 0 END), 0),"
        " COALESCE(SUM(CASE WHEN contact_key = %s AND %s <> '' THEN 1 ELSE 0 END), 0)"
        f" FROM {requests} WHERE event_id = %s AND status NOT IN (%s, %s) AND id <> %s"
    )
    making_union = making.union_id if making is not None and making.union_id else 0
    params: list[int | str] = [
        union_name,
        union_name,
        event.pk,
        union_name,
        union_name,
        making_union,
        people,
        contact_key,
        contact_key,
        event.pk,
        Status.DECLINED,
        Status.WITHDRAWN,
        exclude_pk or 0,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        union, same_people, same_contact = cursor.fetchone()
    return {"union": union, "people": same_people, "contact": same_contact}


def _new_token() -> str:
    return secrets.token_urlsafe(18)


class _PlaceGone(Exception):
    """The entry made before the lock has no place after all: start again without it."""


def submit(
    event: Event,
    *,
    form_key: str,
    union_name: str = "",
    club_name: str = "",
    players: list[dict],
    captain: int = 1,
    contact: str = "",
    signup: SignupSettings | None = None,
) -> tuple[EntryRequest, bool]:
    """A request from the public page; (the request, whether it is new). The same form sent
    twice finds the request the first made. `signup`: the event's settings when read already
    (the capacity is counted again under their row's lock)."""
    found = EntryRequest.objects.filter(event=event, form_key=form_key).first()
    if found is not None:
        return found, False
    signup = signup or settings_of(event)
    if window(signup) != "open":
        raise SignupRefused(_("报名未开放或已截止"), "closed")
    if event.is_team and not union_name:
        raise SignupRefused(_("请填写联邦名称"), "bad", "union_name")
    fields = {
        "union_name": union_name if event.is_team else "",
        "club_name": club_name,
        "players": players,
        "captain": captain,
        "contact": contact,
    }
    # Without review a request is accepted at once and becomes the entry: dozens of writes
    # (players, union, search terms). Every registration of the event waits for the settings
    # row's lock, so the entry is made before it is taken, and the lock is held only to count
    # the places and write the request. Should the last place go meanwhile, all of it is rolled
    # back and the request is made again without an entry (waiting list or full).
    early = not signup.review and _has_room(event, signup)
    try:
        try:
            return _submit(event, form_key, fields, early)
        except _PlaceGone:
            return _submit(event, form_key, fields, early=False)
    except IntegrityError as error:  # a union of that name typed in by the organiser meanwhile
        raise SignupRefused(
            _("联邦名称“%(n)s”已被报名") % {"n": union_name}, "duplicate", "union_name"
        ) from error


def _submit(event: Event, form_key: str, fields: dict, early: bool) -> tuple[EntryRequest, bool]:
    token = _new_token()
    with transaction.atomic():
        entry = None
        if early:
            try:
                # The entry's link is the request's (one link to keep): written with it.
                entry = _make_entry(event, **_entry_fields(fields), private_token=token)
            except (registering.RegistrationRefused, entries.EntryRefused) as error:
                # A union of the same name committed meanwhile: the same form sent twice at
                # once finds the first's request; another form is a duplicate.
                found = EntryRequest.objects.filter(event=event, form_key=form_key).first()
                if found is not None:
                    transaction.set_rollback(True)  # the players made early are not wanted
                    return found, False
                raise SignupRefused(
                    _("联邦名称“%(n)s”已被报名") % {"n": fields["union_name"]},
                    "duplicate",
                    "union_name",
                ) from error
        signup = _lock(event)
        found = EntryRequest.objects.filter(event=event, form_key=form_key).first()
        if found is not None:
            transaction.set_rollback(True)  # the entry made early, if any, is not wanted
            return found, False
        # Checked under the lock: two forms of one union sent at once make one request.
        _check_duplicates(
            event,
            fields["union_name"],
            fields["players"],
            fields["contact"],
            signup,
            None,
            making=entry,
        )
        if _has_room(event, signup, making=entry.pk if entry else None):
            status = Status.PENDING if signup.review else Status.ACCEPTED
        elif _waitlist_has_room(event, signup):
            status = Status.WAITLISTED
        else:
            status = None
        if entry is not None and status != Status.ACCEPTED:
            raise _PlaceGone
        if status is None:
            raise SignupRefused(_("名额已满，候补也已满"), "full")
        now = timezone.now()
        request = EntryRequest(
            event=event,
            form_key=form_key,
            token=token,
            status=status,
            contact_key=privacy.contact_key(fields["contact"]),
            waitlisted_at=now if status == Status.WAITLISTED else None,
            created_at=now,
            updated_at=now,
            **fields,
        )
        if entry is not None:
            # Made early: the request is written accepted with its entry, the fee row new.
            request.registration = entry
        _save_new(request)
        log(request, "submitted", note=status)
        if entry is not None:
            fees.open_account(entry, signup, new=True)
        elif status == Status.ACCEPTED:
            _enter(request, signup)
        return request, True


def _save_new(request: EntryRequest) -> None:
    """Save with a fresh short code should one collide (31^6: rare, never an error)."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                request.save()
            return
        except IntegrityError:
            if EntryRequest.objects.filter(event_id=request.event_id, form_key=request.form_key):
                raise
            request.pk = None
            request.code = EntryRequest._meta.get_field("code").get_default()
    request.save()


def _entry_fields(fields: dict) -> dict:
    return {k: fields[k] for k in ("union_name", "club_name", "players", "captain")}


def _make_entry(
    event: Event,
    *,
    union_name: str,
    club_name: str,
    players: list[dict],
    captain: int,
    known=frozenset(),
    by=None,
    private_token: str | None = None,
) -> Registration:
    """The event's entry (a `Registration`) for a request: new player records unless the
    organiser confirmed a known one (`known`, the ownership rules of docs/security.md)."""
    if known:
        return entries.add(
            event,
            players=[p.get("name", "") for p in players],
            name=union_name,
            club=club_name,
            captain=captain,
            user=by,
            known=known,
        )
    club = _club(club_name)
    # New records, written in one insert (no receiver of a Player has work for a new one).
    people = Player.objects.bulk_create(
        Player(name=p["name"], club=club, member_number=p.get("member_number", "")) for p in players
    )
    if event.is_team:
        return registering.register_new_union(
            event, union_name, people, captain=captain, club=club, private_token=private_token
        )
    return registering.register_player(event, people[0], private_token=private_token)


def _club(name: str):
    """The typed club, or a new one; made before the lock, the same new club may be committed
    by another registration meanwhile (its name is unique): then that one."""
    if not (name or "").strip():
        return None
    try:
        with transaction.atomic():
            return clubs.get_or_create(name)
    except IntegrityError:
        return clubs.get_or_create(name)


def _enter(
    request: EntryRequest,
    signup: SignupSettings,
    known=frozenset(),
    by=None,
    entry: Registration | None = None,
) -> None:
    """The accepted request becomes the event's entry (made now unless given), with its fee
    row."""
    if entry is None:
        entry = _make_entry(
            request.event,
            union_name=request.union_name,
            club_name=request.club_name,
            players=request.players,
            captain=request.captain,
            known=known,
            by=by,
        )
    # The registrant's link opens the entry's page (check-in) too: one link to keep.
    if entry.private_token != request.token:
        entry.private_token = request.token
        entry.save(update_fields=["private_token"])
    request.registration = entry
    request.status, request.reviewed = Status.ACCEPTED, request.reviewed or by is not None
    request.updated_at = timezone.now()
    request.save(update_fields=["registration", "status", "reviewed", "updated_at"])
    fees.open_account(entry, signup)


def edit(
    request: EntryRequest,
    *,
    union_name: str,
    club_name: str,
    players: list[dict],
    captain: int,
    contact: str,
) -> EntryRequest:
    """The registrant's changes, until the closing time; an accepted entry's union and players
    follow."""
    event = request.event
    signup = settings_of(event)
    if signup.closes_at and timezone.now() >= signup.closes_at:
        raise SignupRefused(_("报名已截止，不能再修改：请联系组织者"), "closed")
    if request.status in (Status.DECLINED, Status.WITHDRAWN):
        raise SignupRefused(_("这个报名已不在名单中"), "closed")
    union_name = union_name if event.is_team else ""
    with transaction.atomic():
        _lock(event)
        _check_duplicates(event, union_name, players, contact, signup, request.pk)
        if request.registration_id:
            try:
                entries.edit(
                    request.registration,  # type: ignore[arg-type]
                    players=[p["name"] for p in players],
                    name=union_name,
                    club=club_name,
                    seed=request.registration.seed,  # type: ignore[union-attr]
                    captain=captain,
                )
            except entries.EntryRefused as error:
                raise SignupRefused(str(error), "duplicate") from error
        request.union_name, request.club_name = union_name, club_name
        request.players, request.captain = players, captain
        request.contact, request.contact_key = contact, privacy.contact_key(contact)
        request.updated_at = timezone.now()
        request.save()
        log(request, "edited")
    return request


def withdraw(request: EntryRequest, by=None) -> EntryRequest:
    """The registrant withdraws (or the organiser for them): the place goes to the waiting
    list's first."""
    if request.status in (Status.DECLINED, Status.WITHDRAWN):
        raise SignupRefused(_("这个报名已不在名单中"), "closed")
    with transaction.atomic():
        _lock(request.event)
        if request.registration_id:
            entry = request.registration
            assert entry is not None
            if entry.status != Registration.Status.WITHDRAWN:
                try:
                    entries.withdraw(entry, entries.first_open_round(request.event))
                except entries.EntryRefused as error:
                    raise SignupRefused(str(error), "closed") from error
            fees.follow_status(entry)
        held = request.status in EntryRequest.HOLDING
        request.status, request.updated_at = Status.WITHDRAWN, timezone.now()
        request.save(update_fields=["status", "updated_at"])
        log(request, "withdrawn", by=by)
        if held:
            promote(request.event)
    return request


def entry_withdrawn(entry: Registration, by=None) -> None:
    """The organiser withdrew an entry from its page: the request it came from says so, its fee
    follows, and its place goes to the waiting list."""
    found = EntryRequest.objects.filter(registration=entry).first()
    with transaction.atomic():
        _lock(entry.event)
        fees.follow_status(entry)
        if found is not None and found.status == Status.ACCEPTED:
            found.status, found.updated_at = Status.WITHDRAWN, timezone.now()
            found.save(update_fields=["status", "updated_at"])
            log(found, "withdrawn", by=by)
        promote(entry.event, by=by)


# --- the organiser's side ---------------------------------------------------------------------


def promote(event: Event, by=None) -> list[EntryRequest]:
    """Fill free places from the waiting list, first come first: accepted, or waiting for
    review when the event reviews and no one has yet. Call with the settings row locked."""
    signup = _lock(event)
    moved = []
    while _has_room(event, signup):
        head = waiting(event).first()
        if head is None:
            break
        head.promoted_at = timezone.now()
        if signup.review and not head.reviewed:
            head.status = Status.PENDING
            head.save(update_fields=["status", "promoted_at"])
            log(head, "promoted", by=by, note=Status.PENDING)
        else:
            head.save(update_fields=["promoted_at"])
            log(head, "promoted", by=by, note=Status.ACCEPTED)
            _enter(head, signup)
        moved.append(head)
    return moved


def accept(request: EntryRequest, by, known=frozenset()) -> EntryRequest:
    """The organiser accepts a request waiting for review, or one from the waiting list when
    a place is free."""
    with transaction.atomic():
        signup = _lock(request.event)
        request.refresh_from_db()
        if request.status == Status.WAITLISTED and not _has_room(request.event, signup):
            raise SignupRefused(_("名额已满：先提高名额，或等有人退出"), "full")
        if request.status not in (Status.PENDING, Status.WAITLISTED):
            raise SignupRefused(_("只有待审核或候补的报名可以接受"), "state")
        try:
            with transaction.atomic():
                _enter(request, signup, known=known, by=by)
        except (registering.RegistrationRefused, entries.EntryRefused, IntegrityError) as error:
            raise SignupRefused(str(error) or _("联邦名称已被占用"), "duplicate") from error
        log(request, "accepted", by=by)
    return request


def accept_many(event: Event, ids: list[int], by) -> tuple[list[EntryRequest], list[str]]:
    """Accept each in the order given; what could not be accepted is said, the rest go on."""
    done, refused = [], []
    for request in EntryRequest.objects.filter(event=event, pk__in=ids).order_by("created_at"):
        try:
            done.append(accept(request, by))
        except SignupRefused as error:
            refused.append(f"{request.name}: {error}")
    return done, refused


def decline(request: EntryRequest, reason: str, by) -> EntryRequest:
    reason = (reason or "").strip()
    if not reason:
        raise SignupRefused(_("请写明原因：报名人会在自己的页面上看到"), "bad", "reason")
    with transaction.atomic():
        _lock(request.event)
        request.refresh_from_db()
        if request.status not in (Status.PENDING, Status.WAITLISTED):
            raise SignupRefused(_("只有待审核或候补的报名可以拒绝"), "state")
        held = request.status in EntryRequest.HOLDING
        request.status, request.reason, request.reviewed = Status.DECLINED, reason[:300], True
        request.updated_at = timezone.now()
        request.save(update_fields=["status", "reason", "reviewed", "updated_at"])
        log(request, "declined", by=by, note=reason)
        if held:
            promote(request.event, by=by)
    return request


def to_waitlist(request: EntryRequest, by) -> EntryRequest:
    """A request waiting for review goes to the end of the waiting list (reviewed: promoted,
    it is accepted at once)."""
    with transaction.atomic():
        _lock(request.event)
        request.refresh_from_db()
        if request.status != Status.PENDING:
            raise SignupRefused(_("只有待审核的报名可以转为候补"), "state")
        request.status, request.reviewed = Status.WAITLISTED, True
        request.waitlisted_at = request.updated_at = timezone.now()
        request.save(update_fields=["status", "reviewed", "waitlisted_at", "updated_at"])
        log(request, "waitlisted", by=by)
    return request
