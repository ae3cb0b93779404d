"""Deal results: the only code that moves results between the database and the rules engine.

- `submit_report`: a referee (private link, signed-in account or API token) reports a deal. The
  engine checks it (settle for a summary, replay for a play log); an inconsistent report is not
  stored at all. Depending on the event it is final at once or waits for a confirmation.
- `confirm_report`: the other union's captain, or a second referee, agrees (final) or disagrees
  (disputed, for the organiser).
- `correct_result`: an organiser replaces a result. A new row, never an edit: the old final row
  becomes `superseded`, and later deals of the match are flagged `needs_recheck`.

Every write holds a row lock on the Deal (`select_for_update(no_key=True)`: FOR NO KEY UPDATE,
which excludes other writers of the deal but not the foreign-key checks of rows that point at it,
so a Celery settlement writing the deal's tally cannot deadlock with a submission; seen at
festival scale, bench/RESULTS-festival.md), and the database refuses a second
final report for a deal (partial unique index), so several web processes cannot store two final
results. `deal_result_changed` is sent from `transaction.on_commit`, only for committed results.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation

import matches.results.lockouts as lockouts
import matches.store.chain as chain  # issue 27
from matches import ratelimit
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import Checked, ResultError
from matches.models import (
    Confirmation,
    Deal,
    DealReport,
    Event,
    Match,
    Round,
    RoundLog,
    Stage,
)
from matches.permissions import (
    Actor,
    can_enter_results,
    can_manage_event,
    can_run_event,
    captain_union,
    confirmation_right,
    may_take_captain_pins,
    pin_matches,
    player_pin_matches,
)
from matches.signals import deal_result_changed
from matches.standings import service as settlement
from matches.store.statements import earlier_reports, locked_deal, locked_report

log = logging.getLogger(__name__)


def _forbidden(message: str, action: str) -> ResultError:
    """403; `action` (enter, confirm, correct, decide, recheck) picks the refusal's wording in
    the page's language (matches/results/messages.py)."""
    return ResultError("permission_denied", message, status=403, params={"action": action})


# --- deals --------------------------------------------------------------------------------------


def deal_for(match: Match, number: int) -> Deal:
    """The deal `number` of a match, created on first use.

    Deals 1..deals_per_match are always allowed; extra deals only break a tied knockout match
    (up to the event's tie_break_deals when set).
    """
    if number < 1:
        raise ResultError(
            "no_such_deal", f"deal {number} does not exist", status=404, params={"n": number}
        )
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is not None:
        return existing
    created = _create_deals(match, number)
    if created is not None:
        return created
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is None:
        raise _table_gone()
    return existing


def _table_gone() -> ResultError:
    return ResultError(
        "table_gone",
        "this table no longer exists: the round was re-drawn; reload the round's tables",
        status=409,
    )


def _create_deals(match: Match, number: int) -> Deal | None:
    """Create deal `number` of the match (it has no row yet). A regular deal comes with the
    rows of all the match's regular deals, as the match's first settlement would write them
    (`ensure_regular_deals`), so the later deals' reports find their row at once; then None is
    returned. An extra deal is created alone and returned."""
    event = match.round.event
    if number > event.deals_per_match:
        if not _extra_deal_allowed(match, number):
            raise ResultError(
                "no_such_deal",
                f"a match has {event.deals_per_match} deals; deal {number} is not played",
                status=404,
                params={"n": number},
            )
        is_extra = True
    else:
        is_extra = False
    try:
        with transaction.atomic():
            # The match may have been deleted since the caller found it: lock it (waiting for a
            # delete in progress) so no deal is created under a deleted match.
            state = (
                Match.objects.select_for_update(no_key=True, of=("self",))
                .filter(pk=match.pk)
                .order_by()
                .values_list("round__state", flat=True)
                .first()
            )
            if state is None:
                raise _table_gone()
            if state == Round.State.DRAFT:
                # No deal rows in a draft round: a re-draw deletes its matches, and a deal
                # created meanwhile would block that. (Reporting refuses draft rounds anyway.)
                raise ResultError(
                    "round_not_published", "this round is not published yet", status=409
                )
            if is_extra:
                return Deal.objects.create(match=match, number=number, is_extra=True)
            Deal.objects.bulk_create(
                [Deal(match=match, number=k) for k in range(1, event.deals_per_match + 1)],
                ignore_conflicts=True,
            )
            return None
    except IntegrityError:
        return None  # another request created this deal at the same moment


