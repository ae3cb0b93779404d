"""The result-entry service: engine checks, idempotency, confirmation, correction, staleness."""

from __future__ import annotations

import pytest

from matches.games.gouji import results as gouji_results
from matches.kernel.games.registry import get_game
from matches.kernel.reports import ResultError
from matches.models import Deal, DealReport, Event, Round
from matches.permissions import Actor
from matches.results.confirm import check_captain_pin, confirm_report
from matches.results.correct import correct_result, recheck_deal
from matches.results.deals import deal_allowed, deal_for
from matches.results.submit import submit_report
from matches.signals import deal_result_changed

from .conftest import BAD_FINISH, STRING_THREE_A, SUMMARY

pytestmark = pytest.mark.django_db


def ref(setup):
    return Actor(user=setup.referee)


def submit(setup, number=1, summary=SUMMARY, play_log=None, actor=None, key=""):
    deal = deal_for(setup.match, number)
    return submit_report(deal, summary, play_log, actor or ref(setup), key)


def confirm(setup, report, agrees=True, user=None):
    return confirm_report(report, Actor(user=user or setup.captain_b), agrees)


def finalise(setup, number=1, summary=SUMMARY):
    """Both captains agree (a referee reported the deal)."""
    report, _ = submit(setup, number, summary)
    assert confirm(setup, report, user=setup.captain_a).state == DealReport.State.PENDING
    return confirm(setup, report)


@pytest.fixture
def signals():
    received = []

    def handler(sender, deal_id, **kwargs):
        received.append(deal_id)

    deal_result_changed.connect(handler)
    yield received
    deal_result_changed.disconnect(handler)


def test_a_valid_report_is_stored_pending_with_the_engine_verdict_and_event_rules(setup):
    report, created = submit(setup)
    assert created and report.state == DealReport.State.PENDING
    assert report.summary["rules"] == setup.event.game_settings["rules"]
    assert report.summary["string_three_streak"] == 0
    assert report.verdict["union_scores"] == {"A": 2, "B": -2}
    assert (report.score_a, report.score_b) == (2, -2)
    assert report.verdict["tributes"]  # the engine's ledger is kept with the result
    assert report.submitted_by == setup.referee and report.via == DealReport.Via.SESSION
    setup.event.refresh_from_db()
    assert setup.event.rules_frozen_at is not None


def test_an_inconsistent_report_is_refused_with_its_rule_and_nothing_is_stored(setup):
    # Rules freeze when round 1 is published (issue 14): the refused report changes nothing.
    setup.event.refresh_from_db()
    frozen_at = setup.event.rules_frozen_at
    assert frozen_at is not None
    with pytest.raises(ResultError) as error:
        submit(setup, summary=BAD_FINISH)
    assert error.value.status == 422 and error.value.rule == "R30"
    assert error.value.errors[0]["code"] == "finish_not_permutation"
    assert not DealReport.objects.exists()
    setup.event.refresh_from_db()
    assert setup.event.rules_frozen_at == frozen_at


@pytest.mark.parametrize("summary", ["text", [1, 2], {"finish": "x"}, {"bogus": 1}])
def test_an_unreadable_summary_is_a_bad_document(setup, summary):
    with pytest.raises(ResultError) as error:
        submit(setup, summary=summary)
    assert error.value.code == "bad_document" and error.value.status == 400
    assert not DealReport.objects.exists()


def test_the_same_idempotency_key_returns_the_first_report(setup):
    first, created = submit(setup, key="tap-1")
    again, created_again = submit(setup, key="tap-1")
    assert created and not created_again and again.pk == first.pk
    assert DealReport.objects.count() == 1


def test_a_new_report_replaces_one_still_waiting(setup):
    first, _ = submit(setup, key="a")
    second, _ = submit(setup, summary=STRING_THREE_A, key="b")
    first.refresh_from_db()
    assert first.state == DealReport.State.SUPERSEDED and second.state == DealReport.State.PENDING


