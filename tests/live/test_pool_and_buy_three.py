"""Feature tables: a pooled place tribute (R38 `pool`) and buying a 3 (R28) entered with the hands
as dealt. The engine puts each payer's highest cards into the pool, the winners pick theirs in
order of place and return as many to the payer of their rank; a seat holding no 3 under hold-3
buys one, and the page says so. Service, API and operator page."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from matches.games.gouji.engine.cards import RANK_CHARS, format_cards, parse_cards
from matches.games.gouji.engine.exchange import highest
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.selfplay import deal_hands
from matches.kernel.reports import ResultError
from matches.models import LiveDeal
from matches.permissions import Actor
from matches.results import live
from tests.live.conftest import play_first_deal

pytestmark = pytest.mark.django_db

POOL = {"preset": "standard", "place_tribute": "pool"}
HOLD3 = {"preset": "qingdao-hold3"}


def _dealt(rules: str, seed: int) -> dict[str, str]:
    hands = deal_hands(RuleSet.from_json(rules), random.Random(seed))
    return {str(seat): format_cards(hands[seat]) for seat in range(1, 7)}


def _lowest(cards: str, count: int) -> str:
    return "".join(sorted(cards, key=RANK_CHARS.index))[:count]


@pytest.fixture
def pooled(featured):
    """Deal 1 played whole at a table whose event pools the place tribute."""
    b, feature = featured(deals=2, rules=POOL)
    actor = Actor.from_link(feature.operator_link)
    play_first_deal(feature, actor)
    owed = live.tributes_owed(feature, 2)
    puts = [row for row in owed if row.get("pool") == "put"]
    picks = [row for row in owed if row.get("pool") == "pick"]
    assert len(puts) == len(picks) == 2, owed  # 6th and 5th put in; 1st and 2nd pick
    return feature, actor, owed


def _pool_setup(owed: list[dict], dealt: dict[str, str]) -> tuple[str, list[str]]:
    """(the pool, the returns: each picker its lowest cards as dealt, nothing for a payer)."""
    pool = ""
    for row in owed:
        if row.get("pool") == "put":
            pool += format_cards(highest(parse_cards(dealt[str(row["from"])]), row["cards"]))
    returns = [
        "" if row.get("pool") == "put" else _lowest(dealt[str(row["to"])], row["cards"])
        for row in owed
    ]
    return pool, returns


def test_a_pooled_place_tribute_is_put_in_picked_and_returned(pooled):
    feature, actor, owed = pooled
    dealt = _dealt("standard", 11)
    pool, returns = _pool_setup(owed, dealt)
    first, second = [row for row in owed if row.get("pool") == "pick"]
    payers = [row["from"] for row in owed if row.get("pool") == "put"]
    chosen = _lowest(pool, first["cards"])  # 1st picks the lowest two; 2nd takes the rest
    setup = {"dealt": dealt, "returns": returns, "picks": [chosen], "leader": 1}
    deal, created = live.set_hands(feature, 2, setup, actor)
    assert created
    hands = live.standing(feature, deal)["record"]["hands"]
    assert all(len(cards) == 36 for cards in hands.values())  # every seat keeps its share
    assert sorted("".join(hands.values())) == sorted("".join(dealt.values()))
    rest = "".join(sorted(pool, key=RANK_CHARS.index))[first["cards"] :]

    def gained(seat: int) -> str:
        have, had = parse_cards(hands[str(seat)]), parse_cards(dealt[str(seat)])
        return format_cards(tuple(max(a - b, 0) for a, b in zip(have, had, strict=True)))

    assert sorted(gained(first["to"])) == sorted(chosen)
    assert sorted(gained(second["to"])) == sorted(rest)
    # The 1st's return goes to the 6th (payers[0]), the 2nd's to the 5th: the ranked pairs.
    assert sorted(returns[owed.index(first)]) == sorted(gained(payers[0]))


def test_a_pick_the_pool_cannot_give_is_refused_with_r38(pooled):
    feature, actor, owed = pooled
    dealt = _dealt("standard", 11)
    pool, returns = _pool_setup(owed, dealt)
    absent = next(c for c in "3456789" if c not in pool)
    base = {"dealt": dealt, "returns": returns, "leader": 1}
    with pytest.raises(ResultError) as not_there:
        live.set_hands(feature, 2, {**base, "picks": [absent * 2]}, actor)
    assert (not_there.value.rule, not_there.value.code) == ("R38", "pick_not_in_pool")
    assert not_there.value.status == 422
    with pytest.raises(ResultError) as size:
        live.set_hands(feature, 2, {**base, "picks": [pool[:1]]}, actor)
    assert (size.value.rule, size.value.code) == ("R38", "pick_size")
    assert not LiveDeal.objects.filter(number=2).exists()


def test_the_api_takes_the_picks_with_the_hands_as_dealt(pooled, client):
    feature, _actor, owed = pooled
    dealt = _dealt("standard", 11)
    pool, returns = _pool_setup(owed, dealt)
    url = reverse("api:live-hands", args=[feature.table_id, 2])
    auth = {"HTTP_AUTHORIZATION": f"Referee {feature.operator_link.token}"}
    body = {"dealt": dealt, "returns": returns, "picks": [pool[:2]], "leader": 1}
    wrong = client.post(url, {**body, "picks": ["33"]}, content_type="application/json", **auth)
    assert wrong.status_code == 422 and wrong.json()["error"]["rule"] == "R38"
    done = client.post(url, body, content_type="application/json", **auth)
    assert done.status_code == 201, done.content
    picks_alone = client.post(
        url, {"hands": dealt, "picks": ["33"], "leader": 1}, content_type="application/json", **auth
    )
    assert picks_alone.status_code == 400


def test_the_operator_page_enters_the_pool(pooled, client):
    feature, _actor, owed = pooled
    token = feature.operator_link.token
    page = client.get(reverse("referee:link-live", args=[token]) + "?deal=2&mode=dealt")
    html = page.content.decode()
    assert "贡牌池" in html and 'name="p' in html
    dealt = _dealt("standard", 11)
    pool, returns = _pool_setup(owed, dealt)
    form = {"mode": "dealt", "leader": "1"}
    for seat, cards in dealt.items():
        form.update({f"h{seat}_{c}": str(cards.count(c)) for c in set(cards)})
    for i, row in enumerate(owed):
        if row.get("pool") != "put":
            form.update({f"r{i}_{c}": str(returns[i].count(c)) for c in set(returns[i])})
    first = next(i for i, row in enumerate(owed) if row.get("pool") == "pick")
    absent = next(c for c in "3456789" if c not in pool)
    url = reverse("referee:link-live-hands", args=[token, 2])
    refused = client.post(url, {**form, f"p{first}_{absent}": "2"})
    assert refused.status_code == 422 and "R38" in refused.content.decode()
    chosen = pool[:2]
    picked = {f"p{first}_{c}": str(chosen.count(c)) for c in set(chosen)}
    assert client.post(url, {**form, **picked}).status_code == 302  # the last picker: the rest
    assert LiveDeal.objects.filter(feature=feature, number=2).exists()


def _without_threes(seed: int) -> dict[str, str]:
    """A whole deal in which seat 1 holds no 3: its 3s swapped with seat 4's aces."""
    dealt = _dealt("qingdao-hold3", seed)
    threes = dealt["1"].count("3")
    assert dealt["4"].count("A") >= threes
    dealt["1"] = dealt["1"].replace("3", "") + "A" * threes
    dealt["4"] = dealt["4"].replace("A", "", threes) + "3" * threes
    return dealt