def deal_allowed(match: Match, number: int) -> bool:
    """Whether deal `number` is (or may be) played, without creating it."""
    if number < 1:
        return False
    if number <= match.round.event.deals_per_match:
        return True
    return Deal.objects.filter(match=match, number=number).exists() or _extra_deal_allowed(
        match, number
    )


def _extra_deal_allowed(match: Match, number: int) -> bool:
    event = match.round.event
    if match.round.stage.format != Stage.Format.SINGLE_ELIMINATION:
        return False
    if event.tie_break_deals is not None and number > event.deals_per_match + event.tie_break_deals:
        return False
    played = list(Deal.objects.filter(match=match, number__lt=number).with_final_result())
    if len(played) != number - 1:
        return False
    total = sum(deal.final_report.score_a or 0 for deal in played)
    return total == 0


def current_deal_number(match: Match) -> int:
    """The first deal of the match without a final result (the one the referee reports next)."""
    finals = set(
        DealReport.objects.final().filter(deal__match=match).values_list("deal__number", flat=True)
    )
    number = 1
    while number in finals:
        number += 1
    return number


# --- checking a report with the engine --------------------------------------------------------


def check_report(deal_or_match, number: int | None, summary: Any, play_log: Any) -> Checked:
    """The game's engine on a report for a deal; nothing is stored. Raises ResultError (400)
    when a document cannot be read. The returned `errors` are every reason not to accept it."""
    if isinstance(deal_or_match, Deal):
        match, number = deal_or_match.match, deal_or_match.number
    else:
        match = deal_or_match
    return adapter_for(match.round.event).check_report(match, number, summary, play_log)


def _rejection(checked: Checked) -> ResultError:
    first = checked.errors[0]
    count = len(checked.errors)
    message = first["message"] if count == 1 else f"{first['message']} (and {count - 1} more)"
    return ResultError(
        "inconsistent_result",
        message,
        status=422,
        rule=first.get("rule"),
        errors=checked.errors,
        verdict=checked.verdict.to_json(),
    )


# --- locking and staleness ----------------------------------------------------------------------


def _locked_deals():
    # One query: `of=("self",)` locks the deal row only, so the joined rows (the table is on
    # the nullable side of an outer join, which FOR UPDATE alone refuses) are only read.
    return (
        Deal.objects.select_for_update(no_key=True, of=("self",))
        .select_related(
            "match__round__event",
            "match__round__stage",
            "match__table",
        )
        .order_by("pk")
    )


def _lock_deal(deal_id: int) -> Deal:
    """Lock the deal row for the rest of the transaction and load what the checks need; refuse
    a deal that no longer exists (its match went with a re-draw)."""
    deal = _locked_deals().filter(pk=deal_id).first()
    if deal is None:
        raise ResultError(
            "deal_gone", "this deal no longer exists (the round was re-drawn?)", status=409
        )
    return deal


def _require_open_round(round_: Round, allow_closed: bool = False) -> None:
    if round_.state == Round.State.PUBLISHED:
        return
    if round_.state == Round.State.CLOSED and allow_closed:
        return
    if round_.state == Round.State.DRAFT:
        raise ResultError("round_not_published", "this round is not published yet", status=409)
    raise ResultError(
        "round_closed", "this round is closed: only an organiser can correct it", status=409
    )


def _require_previous_final(deal: Deal) -> None:
    """R35 in Gou Ji: the tributes of a deal are paid from the previous deal's result, so the
    previous deal must be final before this one is reported (in games whose deals follow on)."""
    if deal.number == 1 or not adapter_for(deal.match.round.event).deals_follow_on:
        return
    if (
        not DealReport.objects.final()
        .filter(deal__match_id=deal.match_id, deal__number=deal.number - 1)
        .exists()
    ):
        _previous_deal_open(deal)


