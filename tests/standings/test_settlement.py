"""Deal scores, tribute ledgers and match results against hand-computed examples."""

from __future__ import annotations

from matches.games.gouji.engine.verdict import ledger_to_json
from matches.models import Deal, DealTally, Match, Stage
from matches.standings import service as standings


def tally(match, number):
    """Deal `number`'s tally as the game reads it (its adapter: places, scores, `GoujiTally`)."""
    row = DealTally.objects.get(deal__match=match, deal__number=number)
    return match.round.event.adapter.read_tally(row)


def tallies(match):
    return {
        row.deal.number: match.round.event.adapter.read_tally(row)
        for row in DealTally.objects.filter(match=match).select_related("deal")
    }


def ledger(tally):
    return ledger_to_json(tally.detail.tributes)


STRING_A = [1, 3, 5, 2, 4, 6]  # union A (seats 1-3-5) takes 1st, 2nd, 3rd: ±12
B_BY_TWO = [2, 1, 4, 3, 6, 5]  # A: +1 +0 -2 = -1, B: +2 +0 -1 = +1 → A -2, B +2
A_BY_TWO = [1, 2, 3, 4, 5, 6]  # A: +2 +0 -1 = +1, B: +1 +0 -2 = -1 → A +2, B -2


def test_string_three_scores_twelve_and_the_losers_pay_their_head_rivals(build):
    b = build(unions=2, deals=2)
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, STRING_A, points=[1, 3, 5])
    standings.settle_match(match.pk)
    first = tally(match, 1)
    assert (first.score_a, first.score_b, first.detail.strung) == (12, -12, "A")
    assert first.places == tuple((seat,) for seat in STRING_A)
    assert first.detail.points == (1, 3, 5) and first.detail.streak == 0
    # R39: each loser owes their head rival one card, lowest place first: 6→3, 4→1, 2→5.
    expected = [
        {"from": 6, "to": 3, "kind": "string_three", "cards": 1},
        {"from": 4, "to": 1, "kind": "string_three", "cards": 1},
        {"from": 2, "to": 5, "kind": "string_three", "cards": 1},
    ]
    assert ledger(first) == expected
    deals = {d.number: d for d in match.deals.all()}
    assert deals[1].tributes_owed == []  # a fresh table owes nothing
    assert deals[2].tributes_owed == expected  # the referee sees it before deal 2 starts


def test_point_and_place_tributes_in_paying_order(build):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, B_BY_TWO, points=[2, 1])
    standings.settle_match(match.pk)
    first = tally(match, 1)
    assert (first.score_a, first.score_b, first.detail.strung) == (-2, 2, None)
    # R35: seats 3, 4, 5, 6 opened no point and owe their head rivals one card each;
    # R38: 6th (seat 5) owes 1st (seat 2) two, 5th (seat 6) owes 2nd (seat 1) one; R42 order.
    assert ledger(first) == [
        {"from": 3, "to": 6, "kind": "point", "cards": 1},
        {"from": 4, "to": 1, "kind": "point", "cards": 1},
        {"from": 5, "to": 2, "kind": "point", "cards": 1},
        {"from": 6, "to": 3, "kind": "point", "cards": 1},
        {"from": 5, "to": 2, "kind": "place", "cards": 2},
        {"from": 6, "to": 1, "kind": "place", "cards": 1},
    ]


def test_match_result_and_points_once_every_deal_is_final(build):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, STRING_A, points=[1, 3, 5])
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert match.points_a is None and match.score_a is None  # deal 2 still to come
    b.final(match, 2, B_BY_TWO, points=[2, 1])
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert (match.score_a, match.score_b) == (10, -10)
    assert (match.points_a, match.points_b) == (3, 0)


def test_a_drawn_swiss_match_gives_both_the_draw_points(build):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, A_BY_TWO, points=[1])
    b.final(match, 2, B_BY_TWO, points=[2])
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.points_a, match.points_b) == (0, 0, 1, 1)
    assert not match.deals.filter(is_extra=True).exists()


def test_amnesty_after_three_strings_in_a_row(build):
    b = build(unions=2, deals=4)
    match = b.match(b.round([(0, 1)]), 1)
    for number in (1, 2, 3):
        b.final(match, number, STRING_A, points=[1, 3, 5])
    standings.settle_match(match.pk)
    read = tallies(match)
    assert [read[k].detail.streak for k in (1, 2, 3)] == [0, 1, 2]
    assert read[2].detail.tributes and read[3].detail.tributes == ()  # R40: deal 4 is free
    assert match.deals.get(number=4).tributes_owed == []


