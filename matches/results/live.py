"""A feature table's deals, action by action (docs/live-tables.md).

The operator's page and a digital table's API send a deal's hands, then its actions one at a
time, each with its sequence number. The engine checks each one the moment it arrives (through
the event's adapter, `live_play`): an illegal action is refused with its rule id and nothing is
stored; the same action sent again with the same number is answered as the first time; after
the deal's end every action is refused.

When the deal completes, its play log becomes the deal's report through the normal path
(`submit.submit_deal_report`, confirmation as the event says) once the table's delay has passed,
so that no result, score or standings row gives away a deal spectators have not seen yet.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import shared_task
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from matches import push
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import Deal, FeatureTable, LiveAction, LiveDeal, LiveNote, Table
from matches.permissions import Actor, can_enter_results
from matches.results import submit
from matches.results.common import forbidden, require_open_round
from matches.signals import announce_live_deal

SETUP_KEYS = (
    "hands",
    "whole",
    "dealt",
    "returns",
    "picks",
    "plays_only",
    "leader",
    "declarations",
    "revolution",
)
ACTION_KEYS = ("seat", "cards", "pass", "yield", "last")


def feature_of(table: Table | int) -> FeatureTable:
    """The feature table at `table` (a table or its id), with its table, round and event in the
    same query (the API's accept path reads nothing else before the deal)."""
    feature = FeatureTable.objects.select_related("table__round__event", "operator_link").filter(
        table=table
    )
    found = feature.first()
    if found is None:
        raise ResultError("not_featured", "this table is not a feature table", status=404)
    return found


def _require_operator(actor: Actor, feature: FeatureTable) -> None:
    """The operator's link, the table's referees and the event's organisers record plays."""
    if not can_enter_results(actor, feature.table):
        raise forbidden("you do not operate this table", "enter")


def _play(feature: FeatureTable, setup: dict, actions: list[dict], legal: bool = False) -> dict:
    event = feature.table.round.event
    play = adapter_for(event).live_play(event, setup, actions, legal=legal)
    if play is None:
        raise ResultError("no_live_play", "this game has no live play", status=409)
    return play


def _refusal(error: dict, seq: int | None = None) -> ResultError:
    if error["code"] == "bad_document":
        return ResultError("bad_document", error["message"])
    params = {**error.get("params", {}), **({"seq": seq} if seq is not None else {})}
    return ResultError(
        error["code"], error["message"], status=422, rule=error.get("rule"), params=params
    )


def _locked_deal(feature: FeatureTable, number: int) -> LiveDeal | None:
    return LiveDeal.objects.select_for_update().filter(feature=feature, number=number).first()


def read_setup(body: Any) -> dict:
    if not isinstance(body, dict):
        raise ResultError("malformed", "the hands must be a JSON object")
    unknown = set(body) - set(SETUP_KEYS)
    if unknown:
        raise ResultError("malformed", f"unknown field(s): {', '.join(sorted(unknown))}")
    given = [key for key in ("hands", "dealt", "plays_only") if body.get(key)]
    if len(given) != 1 or "leader" not in body:
        raise ResultError(
            "malformed",
            "give the leader and one of: the hands, the hands as dealt (with the returns of "
            "the tributes), or plays_only",
        )
    if ("returns" in body or "picks" in body) and "dealt" not in body:
        raise ResultError("malformed", "returns and picks go with the hands as dealt")
    if "plays_only" in body and body["plays_only"] is not True:
        raise ResultError("malformed", "plays_only is true or absent")
    return {key: body[key] for key in SETUP_KEYS if key in body}


def tributes_owed(feature: FeatureTable, number: int) -> list[dict] | None:
    """The ledger deal `number` starts with: none for the first deal; the deal before's, from
    its final result at the table or, while that is not submitted (the delay), from the deal
    recorded here (with the match's R40 streak); None while it is unknown."""
    if number <= 1:
        return []
    table = feature.table
    event = table.round.event
    adapter = adapter_for(event)
    owed = Deal.objects.filter(match=table.match, number=number).first()
    if owed is not None and owed.tributes_owed is not None:  # the deal before is final
        return adapter.tributes_owed(owed)
    live_before = LiveDeal.objects.filter(
        feature=feature, number=number - 1, completed_at__isnull=False
    ).first()
    if live_before is None:
        return None
    summary, play_log = _report_documents(feature, live_before)
    try:
        checked = adapter.check_report(
            table.match, number - 1, summary, play_log, _outcomes_before(feature, number - 1)
        )
    except ResultError:
        return None
    return list(checked.verdict.report_json().get("tributes") or [])


def _outcomes_before(feature: FeatureTable, number: int) -> dict[int, dict]:
    """The finishing orders of the deals before `number` completed here, final or not: a deal
    behind the table's delay has no final result yet, and the next deal's tributes still
    depend on it (R40's streak: the third string of three in a row owes none)."""
    outcomes = {}
    for deal in LiveDeal.objects.filter(
        feature=feature, number__lt=number, completed_at__isnull=False
    ):
        finish = (deal.summary or {}).get("finish") or standing(feature, deal).get("finish")
        outcomes[deal.number] = {"finish": list(finish or [])}
    return outcomes


def _report_documents(feature: FeatureTable, deal: LiveDeal) -> tuple[dict | None, dict | None]:
    """(summary, play log) of a completed deal's report: the play log, or for plays without
    hands the summary they ended with."""
    if deal.summary is not None:
        return deal.summary, None
    return None, standing(feature, deal)["record"]


def set_hands(feature: FeatureTable, number: int, body: Any, actor: Actor) -> tuple[LiveDeal, bool]:
    """The deal's hands at the start of play. The same hands again answer the deal as it is;
    other hands replace them only while no action was recorded."""
    _require_operator(actor, feature)
    setup = read_setup(body)
    if not 1 <= number <= 999:
        raise ResultError(
            "no_such_deal", f"deal {number} does not exist", status=404, params={"n": number}
        )
    with transaction.atomic():
        require_open_round(feature.table.round)
        deal = _locked_deal(feature, number)
        if "dealt" in setup:  # the tributes are the deal before's, never the sender's
            owed = tributes_owed(feature, number)
            if owed is None:
                raise ResultError(
                    "tributes_unknown",
                    "the deal before is not complete here: give the hands after the tributes",
                    status=409,
                )
            setup["tributes"] = owed
            setup.setdefault("returns", [])
        if deal is not None and deal.setup == setup:
            return deal, False
        if deal is not None and deal.actions.exists():
            raise ResultError(
                "deal_started", "actions were recorded: the hands can no longer change", status=409
            )
        play = _play(feature, setup, [])
        if play["error"] is not None:
            raise _refusal(play["error"])
        if deal is None:
            deal = LiveDeal.objects.create(
                feature=feature, number=number, setup=setup, started_at=timezone.now()
            )
        else:
            deal.setup, deal.started_at = setup, timezone.now()
            deal.save(update_fields=["setup", "started_at"])
        _announce(feature, deal)
        return deal, True


def read_action(body: Any) -> tuple[int, dict]:
    if not isinstance(body, dict):
        raise ResultError("malformed", "the action must be a JSON object")
    unknown = set(body) - {"seq", *ACTION_KEYS}
    if unknown:
        raise ResultError("malformed", f"unknown field(s): {', '.join(sorted(unknown))}")
    seq = body.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ResultError("malformed", "seq must be the action's number: 1, 2, 3 …")
    return seq, {key: body[key] for key in ACTION_KEYS if key in body}


def add_action(
    feature: FeatureTable, number: int, body: Any, actor: Actor
) -> tuple[LiveAction, bool, dict]:
    """Record action `seq` of deal `number`. Returns (row, created, where the deal stands)."""
    _require_operator(actor, feature)
    seq, action = read_action(body)
    with transaction.atomic():
        deal = _locked_deal(feature, number)
        if deal is None:
            raise ResultError(
                "no_hands", f"send deal {number}'s hands first", status=409, params={"n": number}
            )
        rows = list(deal.actions.all())
        actions = [row.action for row in rows]
        if seq <= len(rows):
            if rows[seq - 1].action == action:  # a retry: answered as the first time
                return rows[seq - 1], False, _play(feature, deal.setup, actions[:seq])
            raise ResultError(
                "seq_taken",
                f"action {seq} was already recorded as another action",
                status=409,
                params={"seq": seq},
            )
        if deal.completed_at is not None:
            raise ResultError(
                "deal_over", "the deal is over: no more actions", status=409, rule="R30"
            )
        if seq != len(rows) + 1:
            raise ResultError(
                "out_of_order",
                f"action {seq} arrived before action {len(rows) + 1}",
                status=409,
                params={"seq": seq, "expected": len(rows) + 1},
            )
        require_open_round(feature.table.round)
        if "last" in action and (action["last"] is not True or not deal.setup.get("plays_only")):
            raise ResultError("malformed", "last: true marks a seat's last hand in plays only")
        play = _play(feature, deal.setup, [*actions, action])
        if play["error"] is not None:
            raise _refusal(play["error"], seq)
        now = timezone.now()
        row = LiveAction.objects.create(deal=deal, seq=seq, action=action, at=now)
        if play["complete"]:
            deal.completed_at = now
            if deal.setup.get("plays_only"):
                deal.summary = _summary_of(deal, play)
            deal.save(update_fields=["completed_at", "summary"])
        _announce(feature, deal, row)
    if deal.completed_at is not None:
        submit_when_due(deal, feature)
    elif seq == 1:
        submit_due_reports(feature)  # the deal before, if its task did not run
    return row, True, play


def undo_last(feature: FeatureTable, number: int, actor: Actor) -> LiveAction | None:
    """Take back the deal's last action (the operator's wrong tap), while its report is not
    submitted. Returns the action taken back, or None when there was none."""
    _require_operator(actor, feature)
    with transaction.atomic():
        deal = _locked_deal(feature, number)
        if deal is None:
            return None
        if deal.report_id is not None:
            raise ResultError(
                "already_reported",
                "the deal's report was submitted: correct it instead",
                status=409,
            )
        last = deal.actions.order_by("-seq").first()
        if last is None and deal.summary is not None:  # a summary entered before any play
            deal.completed_at, deal.summary = None, None
            deal.save(update_fields=["completed_at", "summary"])
            _announce(feature, deal)
            return None
        if last is None:
            return None
        if deal.summary is not None and not standing(feature, deal)["complete"]:
            # the finishing order entered by hand is taken back first
            deal.completed_at, deal.summary = None, None
            deal.save(update_fields=["completed_at", "summary"])
            _announce(feature, deal)
            return None
        last.delete()
        if deal.completed_at is not None:
            deal.completed_at, deal.summary = None, None
            deal.save(update_fields=["completed_at", "summary"])
        _announce(feature, deal)
        return last


def _summary_of(deal: LiveDeal, play: dict, finish: list | None = None) -> dict:
    """The outcome summary (gouji-outcome/1) of plays without hands: the finishing order (the
    engine's, or the operator's), the points and the decided burns the engine saw."""
    setup = deal.setup
    return {
        "format": "gouji-outcome/1",
        "finish": list(finish if finish is not None else play["finish"]),
        "points": list(play["points"]),
        "declarations": dict(setup.get("declarations") or {}),
        "burns": [burn for burn in play["burns"] if burn["outcome"]],
        "suffocated": [],
        "revolution": list(setup.get("revolution") or []),
    }


def end_deal(feature: FeatureTable, number: int, finish: Any, actor: Actor) -> LiveDeal:
    """Plays without hands: the operator ends the deal with its finishing order; the points and
    burns are those the engine saw in the plays. The summary is checked by the engine (R29,
    R30, D11 …) and becomes the deal's report after the delay, like a play log."""
    _require_operator(actor, feature)
    if not isinstance(finish, list) or not all(type(seat) is int for seat in finish):
        raise ResultError("malformed", "the finishing order is a list of seats")
    with transaction.atomic():
        deal = _locked_deal(feature, number)
        if deal is None:
            raise ResultError(
                "no_hands", f"start deal {number} first", status=409, params={"n": number}
            )
        if not deal.setup.get("plays_only"):
            raise ResultError(
                "has_hands", "a deal with its hands ends when the engine says so", status=409
            )
        if deal.completed_at is not None:
            raise ResultError(
                "deal_over", "the deal is over: no more actions", status=409, rule="R30"
            )
        require_open_round(feature.table.round)
        play = standing(feature, deal)
        summary = _summary_of(deal, play, finish)
        gone = play["finish"]
        if list(finish[: len(gone)]) != list(gone):
            raise ResultError(
                "finish_contradicts",
                "the finishing order must begin with the seats the plays put out",
                status=422,
                rule="R30",
                params={"finish": ", ".join(map(str, gone))},
            )
        event = feature.table.round.event
        checked = adapter_for(event).check_report(feature.table.match, number, summary, None)
        if checked.errors:
            first = checked.errors[0]
            raise ResultError(
                first.get("code") or "invalid",
                first.get("message") or "the summary is refused",
                status=422,
                rule=first.get("rule"),
                params=dict(first.get("params") or {}),
            )
        deal.completed_at, deal.summary = timezone.now(), summary
        deal.save(update_fields=["completed_at", "summary"])
        _announce(feature, deal)
    submit_when_due(deal, feature)
    return deal


def add_note(feature: FeatureTable, text: Any, actor: Actor) -> LiveNote:
    """A commentary line for spectators (behind the delay, like the plays)."""
    _require_operator(actor, feature)
    line = " ".join(str(text or "").split())
    if not line or len(line) > LiveNote.MAX_LENGTH:
        raise ResultError(
            "bad_note",
            f"a commentary line is 1 to {LiveNote.MAX_LENGTH} characters",
            params={"most": LiveNote.MAX_LENGTH},
        )
    with transaction.atomic():
        note = LiveNote.objects.create(feature=feature, text=line, at=timezone.now())
        at = note.at + feature.delay
        channel = push.feature(feature.pk)
        transaction.on_commit(lambda: push.send(channel, "feature", at=at.timestamp()))
    return note


def standing(feature: FeatureTable, deal: LiveDeal, legal: bool = False) -> dict:
    """Where `deal` stands now, for its staff (every action, no delay)."""
    actions = [row.action for row in deal.actions.all()]
    return _play(feature, deal.setup, actions, legal=legal)


def board(feature: FeatureTable, deal: LiveDeal) -> tuple[dict, str, list[LiveAction]]:
    """The operator's board: where the deal stands (its legal plays too), its version and its
    action rows, all from one read of the rows. An action recorded meanwhile (the API, another
    phone) is in all three or in none: read apart, a board could list an action its form's
    `seq` has not counted, and show a version that skips the notice that would mend it, so the
    operator's next tap is refused as already recorded."""
    rows = list(deal.actions.all())
    play = _play(feature, deal.setup, [row.action for row in rows], legal=True)
    newest = max((row.pk for row in rows), default=0)
    return play, _version(deal, len(rows), newest), rows


def board_version(deal: LiveDeal) -> str:
    """What the operator's board shows changes only with these: its actions (how many and the
    newest: an undo then another play is not the board before the undo), its end, its report."""
    rows = deal.actions.aggregate(count=Count("pk"), newest=Max("pk"))
    return _version(deal, rows["count"], rows["newest"] or 0)


def _version(deal: LiveDeal, count: int, newest: int) -> str:
    ended = int(deal.completed_at is not None)
    return f"{count}.{newest}.{ended}.{deal.report_id or 0}"


def _announce(feature: FeatureTable, deal: LiveDeal, row: LiveAction | None = None) -> None:
    """On commit: the staff's pages at once; the spectators' streams hold the notice until the
    delay has passed (matches/views/live.py)."""
    at = (row.at if row is not None else timezone.now()) + feature.delay
    table_id, event_id = feature.table_id, feature.table.round.event_id
    version = board_version(deal)  # the operator's page that posted it has this board already

    def send() -> None:
        push.send(push.staff_table_live(table_id), "live", v=version)
        push.send(push.feature(feature.pk), "feature", at=at.timestamp())
        push.send(push.feature_list(event_id), "feature", at=at.timestamp())

    transaction.on_commit(send)


# --- the deal's report, once its delay has passed ------------------------------------------


def due_at(deal: LiveDeal, feature: FeatureTable) -> datetime | None:
    if deal.completed_at is None:
        return None
    return deal.completed_at + feature.delay


def submit_when_due(deal: LiveDeal, feature: FeatureTable) -> None:
    """Submit the report now when the delay has passed; otherwise ask for it to be submitted
    then (`live_deal_completed`: a task after the delay)."""
    due = due_at(deal, feature)
    if due is None:
        return
    now = timezone.now()
    if due <= now:
        submit_report(deal.pk)
    else:
        announce_live_deal(deal.pk, (due - now).total_seconds())


def submit_report(deal_id: int) -> LiveDeal | None:
    """The completed deal's play log as its report, if its delay has passed and it has none."""
    deal = (
        LiveDeal.objects.select_related(
            "feature__table__round__event", "feature__table__match", "feature__operator_link"
        )
        .filter(pk=deal_id)
        .first()
    )
    if deal is None or deal.report_id is not None:
        return deal
    feature = deal.feature
    due = due_at(deal, feature)
    if due is None or due > timezone.now():
        return deal
    link = feature.operator_link
    if link is None or not link.is_active:
        deal.report_error = "the operator's link was revoked"
        deal.save(update_fields=["report_error"])
        return deal
    summary, play_log = _report_documents(feature, deal)
    try:
        report, _created = submit.submit_deal_report(
            feature.table.match,
            deal.number,
            summary,
            play_log,
            Actor.from_link(link),
            f"live-{deal.pk}",
        )
    except ResultError as exc:
        deal.report_error = f"{exc.code}: {exc.message}"[:300]
        deal.save(update_fields=["report_error"])
        return deal
    deal.report, deal.report_error = report, ""
    deal.save(update_fields=["report", "report_error"])
    return deal


@shared_task(acks_late=True)
def submit_report_task(deal_id: int) -> None:
    """`submit_report` after the delay (queued with a countdown by `matches/receivers.py`).
    It lives beside the service because `matches/tasks.py` sits in the results' own layer and
    may not import it; it takes an id and may run twice (a report is submitted once)."""
    submit_report(deal_id)


def submit_due_reports(feature: FeatureTable | None = None) -> int:
    """Every completed deal whose delay has passed and whose report is not submitted (a sweep:
    the management command; a feature table's own after each of its actions). Returns how many
    were submitted."""
    now = timezone.now()
    waiting = LiveDeal.objects.filter(
        completed_at__isnull=False, report__isnull=True, report_error=""
    ).select_related("feature")
    if feature is not None:
        waiting = waiting.filter(feature=feature)
    count = 0
    for deal in waiting:
        due = due_at(deal, deal.feature)
        if due is not None and due <= now:
            done = submit_report(deal.pk)
            count += bool(done and done.report_id)
    return count