def _previous_deal_open(deal: Deal) -> None:
    raise ResultError(
        "previous_deal_open",
        f"deal {deal.number - 1} has no final or pending result yet; "
        f"its tributes open deal {deal.number}",
        status=409,
        params={"n": deal.number, "previous": deal.number - 1},
        rule="R35",
    )


def _by_key(deal_id: int, idempotency_key: str) -> DealReport | None:
    return DealReport.objects.filter(deal_id=deal_id, idempotency_key=idempotency_key).first()


def request_digest(kind: str, summary: Any, play_log: Any, reason: str = "") -> str:
    """What an Idempotency-Key stands for: the operation and everything sent with it."""
    text = json.dumps(
        [kind, summary, play_log, reason],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _replay(earlier: DealReport, kind: str, digest: str) -> DealReport:
    """The report stored under this key, when the key came with this very request; a key used
    with another request (another body, or a correction reusing a report's key) is a 422, as
    the HTTP Idempotency-Key draft says: answering with the first result would lose this one."""
    if earlier.request_digest and earlier.request_digest != digest or earlier.kind != kind:
        raise ResultError(
            "idempotency_key_reused",
            "this Idempotency-Key was already used for "
            "another request on this deal; send this one with a new key",
            status=422,
        )
    earlier.replayed = True
    return earlier


def _notify(deal: Deal, settled: Match | None = None) -> None:
    """Tell the computation side on commit; the ids spare its receiver a query per result.
    `settled`: the match when the deal was settled in this transaction (`_settle_here`): then
    only the standings are left to queue, urgently when that completed the match's round."""
    round_ = deal.match.round
    ids: dict[str, Any] = {
        "deal_id": deal.pk,
        "match_id": deal.match_id,
        "event_id": round_.event_id,
    }
    if settled is not None:
        ids.update(
            settled=True,
            round_id=round_.pk,
            round_number=round_.number,
            match_completed=settled.completed_at is not None,
        )
    transaction.on_commit(lambda: deal_result_changed.send(sender=DealReport, **ids))


def _settle_here(deal: Deal, report: DealReport) -> Match | None:
    """Issue 28: settle the deal that `report` makes final in this very transaction (its tally,
    the next deal's tributes, the match's result: a few rows), instead of a task per deal; the
    result and its settlement then commit together or not at all. In a savepoint: when the
    settlement fails, the result is still stored and the settlement task does it (as it does
    whenever this declines: `standings.settle_new_result`). Before the result chain's append,
    which must stay the transaction's last write."""
    try:
        with transaction.atomic():
            return settlement.settle_new_result(deal, report)
    except Exception:
        log.exception("deal %s: settling in the request failed; queued instead", deal.pk)
        return None


def _now():
    return timezone.now()


# --- the three operations -----------------------------------------------------------------------


def submit_report(
    deal: Deal, summary: Any, play_log: Any, actor: Actor, idempotency_key: str = ""
) -> tuple[DealReport, bool]:
    """Store a referee's report of a deal. Returns (report, created).

    The same idempotency key for the same deal returns the first report (created False).
    Raises ResultError: 400 unreadable, 403 not this actor's table, 409 stale or already final,
    422 inconsistent with the rules (nothing stored).
    """
    return _submit(lambda: _lock_deal(deal.pk), deal.pk, summary, play_log, actor, idempotency_key)


def submit_deal_report(
    match: Match, number: int, summary: Any, play_log: Any, actor: Actor, idempotency_key: str = ""
) -> tuple[DealReport, bool]:
    """`submit_report` for deal `number` of a match, as the API and the batch call it: when the
    deal row exists (the match's first settlement writes rows for all its regular deals), it is
    found and locked in one query; otherwise it is created first (`deal_for`)."""

    def locate() -> Deal:
        # The statement of `_locked_deals()` written once (matches/kernel/statements.py).
        deal = locked_deal(match.pk, number)
        if deal is None:
            raise _NoDealRow
        return deal

    try:
        return _submit(locate, None, summary, play_log, actor, idempotency_key)
    except _NoDealRow:
        pass
    if number < 1:
        raise ResultError("no_such_deal", f"deal {number} does not exist", status=404)
    deal = _create_deals(match, number)
    if deal is not None:
        return submit_report(deal, summary, play_log, actor, idempotency_key)
    try:
        return _submit(locate, None, summary, play_log, actor, idempotency_key)
    except _NoDealRow:
        raise _table_gone() from None


class _NoDealRow(Exception):
    """The deal has no row yet: leave the transaction and create it."""


def _submit(
    locate, deal_id: int | None, summary: Any, play_log: Any, actor: Actor, idempotency_key: str
) -> tuple[DealReport, bool]:
    idempotency_key = (idempotency_key or "").strip()[:100]
    digest = request_digest(DealReport.Kind.REPORT, summary, play_log)
    try:
        with transaction.atomic():
            deal = locate()
            deal_id = deal.pk
            match = deal.match
            if match.table is None:
                raise ResultError("table_gone", "this match has no table", status=409)
            # Permission first: a retry's key must not reveal another table's report.
            if not can_enter_results(actor, match.table):
                raise _forbidden("you do not referee this table", "enter")
            # One query for every check on the deal's earlier reports (usually there are none)
            # and, where deals follow on (R35), for the previous deal's final result or its
            # report still waiting for its confirmation (issue 28: the table plays on while
            # the captains have not confirmed yet; the settlement writes this deal's tributes
            # once that one is final).
            reports = DealReport.objects.filter(deal=deal)
            follows_on = deal.number > 1 and adapter_for(match.round.event).deals_follow_on
            # Compiled once (matches/kernel/statements.py `earlier_reports`).
            rows = earlier_reports(
                deal.pk, (deal.match_id, deal.number - 1) if follows_on else None
            )
            earlier = [(pk, state, key) for pk, deal_of, state, key in rows if deal_of == deal.pk]
            if idempotency_key:  # a retry gets its report back, even once the round closed
                for pk, _state, key in earlier:
                    if key == idempotency_key:
                        return _replay(reports.get(pk=pk), DealReport.Kind.REPORT, digest), False
            _require_open_round(match.round)
            states = {state for _pk, state, _key in earlier}
            if DealReport.State.FINAL in states:
                raise ResultError(
                    "already_final",
                    f"deal {deal.number} already has a final result; an organiser can correct it",
                    status=409,
                    params={"n": deal.number},
                )
            if DealReport.State.DISPUTED in states:
                raise ResultError(
                    "deal_disputed",
                    f"deal {deal.number} is disputed: the organiser decides it",
                    status=409,
                    params={"n": deal.number},
                )
            if follows_on and len(rows) == len(earlier):
                _previous_deal_open(deal)
            checked = check_report(deal, None, summary, play_log)
            if not checked.accepted:
                raise _rejection(checked)
            event = match.round.event
            final_now = event.confirmation == Event.Confirmation.NONE
            now = _now()
            # A new report replaces one still waiting for confirmation (the referee fixed it).
            if DealReport.State.PENDING in states:
                pending = sum(state == DealReport.State.PENDING for _pk, state, _key in earlier)
                superseded = reports.filter(state=DealReport.State.PENDING).update(
                    state=DealReport.State.SUPERSEDED, state_changed_at=now
                )
                if superseded != pending:
                    # Confirmed (or disputed) meanwhile: a confirmation locks the report row,
                    # not the deal's, and this update waited for it.
                    raise ResultError(
                        "already_final",
                        f"deal {deal.number}'s report was confirmed or disputed at the same moment",
                        status=409,
                        params={"n": deal.number},
                    )
            score_a, score_b = checked.side_scores
            report = DealReport.objects.create(
                deal=deal,
                kind=DealReport.Kind.REPORT,
                state=DealReport.State.FINAL if final_now else DealReport.State.PENDING,
                summary=checked.summary,
                play_log=checked.play_log,
                verdict=checked.verdict.to_json(),
                score_a=score_a,
                score_b=score_b,
                submitted_by=actor.user if actor.is_authenticated else None,
                via=actor.via,
                referee_link=actor.link,
                idempotency_key=idempotency_key,
                created_at=now,
                state_changed_at=now,
                request_digest=digest,
            )
            own = None
            if not final_now and actor.is_authenticated:
                # A captain who reports a deal agrees to it for their union (docs/results.md).
                union = captain_union(actor, match)
                if union is not None:
                    own = Confirmation.objects.create(
                        report=report,
                        user=actor.user,
                        referee_link=actor.link,
                        role=Confirmation.Role.CAPTAIN,
                        union=union,
                        agrees=True,
                        note="reported",
                        at=now,
                    )
            event.freeze_rules()
            chain.append_confirmation(own, report)  # the result when final now (issue 27)
            if final_now:
                # Settled by the task: a batch of such deals keeps its query budget
                # (tests/results/test_batch.py); a confirmation settles its deal itself.
                _notify(deal)
            return report, True
    except IntegrityError:
        # Another process stored a report for this deal at the same moment.
        if idempotency_key and deal_id is not None:
            stored = _by_key(deal_id, idempotency_key)
            if stored is not None:
                return _replay(stored, DealReport.Kind.REPORT, digest), False
        raise ResultError(
            "already_final",
            "another result for this deal was stored at the same moment",
            status=409,
        )


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
            # The statement written once (matches/kernel/statements.py `locked_report`).
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
                raise _forbidden("you may not confirm this result", "confirm")
            _require_open_round(deal.match.round)
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
            now = _now()
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
            settled = _settle_here(deal, report) if agrees else None
            chain.append_confirmation(confirmation, report)  # with the result when final
            if agrees:
                _notify(deal, settled)
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
    issue 27: the hall shares one; matches/results/lockouts.py); while it is locked every PIN is
    refused unchecked (429). `actor`: who holds the device; only the table's own device takes
    PINs (`may_take_captain_pins`), checked first."""
    if actor is not None and not may_take_captain_pins(actor, match.table):
        raise _forbidden("captains' PINs are given on their table's device only", "confirm")
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


def check_player_pin(match: Match, seat: int, pin: str, actor: Actor):
    """The player on `seat` of the match's table whose own PIN this is (individual events). A
    wrong PIN counts against that player at this table (as a captain's, lockouts.py); only the
    table's own device takes PINs."""
    table = match.table
    if table is None or not may_take_captain_pins(actor, table):
        raise _forbidden("players' PINs are given on their table's device only", "confirm")
    seated = table.seats.filter(seat=seat).select_related("player").first()
    if seated is None:
        raise ResultError("bad_side", "no player sits on that seat")
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
        "pin_locked",
        f"too many wrong PINs: try again in {minutes} min",
        status=429,
        retry_after=wait,
        params={"minutes": minutes},
    )


