"""Giog events end to end in the services: draw, hand reports, corrections, standings."""

from __future__ import annotations

import pytest
from django.utils import timezone

from matches.draw import explanations, hand_swaps, refusals
from matches.draw import service as draw
from matches.games.giog.engine.selfplay import selfplay
from matches.kernel.reports import ResultError
from matches.models import (
    DealReport,
    DealTally,
    Event,
    RefereeLink,
    StandingsSnapshot,
    TableSeat,
    Union,
)
from matches.permissions import Actor
from matches.results import forfeits
from matches.results.confirm import confirm_report
from matches.results.correct import correct_result
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.builder import EventBuilder, giog_outcome

pytestmark = pytest.mark.django_db

# Pieces won for a 4-player table (32 in play, multiples of 4) and a 3-player table (30, of 3).
FOUR = {1: 12, 2: 8, 3: 8, 4: 4}
THREE = {1: 15, 2: 9, 3: 6}


def organiser_actor(builder):
    return Actor(user=builder.organiser)


def first_table(round_):
    return round_.matches.select_related("table").order_by("table__number").first()


def test_draw_seats_tables_of_two_to_four_on_seats_one_to_n(giog):
    round_ = giog.draw()
    sizes = sorted(TableSeat.objects.filter(table=t).count() for t in round_.tables.all())
    assert sizes == [4, 4]
    for table in round_.tables.all():
        seats = sorted(table.seats.values_list("seat", flat=True))
        assert seats == list(range(1, len(seats) + 1))
    assert round_.quality["method"] == "giog"
    assert draw.check_round(round_) == []


def test_draw_is_reproducible_from_its_seed(db):
    def seated(builder, seed):
        round_ = builder.draw(seed=seed, publish=False)
        return sorted(
            sorted(t.seats.values_list("player__name", flat=True)) for t in round_.tables.all()
        )

    first, second = EventBuilder("giog", players=10).register(), None
    a = seated(first, 99)
    draw.redraw_round(first.event.rounds.get(), seed=99)
    second = sorted(
        sorted(t.seats.values_list("player__name", flat=True))
        for t in first.event.rounds.get().tables.all()
    )
    assert a == second


def test_a_hand_summary_is_accepted_and_settles_the_standings(giog, committed):
    round_ = giog.draw()
    match = first_table(round_)
    deal = deal_for(match, 1)
    with committed():
        report, created = submit_report(
            deal, giog_outcome(4, FOUR, beheaded=[2]), None, organiser_actor(giog), "key-1"
        )
    assert created and report.state == DealReport.State.FINAL
    assert report.verdict["places"] == [[1], [3], [4], [2]]
    assert report.verdict["points"] == {"1": "3", "2": "0", "3": "2", "4": "1"}
    row = DealTally.objects.get(deal=deal)
    assert row.places == [[1], [3], [4], [2]] and (row.score_a, row.score_b) == (None, None)
    tally = giog.event.adapter.read_tally(row)
    assert tally.places == ((1,), (3,), (4,), (2,)) and tally.detail.beheaded == (2,)
    assert tally.detail.won_by_seat == {int(seat): n for seat, n in FOUR.items()}
    snapshot = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event")
    seat1 = TableSeat.objects.get(table=match.table, seat=1).player_id
    top = snapshot.rows[0]
    assert top["player"] == seat1 and top["points"] == "3" and top["pieces"] == 12
    assert snapshot.unfinished == 2


def test_the_same_idempotency_key_returns_the_first_report(giog):
    match = first_table(giog.draw())
    deal = deal_for(match, 1)
    first, _ = submit_report(deal, giog_outcome(4, FOUR), None, organiser_actor(giog), "k")
    again, created = submit_report(deal, giog_outcome(4, FOUR), None, organiser_actor(giog), "k")
    assert again.pk == first.pk and not created
    assert DealReport.objects.filter(deal=deal).count() == 1


@pytest.mark.parametrize(
    "won, beheaded, rule, code",
    [
        ({1: 12, 2: 8, 3: 8, 4: 8}, [], "G10", "won_total"),
        ({1: 13, 2: 7, 3: 8, 4: 4}, [], "G10", "not_whole_tricks"),
        ({1: 16, 2: 8, 3: 8}, [], "G11", "missing_seat"),
        (FOUR, [1, 2, 3], "G12", "too_many_beheaded"),
    ],
)
def test_an_inconsistent_hand_is_refused_with_its_rule(giog, won, beheaded, rule, code):
    match = first_table(giog.draw())
    deal = deal_for(match, 1)
    with pytest.raises(ResultError) as refused:
        submit_report(deal, giog_outcome(4, won, beheaded), None, organiser_actor(giog))
    assert refused.value.status == 422
    assert (rule, code) in {(e["rule"], e["code"]) for e in refused.value.errors}
    assert not DealReport.objects.filter(deal=deal).exists()