def test_a_correction_of_deal_one_carries_into_the_later_deals(build):
    b = build(unions=2, deals=4)
    match = b.match(b.round([(0, 1)]), 1)
    for number in (1, 2, 3):
        b.final(match, number, STRING_A, points=[1, 3, 5])
    standings.settle_match(match.pk)
    assert match.deals.get(number=4).tributes_owed == []
    b.final(match, 1, B_BY_TWO, points=[2, 1])  # corrected: deal 1 was not a string
    standings.settle_match(match.pk)
    read = tallies(match)
    assert [read[k].detail.streak for k in (1, 2, 3)] == [0, 0, 1]
    assert match.deals.get(number=2).tributes_owed == ledger(read[1])
    # Deal 3 strung three after only one string before it: no amnesty, the losers pay.
    assert len(match.deals.get(number=4).tributes_owed) == 3


def test_a_tied_knockout_match_gets_extra_deals_until_decided(build):
    b = build(unions=2, deals=2, fmt=Stage.Format.SINGLE_ELIMINATION)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, A_BY_TWO, points=[1])
    b.final(match, 2, B_BY_TWO, points=[2])
    standings.settle_match(match.pk)
    match.refresh_from_db()
    extra = match.deals.get(number=3)
    assert extra.is_extra and match.points_a is None
    assert extra.tributes_owed == ledger(tally(match, 2)) != []
    b.final(match, 3, B_BY_TWO, points=[2])
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.points_a, match.points_b) == (-2, 2, 0, 3)


def test_extra_deals_come_in_blocks_of_tie_break_deals(build):
    b = build(unions=2, deals=2, fmt=Stage.Format.SINGLE_ELIMINATION, tie_break_deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, A_BY_TWO)
    b.final(match, 2, B_BY_TWO)
    standings.settle_match(match.pk)
    assert sorted(match.deals.filter(is_extra=True).values_list("number", flat=True)) == [3, 4]
    b.final(match, 3, A_BY_TWO)
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert match.points_a is None  # the block of two is not finished
    b.final(match, 4, A_BY_TWO)
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert (match.score_a, match.points_a, match.points_b) == (4, 3, 0)


def test_a_correction_that_decides_a_knockout_match_removes_the_unplayed_extra_deal(build):
    b = build(unions=2, deals=2, fmt=Stage.Format.SINGLE_ELIMINATION)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, A_BY_TWO)
    b.final(match, 2, B_BY_TWO)
    standings.settle_match(match.pk)
    assert match.deals.filter(is_extra=True).count() == 1
    b.final(match, 2, A_BY_TWO)
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert not match.deals.filter(is_extra=True).exists()
    assert (match.score_a, match.points_a) == (4, 3)


def test_settling_twice_changes_nothing(build):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, STRING_A, points=[1, 3, 5])
    b.final(match, 2, B_BY_TWO, points=[2, 1])
    standings.settle_match(match.pk)
    first = list(DealTally.objects.filter(match=match).values())
    owed = list(Deal.objects.filter(match=match).values_list("number", "tributes_owed"))
    standings.settle_match(match.pk)
    assert list(DealTally.objects.filter(match=match).values()) == first
    assert list(Deal.objects.filter(match=match).values_list("number", "tributes_owed")) == owed
    assert Match.objects.get(pk=match.pk).points_a == 3


def test_a_play_logs_ledger_comes_from_its_replay_with_the_amnesty_applied_here(build):
    from matches.models import DealReport

    b = build(unions=2, deals=4)
    match = b.match(b.round([(0, 1)]), 1)
    replayed = [{"from": 4, "to": 1, "kind": "string_three", "cards": 1}]  # what the replay said
    for number in (1, 2, 3):
        report = b.final(match, number, STRING_A, points=[1, 3, 5])
        # Written around the results service on purpose: a stored replay verdict with a ledger
        # of our choosing shows the settlement reads the replay's ledger and does not recompute
        # it (three self-played deals that string three in a row are not to be had cheaply).
        DealReport.objects.filter(pk=report.pk).update(
            play_log={"format": "gouji-deal/1"}, verdict={"replay": {"tributes": replayed}}
        )
    standings.settle_match(match.pk)
    owed = {d.number: d.tributes_owed for d in match.deals.all()}
    assert owed[2] == replayed and owed[3] == replayed
    assert owed[4] == []  # R40: third string in a row, whatever the replay's ledger


def test_an_unreadable_final_report_counts_as_missing(build):
    from matches.models import DealReport

    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, A_BY_TWO)
    standings.settle_match(match.pk)
    broken = b.final(match, 1, B_BY_TWO)  # a correction must change the result
    # A corrupt row, which the service would never store: the test is about reading one.
    DealReport.objects.filter(pk=broken.pk).update(
        summary={"format": "gouji-outcome/1"}
    )  # no finish
    b.final(match, 2, B_BY_TWO)
    standings.settle_match(match.pk)
    assert not DealTally.objects.filter(deal__match=match, deal__number=1).exists()
    assert match.deals.get(number=2).tributes_owed is None  # unknown, not "nothing"
    match.refresh_from_db()
    assert match.points_a is None