def test_a_seat_without_a_3_buys_one_from_its_head_rival(featured, client):
    b, feature = featured(rules=HOLD3)
    actor = Actor.from_link(feature.operator_link)
    dealt = _without_threes(5)
    deal, _ = live.set_hands(feature, 1, {"dealt": dealt, "leader": 1}, actor)
    play = live.standing(feature, deal)
    assert play["error"] is None
    hands = play["record"]["hands"]
    assert hands["1"].count("3") == 1 and hands["4"].count("3") == dealt["4"].count("3") - 1
    paid = play["bought"][0]["paid"]
    assert play["bought"] == [{"buyer": 1, "seller": 4, "paid": paid}]
    assert paid in "2BR" and hands["1"].count(paid) == dealt["1"].count(paid) - 1
    assert all(len(cards) == 36 for cards in hands.values())
    page = client.get(reverse("referee:link-live", args=[feature.operator_link.token]))
    assert "1号向 4号买了一张 3" in page.content.decode()


def test_without_hold_three_nobody_buys(featured):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    dealt = _without_threes(5)
    deal, _ = live.set_hands(feature, 1, {"dealt": dealt, "leader": 1}, actor)
    play = live.standing(feature, deal)
    assert play["bought"] == [] and "3" not in play["record"]["hands"]["1"]
