"""The test kit itself: each persona has exactly the rights of its role, and the builder makes
its rows through the services (so a result it stores carries the service's audit trail)."""

from __future__ import annotations

import pytest

from matches.models import Confirmation, DealReport, Event, Registration, StandingsSnapshot
from matches.permissions import can_enter_results, can_manage_event, confirmation_role
from tests.builder import EventBuilder, outcome

pytestmark = pytest.mark.django_db

ROLES = [
    "organiser",
    "other_organiser",
    "referee",
    "referee_link",
    "captain",
    "captain_b",
    "stranger",
    "public",
]


def test_each_persona_has_exactly_the_rights_of_its_role(built):
    people, event = built.people, built.event
    table = people.table
    other = built.people.for_table(table)  # the same table: the same people
    assert other is people
    manages = {
        role: can_manage_event(getattr(people, role), event)
        for role in ROLES
        if role != "referee_link"
    }
    assert manages == {
        "organiser": True,
        "other_organiser": False,
        "referee": False,
        "captain": False,
        "captain_b": False,
        "stranger": False,
        "public": False,
    }
    enters = {role: can_enter_results(people.actor(role), table) for role in ROLES}
    assert enters == {
        "organiser": True,
        "other_organiser": False,
        "referee": True,
        "referee_link": True,
        "captain": False,
        "captain_b": False,
        "stranger": False,
        "public": False,
    }
    # A captains' event (docs/results.md, "Who may confirm"): an organiser's report is final when
    # both unions agree, so either captain answers; a second referee (another person) or an
    # organiser confirms alone; a referee link is no second person in this mode.
    report = built.report(people.match, 1, outcome([2, 1, 4, 3, 6, 5]))  # union B wins
    confirms = {role: confirmation_role(people.actor(role), report) for role in ROLES}
    assert confirms == {
        "organiser": "organiser",
        "other_organiser": None,
        "referee": "referee",
        "referee_link": None,
        "captain": "captain",
        "captain_b": "captain",
        "stranger": None,
        "public": None,
    }


def test_table_bound_roles_differ_per_table_and_the_others_do_not(build):
    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    first, second = (b.people.for_table(m.table) for m in b.matches(round_))
    assert first.referee != second.referee and first.captain != second.captain
    assert first.organiser == second.organiser and first.stranger == second.stranger
    assert not can_enter_results(first.actor("referee"), second.table)


def test_results_are_reported_and_confirmed_through_the_service(build):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    final = b.final(match, 1, [1, 2, 3, 4, 5, 6], points=[1])
    assert final.state == DealReport.State.FINAL and final.kind == DealReport.Kind.REPORT
    assert final.submitted_by == b.organiser and final.verdict["union_scores"] == {"A": 2, "B": -2}
    # An organiser's report needs both unions: each captain agreed once.
    confirmations = Confirmation.objects.filter(report=final)
    assert sorted(c.union_id for c in confirmations) == sorted([match.union_a_id, match.union_b_id])
    assert all(c.agrees and c.role == Confirmation.Role.CAPTAIN for c in confirmations)
    corrected = b.final(match, 1, [2, 1, 4, 3, 6, 5])  # a second result for the deal: a correction
    assert corrected.kind == DealReport.Kind.CORRECTION and corrected.replaces_id == final.pk
    assert DealReport.objects.get(pk=final.pk).state == DealReport.State.SUPERSEDED


def test_a_whole_event_of_either_game_in_a_few_readable_steps(build):
    gouji = build(unions=4, deals=2).draw_round().report_all().confirm_all().standings()
    giog = build(game="giog", players=7, deals=2).draw_round().report_all().standings()
    for b in (gouji, giog):
        assert Registration.objects.filter(event=b.event, status="checked_in").count() == b.size
        assert b.matches() and all(m.is_complete for m in b.matches())
        assert StandingsSnapshot.objects.filter(event=b.event, round=b.latest).exists()
    assert giog.event.result_confirmation == Event.Confirmation.NONE


def test_reporting_without_confirming_leaves_the_next_gouji_deal_for_later(build):
    b = build(unions=2, deals=3).draw_round().report_all(confirm=False)
    reports = DealReport.objects.filter(deal__match__round=b.latest)
    assert list(reports.values_list("deal__number", "state")) == [(1, "pending")]  # R35
    b.confirm_all()
    assert reports.get().state == "final"


def test_the_event_and_entrants_can_be_named(db):
    b = EventBuilder(name="<b>杯</b>", unions=1, names=["甲"], player_names=["一", "二"]).register()
    assert b.event.name == "<b>杯</b>" and b.unions[0].name == "甲"
    assert [p.name for p in b.unions[0].players_in_order()] == ["一", "二", "选手1-3"]
