"""The computation side's answers to the signals of `matches/signals.py`: a deal's result
changed (queue its settlement), a round changed (queue the standings from it), a recompute
asked for (queue the whole event's); the one receiver that forgets the public copies a save
or delete makes stale, connected to each model of `matches/public/forgets.py`; find my table's
index; the live notices."""

from __future__ import annotations

from django.apps import apps
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from matches.events import notify
from matches.models import (
    Deal,
    Event,
    Registration,
    Round,
    Union,
    UnionMember,
)
from matches.public import find_terms, forgets, stamps, standings_files
from matches.results import live
from matches.signals import (
    PUBLISHED,
    deal_result_changed,
    derived_check_requested,
    live_deal_completed,
    recompute_requested,
    round_changed,
    sheet_read_requested,
    stack_read_requested,
    standings_refreshed,
)
from matches.tasks import (
    check_derived,
    enqueue,
    queue_standings_after_settlement,
    read_sheet_photo,
    read_stack_sheet,
    recompute_event,
    settle_deal,
    update_standings,
)
from players import clubs
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
        # Settled with the result (matches/results/common.py `settle_here`); the standings
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


@receiver(live_deal_completed, dispatch_uid="live.report_due")
def queue_live_report(sender, deal_id: int, seconds: float, **kwargs) -> None:
    """A feature table's deal is over: its report once the delay has passed. Where tasks run
    in-process (no broker) the countdown does not hold them back: the task then finds the deal
    not due yet and the sweep (`manage.py live_reports`, every operator action) submits it."""
    live.submit_report_task.apply_async((deal_id,), countdown=max(seconds, 0))


# --- the public copies: what each save and delete makes stale (matches/public/forgets.py) -------


def forget_public_copies(sender, instance, update_fields=None, **kwargs) -> None:
    """The one receiver of every model of the freshness map: forgets the layers the map names
    for the row's event."""
    stale = forgets.MAP[sender._meta.label]
    if not forgets.concerns(stale, update_fields):
        return
    event_id = forgets.event_of(stale, instance)
    stamps.forget(event_id, stale.layers)
    if stamps.PAGES in stale.layers:
        # The open pages hear of it (matches/events/notify.py): staff at once, the public when
        # its stamps move.
        notify.changed(event_id, forgets.match_of(stale, instance))


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


# --- the public standings as files for nginx (matches/public/standings_files.py) ----------------


@receiver(standings_refreshed, dispatch_uid="standings.files")
def write_standings_files(sender, event_id: int, **kwargs) -> None:
    """After a standings run (sent once it committed, in the worker): the page as files."""
    standings_files.write_safely(event_id)


# --- rules freeze when the first round is published ----------------------------------


@receiver(post_save, sender=Round, dispatch_uid="rules.freeze_on_publish")
def freeze_rules_on_publish(sender, instance, **kwargs) -> None:
    if instance.published_at is None:
        return
    Event.objects.filter(pk=instance.event_id, rules_frozen_at__isnull=True).update(
        rules_frozen_at=instance.published_at
    )


# --- find my table: the search terms, written when an entry is saved ------------------


@receiver(post_save, sender=Registration, dispatch_uid="find.registration")
def index_new_entry(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # `terms_written`: its maker writes them (registration.register_new_union).
    if created and not raw and not instance.terms_written:
        find_terms.index_registration(instance)


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
        find_terms.index_union(instance)


@receiver(post_save, sender=UnionMember, dispatch_uid="find.member")
def index_new_member(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if not raw and instance.round_id is None:
        if Registration.objects.filter(union_id=instance.union_id).exists():
            find_terms.index_player(instance.event_id, instance.player)


@receiver(post_delete, sender=UnionMember, dispatch_uid="find.member_gone")
def unindex_member(sender, instance, **kwargs) -> None:
    if instance.round_id is None:
        find_terms.unindex_player(instance.event_id, instance.player_id)


@receiver(post_save, sender=Player, dispatch_uid="find.player")
def index_renamed_player(
    sender, instance, created: bool, raw: bool = False, update_fields=None, **kwargs
) -> None:
    if not created and not raw and _names_may_have_changed(update_fields):
        find_terms.reindex_player(instance)


@receiver(post_save, sender=Club, dispatch_uid="find.club")
def index_renamed_club(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created or raw:
        return
    for union in Union.objects.filter(club=instance, round__isnull=True):
        find_terms.index_union(union)
    for player in Player.objects.filter(club=instance):
        find_terms.reindex_player(player)


@receiver(post_save, sender=Club, dispatch_uid="clubs.names_saved")
@receiver(post_delete, sender=Club, dispatch_uid="clubs.names_deleted")
def forget_club_names(sender, **kwargs) -> None:
    """The list of clubs drawn on the registration form is drawn again (players/clubs.py)."""
    clubs.forget_names()


@receiver(sheet_read_requested, dispatch_uid="sheets.read_photo")
def queue_sheet_read(sender, photo_id: int, event_id: int, **kwargs) -> None:
    enqueue(read_sheet_photo, event_id, f"sheet-photo:{photo_id}", {"photo_id": photo_id})


@receiver(stack_read_requested, dispatch_uid="sheets.read_stack")
def queue_stack_read(sender, sheet_id: int, event_id: int, **kwargs) -> None:
    enqueue(read_stack_sheet, event_id, f"stack-sheet:{sheet_id}", {"sheet_id": sheet_id})


# --- connected last: a row's index receivers above have written its terms when find forgets --


def _connect_forgetting() -> None:
    for label, stale in forgets.MAP.items():
        if not stale.receiver:
            continue
        model = apps.get_model(label)
        signals = (post_save, post_delete) if stale.deletes else (post_save,)
        for signal in signals:
            signal.connect(
                forget_public_copies,
                sender=model,
                dispatch_uid=f"public-forget-{label}-{signal is post_save}",
            )


_connect_forgetting()
