"""Tamper-evident results: each event's accepted results, confirmations, corrections
and forfeits form a hash chain.

Entry n holds the canonical JSON of what was accepted (`payload`) and
`digest = sha256(prev_digest + payload)`, where entry 1's `prev_digest` is derived from the
event's id. An entry is appended by the service that accepts the result, inside its transaction:
the result and its entry are written together or not at all. The event's public page shows the
head digest; `manage.py verify_results <event>` recomputes the chain from the stored rows and
names the first entry whose row was changed behind the application's back.

Concurrency: appending reads the head and inserts after it; the unique (event, seq) constraint
refuses a second writer that read the same head (on PostgreSQL it waits for the first to
commit), and the append is retried in a savepoint with the new head. Two queries an append,
the head's compiled once and the insert written once (`matches.store.statements`), rather than
compiled by the ORM each time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from matches.models import Confirmation, DealReport, Event, Match, ResultChainEntry
from matches.store.statements import chain_head, insert_rows

Kind = ResultChainEntry.Kind
GENESIS = "gouji-tournament result chain v1"
# Each lost race waited for another writer's commit, so the attempts a writer needs are at most
# the writers ahead of it (the web and Celery processes: tens). After that the result is refused
# (409, as any other write conflict) rather than stored without its entry.
APPEND_ATTEMPTS = 100


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def canonical(value: Any) -> str:
    """One text for one value: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def plain(value: Any) -> Any:
    """A JSON value as the database gives it back (tuples become lists, keys strings)."""
    return None if value is None else json.loads(json.dumps(value, default=str))


def genesis_digest(event_id: int) -> str:
    return sha256(f"{GENESIS}\nevent {event_id}")


def link_digest(prev_digest: str, payload: str) -> str:
    return sha256(prev_digest + payload)


# --- what each entry says -----------------------------------------------------------------------


def report_payload(report: DealReport) -> dict:
    """A final report (a result or a correction): what it says, not its state (which a later
    correction legitimately changes). A play log enters by its digest."""
    return {
        "report": report.pk,
        "deal": report.deal_id,
        "kind": report.kind,
        "summary": plain(report.summary),
        "play_log": None if report.play_log is None else sha256(canonical(plain(report.play_log))),
        "verdict": plain(report.verdict),
        "score_a": report.score_a,
        "score_b": report.score_b,
        "replaces": report.replaces_id,
        "reason": report.reason or "",
    }


def confirmation_payload(confirmation: Confirmation) -> dict:
    return {
        "confirmation": confirmation.pk,
        "report": confirmation.report_id,
        "role": confirmation.role,
        "union": confirmation.union_id,
        "agrees": confirmation.agrees,
        "reason": confirmation.reason or "",
        "by_pin": confirmation.by_pin,
        "user": confirmation.user_id,
        "link": confirmation.referee_link_id,
    }


def forfeit_payload(match: Match) -> dict:
    return {"match": match.pk, "forfeit": match.forfeit or ""}


def stop_payload(match: Match) -> dict:
    return {"match": match.pk, "stopped_after": match.stopped_after}


def bye_payload(match: Match, holder) -> dict:
    """A bye and its result (the event's bye points and score), or a former bye (`bye`: None)
    that a late change made a table."""
    if match.table_id is not None:
        return {"match": match.pk, "bye": None}
    return {"match": match.pk, "bye": holder, "points": match.points_a, "score": match.score_a}


def _bye_holders(matches) -> dict[int, str]:
    from matches.models import MatchSide

    holders: dict[int, str] = {}
    for match_id, union_id, player_id in MatchSide.objects.filter(match__in=matches).values_list(
        "match_id", "union_id", "player_id"
    ):
        holders[match_id] = f"union {union_id}" if union_id else f"player {player_id}"
    return holders


# --- appending ----------------------------------------------------------------------------------


