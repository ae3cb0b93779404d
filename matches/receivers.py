"""The computation side's answers to the signals of `matches/signals.py`: a deal's result
changed (queue its settlement), a round changed (queue the standings from it), a recompute
asked for (queue the whole event's); and the public pages' version stamps."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from matches.events import notify
from matches.models import (
    Deal,
    DealReport,
    DealTally,
    Event,
    Match,
    RefereeZone,
    Registration,
    Round,
    RoundLog,
    SearchTerm,
    Stage,
    StandingsSnapshot,
    TableSeat,
    Union,
    UnionMember,
)
from matches.public import find, stamps, standings_files
from matches.signals import (
    PUBLISHED,
    deal_result_changed,
    derived_check_requested,
    recompute_requested,
    round_changed,
    sheet_read_requested,
    standings_refreshed,
)
from matches.tasks import (
    check_derived,
    enqueue,
    queue_standings_after_settlement,
    read_sheet_photo,
    recompute_event,
    settle_deal,
    update_standings,
)
from players.models import Club, Player


@receiver(deal_result_changed, dispatch_uid="standings.settle_deal")
def queue_settlement(
    sender,
    deal_id: int,
    match_id: int | None = None,
    event_id: int | None = None,
    settled: bool = False,
    **kwargs,
) -> None:
    if settled and event_id is not None:
        # Issue 28: settled with the result (results/service.py `_settle_here`); the standings
        # are what is left.
        queue_standings_after_settlement(
            event_id, kwargs["round_id"], kwargs["round_number"], kwargs["match_completed"]
        )
        return
    if match_id is None or event_id is None:
        deal = Deal.objects.select_related("match__round").filter(pk=deal_id).first()
        if deal is None:
            return
        match_id, event_id = deal.match_id, deal.match.round.event_id
    enqueue(settle_deal, event_id, f"match:{match_id}", {"deal_id": deal_id})


@receiver(round_changed, dispatch_uid="standings.round_changed")
def queue_standings_refresh(sender, event_id: int, number: int, **kwargs) -> None:
    """Standings from the changed round on: published (its pairings), closed, unpublished, a
    forfeit or a time stop (its results)."""
    enqueue(update_standings, event_id, "standings", {"event_id": event_id, "from_round": number})


@receiver(recompute_requested, dispatch_uid="standings.recompute_event")
def queue_recompute(sender, event_id: int, **kwargs) -> None:
    enqueue(recompute_event, event_id, "event", {"event_id": event_id})


@receiver(derived_check_requested, dispatch_uid="standings.check_derived")
def queue_derived_check(sender, event_id: int, **kwargs) -> None:
    enqueue(check_derived, event_id, "derived", {"event_id": event_id})


# --- the public pages' version stamp ------------------------------------------------------------


def _cached(instance, *path: str):
    """Follow already-loaded relations (`deal`, `match`, `round`) without a query; None if any
    step is not loaded."""
    for name in path:
        cache = instance._state.fields_cache
        if name not in cache:
            return None
        instance = cache[name]
    return instance


def _event_id_of(instance) -> int | None:
    """The event a saved row belongs to, without a query where the row knows it."""
    if isinstance(instance, Event):
        return instance.pk
    if getattr(instance, "event_id", None):
        return instance.event_id
    if isinstance(instance, DealTally):
        round_ = _cached(instance, "match", "round")
        if round_ is not None:
            return round_.event_id
        return (
            Match.objects.filter(pk=instance.match_id)
            .values_list("round__event_id", flat=True)
            .first()
        )
    if isinstance(instance, DealReport):
        round_ = _cached(instance, "deal", "match", "round")
        if round_ is not None:
            return round_.event_id
        return (
            Deal.objects.filter(pk=instance.deal_id)
            .values_list("match__round__event_id", flat=True)
            .first()
        )
    return None


def _match_id_of(instance) -> int | None:
    if isinstance(instance, DealTally):
        return instance.match_id
    if isinstance(instance, DealReport):
        deal = _cached(instance, "deal")
        return deal.match_id if deal is not None else None
    return None


def forget_public_version(sender, instance, **kwargs) -> None:
    event_id = _event_id_of(instance)
    what = {stamps.PAGES}
    if not isinstance(instance, (DealReport, DealTally)):
        what.add(stamps.STANDINGS)
    if isinstance(instance, (Event, Round)):
        # A round published, closed or unpublished, the event's release settings: what find
        # my table answers (matches/public/find.py).
        what.add(stamps.FIND)
    stamps.forget(event_id, what)
    # The open pages hear of it (matches/events/notify.py): staff at once, the public when
    # its stamps move.
    notify.changed(event_id, _match_id_of(instance))


@receiver(round_changed, dispatch_uid="live.round_changed")
def push_round_change(sender, event_id: int, round_id: int, action: str = "", **kwargs) -> None:
    """A round published, closed, reopened...: sent after commit; the pages hear of it, and
    on publication each seated player hears where they sit (matches/events/notify.py)."""
    notify.changed(event_id, round_changed=True)
    if action == PUBLISHED:
        notify.mark(event_id, seated_round=round_id)


@receiver(deal_result_changed, dispatch_uid="live.deal_result_changed")
def push_result(
    sender, deal_id: int, match_id: int | None = None, event_id: int | None = None, **kwargs
) -> None:
    """A result became final (or was corrected): the staff pages at once; the public ones
    when the settlement moves the public stamps (its tally's save)."""
    notify.changed(event_id, match_id)


def _connect_version_receivers() -> None:
    from django.db.models.signals import post_delete, post_save

    for model in (Event, Round, DealReport, DealTally, StandingsSnapshot):
        for signal in (post_save, post_delete):
            signal.connect(
                forget_public_version,
                sender=model,
                dispatch_uid=f"public-version-{model.__name__}-{signal is post_save}",
            )


_connect_version_receivers()


# --- the public standings as files for nginx (issue 28, matches/public/standings_files.py) -------


@receiver(standings_refreshed, dispatch_uid="standings.files")
def write_standings_files(sender, event_id: int, **kwargs) -> None:
    """After a standings run (sent once it committed, in the worker): the page as files."""
    standings_files.write_safely(event_id)


def remove_standings_files(sender, instance, **kwargs) -> None:
    """The event, a round or a stage saved or deleted: what the public may see of the event
    (published, archived, a round published or taken back, the release settings) may have
    changed, and no file may show what is no longer public. The next run writes them again;
    until then nginx sends the readers to the app."""
    stamps.forget(instance.pk if sender is Event else instance.event_id, stamps.FILES)


for _model in (Event, Round, Stage):
    for _signal in (post_save, post_delete):
        _signal.connect(
            remove_standings_files,
            sender=_model,
            dispatch_uid=f"standings-files-{_model.__name__}-{_signal is post_save}",
        )


# --- rules freeze when the first round is published (issue 14) ----------------------------------


@receiver(post_save, sender=Round, dispatch_uid="rules.freeze_on_publish")
def freeze_rules_on_publish(sender, instance, **kwargs) -> None:
    if instance.published_at is None:
        return
    Event.objects.filter(pk=instance.event_id, rules_frozen_at__isnull=True).update(
        rules_frozen_at=instance.published_at
    )


# --- find my table: the search terms, written when an entry is saved (issue 26) ------------------


@receiver(post_save, sender=Registration, dispatch_uid="find.registration")
def index_new_entry(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        find.index_registration(instance)


@receiver(post_save, sender=Registration, dispatch_uid="find.registration_changed")
@receiver(post_delete, sender=Registration, dispatch_uid="find.registration_gone")
def forget_entry(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """An entry's number shows in find my table's answers; a check-in (named fields) does not
    move them."""
    if not raw and (update_fields is None or {"seed", "union", "player"} & set(update_fields)):
        stamps.forget(instance.event_id, stamps.FIND)


def _names_may_have_changed(update_fields) -> bool:
    """A save that names its fields and leaves the name and the club alone (a captain's PIN, a
    lock counter) changes no search term: reindexing then is work for nothing."""
    return update_fields is None or bool({"name", "club"} & set(update_fields))


@receiver(post_save, sender=Union, dispatch_uid="find.union")
def index_renamed_union(
    sender, instance, created: bool, raw: bool = False, update_fields=None, **kwargs
) -> None:
    # A new union is indexed with its registration (its members are not there yet).
    if (
        not created
        and not raw
        and instance.round_id is None
        and _names_may_have_changed(update_fields)
    ):
        find.index_union(instance)


@receiver(post_save, sender=UnionMember, dispatch_uid="find.member")
def index_new_member(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if not raw and instance.round_id is None:
        if Registration.objects.filter(union_id=instance.union_id).exists():
            find.index_player(instance.event_id, instance.player)


@receiver(post_save, sender=RefereeZone, dispatch_uid="find.zone")
@receiver(post_delete, sender=RefereeZone, dispatch_uid="find.zone_gone")
def forget_zone(sender, instance, raw: bool = False, **kwargs) -> None:
    """A zone's name shows in find my table's answers (a table's place in the hall)."""
    if not raw:
        stamps.forget(instance.event_id, stamps.FIND)


@receiver(post_save, sender=RoundLog, dispatch_uid="find.round_logged")
def forget_on_round_edit(sender, instance, raw: bool = False, **kwargs) -> None:
    """Every edit of a round is logged (a late arrival or leaving, a swap, a seat given to the
    player who sat out, written by queryset updates too): find my table's counter moves."""
    if not raw:
        stamps.forget(instance.event_id, stamps.FIND)


@receiver(post_save, sender=TableSeat, dispatch_uid="find.seat")
def forget_on_seat(sender, instance, raw: bool = False, **kwargs) -> None:
    """A seat of a round the public may see written (two players exchanged, a seat given):
    the answers name it. A draft's seats are not public; its publication moves the counter.
    (A seat is deleted with its round, whose own signal moves it, or rewritten: saved.)"""
    if raw:
        return
    round_ = _cached(instance, "round")
    if round_ is None:
        round_ = Round.objects.filter(pk=instance.round_id).only("event_id", "state").first()
    if round_ is not None and round_.state != Round.State.DRAFT:
        stamps.forget(round_.event_id, stamps.FIND)


@receiver(post_delete, sender=UnionMember, dispatch_uid="find.member_gone")
def unindex_member(sender, instance, **kwargs) -> None:
    if instance.round_id is None:
        SearchTerm.objects.filter(event_id=instance.event_id, player_id=instance.player_id).delete()
        stamps.forget(instance.event_id, stamps.FIND)


@receiver(post_save, sender=Player, dispatch_uid="find.player")
def index_renamed_player(
    sender, instance, created: bool, raw: bool = False, update_fields=None, **kwargs
) -> None:
    if not created and not raw and _names_may_have_changed(update_fields):
        find.reindex_player(instance)


@receiver(post_save, sender=Club, dispatch_uid="find.club")
def index_renamed_club(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created or raw:
        return
    for union in Union.objects.filter(club=instance, round__isnull=True):
        find.index_union(union)
    for player in Player.objects.filter(club=instance):
        find.reindex_player(player)


@receiver(sheet_read_requested, dispatch_uid="sheets.read_photo")
def queue_sheet_read(sender, photo_id: int, event_id: int, **kwargs) -> None:
    enqueue(read_sheet_photo, event_id, f"sheet-photo:{photo_id}", {"photo_id": photo_id})
