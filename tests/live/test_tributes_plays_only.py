"""Feature tables, issue 50's operator asks: the tribute exchange entered with the hands as
dealt (the engine pays each tribute with the payer's highest cards and checks the returns), and
plays recorded without the hands (checked as far as the engine can; the deal ends with its
finishing order as a summary, which becomes the table's result through the normal path)."""

from __future__ import annotations

import random

import pytest

from matches.games.gouji.engine import play as engine
from matches.games.gouji.engine.cards import RANK_CHARS, format_cards, parse_cards
from matches.games.gouji.engine.exchange import highest
from matches.games.gouji.engine.record import read_record
from matches.games.gouji.engine.replay import initial_state
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.selfplay import deal_hands
from matches.kernel.reports import ResultError
from matches.models import DealReport, LiveDeal
from matches.permissions import Actor
from matches.results import live
from tests.live.conftest import played_deal

pytestmark = pytest.mark.django_db


def _play_whole(feature, number: int, record: dict, actor, marks: bool = False) -> None:
    setup = {"hands": record["hands"], "leader": record["leader"]}
    if marks:
        setup = {"plays_only": True, "leader": record["leader"]}
    live.set_hands(feature, number, setup, actor)
    actions = with_last_marks(record) if marks else record["actions"]
    for seq, action in enumerate(actions, start=1):
        live.add_action(feature, number, {"seq": seq, **action}, actor)


def with_last_marks(record: dict) -> list[dict]:
    """The record's actions, each seat's play that empties its hand marked `"last": true` (what
    an operator who does not know the hands taps)."""
    state = initial_state(read_record({"format": "gouji-deal/1", **record, "actions": []}))
    parsed = read_record({"format": "gouji-deal/1", **record}).actions
    marked = []
    for action, raw in zip(parsed, record["actions"], strict=True):
        state = engine.apply(state, action)
        item = dict(raw)
        if "cards" in raw and not sum(state.hands[raw["seat"]]):
            item["last"] = True
        marked.append(item)
    return marked


def _dealt(seed: int) -> dict[str, str]:
    hands = deal_hands(RuleSet.from_json("standard"), random.Random(seed))
    return {str(seat): format_cards(hands[seat]) for seat in range(1, 7)}


def _lowest(cards: str, count: int) -> str:
    return "".join(sorted(cards, key=RANK_CHARS.index))[:count]


@pytest.fixture
def after_a_deal(featured):
    b, feature = featured(deals=2)
    actor = Actor.from_link(feature.operator_link)
    _play_whole(feature, 1, played_deal(3), actor)
    return b, feature, actor


def test_the_tributes_of_the_deal_before_are_exchanged_by_the_engine(after_a_deal):
    b, feature, actor = after_a_deal
    ledger = live.tributes_owed(feature, 2)
    assert ledger and all(row["cards"] > 0 for row in ledger)
    dealt = _dealt(7)
    # Each receiver gives back its lowest cards (of the hand as dealt, held throughout here).
    held = dict(dealt)
    returns = []
    for row in ledger:
        back = _lowest(held[str(row["to"])], row["cards"])
        held[str(row["to"])] = held[str(row["to"])].replace(back, "", 1)
        returns.append(back)
    deal, created = live.set_hands(
        feature, 2, {"dealt": dealt, "returns": returns, "leader": 1}, actor
    )
    assert created and deal.setup["tributes"] == ledger
    hands = live.standing(feature, deal)["record"]["hands"]
    assert all(len(cards) == 36 for cards in hands.values())
    first = ledger[0]
    paid = format_cards(highest(parse_cards(dealt[str(first["from"])]), first["cards"]))
    top = paid[-1]  # the payer's highest card went to the receiver
    assert hands[str(first["to"])].count(top) > dealt[str(first["to"])].count(top) - 1
    assert hands[str(first["from"])].count(top) < dealt[str(first["from"])].count(top)
    assert sorted("".join(hands.values())) == sorted("".join(dealt.values()))


