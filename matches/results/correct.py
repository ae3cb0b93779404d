"""An organiser's hand on results: a correction replaces a result (a new row, never an edit: the
old final row becomes `superseded`, and later deals of the match are flagged `needs_recheck`), an
open report is upheld as reported, and a flagged deal is settled again (`recheck_deal`)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation

import matches.store.chain as chain
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import Checked, ResultError
from matches.models import Confirmation, Deal, DealReport
from matches.permissions import Actor, can_manage_event, can_run_event
from matches.results.common import (
    by_key,
    check_report,
    forbidden,
    lock_deal,
    notify,
    rejection,
    replay,
    request_digest,
    require_open_round,
    require_previous_final,
    settle_here,
)


def correct_result(
    deal: Deal, summary: Any, play_log: Any, actor: Actor, reason: str, idempotency_key: str = ""
) -> DealReport:
    """An organiser replaces the result of a deal (also how a dispute is decided)."""
    reason = (reason or "").strip()
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise forbidden("only the event's organisers correct results", "correct")
    if not reason:
        raise ResultError("reason_required", "a correction needs a reason")
    idempotency_key = (idempotency_key or "").strip()[:100]
    digest = request_digest(DealReport.Kind.CORRECTION, summary, play_log, reason)
    try:
        return _correct(deal, summary, play_log, actor, reason, idempotency_key, digest)
    except IntegrityError:
        # A retry with the same key stored its correction between this one's look-up and its
        # insert (the unique key on deal and key): answer with it, never a 500.
        earlier = by_key(deal.pk, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise ResultError(
                "already_final",
                "another result for this deal was stored at the same moment",
                status=409,
            )
        return replay(earlier, DealReport.Kind.CORRECTION, digest)


def _correct(
    deal: Deal,
    summary: Any,
    play_log: Any,
    actor: Actor,
    reason: str,
    idempotency_key: str,
    digest: str,
) -> DealReport:
    with transaction.atomic():
        deal = lock_deal(deal.pk)
        if idempotency_key:  # looked up under the deal's lock: a concurrent retry waits here
            earlier = by_key(deal.pk, idempotency_key)
            if earlier is not None:
                return replay(earlier, DealReport.Kind.CORRECTION, digest)
        require_open_round(deal.match.round, allow_closed=True)
        require_previous_final(deal)
        checked = check_report(deal, None, summary, play_log)
        if not checked.accepted:
            raise rejection(checked)
        now = timezone.now()
        # Lock the deal's live reports: a confirmation in progress (it locks its report, not
        # the deal) finishes first, so a report it makes final is the one this replaces.
        live = list(
            DealReport.objects.select_for_update(no_key=True)
            .filter(
                deal=deal,
                state__in=[
                    DealReport.State.FINAL,
                    DealReport.State.PENDING,
                    DealReport.State.DISPUTED,
                ],
            )
            .order_by("pk")
        )
        old_final = next((r for r in live if r.state == DealReport.State.FINAL), None)
        _refuse_unchanged(checked, live, idempotency_key)
        DealReport.objects.filter(pk__in=[r.pk for r in live]).update(
            state=DealReport.State.SUPERSEDED, state_changed_at=now
        )
        score_a, score_b = checked.side_scores
        report = DealReport.objects.create(
            deal=deal,
            kind=DealReport.Kind.CORRECTION,
            state=DealReport.State.FINAL,
            summary=checked.summary,
            play_log=checked.play_log,
            verdict=checked.verdict.to_json(),
            score_a=score_a,
            score_b=score_b,
            submitted_by=actor.user,
            via=actor.via,
            idempotency_key=idempotency_key,
            reason=reason,
            replaces=old_final,
            created_at=now,
            state_changed_at=now,
            request_digest=digest,
        )
        Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
        if old_final is not None and adapter_for(deal.match.round.event).deals_follow_on:
            # R40 in Gou Ji: later deals' streaks depend on this one.
            Deal.objects.filter(match_id=deal.match_id, number__gt=deal.number).update(
                needs_recheck=True
            )
        deal.match.round.event.freeze_rules()
        # Last write of the transaction: the chain's head is held until commit, so nothing
        # may wait for another row after it.
        chain.append_result(report)
        notify(deal)
        return report


def _canonical(summary: Any) -> Any:
    """A summary without its empty fields: a form writes `"burns": []` where the API may leave
    the field out, and both say the same."""
    if not isinstance(summary, dict):
        return summary
    return {key: value for key, value in summary.items() if value not in (None, "", [], {})}


def _refuse_unchanged(checked: Checked, live: list[DealReport], idempotency_key: str) -> None:
    """A correction must change something: one equal to an open report is that report upheld
    (a correction would record the opposite of what the organiser decided), one equal to the
    result in force corrects nothing. Equal: the same summary, no other play log and the same
    verdict. A retry of the correction in force (its own key) is left to the replay."""
    for report in live:
        if idempotency_key and report.idempotency_key == idempotency_key:
            continue
        same_log = checked.play_log is None or checked.play_log == report.play_log
        if _canonical(report.summary) != _canonical(checked.summary) or not same_log:
            continue
        if (report.verdict or {}) != checked.verdict.to_json():
            continue  # the same deal now scores differently (recheck_deal: R40 streaks)
        if report.state == DealReport.State.FINAL:
            raise ResultError(
                "same_as_final",
                "the correction is the result already in force: change what differs",
                status=409,
            )
        raise ResultError(
            "same_as_report",
            f"the correction is the same as open report #{report.pk}: uphold that report instead",
            status=409,
            params={"report": report.pk},
        )


def uphold_report(report: DealReport, actor: Actor, note: str = "") -> DealReport:
    """An organiser decides an open (pending or disputed) report as reported: it becomes final
    at once, and the table may report its next deal. Recorded as the organiser's agreement."""
    # The day's work: the event's organisers and assistants (permissions.can_run_event).
    if not actor.is_authenticated or not can_run_event(actor.user, report.deal.match.round.event):
        raise forbidden("only the event's organisers decide results", "decide")
    try:
        with transaction.atomic():
            deal = lock_deal(report.deal_id)
            report = DealReport.objects.select_for_update(no_key=True, of=("self",)).get(
                pk=report.pk
            )
            report.deal = deal
            require_open_round(deal.match.round, allow_closed=True)
            if report.state == DealReport.State.FINAL:
                return report  # a double click
            if report.state not in (DealReport.State.PENDING, DealReport.State.DISPUTED):
                raise ResultError(
                    "not_pending", f"this report is {report.state}, not open", status=409
                )
            require_previous_final(deal)
            now = timezone.now()
            confirmation = Confirmation.objects.create(
                report=report,
                user=actor.user,
                role=Confirmation.Role.ORGANISER,
                agrees=True,
                note=note or "",
                at=now,
            )
            report.state = DealReport.State.FINAL
            report.state_changed_at = now
            report.save(update_fields=["state", "state_changed_at"])
            deal.match.round.event.freeze_rules()
            settled = settle_here(deal, report)
            chain.append_confirmation(confirmation, report)  # the last write
            notify(deal, settled)
            return report
    except IntegrityError:
        raise ResultError("already_final", "this deal already has a final result", status=409)