_COLUMNS = ("event_id", "seq", "kind", "object_id", "payload", "prev_digest", "digest", "at")


def _append(event_id: int, items: list[tuple[str, int, dict]]) -> None:
    texts = [(kind, object_id, canonical(payload)) for kind, object_id, payload in items]
    at = ResultChainEntry._meta.get_field("at").get_db_prep_value(
        timezone.now(), connection, prepared=False
    )
    for _attempt in range(APPEND_ATTEMPTS):
        try:
            with transaction.atomic():  # a savepoint: a lost race retries the append alone
                seq, prev = chain_head(event_id) or (0, genesis_digest(event_id))
                rows = []
                for kind, object_id, text in texts:
                    seq += 1
                    digest = link_digest(prev, text)
                    rows.append((event_id, seq, kind, object_id, text, prev, digest, at))
                    prev = digest
                insert_rows(ResultChainEntry, _COLUMNS, rows)
                return
        except IntegrityError:
            continue  # another result took this place in the chain: read the new head
    raise IntegrityError("the result chain stayed busy")  # the caller answers 409


def _event_id_of_report(report: DealReport) -> int:
    return report.deal.match.round.event_id


def _result_item(report: DealReport) -> tuple[str, int, dict]:
    kind = Kind.CORRECTION if report.kind == DealReport.Kind.CORRECTION else Kind.RESULT
    return kind, report.pk, report_payload(report)


def append_result(report: DealReport) -> None:
    """A report that is final as stored (a result accepted at once, or a correction)."""
    _append(_event_id_of_report(report), [_result_item(report)])


def append_confirmation(confirmation: Confirmation | None, report: DealReport) -> None:
    """A confirmation (agreeing or disputing), and the report it made final if it did; one
    append for both."""
    items: list[tuple[str, int, dict]] = []
    if confirmation is not None:
        items.append((Kind.CONFIRMATION, confirmation.pk, confirmation_payload(confirmation)))
    if report.state == DealReport.State.FINAL:
        items.append(_result_item(report))
    if items:
        _append(_event_id_of_report(report), items)


def append_forfeit(match: Match) -> None:
    """A forfeit awarded (or cleared: then `forfeit` is empty)."""
    _append(match.round.event_id, [(Kind.FORFEIT, match.pk, forfeit_payload(match))])


def append_stop(match: Match) -> None:
    """A match stopped by time after `stopped_after` deals."""
    _append(match.round.event_id, [(Kind.STOP, match.pk, stop_payload(match))])


def sync_byes(round_) -> None:
    """Append an entry for each bye of a published round whose state is not the one its latest
    entry says: every bye at publication, and a bye made or undone by a late change."""
    matches = list(Match.objects.filter(round=round_).filter(table__isnull=True))
    latest = {}
    for entry in ResultChainEntry.objects.filter(event_id=round_.event_id, kind=Kind.BYE).order_by(
        "seq"
    ):
        latest[entry.object_id] = entry.payload
    former = [pk for pk in latest if pk not in {m.pk for m in matches}]
    matches += list(Match.objects.filter(round=round_, pk__in=former))
    holders = _bye_holders([m.pk for m in matches if m.table_id is None])
    items: list[tuple[str, int, dict]] = []
    for match in sorted(matches, key=lambda m: m.pk):
        payload = bye_payload(match, holders.get(match.pk))
        if latest.get(match.pk) != canonical(payload) and (
            match.table_id is None or match.pk in latest
        ):
            items.append((Kind.BYE, match.pk, payload))
    if items:
        _append(round_.event_id, items)