def test_a_summary_for_the_wrong_table_size_is_refused(giog):
    match = first_table(giog.draw())
    deal = deal_for(match, 1)
    with pytest.raises(ResultError) as refused:
        submit_report(deal, giog_outcome(3, THREE), None, organiser_actor(giog))
    assert refused.value.rule == "G4" and refused.value.errors[0]["code"] == "players_mismatch"


def self_played(players: int, seed: int = 3) -> dict:
    return next(iter(selfplay(1, seed, players=players)))


def test_a_self_played_hand_record_replays_and_is_accepted(giog):
    match = first_table(giog.draw())
    record = self_played(4)
    deal = deal_for(match, 1)
    report, _ = submit_report(deal, None, record, organiser_actor(giog))
    assert report.verdict["valid"] and report.verdict["replay"]["complete"]
    assert report.summary["won"] == record["claimed"]["won"]
    assert report.verdict["places"] == record["claimed"]["places"]


def test_a_summary_that_contradicts_the_hand_record_is_refused(giog):
    match = first_table(giog.draw())
    record = self_played(4)
    record.pop("claimed")
    won = {int(k): v for k, v in self_played(4)["claimed"]["won"].items()}
    wrong = dict(won)
    top = max(wrong, key=wrong.get)
    low = min(wrong, key=wrong.get)
    if top == low:
        pytest.skip("an all-equal hand")
    wrong[top] -= 4
    wrong[low] += 4
    deal = deal_for(match, 1)
    with pytest.raises(ResultError) as refused:
        submit_report(deal, giog_outcome(4, wrong), record, organiser_actor(giog))
    assert any(
        e["code"] == "play_log_mismatch" and e["rule"] == "G11" for e in refused.value.errors
    )


def test_an_illegal_hand_record_names_its_rule(giog):
    match = first_table(giog.draw())
    record = self_played(4)
    record.pop("claimed")
    record["actions"][1]["pieces"] = record["actions"][1]["pieces"] + "K"
    deal = deal_for(match, 1)
    with pytest.raises(ResultError) as refused:
        submit_report(deal, None, record, organiser_actor(giog))
    assert refused.value.errors[0]["rule"].startswith("G")


def test_confirmation_by_a_second_referee_then_correction(db, committed):
    builder = EventBuilder("giog", confirmation=Event.Confirmation.REFEREE).register()
    match = first_table(builder.draw())
    link = match.table.referee_links.create()
    deal = deal_for(match, 1)
    report, _ = submit_report(deal, giog_outcome(4, FOUR), None, Actor.from_link(link))
    assert report.state == DealReport.State.PENDING
    assert not DealTally.objects.filter(deal=deal).exists()
    with committed():
        confirm_report(report, Actor(user=builder.organiser), True)
    assert DealTally.objects.get(deal=deal).places == [[1], [2, 3], [4]]
    with committed():
        corrected = correct_result(
            deal,
            giog_outcome(4, {1: 4, 2: 8, 3: 8, 4: 12}),
            None,
            Actor(user=builder.organiser),
            "1 and 4 swapped",
        )
    report.refresh_from_db()
    assert report.state == DealReport.State.SUPERSEDED and corrected.replaces_id == report.pk
    assert DealTally.objects.get(deal=deal).places == [[4], [2, 3], [1]]


def test_hands_may_be_reported_in_any_order_and_complete_the_table(giog, committed):
    round_ = giog.draw()
    for match in round_.matches.all():
        for number in (2, 1):
            with committed():
                submit_report(
                    deal_for(match, number),
                    giog_outcome(4, FOUR),
                    None,
                    organiser_actor(giog),
                )
        match.refresh_from_db()
        assert match.is_complete  # no score is written: Giog has no match result
        assert match.points_a is None and match.score_a is None
    draw.close_round(round_)
    snapshot = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event")
    assert snapshot.unfinished == 0
    # Seat 1 won both hands: 3 + 3; seats 2 and 3 split 2nd and 3rd, (2 + 1) / 2 twice; seat 4
    # came last twice.
    by_points = sorted(row["points"] for row in snapshot.rows)
    assert by_points == ["0", "0", "3", "3", "3", "3", "6", "6"]


def test_the_second_round_rotates_opponents(db, committed):
    builder = EventBuilder("giog", players=8).register()
    round_ = builder.draw(seed=1)
    for match in round_.matches.all():
        for number in (1, 2):
            with committed():
                submit_report(
                    deal_for(match, number),
                    giog_outcome(4, FOUR),
                    None,
                    organiser_actor(builder),
                )
    draw.close_round(round_)
    second = builder.draw(seed=2)
    # 8 players at two tables of 4: each player meets 3 of 7, so some repeat is forced; the
    # draw keeps it to the minimum: each table holds two from each first-round table.
    first_tables = {s.player_id: s.table_id for s in TableSeat.objects.filter(round=round_)}
    for table in second.tables.all():
        origins = sorted(first_tables[p] for p in table.seats.values_list("player_id", flat=True))
        assert origins.count(origins[0]) == 2
    assert second.quality["repeat_opponents"] == 4


