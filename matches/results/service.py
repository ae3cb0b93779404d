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

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from matches.models import (
    Confirmation,
    Deal,
    DealReport,
    Event,
    Match,
    PlayerAccount,
    RefereeLink,
    Round,
    Stage,
    Table,
)
from matches.permissions import can_manage_event
from matches.games.errors import BadDocument
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import OUTCOME_FORMAT, union_of
from matches.games.engines import get_game
from matches.signals import deal_result_changed

DEAL_FORMAT = "gouji-deal/1"
#: Outcome fields a summary and a replay can both say; a summary's are checked against the replay.
CLAIMABLE = ("finish", "points", "burns", "suffocated")


class ResultError(Exception):
    """A refused request, with a stable code, an HTTP status and the rule id where one applies.

    `errors` lists every inconsistency the engine found; `verdict` is the engine's verdict.
    """

    def __init__(self, code: str, message: str, *, status: int = 400, rule: str | None = None,
                 errors: list | None = None, verdict: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.errors = errors or []
        self.verdict = verdict

    def as_dict(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.rule:
            error["rule"] = self.rule
        if self.errors:
            error["errors"] = self.errors
        if self.verdict is not None:
            error["verdict"] = self.verdict
        return error


def _forbidden(message: str) -> ResultError:
    return ResultError("permission_denied", message, status=403)


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
    link = RefereeLink.objects.select_related("table__round__event").filter(token=token).first()
    if link is None or link.revoked_at is not None:
        return None
    return link


def is_table_referee(actor: Actor, table: Table) -> bool:
    """A referee acts on their own tables only: the link's table, or tables they are assigned."""
    if actor.link is not None:
        return actor.link.revoked_at is None and actor.link.table_id == table.pk
    if not actor.is_authenticated:
        return False
    return table.referees.filter(pk=actor.user.pk).exists()


def can_enter_results(actor: Actor, table: Table) -> bool:
    if is_table_referee(actor, table):
        return True
    return actor.is_authenticated and can_manage_event(actor.user, table.round.event)


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
    for union in (match.union_a, match.union_b):
        if union is not None and union.members.filter(player=player, is_captain=True).exists():
            return union
    return None


def union_of_actor(actor: Actor, match: Match):
    """The union of the match the actor plays in (a captain acting as table referee), or None."""
    player = player_of(actor)
    if player is None:
        return None
    for union in (match.union_a, match.union_b):
        if union is not None and union.members.filter(player=player).exists():
            return union
    return None


def tables_of(actor: Actor):
    """The tables this actor referees, newest round first."""
    if actor.link is not None:
        return Table.objects.filter(pk=actor.link.table_id)
    if not actor.is_authenticated:
        return Table.objects.none()
    return Table.objects.filter(referees=actor.user).order_by("-round__id", "number")


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
                Q(union_a__members__player=player, union_a__members__is_captain=True)
                | Q(union_b__members__player=player, union_b__members__is_captain=True)
            )
        candidates = candidates.filter(
            Q(deal__match__in=captain_matches) | Q(deal__match__table__referees=actor.user)
        ).distinct()
    else:
        return []
    return [report for report in candidates if confirmation_role(actor, report) is not None]


def _confirming_union_id(report: DealReport, submitter: Actor) -> int | None:
    """Whose captain confirms: the union other than the reporter's when a player of the match
    reported (a captain refereeing their own table); otherwise the union the report makes lose
    the deal, who has every reason to check it. None: either captain (a drawn deal)."""
    match = report.deal.match
    reporter_union = union_of_actor(submitter, match) if report.submitted_by else None
    if reporter_union is not None:
        return match.union_b_id if reporter_union.pk == match.union_a_id else match.union_a_id
    if report.score_a is None or report.score_a == 0:
        return None
    return match.union_a_id if report.score_a < 0 else match.union_b_id


def confirmation_role(actor: Actor, report: DealReport) -> str | None:
    """The role in which this actor may confirm this report, or None when they may not."""
    match = report.deal.match
    event = match.round.event
    mode = event.result_confirmation
    submitter = Actor(user=report.submitted_by, link=report.referee_link)
    if mode == Event.Confirmation.CAPTAIN:
        union = captain_union(actor, match)
        if union is None:
            return None
        expected = _confirming_union_id(report, submitter)
        return Confirmation.Role.CAPTAIN if expected in (None, union.pk) else None
    if mode == Event.Confirmation.REFEREE:
        if actor.identity == submitter.identity:
            return None
        table = match.table
        if table is not None and is_table_referee(actor, table):
            return Confirmation.Role.REFEREE
        if actor.is_authenticated and can_manage_event(actor.user, event):
            return Confirmation.Role.REFEREE
    return None


# --- deals --------------------------------------------------------------------------------------

def deal_limit(match: Match) -> int:
    return match.round.event.deals_per_match


def deal_for(match: Match, number: int) -> Deal:
    """The deal `number` of a match, created on first use.

    Deals 1..deals_per_match are always allowed; extra deals only break a tied knockout match
    (up to the event's tie_break_deals when set).
    """
    event = match.round.event
    if number < 1:
        raise ResultError("no_such_deal", f"deal {number} does not exist", status=404)
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is not None:
        return existing
    if number > event.deals_per_match:
        if not _extra_deal_allowed(match, number):
            raise ResultError(
                "no_such_deal",
                f"a match has {event.deals_per_match} deals; deal {number} is not played",
                status=404,
            )
        is_extra = True
    else:
        is_extra = False
    gone = ResultError("table_gone", "this table no longer exists: the round was re-drawn; "
                       "reload the round's tables", status=409)
    try:
        with transaction.atomic():
            # The match may have been deleted since the caller found it: lock it (waiting for a
            # delete in progress) so no deal is created under a deleted match.
            state = (Match.objects.select_for_update(no_key=True, of=("self",)).filter(pk=match.pk)
                     .order_by().values_list("round__state", flat=True).first())
            if state is None:
                raise gone
            if state == Round.State.DRAFT:
                # No deal rows in a draft round: a re-draw deletes its matches, and a deal
                # created meanwhile would block that. (Reporting refuses draft rounds anyway.)
                raise ResultError("round_not_published", "this round is not published yet",
                                  status=409)
            return Deal.objects.create(match=match, number=number, is_extra=is_extra)
    except IntegrityError:
        pass  # another request created this deal at the same moment
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is None:
        raise gone
    return existing


def deal_allowed(match: Match, number: int) -> bool:
    """Whether deal `number` is (or may be) played, without creating it."""
    if number < 1:
        return False
    if number <= match.round.event.deals_per_match:
        return True
    return Deal.objects.filter(match=match, number=number).exists() or _extra_deal_allowed(
        match, number)


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


def _strung_by(finish) -> str | None:
    """The union ("A"/"B") that took 1st, 2nd and 3rd, or None. An unreadable finish gives None
    here; the engine reports it when it settles the summary."""
    if not isinstance(finish, list) or len(finish) < 3:
        return None
    top = finish[:3]
    if not all(type(seat) is int and 1 <= seat <= 6 for seat in top):
        return None
    unions = {union_of(seat) for seat in top}
    return unions.pop() if len(unions) == 1 else None


def string_three_streak(match: Match, number: int, finish) -> int:
    """R40: how many final deals in a row just before deal `number` were strung three by the
    union that strings three in this deal (whose finishing order is `finish`); 0 when this deal
    strings no three. The standings' tally counts it the same way (`standings.streak_before`):
    A, A, then B is no amnesty for B."""
    union = _strung_by(finish)
    if union is None:
        return 0
    finals = {
        report.deal.number: report
        for report in DealReport.objects.final().filter(deal__match=match, deal__number__lt=number)
        .select_related("deal")
    }
    streak, previous = 0, number - 1
    while previous in finals and _strung_by((finals[previous].summary or {}).get("finish")) == union:
        streak += 1
        previous -= 1
    return streak


# --- checking a report with the engine --------------------------------------------------------

@dataclass
class Checked:
    summary: dict
    play_log: dict | None
    verdict: dict
    errors: list = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.errors


def check_report(deal_or_match, number: int | None, summary: Any, play_log: Any) -> Checked:
    """Run the engine on a report for a deal; nothing is stored. Raises ResultError (400) when a
    document cannot be read. The returned `errors` are every reason not to accept it."""
    if isinstance(deal_or_match, Deal):
        match, number = deal_or_match.match, deal_or_match.number
    else:
        match = deal_or_match
    event = match.round.event
    if event.game == Event.Game.GIOG:
        from matches.games.giog.results import check_hand

        return check_hand(match, number, summary, play_log)
    if event.game != Event.Game.GOUJI:
        raise ResultError("unsupported_game", f"results of {event.game} are not recorded here")
    if summary is None and play_log is None:
        raise ResultError("bad_document", "send a summary (gouji-outcome/1), a play log "
                                          "(gouji-deal/1) or both")
    for name, doc in (("summary", summary), ("play_log", play_log)):
        if doc is not None and not isinstance(doc, dict):
            raise ResultError("bad_document", f"the {name} must be a JSON object")
    rules = event.rules
    game = get_game("gouji")
    replay_verdict = None
    errors: list[dict] = []
    if play_log is not None:
        record = copy.deepcopy(play_log)
        record["rules"] = rules
        if summary is not None:
            claimed = dict(record.get("claimed") or {})
            claimed.update({key: summary[key] for key in CLAIMABLE if key in summary})
            record["claimed"] = claimed
        try:
            replay_verdict = game.replay(record)
        except BadDocument as exc:
            raise ResultError("bad_document", f"play log: {exc.message}")
        if not replay_verdict["valid"]:
            error = replay_verdict.get("error") or {}
            errors.append({"rule": error.get("rule"), "code": error.get("code", "illegal_play"),
                           "message": f"play log, action {error.get('action')}: "
                                      f"{error.get('message', '')}"})
        elif not replay_verdict["complete"]:
            errors.append({"rule": "R30", "code": "play_log_incomplete",
                           "message": "the play log stops before the deal is over"})
        for mismatch in replay_verdict.get("mismatches") or []:
            errors.append({
                "rule": None, "code": "play_log_mismatch",
                "message": f"{mismatch['field']}: the report says {mismatch['claimed']}, "
                           f"the play log gives {mismatch['replayed']}",
            })
        if summary is not None:
            errors.extend(_setup_mismatches(summary, play_log))
        else:
            summary = _summary_from_replay(play_log, replay_verdict)
    summary = dict(summary)
    summary.setdefault("format", OUTCOME_FORMAT)
    summary["rules"] = rules
    summary["string_three_streak"] = string_three_streak(match, number, summary.get("finish"))
    try:
        verdict = game.check_summary(summary)
    except BadDocument as exc:
        raise ResultError("bad_document", f"summary: {exc.message}")
    if replay_verdict is not None:
        verdict = _with_replay(verdict, replay_verdict, summary, rules, errors)
    else:
        errors.extend(verdict["errors"])
    return Checked(summary=summary, play_log=play_log, verdict=verdict, errors=errors)


def _setup_mismatches(summary: dict, play_log: dict) -> list[dict]:
    """Declarations and revolution are set up before play: the summary must say what the play
    log says (the replay's `claimed` check covers only what play produces)."""
    errors = []
    for name in ("declarations", "revolution"):
        said, logged = summary.get(name), play_log.get(name)
        if said is None:
            continue
        if name == "declarations" and isinstance(said, dict) and isinstance(logged or {}, dict):
            same = {str(k): v for k, v in said.items()} == {
                str(k): v for k, v in (logged or {}).items()}
        else:
            same = isinstance(said, list) and sorted(map(str, said)) == sorted(
                map(str, logged or []))
        if not same:
            errors.append({
                "rule": "R34" if name == "declarations" else "R29", "code": "play_log_mismatch",
                "message": f"{name}: the report says {said}, the play log says {logged or '—'}",
            })
    return errors


def _summary_from_replay(play_log: dict, replay_verdict: dict) -> dict:
    return {
        "format": OUTCOME_FORMAT,
        "finish": replay_verdict.get("finish") or [],
        "points": replay_verdict.get("points") or [],
        "declarations": play_log.get("declarations") or {},
        "burns": [b for b in replay_verdict.get("burns") or [] if b.get("outcome")],
        "suffocated": replay_verdict.get("suffocated") or [],
        "revolution": play_log.get("revolution") or [],
    }


def _with_replay(verdict: dict, replay_verdict: dict, summary: dict, rules, errors: list) -> dict:
    """A played deal is judged by its replay. Settling the summary adds the streak (R40, which a
    single record cannot know); where the two differ the replay wins, since it also knows which
    points were opened after a head rival finished (D12), which no summary can say."""
    combined = dict(verdict)
    combined["replay"] = replay_verdict
    if errors:
        return combined
    if not verdict["valid"] or verdict["union_scores"] != replay_verdict["union_scores"]:
        combined["valid"] = True
        combined["errors"] = []
        combined["union_scores"] = replay_verdict["union_scores"]
        tributes = replay_verdict["tributes"]
        finish = summary.get("finish") or []
        strung = len({union_of(seat) for seat in finish[:3]}) == 1
        amnesty = RuleSet.from_json(rules).string_three_amnesty
        if strung and summary["string_three_streak"] >= 2 and amnesty:
            tributes = []  # R40
        combined["tributes"] = tributes
        combined["settled_from"] = "replay"
    return combined


def _rejection(checked: Checked) -> ResultError:
    first = checked.errors[0]
    count = len(checked.errors)
    message = first["message"] if count == 1 else f"{first['message']} (and {count - 1} more)"
    return ResultError("inconsistent_result", message, status=422, rule=first.get("rule"),
                       errors=checked.errors, verdict=checked.verdict)


# --- locking and staleness ----------------------------------------------------------------------

def _lock_deal(deal_id: int) -> Deal:
    """Lock the deal row for the rest of the transaction and load what the checks need; refuse
    a deal that no longer exists (its match went with a re-draw)."""
    # One query: `of=("self",)` locks the deal row only, so the joined rows (the table is on
    # the nullable side of an outer join, which FOR UPDATE alone refuses) are only read.
    deal = (Deal.objects.select_for_update(no_key=True, of=("self",))
            .select_related("match__round__event", "match__round__stage", "match__table",
                            "match__union_a", "match__union_b")
            .filter(pk=deal_id).order_by("pk").first())
    if deal is None:
        raise ResultError("deal_gone", "this deal no longer exists (the round was re-drawn?)",
                          status=409)
    return deal


def _require_open_round(round_: Round, allow_closed: bool = False) -> None:
    if round_.state == Round.State.PUBLISHED:
        return
    if round_.state == Round.State.CLOSED and allow_closed:
        return
    if round_.state == Round.State.DRAFT:
        raise ResultError("round_not_published", "this round is not published yet", status=409)
    raise ResultError("round_closed", "this round is closed: only an organiser can correct it",
                      status=409)


def _require_previous_final(deal: Deal) -> None:
    """R35: the tributes of a deal are paid from the previous deal's result, so the previous deal
    must be final before this one is reported. Giog hands owe nothing to each other."""
    if deal.number == 1 or deal.match.round.event.is_giog:
        return
    if not DealReport.objects.final().filter(deal__match_id=deal.match_id,
                                             deal__number=deal.number - 1).exists():
        raise ResultError(
            "previous_deal_open",
            f"deal {deal.number - 1} has no final result yet; its tributes open deal {deal.number}",
            status=409, rule="R35",
        )


def _by_key(deal_id: int, idempotency_key: str) -> DealReport | None:
    return DealReport.objects.filter(deal_id=deal_id, idempotency_key=idempotency_key).first()


def _notify(deal: Deal) -> None:
    """Tell the computation side on commit; the ids spare its receiver a query per result."""
    ids = {"deal_id": deal.pk, "match_id": deal.match_id, "event_id": deal.match.round.event_id}
    transaction.on_commit(lambda: deal_result_changed.send(sender=DealReport, **ids))


def _now():
    return timezone.now()


def _scores(verdict: dict) -> tuple[int | None, int | None]:
    scores = verdict.get("union_scores") or {}
    return scores.get("A"), scores.get("B")


# --- the three operations -----------------------------------------------------------------------

def submit_report(deal: Deal, summary: Any, play_log: Any, actor: Actor,
                  idempotency_key: str = "") -> tuple[DealReport, bool]:
    """Store a referee's report of a deal. Returns (report, created).

    The same idempotency key for the same deal returns the first report (created False).
    Raises ResultError: 400 unreadable, 403 not this actor's table, 409 stale or already final,
    422 inconsistent with the rules (nothing stored).
    """
    idempotency_key = (idempotency_key or "").strip()[:100]
    try:
        with transaction.atomic():
            deal = _lock_deal(deal.pk)
            match = deal.match
            if match.table is None:
                raise ResultError("table_gone", "this match has no table", status=409)
            # Permission first: a retry's key must not reveal another table's report.
            if not can_enter_results(actor, match.table):
                raise _forbidden("you do not referee this table")
            # One query for every check on the deal's earlier reports (usually there are none).
            reports = DealReport.objects.filter(deal=deal)
            earlier = list(reports.values_list("pk", "state", "idempotency_key"))
            if idempotency_key:  # a retry gets its report back, even once the round closed
                for pk, _state, key in earlier:
                    if key == idempotency_key:
                        return reports.get(pk=pk), False
            _require_open_round(match.round)
            states = {state for _pk, state, _key in earlier}
            if DealReport.State.FINAL in states:
                raise ResultError("already_final", f"deal {deal.number} already has a final "
                                  "result; an organiser can correct it", status=409)
            if DealReport.State.DISPUTED in states:
                raise ResultError("deal_disputed", f"deal {deal.number} is disputed: the "
                                  "organiser decides it", status=409)
            _require_previous_final(deal)
            checked = check_report(deal, None, summary, play_log)
            if not checked.accepted:
                raise _rejection(checked)
            event = match.round.event
            final_now = event.result_confirmation == Event.Confirmation.NONE
            now = _now()
            # A new report replaces one still waiting for confirmation (the referee fixed it).
            if DealReport.State.PENDING in states:
                reports.filter(state=DealReport.State.PENDING).update(
                    state=DealReport.State.SUPERSEDED, state_changed_at=now
                )
            score_a, score_b = _scores(checked.verdict)
            report = DealReport.objects.create(
                deal=deal, kind=DealReport.Kind.REPORT,
                state=DealReport.State.FINAL if final_now else DealReport.State.PENDING,
                summary=checked.summary, play_log=checked.play_log, verdict=checked.verdict,
                score_a=score_a, score_b=score_b,
                submitted_by=actor.user if actor.is_authenticated else None, via=actor.via,
                referee_link=actor.link, idempotency_key=idempotency_key, created_at=now,
                state_changed_at=now,
            )
            event.freeze_rules()
            if final_now:
                _notify(deal)
            return report, True
    except IntegrityError:
        # Another process stored a report for this deal at the same moment.
        if idempotency_key:
            earlier = _by_key(deal.pk, idempotency_key)
            if earlier is not None:
                return earlier, False
        raise ResultError("already_final", "another result for this deal was stored at the same "
                          "moment", status=409)


def confirm_report(report: DealReport, actor: Actor, agrees: bool, note: str = "") -> DealReport:
    """A captain or second referee agrees (the report becomes final) or disagrees (disputed)."""
    try:
        with transaction.atomic():
            deal = _lock_deal(report.deal_id)
            report = (DealReport.objects.select_for_update(no_key=True, of=("self",))
                      .select_related("referee_link", "submitted_by").get(pk=report.pk))
            report.deal = deal
            role = confirmation_role(actor, report)
            if role is None:
                if report.deal.match.round.event.result_confirmation == Event.Confirmation.NONE:
                    raise ResultError("no_confirmation", "this event needs no confirmation",
                                      status=409)
                raise _forbidden("you may not confirm this result")
            _require_open_round(deal.match.round)
            if report.state != DealReport.State.PENDING:
                already = report.confirmations.filter(agrees=agrees)
                already = (already.filter(referee_link=actor.link) if actor.link is not None
                           else already.filter(user=actor.user))
                if already.exists():
                    return report  # the same answer twice (a double tap or a retry)
                raise ResultError("not_pending", f"this report is {report.state}, not waiting "
                                  "for confirmation", status=409)
            now = _now()
            Confirmation.objects.create(
                report=report, user=actor.user if actor.is_authenticated else None,
                referee_link=actor.link, role=role, agrees=agrees, note=note or "", at=now,
            )
            report.state = DealReport.State.FINAL if agrees else DealReport.State.DISPUTED
            report.state_changed_at = now
            report.save(update_fields=["state", "state_changed_at"])
            if agrees:
                _notify(deal)
            return report
    except IntegrityError:
        raise ResultError("already_final", "this deal already has a final result", status=409)


def correct_result(deal: Deal, summary: Any, play_log: Any, actor: Actor, reason: str,
                   idempotency_key: str = "") -> DealReport:
    """An organiser replaces the result of a deal (also how a dispute is decided)."""
    reason = (reason or "").strip()
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise _forbidden("only the event's organisers correct results")
    if not reason:
        raise ResultError("reason_required", "a correction needs a reason")
    idempotency_key = (idempotency_key or "").strip()[:100]
    if idempotency_key:
        earlier = _by_key(deal.pk, idempotency_key)
        if earlier is not None:
            return earlier
    with transaction.atomic():
        deal = _lock_deal(deal.pk)
        _require_open_round(deal.match.round, allow_closed=True)
        _require_previous_final(deal)
        checked = check_report(deal, None, summary, play_log)
        if not checked.accepted:
            raise _rejection(checked)
        now = _now()
        reports = DealReport.objects.filter(deal=deal)
        old_final = reports.final().first()
        reports.filter(state__in=[DealReport.State.FINAL, DealReport.State.PENDING,
                                  DealReport.State.DISPUTED]).update(
            state=DealReport.State.SUPERSEDED, state_changed_at=now
        )
        score_a, score_b = _scores(checked.verdict)
        report = DealReport.objects.create(
            deal=deal, kind=DealReport.Kind.CORRECTION, state=DealReport.State.FINAL,
            summary=checked.summary, play_log=checked.play_log, verdict=checked.verdict,
            score_a=score_a, score_b=score_b, submitted_by=actor.user, via=actor.via,
            idempotency_key=idempotency_key, reason=reason, replaces=old_final, created_at=now,
            state_changed_at=now,
        )
        Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
        if old_final is not None and not deal.match.round.event.is_giog:
            # R40: later deals' streaks depend on this one (Giog hands are independent).
            Deal.objects.filter(match_id=deal.match_id, number__gt=deal.number).update(
                needs_recheck=True
            )
        deal.match.round.event.freeze_rules()
        _notify(deal)
        return report


def recheck_deal(deal: Deal, actor: Actor) -> DealReport | None:
    """After an earlier deal of the match was corrected, settle this deal's final result again
    with the string-three streak (R40) the corrected results give. An unchanged verdict just
    clears the flag; a changed one becomes a correction (the old row is kept, superseded).
    Returns the new correction, or None when nothing changed."""
    if not actor.is_authenticated or not can_manage_event(actor.user, deal.match.round.event):
        raise _forbidden("only the event's organisers recheck results")
    with transaction.atomic():
        deal = _lock_deal(deal.pk)
        final = DealReport.objects.final().filter(deal=deal).first()
        if final is None:
            Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
            return None
        summary = {k: v for k, v in (final.summary or {}).items() if k != "string_three_streak"}
        checked = check_report(deal, None, summary if final.play_log is None else None,
                               final.play_log)
        same = checked.accepted and (
            checked.verdict.get("union_scores") == final.verdict.get("union_scores")
            and checked.verdict.get("tributes") == final.verdict.get("tributes")
        )
        if same or not checked.accepted:
            # Not accepted can only mean the rules engine changed its mind about a stored
            # result; the flag stays for the organiser to correct by hand.
            if same:
                Deal.objects.filter(pk=deal.pk).update(needs_recheck=False)
            return None
        return correct_result(deal, summary if final.play_log is None else None, final.play_log,
                              actor, "复核：本场前面的牌局已更正，按新的串三户连续次数重新结算（R40）")


# --- what a table page shows --------------------------------------------------------------------

TABLE_WAITING, TABLE_REPORTED, TABLE_CONFIRMED, TABLE_DISPUTED = (
    "waiting", "reported", "confirmed", "disputed"
)


def table_state(table: Table) -> str:
    """waiting (nothing open, deals left), reported (a report awaits confirmation), confirmed (all
    deals final), disputed (a report was disputed)."""
    match = getattr(table, "match", None)
    if match is None:
        return TABLE_WAITING
    reports = DealReport.objects.filter(deal__match=match)
    if reports.filter(state=DealReport.State.DISPUTED).exists():
        return TABLE_DISPUTED
    if reports.filter(state=DealReport.State.PENDING).exists():
        return TABLE_REPORTED
    finals = reports.final().count()
    if finals >= match.round.event.deals_per_match:
        return TABLE_CONFIRMED
    return TABLE_WAITING


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
        open_ = next((r for r in history if r.state in (DealReport.State.PENDING,
                                                        DealReport.State.DISPUTED)), None)
        rows.append({"number": number, "deal": deals.get(number), "final": final, "open": open_,
                     "history": history})
    return rows