def test_a_wrong_return_is_refused_with_its_reason_and_nothing_is_stored(after_a_deal):
    b, feature, actor = after_a_deal
    ledger = live.tributes_owed(feature, 2)
    dealt = _dealt(7)
    short = [_lowest(dealt[str(row["to"])], row["cards"])[:-1] for row in ledger]
    with pytest.raises(ResultError) as too_few:
        live.set_hands(feature, 2, {"dealt": dealt, "returns": short, "leader": 1}, actor)
    assert too_few.value.code == "return_size" and too_few.value.status == 422
    receiver = str(ledger[0]["to"])
    missing = next(c for c in "3456789TJQKA" if c not in dealt[receiver])
    wrong = [missing * row["cards"] for row in ledger]
    with pytest.raises(ResultError) as not_held:
        live.set_hands(feature, 2, {"dealt": dealt, "returns": wrong, "leader": 1}, actor)
    assert not_held.value.code == "return_not_held"
    uneven = {**dealt, "1": dealt["1"] + dealt["2"][:1], "2": dealt["2"][1:]}
    with pytest.raises(ResultError) as broken:
        live.set_hands(feature, 2, {"dealt": uneven, "returns": [], "leader": 1}, actor)
    assert (broken.value.rule, broken.value.code) == ("D10", "uneven_deal")
    short_deck = {**dealt, "1": dealt["1"][1:]}
    with pytest.raises(ResultError) as deck:
        live.set_hands(feature, 2, {"dealt": short_deck, "returns": [], "leader": 1}, actor)
    assert deck.value.rule == "R3"
    assert not LiveDeal.objects.filter(number=2).exists()


def test_the_first_deal_owes_nothing_and_an_unknown_deal_before_is_said(featured):
    b, feature = featured(deals=3)
    actor = Actor.from_link(feature.operator_link)
    dealt = _dealt(8)
    deal, _ = live.set_hands(feature, 1, {"dealt": dealt, "leader": 2}, actor)
    assert deal.setup["tributes"] == [] and live.standing(feature, deal)["record"]["hands"] == {
        seat: "".join(sorted(cards, key=RANK_CHARS.index)) for seat, cards in dealt.items()
    }
    with pytest.raises(ResultError) as unknown:
        live.set_hands(feature, 3, {"dealt": dealt, "leader": 2}, actor)
    assert unknown.value.code == "tributes_unknown" and unknown.value.status == 409


def test_declarations_are_part_of_the_setup_and_checked(featured):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    setup = {"hands": record["hands"], "leader": record["leader"]}
    with pytest.raises(ResultError) as special:
        live.set_hands(feature, 1, {**setup, "declarations": {"2": "special"}}, actor)
    assert special.value.rule == "R34"
    deal, _ = live.set_hands(feature, 1, {**setup, "declarations": {"2": "clear"}}, actor)
    assert live.standing(feature, deal)["record"]["declarations"] == {"2": "clear"}


def test_plays_without_hands_end_with_the_engine_finish_as_the_result(featured):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    _play_whole(feature, 1, record, actor, marks=True)
    deal = LiveDeal.objects.get()
    assert deal.completed_at is not None
    assert deal.summary["finish"] == record["claimed"]["finish"]
    assert deal.summary["points"] == record["claimed"]["points"]
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.play_log is None
    assert report.summary["finish"] == record["claimed"]["finish"]
    standing = live.standing(feature, deal)
    assert standing["hands"] == {} and standing["plays_only"]


def test_plays_without_hands_are_checked_as_far_as_the_engine_can(featured):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    live.set_hands(feature, 1, {"plays_only": True, "leader": record["leader"]}, actor)
    wrong_seat = record["leader"] % 6 + 1
    with pytest.raises(ResultError) as turn:
        live.add_action(feature, 1, {"seq": 1, "seat": wrong_seat, "cards": "5"}, actor)
    assert turn.value.rule == "R15"
    leader = record["leader"]
    more = "A" * 16 + "K" * 16 + "Q" * 5  # 37 cards: more than a seat is dealt
    with pytest.raises(ResultError) as too_many:
        live.add_action(feature, 1, {"seq": 1, "seat": leader, "cards": more}, actor)
    assert (too_many.value.rule, too_many.value.code) == ("D10", "played_too_many")
    hands = {"hands": record["hands"], "leader": 1}
    live.set_hands(feature, 2, hands, actor)
    with pytest.raises(ResultError) as marked:
        live.add_action(feature, 2, {"seq": 1, "seat": 1, "cards": "3", "last": True}, actor)
    assert marked.value.code == "malformed"