def withdraw_byes(round_) -> None:
    """A round taken back to draft: its byes are no longer results (a new draw may delete
    them)."""
    items: list[tuple[str, int, dict]] = [
        (Kind.BYE, pk, {"match": pk, "bye": None})
        for pk in Match.objects.filter(round=round_, table__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    ]
    if items:
        _append(round_.event_id, items)


# --- reading and verifying ----------------------------------------------------------------------


def head(event: Event) -> ResultChainEntry | None:
    return ResultChainEntry.objects.filter(event=event).order_by("-seq").first()


def public_head(event: Event) -> ResultChainEntry | None:
    """The head the public page shows: only while nothing is held from the public (draw and
    results released at once and no silent round, or the event has ended). Otherwise its changes would
    tell the public that a held result arrived."""
    held = (
        event.release_draw != Event.Release.AT_ONCE  # a held draw holds its results too
        or event.release_results != Event.Release.AT_ONCE
        or event.rounds.filter(silent=True).exists()
    )
    if event.concluded_at is None and held:
        return None
    return head(event)


@dataclass
class Verdict:
    ok: bool
    entries: int
    digest: str
    problem: str = ""
    entry: ResultChainEntry | None = None
    unchained: list[int] | None = None  # final reports made after the chain began, not in it


MATCH_KINDS = (Kind.FORFEIT, Kind.STOP, Kind.BYE)


def _current_payload(entry: ResultChainEntry, reports, confirmations, matches, holders):
    if entry.kind in (Kind.RESULT, Kind.CORRECTION):
        report = reports.get(entry.object_id)
        return None if report is None else report_payload(report)
    if entry.kind == Kind.CONFIRMATION:
        confirmation = confirmations.get(entry.object_id)
        return None if confirmation is None else confirmation_payload(confirmation)
    match = matches.get(entry.object_id)
    if match is None:
        # A bye withdrawn with its round's draw may be deleted by the next draw.
        gone = entry.kind == Kind.BYE and json.loads(entry.payload).get("bye") is None
        return json.loads(entry.payload) if gone else None
    if entry.kind == Kind.STOP:
        return stop_payload(match)
    if entry.kind == Kind.BYE:
        return bye_payload(match, holders.get(match.pk))
    return forfeit_payload(match)


def _unchained_decisions(event: Event, entries) -> str:
    """A forfeit, a time stop or a bye of the event's published rounds that no entry records
    (written by SQL: a recompute would have taken it as the match's result)."""
    chained = {(e.kind, e.object_id) for e in entries}
    rows = Match.objects.filter(round__event=event).exclude(round__state="draft")
    for pk, forfeit, stopped, table in rows.values_list(
        "pk", "forfeit", "stopped_after", "table_id"
    ).order_by("pk"):
        if forfeit and (Kind.FORFEIT, pk) not in chained:
            return f"match #{pk} has a forfeit ({forfeit}) that is not in the chain"
        if stopped is not None and (Kind.STOP, pk) not in chained:
            return f"match #{pk} has a time stop (after {stopped} deals) that is not in the chain"
        if table is None and (Kind.BYE, pk) not in chained:
            return f"match #{pk} is a bye that is not in the chain"
    return ""


def _round_of(entry: ResultChainEntry) -> int | None:
    """The round of the row an entry is about (a report's deal's, a confirmation's report's,
    a match's)."""
    if entry.kind in MATCH_KINDS:
        return (
            Match.objects.filter(pk=entry.object_id).values_list("round__number", flat=True).first()
        )
    if entry.kind == Kind.CONFIRMATION:
        return (
            Confirmation.objects.filter(pk=entry.object_id)
            .values_list("report__deal__match__round__number", flat=True)
            .first()
        )
    return (
        DealReport.objects.filter(pk=entry.object_id)
        .values_list("deal__match__round__number", flat=True)
        .first()
    )


def _unchained_results(event: Event, entries, chained: set[int]) -> list[int]:
    """Every final result of the event's deals that is not in the chain, whatever its id (a row
    inserted by SQL with a low or negative id is one). Only a result older than the chain is
    exempt (stored before the chain existed): of a round before the one the event's chain
    began with, and made before its first entry. An event with no entry yet began its chain
    when this server's first entry was written."""
    if entries:
        began, first_round = entries[0].at, _round_of(entries[0])
    else:
        first = ResultChainEntry.objects.order_by("pk").first()
        began, first_round = (first.at if first else None), None
    finals = (
        DealReport.objects.final()
        .filter(deal__match__round__event=event)
        .order_by("pk")
        .values_list("pk", "created_at", "deal__match__round__number")
    )
    return [
        pk
        for pk, made, number in finals
        if pk not in chained
        and not (
            began is not None
            and made < began
            and (first_round is None or (number is not None and number < first_round))
        )
    ]


def verify(event: Event) -> Verdict:
    """Recompute the chain: each entry's link to the one before, its digest, and its payload
    from the row it names as that row is now. A forfeit is checked against its match for the
    match's latest forfeit entry only (clearing a forfeit is itself an entry)."""
    entries = list(ResultChainEntry.objects.filter(event=event).order_by("seq"))
    ids = {kind: {e.object_id for e in entries if e.kind == kind} for kind in Kind.values}
    reports = DealReport.objects.in_bulk(ids[Kind.RESULT] | ids[Kind.CORRECTION])
    confirmations = Confirmation.objects.in_bulk(ids[Kind.CONFIRMATION])
    matches = Match.objects.in_bulk(ids[Kind.FORFEIT] | ids[Kind.STOP] | ids[Kind.BYE])
    holders = _bye_holders(list(ids[Kind.BYE]))
    # A match's forfeit, time stop and bye are checked against its latest entry of each kind
    # (clearing a forfeit or undoing a bye is itself an entry).
    latest_of_match = {(e.kind, e.object_id): e.seq for e in entries if e.kind in MATCH_KINDS}
    # A deal's latest chained result is its result in force: one made superseded (or pending)
    # by SQL, to hide it, is found here.
    latest_result = {
        json.loads(e.payload).get("deal"): e.seq
        for e in entries
        if e.kind in (Kind.RESULT, Kind.CORRECTION)
    }
    prev = genesis_digest(event.pk)
    for number, entry in enumerate(entries, start=1):
        problem = ""
        if entry.seq != number:
            problem = f"entry {number} is missing (the next stored is {entry.seq})"
        elif entry.prev_digest != prev:
            problem = "its link to the entry before was changed"
        elif entry.digest != link_digest(prev, entry.payload):
            problem = "the entry itself was changed (its digest does not match its payload)"
        elif (
            entry.kind not in MATCH_KINDS
            or latest_of_match[(entry.kind, entry.object_id)] == entry.seq
        ):
            current = _current_payload(entry, reports, confirmations, matches, holders)
            if current is None:
                problem = f"its {entry.kind} row #{entry.object_id} was deleted"
            elif canonical(current) != entry.payload:
                changed = sorted(
                    k for k, v in json.loads(entry.payload).items() if current.get(k) != v
                )
                problem = f"its {entry.kind} row #{entry.object_id} was changed: " + ", ".join(
                    changed
                )
            elif (
                entry.kind in (Kind.RESULT, Kind.CORRECTION)
                and latest_result.get(current["deal"]) == entry.seq
                and reports[entry.object_id].state != DealReport.State.FINAL
            ):
                problem = (
                    f"report #{entry.object_id} is the deal's result in force, but is stored "
                    f"as {reports[entry.object_id].state}"
                )
        if problem:
            return Verdict(False, len(entries), prev, problem, entry)
        prev = entry.digest
    unchained = _unchained_results(event, entries, ids[Kind.RESULT] | ids[Kind.CORRECTION])
    if unchained:
        return Verdict(
            False,
            len(entries),
            prev,
            f"final results not in the chain: reports {', '.join(map(str, unchained))}",
            None,
            unchained,
        )
    problem = _unchained_decisions(event, entries) if entries else ""
    if problem:
        return Verdict(False, len(entries), prev, problem)
    return Verdict(True, len(entries), prev)