def correct_result(
    deal: Deal, summary: Any, play_log: Any, actor: Actor, reason: str, idempotency_key: str = ""
) -> DealReport:
    """An organiser replaces the result of a deal (also how a dispute is decided)."""
    reason = (reason or "").strip()
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise _forbidden("only the event's organisers correct results", "correct")
    if not reason:
        raise ResultError("reason_required", "a correction needs a reason")
    idempotency_key = (idempotency_key or "").strip()[:100]
    digest = request_digest(DealReport.Kind.CORRECTION, summary, play_log, reason)
    try:
        return _correct(deal, summary, play_log, actor, reason, idempotency_key, digest)
    except IntegrityError:
        # A retry with the same key stored its correction between this one's look-up and its
        # insert (the unique key on deal and key): answer with it, never a 500.
        earlier = _by_key(deal.pk, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise ResultError(
                "already_final",
                "another result for this deal was stored at the same moment",
                status=409,
            )
        return _replay(earlier, DealReport.Kind.CORRECTION, digest)


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
        deal = _lock_deal(deal.pk)
        if idempotency_key:  # looked up under the deal's lock: a concurrent retry waits here
            earlier = _by_key(deal.pk, idempotency_key)
            if earlier is not None:
                return _replay(earlier, DealReport.Kind.CORRECTION, digest)
        _require_open_round(deal.match.round, allow_closed=True)
        _require_previous_final(deal)
        checked = check_report(deal, None, summary, play_log)
        if not checked.accepted:
            raise _rejection(checked)
        now = _now()
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
        # may wait for another row after it (issue 27).
        chain.append_result(report)
        _notify(deal)
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
        raise _forbidden("only the event's organisers decide results", "decide")
    try:
        with transaction.atomic():
            deal = _lock_deal(report.deal_id)
            report = DealReport.objects.select_for_update(no_key=True, of=("self",)).get(
                pk=report.pk
            )
            report.deal = deal
            _require_open_round(deal.match.round, allow_closed=True)
            if report.state == DealReport.State.FINAL:
                return report  # a double click
            if report.state not in (DealReport.State.PENDING, DealReport.State.DISPUTED):
                raise ResultError(
                    "not_pending", f"this report is {report.state}, not open", status=409
                )
            _require_previous_final(deal)
            now = _now()
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
            settled = _settle_here(deal, report)
            chain.append_confirmation(confirmation, report)  # issue 27: the last write
            _notify(deal, settled)
            return report
    except IntegrityError:
        raise ResultError("already_final", "this deal already has a final result", status=409)


def open_reports(round_: Round, stale_minutes: int = 10) -> list[dict]:
    """The organiser's queue for a round: every pending and disputed report, oldest first, each
    marked stale when it has waited more than `stale_minutes`, with its answers so far."""
    reports = (
        DealReport.objects.open()
        .filter(deal__match__round=round_)
        .select_related("deal__match__table", "submitted_by")
        .prefetch_related("deal__match__sides__union")
        .prefetch_related("confirmations__user", "confirmations__union")
        .order_by("created_at", "id")
    )
    now = _now()
    rows = []
    for report in reports:
        age = (now - report.created_at).total_seconds() / 60
        answers = list(report.confirmations.all())
        rows.append(
            {
                "report": report,
                "table": report.deal.match.table,
                "match": report.deal.match,
                "minutes": int(age),
                "stale": report.state == DealReport.State.PENDING and age > stale_minutes,
                "agreed": [c.union for c in answers if c.agrees and c.union is not None],
                "dispute": next((c for c in answers if not c.agrees), None),
            }
        )
    return rows


def recheck_deal(deal: Deal, actor: Actor) -> DealReport | None:
    """After an earlier deal of the match was corrected, settle this deal's final result again
    with the string-three streak (R40) the corrected results give. An unchanged verdict just
    clears the flag; a changed one becomes a correction (the old row is kept, superseded).
    Returns the new correction, or None when nothing changed."""
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise _forbidden("only the event's organisers recheck results", "recheck")
    with transaction.atomic():
        deal = _lock_deal(deal.pk)
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


# --- what a table page shows --------------------------------------------------------------------


def match_deals(match: Match) -> list[dict]:
    """Each deal of the match (played or to play) with its final and open reports."""
    deals = {deal.number: deal for deal in Deal.objects.filter(match=match)}
    reports = DealReport.objects.filter(deal__match=match).select_related("deal")
    by_number: dict[int, list[DealReport]] = {}
    for report in reports:
        by_number.setdefault(report.deal.number, []).append(report)
    count = max([match.round.event.deals_per_match, *deals.keys()] or [0])
    rows = []
    for number in range(1, count + 1):
        history = by_number.get(number, [])
        final = next((r for r in history if r.state == DealReport.State.FINAL), None)
        open_ = next(
            (
                r
                for r in history
                if r.state in (DealReport.State.PENDING, DealReport.State.DISPUTED)
            ),
            None,
        )
        rows.append(
            {
                "number": number,
                "deal": deals.get(number),
                "final": final,
                "open": open_,
                "history": history,
            }
        )
    return rows