def recheck_deal(deal: Deal, actor: Actor) -> DealReport | None:
    """After an earlier deal of the match was corrected, settle this deal's final result again
    with the string-three streak (R40) the corrected results give. An unchanged verdict just
    clears the flag; a changed one becomes a correction (the old row is kept, superseded).
    Returns the new correction, or None when nothing changed."""
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise forbidden("only the event's organisers recheck results", "recheck")
    with transaction.atomic():
        deal = lock_deal(deal.pk)
        final = DealReport.objects.final().filter(deal=deal).first()
        if final is None:
            Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
            return None
        # The summary as stored: the game's check derives anew what it fills in (Gou Ji: the
        # R40 streak from the corrected deals before), so no key of it is read here.
        summary = final.summary
        checked = check_report(
            deal, None, summary if final.play_log is None else None, final.play_log
        )
        stored = adapter_for(deal.match.round.event).read_verdict(final.verdict or {})
        same = checked.accepted and checked.verdict.settles_like(stored)
        if same or not checked.accepted:
            # Not accepted can only mean the rules engine changed its mind about a stored
            # result; the flag stays for the organiser to correct by hand.
            if same:
                Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
            return None
        event = deal.match.round.event
        with translation.override("zh-hans"):  # a stored reason, in the source language
            strings = str(adapter_for(event).strings_of_three_label(event))  # 串三户 / 串四户
        return correct_result(
            deal,
            summary if final.play_log is None else None,
            final.play_log,
            actor,
            f"复核：本场前面的牌局已更正，按新的{strings}连续次数重新结算（R40）",
        )