def test_a_hand_swap_before_publishing_reflags_the_tables(db):
    builder = EventBuilder("giog", players=8).register()
    first = builder.draw(seed=1, publish=False)
    draw.publish_round(first)
    first.matches.update(completed_at=timezone.now())
    draw.close_round(first)
    second = builder.draw(seed=2, publish=False)
    tables = list(second.tables.order_by("number"))
    x = tables[0].seats.get(seat=1).player_id
    y = tables[1].seats.get(seat=1).player_id
    explained = hand_swaps.swap_players(second, x, y)
    assert {row["table"] for row in explained} == {1, 2}
    assert all("hand_swap" in m.flags for m in second.matches.all())
    assert TableSeat.objects.get(round=second, player_id=x).table_id == tables[1].pk
    assert draw.check_round(second) == []
    assert second.__class__.objects.get(pk=second.pk).quality["hand_swaps"] == 2


def test_a_position_is_not_a_tournament_hand(giog):
    match = first_table(giog.draw())
    record = {
        "format": "giog-hand/1",
        "players": 4,
        "leader": 1,
        "out": "",
        "hands": {"1": "K", "2": "k", "3": "P", "4": "p"},
        "actions": [
            {"seat": 1, "pieces": "K"},
            {"seat": 2, "pieces": "k"},
            {"seat": 3, "pieces": "P"},
            {"seat": 4, "pieces": "p"},
        ],
    }
    deal = deal_for(match, 1)
    with pytest.raises(ResultError) as refused:
        submit_report(deal, None, record, organiser_actor(giog))
    assert ("G10", "won_total") in {(e["rule"], e["code"]) for e in refused.value.errors}


def test_the_explanation_of_a_giog_draw_names_the_players(db):
    builder = EventBuilder("giog", players=6).register()
    round_ = builder.draw(publish=False)
    lines = explanations.explain_round(round_)
    assert [line["table"] for line in lines] == [1, 2]
    for line, table in zip(lines, round_.tables.order_by("number")):
        names = list(table.seats.order_by("seat").values_list("player__name", flat=True))
        assert line["union_a"] == "、".join(names) and line["union_b"] is None


def test_recompute_event_gives_the_incremental_standings(giog, committed):
    from matches.models import ComputationRun
    from matches.standings import service as standings

    round_ = giog.draw()
    for match in round_.matches.all():
        with committed():
            submit_report(
                deal_for(match, 1), giog_outcome(4, FOUR, [4]), None, organiser_actor(giog)
            )
    snapshot = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event")
    incremental = snapshot.rows
    assert ComputationRun.objects.filter(
        event=giog.event, task="settle_deal", state="done"
    ).exists()
    DealTally.objects.filter(match__round=round_).delete()  # computed rows lost, results kept
    StandingsSnapshot.objects.filter(round=round_).delete()
    standings.recompute_event(giog.event.pk)
    again = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event").rows
    assert again == incremental
    assert DealTally.objects.filter(match__round=round_).count() == 2


def test_an_old_giog_event_set_to_captain_confirmation_still_finishes_its_tables(db, committed):
    """Captain confirmation is no longer offered for Giog (no side has a captain); an event set
    to it before works as second-referee confirmation, and its tables finish."""
    builder = EventBuilder(
        "giog", players=8, deals=1, confirmation=Event.Confirmation.CAPTAIN
    ).register()
    event = builder.event
    assert event.result_confirmation == Event.Confirmation.CAPTAIN
    assert event.confirmation == Event.Confirmation.REFEREE
    round_ = builder.draw()
    match = first_table(round_)
    reporter = RefereeLink.objects.create(table=match.table, label="a")
    second = RefereeLink.objects.create(table=match.table, label="b")
    with committed():
        report, _created = submit_report(
            deal_for(match, 1), giog_outcome(4, FOUR), None, Actor(link=reporter)
        )
    assert report.state == DealReport.State.PENDING
    with pytest.raises(ResultError):  # the reporter cannot confirm their own report
        confirm_report(report, Actor(link=reporter), True)
    with committed():
        report = confirm_report(report, Actor(link=second), True)
    assert report.state == DealReport.State.FINAL
    match.refresh_from_db()
    assert match.is_complete and match.points_a is None
    assert not Union.objects.filter(event=event).exists()


def test_a_giog_table_has_no_union_side_to_forfeit(giog):
    match = first_table(giog.draw())
    with pytest.raises(refusals.SeatingRefused):
        forfeits.award_forfeit(match, "A")
    match.refresh_from_db()
    assert match.forfeit == "" and not match.is_complete