def test_the_operator_ends_plays_without_hands_with_a_finishing_order(featured):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    live.set_hands(feature, 1, {"plays_only": True, "leader": record["leader"]}, actor)
    for seq, action in enumerate(with_last_marks(record)[:10], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    with pytest.raises(ResultError) as bad:
        live.end_deal(feature, 1, [1, 2, 3, 4, 5, 5], actor)
    assert bad.value.status == 422 and bad.value.rule
    assert LiveDeal.objects.get().completed_at is None
    finish = record["claimed"]["finish"]
    deal = live.end_deal(feature, 1, finish, actor)
    assert deal.summary["finish"] == finish
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.summary["finish"] == finish and report.play_log is None
    with pytest.raises(ResultError) as over:
        live.add_action(feature, 1, {"seq": 11, "seat": 1, "pass": True}, actor)
    assert over.value.code == "deal_over"


def test_spectators_see_a_finishing_order_only_after_the_delay(featured):
    from datetime import timedelta

    from django.utils import timezone

    from matches.public.live import spectator_view

    b, feature = featured(delay=5)
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    live.set_hands(feature, 1, {"plays_only": True, "leader": record["leader"]}, actor)
    for seq, action in enumerate(with_last_marks(record)[:6], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    deal = live.end_deal(feature, 1, record["claimed"]["finish"], actor)
    assert not DealReport.objects.exists()  # the result waits for the delay too
    soon = spectator_view(feature, deal.completed_at + timedelta(minutes=4))
    assert soon["deals"] == []  # nothing before the delay
    later = spectator_view(feature, timezone.now() + timedelta(minutes=6))
    shown = later["deals"][0]
    assert shown["complete"] and shown["finish"] == record["claimed"]["finish"]
    assert len(shown["plays"]) == 6 and "hands" in shown and shown["hands"] == {}


def test_undo_takes_back_the_finishing_order_first(featured):
    b, feature = featured(delay=5)
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    live.set_hands(feature, 1, {"plays_only": True, "leader": record["leader"]}, actor)
    marked = with_last_marks(record)
    for seq, action in enumerate(marked[:4], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    live.end_deal(feature, 1, record["claimed"]["finish"], actor)
    assert live.undo_last(feature, 1, actor) is None  # the order, not a play
    deal = LiveDeal.objects.get()
    assert deal.completed_at is None and deal.summary is None and deal.actions.count() == 4
    live.add_action(feature, 1, {"seq": 5, **marked[4]}, actor)  # play goes on
    assert live.undo_last(feature, 1, actor).seq == 5


@pytest.mark.parametrize("second", [[1, 3, 5, 2, 4, 6], [2, 1, 3, 4, 5, 6]])
def test_r40_counts_the_deals_still_behind_the_delay(featured, second):
    """Three strings of three in a row by one union, all entered here and none final yet (the
    delay): the fourth deal owes no tributes (R40 amnesty). With the second deal not strung,
    the streak is broken and the fourth owes the third's string-three tributes."""
    b, feature = featured(delay=10, deals=4)
    actor = Actor.from_link(feature.operator_link)
    for number, finish in enumerate([[1, 3, 5, 2, 4, 6], second, [3, 1, 5, 4, 2, 6]], start=1):
        live.set_hands(feature, number, {"plays_only": True, "leader": 1}, actor)
        live.end_deal(feature, number, finish, actor)
    assert not DealReport.objects.filter(deal__match=feature.table.match).exists()
    owed = live.tributes_owed(feature, 4)
    if second[:3] == [1, 3, 5]:
        assert owed == []
    else:
        assert owed and {row["kind"] for row in owed} == {"string_three"}
        assert {row["from"] for row in owed} == {2, 4, 6}
