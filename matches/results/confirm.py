"""The other union's captain, or a second referee, agrees with a reported deal (final) or
disagrees (disputed, for the organiser); a captain's or a player's PIN on the table's device."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

import matches.results.lockouts as lockouts
import matches.store.chain as chain
from matches import ratelimit
from matches.kernel.reports import ResultError
from matches.models import Confirmation, DealReport, Event, Match, RoundLog
from matches.permissions import (
    Actor,
    confirmation_right,
    may_take_captain_pins,
    pin_matches,
    player_pin_matches,
    player_refusals,
)
from matches.results.common import forbidden, notify, require_open_round, settle_here
from matches.store.statements import locked_report


def confirm_report(
    report: DealReport,
    actor: Actor,
    agrees: bool,
    note: str = "",
    *,
    pin_union=None,
    reason: str = "",
    stand_in=None,
    pin_player=None,
) -> DealReport:
    """A captain, a second referee or an organiser agrees or disagrees (disputed).

    The report becomes final when both unions have agreed (the union of a captain who reported
    it counts as agreed), or at once when a second referee or an organiser agrees. A captain's
    agreement alone leaves it pending for the other union. `pin_union`: the union whose
    captain's PIN was given (checked with `check_captain_pin` first). `reason`: what a
    disagreement is about (Confirmation.Reason). `stand_in`: the union the table's referee answers
    for in its captain's place (logged in the round's log)."""
    return confirm_report_by_id(
        report.pk,
        actor,
        agrees,
        note,
        pin_union=pin_union,
        reason=reason,
        stand_in=stand_in,
        pin_player=pin_player,
    )


def confirm_report_by_id(
    report_id: int,
    actor: Actor,
    agrees: bool,
    note: str = "",
    *,
    pin_union=None,
    reason: str = "",
    stand_in=None,
    pin_player=None,
) -> DealReport:
    """`confirm_report` from the report's id, as the API calls it: one query locks the report
    row and loads its deal, match, round and event. The deal row is not locked: a confirmation
    changes only its report, and the other writers of a report's state (a new report from the
    referee, a correction, an organiser upholding it) take this row's lock when they update it
    and check what they updated. When the report had no confirmation before and gets one now,
    the returned report carries `known_confirmations` (the one just written), which spares the
    caller a query."""
    if not agrees and reason and reason not in Confirmation.Reason.values:
        raise ResultError("bad_reason", f"unknown dispute reason {reason!r}")
    try:
        with transaction.atomic():
            # The statement written once (matches/store/statements.py `locked_report`).
            report = locked_report(report_id)
            if report is None:
                raise ResultError("not_found", "no such report", status=404)
            deal = report.deal
            right = confirmation_right(
                actor, report, pin_union=pin_union, stand_in=stand_in, pin_player=pin_player
            )
            if right is None:
                if deal.match.round.event.confirmation == Event.Confirmation.NONE:
                    raise ResultError(
                        "no_confirmation", "this event needs no confirmation", status=409
                    )
                raise forbidden("you may not confirm this result", "confirm")
            require_open_round(deal.match.round)
            # Earlier answers matter for a captain's (their union's) or a repeated answer only.
            answers = (
                list(report.confirmations.all())
                if right.union_id is not None or report.state != DealReport.State.PENDING
                else []
            )
            if report.state != DealReport.State.PENDING:
                if any(_same_answer(c, actor, right, agrees) for c in answers):
                    return report  # the same answer twice (a double tap or a retry)
                raise ResultError(
                    "not_pending",
                    f"this report is {report.state}, not waiting for confirmation",
                    status=409,
                )
            agreed = {
                c.union_id
                for c in answers
                if c.agrees and c.union_id is not None and c.role == Confirmation.Role.CAPTAIN
            }
            if agrees and right.union_id is not None and right.union_id in agreed:
                return report  # this union has agreed already: still waiting for the other
            now = timezone.now()
            confirmation = Confirmation.objects.create(
                report=report,
                user=actor.user if actor.is_authenticated else None,
                referee_link=actor.link,
                role=right.role,
                union_id=right.union_id,
                player=pin_player,
                by_pin=pin_union is not None or pin_player is not None,
                agrees=agrees,
                reason="" if agrees else (reason or ""),
                note=note or "",
                at=now,
            )
            if stand_in is not None:
                _log_stand_in(report, actor, stand_in, agrees)
            if not getattr(report, "confirmed_before", True):  # set by `locked_report`
                report.known_confirmations = [confirmation]
            if agrees and right.union_id is not None:
                agreed.add(right.union_id)
                match = deal.match
                if not {side.union_id for side in match.union_sides} <= agreed:
                    chain.append_confirmation(confirmation, report)
                    return report  # one union has agreed; the other has not yet
            report.state = DealReport.State.FINAL if agrees else DealReport.State.DISPUTED
            report.state_changed_at = now
            report.save(update_fields=["state", "state_changed_at"])
            settled = settle_here(deal, report) if agrees else None
            chain.append_confirmation(confirmation, report)  # with the result when final
            if agrees:
                notify(deal, settled)
            return report
    except IntegrityError:
        raise ResultError("already_final", "this deal already has a final result", status=409)


def _log_stand_in(report: DealReport, actor: Actor, union, agrees: bool) -> None:
    match = report.deal.match
    RoundLog.objects.create(
        round_id=match.round_id,
        event_id=match.round.event_id,
        action=RoundLog.Action.STAND_IN,
        user=actor.user,
        details={
            "table": match.table.number if match.table else None,
            "deal": report.deal.number,
            "report": report.pk,
            "union": union.name,
            "union_id": union.pk,
            "agrees": agrees,
        },
    )


def _same_answer(confirmation: Confirmation, actor: Actor, right, agrees: bool) -> bool:
    if confirmation.agrees != agrees:
        return False
    if right.union_id is not None:
        return confirmation.union_id == right.union_id
    if actor.link is not None and confirmation.referee_link_id == actor.link.pk:
        return True
    return actor.is_authenticated and confirmation.user_id == actor.user.pk


def check_captain_pin(
    match: Match, side: str | None, pin: str, client: str, actor: Actor | None = None
):
    """The union (side "A" or "B") of the match whose captain's PIN this is. A wrong PIN counts
    against that union at this table, never the client's address (`client` is unused since
    the hall shares one; matches/results/lockouts.py); while it is locked every PIN is
    refused unchecked (429). `actor`: who holds the device; only the table's own device takes
    PINs (`may_take_captain_pins`), checked first."""
    if actor is not None and not may_take_captain_pins(actor, match.table):
        raise forbidden("captains' PINs are given on their table's device only", "confirm")
    union = match.union_a if side == "A" else match.union_b if side == "B" else None
    if union is None:
        raise ResultError("bad_side", "say whose captain this is: A or B")
    subjects = (lockouts.pin_subject(union.pk, match.table_id),)
    wait = max(ratelimit.CAPTAIN_PIN_FAILURES.locked_for(s) for s in subjects)
    if wait:
        raise ResultError(
            "pin_locked",
            f"too many wrong PINs: try again in {max(1, (wait + 59) // 60)} min",
            status=429,
            retry_after=wait,
            params={"minutes": max(1, (wait + 59) // 60)},
        )
    if not pin_matches(union, pin):
        wait = max(ratelimit.CAPTAIN_PIN_FAILURES.fail(s) for s in subjects)
        if wait:
            raise ResultError(
                "pin_locked",
                f"too many wrong PINs: try again in {max(1, (wait + 59) // 60)} min",
                status=429,
                retry_after=wait,
                params={"minutes": max(1, (wait + 59) // 60)},
            )
        raise ResultError("wrong_pin", "this is not the captain's PIN", status=403)
    return union


def check_player_pin(report: DealReport, seat: int, pin: str, actor: Actor):
    """The player on `seat` of the report's table whose own PIN this is (individual events). A
    wrong PIN counts against that player at this table (as a captain's, lockouts.py); only the
    table's own device takes PINs. A seat that may not confirm this report (the side its result
    favours, the player who reported it: `player_refusals`) is refused before its PIN is read,
    saying why and which seats may."""
    match = report.deal.match
    table = match.table
    if table is None or not may_take_captain_pins(actor, table):
        raise forbidden("players' PINs are given on their table's device only", "confirm")
    seated = table.seats.filter(seat=seat).select_related("player").first()
    if seated is None:
        raise ResultError("bad_side", "no player sits on that seat")
    refusals = player_refusals(report)
    if seat in refusals:
        others = [n for n in table.seats.values_list("seat", flat=True) if n not in refusals]
        why = refusals[seat]
        raise ResultError(
            why,
            f"seat {seat} may not confirm this result ({why}); seats that may: {others}",
            status=403,
            params={
                "seat": seat,
                "seats": "-".join(str(n) for n in sorted(refusals) if refusals[n] == why),
                "others": "-".join(str(n) for n in others),
            },
        )
    subject = lockouts.player_subject(seated.player_id, match.table_id)
    wait = ratelimit.CAPTAIN_PIN_FAILURES.locked_for(subject)
    if not wait:
        from matches.models import Registration

        entry = Registration.objects.filter(
            event_id=match.round.event_id, player_id=seated.player_id
        ).first()
        if entry is not None and player_pin_matches(entry, pin):
            return seated.player
        wait = ratelimit.CAPTAIN_PIN_FAILURES.fail(subject)
        if not wait:
            raise ResultError("wrong_player_pin", "this is not that player's PIN", status=403)
    minutes = max(1, (wait + 59) // 60)
    raise ResultError(
        "player_pin_locked",
        f"too many wrong PINs: try again in {minutes} min",
        status=429,
        retry_after=wait,
        params={"minutes": minutes},
    )