def test_both_captains_confirm_and_the_result_becomes_final(
    setup, signals, django_capture_on_commit_callbacks
):
    report, _ = submit(setup)
    with django_capture_on_commit_callbacks(execute=True):
        one = confirm(setup, report)
    assert one.state == DealReport.State.PENDING and signals == []
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = confirm(setup, report, user=setup.captain_a)
    assert confirmed.state == DealReport.State.FINAL
    assert signals == [report.deal_id]
    assert list(DealReport.objects.final()) == [confirmed]
    assert [d.pk for d in Deal.objects.with_final_result()] == [report.deal_id]
    assert {(c.role, c.union_id) for c in confirmed.confirmations.all()} == {
        ("captain", setup.union_a.pk),
        ("captain", setup.union_b.pk),
    }


def test_no_signal_while_a_report_waits(setup, signals, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        submit(setup)
    assert signals == []


def test_a_disagreement_marks_the_report_disputed_and_blocks_new_reports(setup):
    report, _ = submit(setup)
    disputed = confirm(setup, report, agrees=False)
    assert disputed.state == DealReport.State.DISPUTED
    assert not DealReport.objects.final().exists()
    with pytest.raises(ResultError) as error:
        submit(setup, key="again")
    assert error.value.code == "deal_disputed" and error.value.status == 409


def test_only_captains_second_referees_and_organisers_confirm(setup):
    report, _ = submit(setup)
    for user in (setup.player_a2, setup.outsider, setup.referee):
        with pytest.raises(ResultError) as error:
            confirm(setup, report, user=user)
        assert error.value.status == 403
    # In captain mode a second referee *account* of the table confirms alone.
    assert confirm(setup, report, user=setup.second_referee).state == DealReport.State.FINAL


def test_a_link_report_needs_both_captains_and_the_reporters_own_union_is_not_enough(setup):
    link = Actor.from_link(setup.link)
    report, _ = submit(setup, actor=link)
    # The link itself is no second referee in captain mode (its QR code is on the table card).
    with pytest.raises(ResultError):
        confirm_report(report, link, True)
    pin_b = check_captain_pin(setup.match, "B", setup.union_b.captain_pin, "1.2.3.4")
    assert confirm_report(report, link, True, pin_union=pin_b).state == "pending"
    # The same union again (a second tap, or its captain's account) changes nothing.
    assert confirm_report(report, link, True, pin_union=pin_b).state == "pending"
    assert confirm(setup, report, user=setup.captain_b).state == "pending"
    pin_a = check_captain_pin(setup.match, "A", setup.union_a.captain_pin, "1.2.3.4")
    assert confirm_report(report, link, True, pin_union=pin_a).state == "final"
    assert set(report.confirmations.values_list("by_pin", flat=True)) == {True}


def test_a_captain_who_reports_agrees_for_their_union_and_the_other_one_confirms(setup):
    setup.table.referees.add(setup.captain_a)
    own, _ = submit_report(
        deal_for(setup.match, 1),
        SUMMARY,
        None,
        Actor(user=setup.captain_a),
        "captain-entry",
    )
    assert own.state == "pending"
    # Confirming again for their own union leaves it pending (a drawn deal included).
    assert confirm(setup, own, user=setup.captain_a).state == "pending"
    assert confirm(setup, own, user=setup.captain_b).state == DealReport.State.FINAL


def test_a_wrong_pin_is_refused_and_locks_after_five_tries(setup):
    for _attempt in range(4):
        with pytest.raises(ResultError) as error:
            check_captain_pin(setup.match, "B", "0000", "5.6.7.8")
        assert error.value.code == "wrong_pin" and error.value.status == 403
    with pytest.raises(ResultError) as error:
        check_captain_pin(setup.match, "B", "0000", "5.6.7.8")
    assert error.value.code == "pin_locked" and error.value.status == 429
    # Locked: even the right PIN is refused unchecked, from any address (the union is locked).
    with pytest.raises(ResultError) as error:
        check_captain_pin(setup.match, "B", setup.union_b.captain_pin, "9.9.9.9")
    assert error.value.code == "pin_locked" and error.value.retry_after > 0
    assert (
        check_captain_pin(setup.match, "A", setup.union_a.captain_pin, "9.9.9.9") == setup.union_a
    )


def test_an_organiser_accepts_alone(setup):
    report, _ = submit(setup)
    accepted = confirm_report(report, Actor(user=setup.organiser), True)
    assert accepted.state == "final" and accepted.confirmations.get().role == "organiser"


def test_a_dispute_keeps_its_reason(setup):
    report, _ = submit(setup)
    with pytest.raises(ResultError) as error:
        confirm_report(report, Actor(user=setup.captain_b), False, reason="nonsense")
    assert error.value.code == "bad_reason"
    disputed = confirm_report(
        report, Actor(user=setup.captain_b), False, "3 不是第一", reason="finish"
    )
    answer = disputed.confirmations.get()
    assert disputed.state == "disputed" and answer.reason == "finish"
    assert answer.union_id == setup.union_b.pk and answer.note == "3 不是第一"


def test_a_second_referee_confirms_when_the_event_says_so(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    report, _ = submit(setup)
    with pytest.raises(ResultError):
        confirm_report(report, Actor(user=setup.referee), True)  # not the same referee
    # Nor the same person through the table's link while signed in.
    with pytest.raises(ResultError):
        confirm_report(report, Actor(user=setup.referee, link=setup.link), True)
    final = confirm_report(report, Actor(user=setup.second_referee), True)
    assert final.state == DealReport.State.FINAL


def test_in_referee_mode_the_confirming_link_is_another_link(setup):
    from matches.models import RefereeLink

    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    report, _ = submit(setup, actor=Actor.from_link(setup.link))
    with pytest.raises(ResultError):
        confirm_report(report, Actor.from_link(setup.link), True)
    other = RefereeLink.objects.create(table=setup.table)
    assert confirm_report(report, Actor.from_link(other), True).state == "final"


def test_reports_are_final_at_once_without_confirmation(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    report, _ = submit(setup, actor=Actor.from_link(setup.link))
    assert report.state == DealReport.State.FINAL and report.referee_link == setup.link
    with pytest.raises(ResultError) as error:
        submit(setup, key="second")
    assert error.value.code == "already_final" and error.value.status == 409


def test_confirming_twice_the_same_way_is_harmless_but_a_changed_mind_conflicts(setup):
    report, _ = submit(setup)
    confirm(setup, report, user=setup.captain_a)
    confirm(setup, report)
    assert confirm(setup, report).state == DealReport.State.FINAL
    with pytest.raises(ResultError) as error:
        confirm(setup, report, agrees=False)
    assert error.value.code == "not_pending"


@pytest.mark.tables(2)
def test_a_referee_acts_only_on_their_own_table(setup):
    other_match = setup.match_at(2)
    deal = deal_for(other_match, 1)
    for actor in (
        ref(setup),
        Actor.from_link(setup.link),
        Actor(user=setup.outsider),
        Actor(user=setup.captain_a),
    ):
        with pytest.raises(ResultError) as error:
            submit_report(deal, SUMMARY, None, actor, "")
        assert error.value.status == 403
    setup.link.revoke()
    with pytest.raises(ResultError):
        submit(setup, actor=Actor.from_link(setup.link))
    # Organisers and admins may enter results for any table of their events.
    assert submit_report(deal, SUMMARY, None, Actor(user=setup.organiser), "o")[1]


@pytest.mark.parametrize(
    "state,code", [(Round.State.DRAFT, "round_not_published"), (Round.State.CLOSED, "round_closed")]
)
def test_stale_submissions_store_nothing(setup, state, code):
    deal = deal_for(setup.match, 1)
    Round.objects.filter(pk=setup.round.pk).update(state=state)
    with pytest.raises(ResultError) as error:
        submit_report(deal, SUMMARY, None, ref(setup), "")
    assert error.value.code == code and error.value.status == 409
    assert not DealReport.objects.exists()


def test_a_deal_of_a_redrawn_round_is_gone(setup):
    deal = deal_for(setup.match, 1)
    deal_id = deal.pk
    setup.match.delete()  # a re-draw deletes the round's matches (no result stored yet)
    with pytest.raises(ResultError) as error:
        submit_report(Deal(pk=deal_id), SUMMARY, None, ref(setup), "")
    assert error.value.code == "deal_gone"


def test_deals_are_reported_in_order(setup):
    with pytest.raises(ResultError) as error:
        submit(setup, number=2)
    assert error.value.code == "previous_deal_open" and error.value.rule == "R35"
    finalise(setup, 1)
    report, _ = submit(setup, number=2)
    assert report.deal.number == 2
    with pytest.raises(ResultError):
        deal_for(setup.match, setup.event.deals_per_match + 1)


def test_the_string_three_streak_comes_from_previous_final_deals(setup):
    """R40: third string of three in a row for union A: amnesty, no tributes."""
    for number in (1, 2):
        finalise(setup, number, STRING_THREE_A)
    report, _ = submit(setup, number=3, summary=STRING_THREE_A)
    assert report.summary["string_three_streak"] == 2
    assert report.verdict["tributes"] == []
    a_strings = STRING_THREE_A["finish"]
    b_strings = [2, 4, 6, 1, 3, 5]
    assert gouji_results.string_three_streak(setup.match, 2, a_strings) == 1
    # Two strings by A are no streak for B (R40 counts the same union).
    assert gouji_results.string_three_streak(setup.match, 3, b_strings) == 0
    # A deal that is not a string of three breaks the streak.
    confirm(setup, report, user=setup.captain_a)
    confirm(setup, report)
    finalise(setup, 4, SUMMARY)
    assert gouji_results.string_three_streak(setup.match, 5, a_strings) == 0


def test_a_correction_is_a_new_final_row_and_flags_later_deals(
    setup, signals, django_capture_on_commit_callbacks
):
    first = finalise(setup, 1)
    finalise(setup, 2)
    with django_capture_on_commit_callbacks(execute=True):
        correction = correct_result(
            first.deal, STRING_THREE_A, None, Actor(user=setup.organiser), "计分错误"
        )
    first.refresh_from_db()
    assert first.state == DealReport.State.SUPERSEDED
    assert first.summary["finish"] == SUMMARY["finish"]  # the old row is kept as it was sent
    assert correction.state == DealReport.State.FINAL and correction.kind == "correction"
    assert correction.replaces == first and correction.reason == "计分错误"
    assert DealReport.objects.final().filter(deal=first.deal).get() == correction
    assert signals == [first.deal_id]
    assert Deal.objects.get(match=setup.match, number=2).needs_recheck
    assert not Deal.objects.get(match=setup.match, number=1).needs_recheck


def test_corrections_need_an_organiser_and_a_reason(setup):
    first = finalise(setup, 1)
    with pytest.raises(ResultError) as error:
        correct_result(first.deal, SUMMARY, None, ref(setup), "x")
    assert error.value.status == 403
    with pytest.raises(ResultError) as error:
        correct_result(first.deal, SUMMARY, None, Actor(user=setup.organiser), "  ")
    assert error.value.code == "reason_required"
    with pytest.raises(ResultError) as error:
        correct_result(first.deal, BAD_FINISH, None, Actor(user=setup.admin), "x")
    assert error.value.status == 422
    assert DealReport.objects.final().get() == first


def test_an_organiser_decides_a_dispute_by_correcting(setup):
    report, _ = submit(setup)
    confirm(setup, report, agrees=False)
    decided = correct_result(
        report.deal, STRING_THREE_A, None, Actor(user=setup.organiser), "双方队长同意"
    )
    report.refresh_from_db()
    assert report.state == DealReport.State.SUPERSEDED and decided.replaces is None
    assert decided.state == DealReport.State.FINAL


def test_a_closed_round_can_still_be_corrected(setup):
    first = finalise(setup, 1)
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    assert correct_result(
        first.deal, STRING_THREE_A, None, Actor(user=setup.organiser), "赛后更正"
    ).is_final


# --- play logs ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record():
    return next(iter(get_game("gouji").selfplay(1, 7)))


def test_a_play_log_alone_is_replayed_and_its_outcome_recorded(setup, record):
    report, _ = submit(setup, summary=None, play_log=record)
    replayed = get_game("gouji").replay(record)
    assert report.summary["finish"] == replayed["finish"]
    assert report.verdict["union_scores"] == replayed["union_scores"]
    assert report.verdict["replay"]["valid"] and report.play_log == record


def test_a_summary_that_disagrees_with_its_play_log_is_refused(setup, record):
    finish = record["claimed"]["finish"]
    wrong = {
        "format": "gouji-outcome/1",
        "finish": list(reversed(finish)),
        "points": record["claimed"]["points"],
    }
    with pytest.raises(ResultError) as error:
        submit(setup, summary=wrong, play_log={**record, "claimed": {}})
    assert error.value.status == 422
    assert any(e["code"] == "play_log_mismatch" for e in error.value.errors)
    assert not DealReport.objects.exists()


def test_a_summary_that_agrees_with_its_play_log_is_accepted(setup, record):
    summary = {
        "format": "gouji-outcome/1",
        "finish": record["claimed"]["finish"],
        "points": record["claimed"]["points"],
    }
    report, _ = submit(setup, summary=summary, play_log=record)
    assert report.verdict["replay"]["mismatches"] == []


def test_an_illegal_or_unfinished_play_log_is_refused(setup, record):
    cut = {**record, "actions": record["actions"][:10], "claimed": {}}
    with pytest.raises(ResultError) as error:
        submit(setup, summary=None, play_log=cut)
    assert error.value.errors[0]["code"] == "play_log_incomplete"
    with pytest.raises(ResultError) as error:
        submit(setup, summary=None, play_log={**record, "hands": {"1": "ZZ"}})
    assert error.value.status in (400, 422)
    assert not DealReport.objects.exists()


def test_a_recheck_after_a_correction_resettles_the_streak(setup):
    """Deals 1-3 all strung three by union A; deal 3 had amnesty (R40). Correcting deal 1 breaks
    the streak, so deal 3's tributes come back; deal 2's stay as they were."""
    for number in (1, 2, 3):
        finalise(setup, number, STRING_THREE_A)
    deal3 = Deal.objects.get(match=setup.match, number=3)
    assert deal3.final_report.verdict["tributes"] == []
    first = Deal.objects.get(match=setup.match, number=1)
    correct_result(first, SUMMARY, None, Actor(user=setup.organiser), "记错")
    organiser = Actor(user=setup.organiser)
    assert recheck_deal(Deal.objects.get(match=setup.match, number=2), organiser) is None
    assert not Deal.objects.get(match=setup.match, number=2).needs_recheck
    changed = recheck_deal(deal3, organiser)
    assert changed.kind == "correction" and changed.summary["string_three_streak"] == 1
    assert changed.verdict["tributes"] != []
    assert not Deal.objects.get(pk=deal3.pk).needs_recheck
    with pytest.raises(ResultError):
        recheck_deal(deal3, ref(setup))


def test_an_idempotency_key_reveals_nothing_to_another_actor(setup):
    submit(setup, key="secret")
    with pytest.raises(ResultError) as error:
        submit(setup, key="secret", actor=Actor(user=setup.outsider))
    assert error.value.status == 403


def test_extra_deals_break_a_tied_knockout_match_only(setup):
    from matches.models import Stage

    draw = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 6, 5], "points": []}
    Event.objects.filter(pk=setup.event.pk).update(deals_per_match=1, tie_break_deals=2)
    setup.match.round.event.refresh_from_db()
    report = finalise(setup, 1, draw)
    assert report.score_a == 0
    assert not deal_allowed(setup.match, 2)  # a Swiss match may end drawn
    Stage.objects.filter(pk=setup.round.stage_id).update(format=Stage.Format.SINGLE_ELIMINATION)
    setup.match.round.stage.refresh_from_db()
    assert deal_allowed(setup.match, 2)
    extra = deal_for(setup.match, 2)
    assert extra.is_extra
    finalise(setup, 2, SUMMARY)  # union A now leads: no third deal
    assert not deal_allowed(setup.match, 3)


def test_a_summary_must_declare_what_its_play_log_declares(setup, record):
    summary = {
        "format": "gouji-outcome/1",
        "finish": record["claimed"]["finish"],
        "points": record["claimed"]["points"],
        "declarations": {"2": "clear"},
    }
    with pytest.raises(ResultError) as error:
        submit(setup, summary=summary, play_log=record)
    assert [e["rule"] for e in error.value.errors] == ["R34"]
    # The form sends empty declarations and revolution when none were made: that agrees.
    agreeing = {
        **summary,
        "declarations": dict(record.get("declarations") or {}),
        "revolution": list(record.get("revolution") or []),
    }
    assert submit(setup, summary=agreeing, play_log=record)[1]
