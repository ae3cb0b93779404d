"""The operator's page in the browser (issue 50): a whole six-seat deal entered on a 390 px
phone in zh-hans from the hands as dealt, with the tribute exchange of the deal before, a
declaration (R34), every play and a burn; plays without hands in en ended by the finishing
order; the board refreshing itself when an action arrives through the API.

With SHOTS_DIR set, the screens are saved at 390 and 1280 px."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from matches.games.gouji.engine.cards import RANK_CHARS, parse_cards
from matches.games.gouji.engine.exchange import exchange
from matches.games.gouji.engine.record import write_record
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.selfplay import play_deal
from matches.models import DealReport, LiveDeal
from matches.permissions import Actor
from matches.results import live
from tests.browser.test_live_tables import _shot, _tap
from tests.live.conftest import play_first_deal, played_deal
from tests.live.test_tributes_plays_only import _dealt, _lowest, with_last_marks

pytestmark = pytest.mark.django_db(transaction=True)
RULES = RuleSet.from_json("standard")


@pytest.fixture
def feature_table(transactional_db):
    from matches.events import features
    from matches.models import Event
    from tests.builder import EventBuilder

    b = EventBuilder(unions=4, deals=2).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    round_ = b.round([(0, 1), (2, 3)])
    return b, features.feature_table(b.match(round_, 1).table, 0, "hands", b.organiser)


def _fill(page, prefix: str, cards: str) -> None:
    for char in RANK_CHARS:
        if cards.count(char):
            page.fill(f'input[name="{prefix}_{char}"]', str(cards.count(char)))


def _second_deal(ledger: list[dict]) -> tuple[dict, list[str], dict]:
    """Hands as dealt, the returns, and a deal played from the hands after the exchange with
    at least one burn."""
    for seed in range(7, 60):
        dealt = _dealt(seed)
        held = dict(dealt)
        returns = []
        for row in ledger:
            back = _lowest(held[str(row["to"])], row["cards"])
            held[str(row["to"])] = held[str(row["to"])].replace(back, "", 1)
            returns.append(back)
        counts = {int(s): parse_cards(c) for s, c in dealt.items()}
        after = exchange(RULES, counts, ledger, [parse_cards(r) for r in returns])
        hands = ((0,) * 15, *(after[s] for s in range(1, 7)))
        record = write_record(play_deal(RULES, random.Random(seed), hands=hands, revolution=()))
        if record["claimed"]["burns"] and len(record["actions"]) < 260:
            return dealt, returns, record
    raise AssertionError("no deal with a burn")


def test_a_whole_deal_from_the_hands_as_dealt_with_the_tributes(
    live_server, phone_page, feature_table
):
    b, feature = feature_table
    actor = Actor.from_link(feature.operator_link)
    play_first_deal(feature, actor)
    ledger = live.tributes_owed(feature, 2)
    dealt, returns, record = _second_deal(ledger)
    page = phone_page
    page.goto(f"{live_server.url}/ref/{feature.operator_link.token}/live/")
    expect(page.locator("#live-tributes")).to_be_visible()
    for seat, cards in dealt.items():
        _fill(page, f"h{seat}", cards)
    for i, back in enumerate(returns):
        _fill(page, f"r{i}", back)
    page.select_option('select[name="dec2"]', "clear")
    page.select_option("#live-leader", str(record["leader"]))
    _shot(page, "operator-tributes-zh-hans-390")
    page.locator("#live-hands-save").click()
    expect(page.locator("#live-choices-h")).to_contain_text(f"轮到 {record['leader']}号")
    expect(page.locator("html")).to_have_attribute("data-live", "up")
    _shot(page, "operator-play-zh-hans-390")
    # From here every tap answers in place: no page loads, and the page's stream does not
    # refetch the board for the notice of its own tap.
    loads, refetches = [], []
    page.on("request", lambda r: r.resource_type == "document" and loads.append(r.url))
    page.on("request", lambda r: "/board" in r.url and refetches.append(r.url))
    deal = LiveDeal.objects.get(number=2)
    assert deal.setup["tributes"] == ledger and deal.setup["declarations"] == {"2": "clear"}
    # A wrong typed play (a seat out of turn): the rule id, nothing stored.
    page.locator(".live-typed > summary").click()
    page.select_option("#live-typed select[name=seat]", str(record["leader"] % 6 + 1))
    page.fill("#live-typed input[name=cards]", "3")
    page.locator("#live-typed button").click()
    expect(page.locator("#live-error")).to_contain_text("R15")
    _shot(page, "operator-wrong-tap-zh-hans-390")
    assert not deal.actions.exists() and loads == []
    expect(page.locator("#live-typed-cards")).to_have_value("3")  # kept to be corrected
    expect(page.locator("#live-typed-cards")).to_be_focused()
    # The first play, tapped, then taken back, then every play of the deal.
    _tap(page, record["actions"][0])
    expect(page.locator("#live-recent li")).to_have_count(1)
    page.locator("#live-undo").click()
    expect(page.locator("#live-recent li")).to_have_count(0)
    for seq, action in enumerate(record["actions"], start=1):
        _tap(page, action)
        if seq < len(record["actions"]):
            expect(page.locator("#live-choices-h")).to_be_visible()
        if seq == 60:
            _shot(page, "operator-mid-deal-zh-hans-390")
    expect(page.locator("#live-complete")).to_contain_text("成绩已提交")
    _shot(page, "operator-complete-zh-hans-390")
    assert loads == [] and len(refetches) < len(record["actions"]) // 4, refetches
    page.reload()  # the address is the deal's: a reload shows the same board
    expect(page.locator("#live-complete")).to_contain_text("成绩已提交")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    assert [row.action for row in deal.actions.all()] == record["actions"]
    assert len(live.standing(feature, deal)["burns"]) >= 1
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=2)
    assert report.summary["finish"] == record["claimed"]["finish"]
    assert report.play_log["declarations"] == {"2": "clear"}
    assert sorted("".join(report.play_log["hands"].values())) == sorted("".join(dealt.values()))


def test_plays_without_hands_in_en_and_the_board_follows_the_api(
    live_server, browser, feature_table
):
    b, feature = feature_table
    record = played_deal(3)
    marked = with_last_marks(record)
    context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(30_000)
    path = f"/ref/{feature.operator_link.token}/live/"
    page.goto(f"{live_server.url}/lang/?language=en&next={path}")
    page.locator("#mode-plays").click()
    page.select_option("#live-leader", str(record["leader"]))
    page.locator("#live-hands-save").click()
    expect(page.locator("#live-built")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-live", "up")
    # The API records the first actions: the page follows without a reload.
    actor = Actor.from_link(feature.operator_link)
    for seq, action in enumerate(marked[:3], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    expect(page.locator("#live-recent li")).to_have_count(3)
    # The next ones built on the page: a rank, a count, 2s and jokers.
    for seq, action in enumerate(marked[3:8], start=4):
        if "cards" in action:
            cards = action["cards"]
            natural = [c for c in cards if c in RANK_CHARS[:12]]
            rank = natural[0] if natural else "2"
            form = page.locator("#live-built")
            form.locator('select[name="seat"]').select_option(str(action["seat"]))
            form.locator('select[name="rank"]').select_option(rank)
            form.locator('input[name="count"]').fill(str(cards.count(rank)))
            form.locator('input[name="twos"]').fill(str(cards.count("2") if rank != "2" else 0))
            form.locator('input[name="small"]').fill(str(cards.count("B")))
            form.locator('input[name="big"]').fill(str(cards.count("R")))
            form.locator("#live-built-play").click()
        else:
            kind = "pass" if action.get("pass") else "yield"
            page.locator(f'#live-turn-other button[data-kind="{kind}"]').click()
        expect(page.locator("#live-recent li")).to_have_count(seq)
    _shot(page, "operator-plays-only-en-390")
    page.locator("#live-end > summary").click()
    for place, seat in enumerate(record["claimed"]["finish"]):
        page.locator('#live-end select[name="place"]').nth(place).select_option(str(seat))
    page.locator("#live-end-save").click()
    expect(page.locator("#live-complete")).to_be_visible()
    expect(page.locator("#live-summary")).to_contain_text("finishing order")
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.summary["finish"] == record["claimed"]["finish"] and report.play_log is None
    _shot(page, "operator-plays-only-ended-en-390")
    context.close()


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_hands_form_with_tributes_fits(live_server, browser, feature_table, width, language):
    b, feature = feature_table
    actor = Actor.from_link(feature.operator_link)
    play_first_deal(feature, actor)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    path = f"/ref/{feature.operator_link.token}/live/"
    page.goto(f"{live_server.url}/lang/?language={language}&next={path}")
    expect(page.locator("#live-tributes")).to_be_visible()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    _shot(page, f"operator-tributes-{language}-{width}")
    page.goto(f"{live_server.url}{path}?deal=2&mode=plays")
    expect(page.locator("#live-hands")).to_be_visible()
    _shot(page, f"operator-plays-form-{language}-{width}")
    context.close()


def test_an_eight_seat_deal_in_en(live_server, browser, transactional_db):
    """An operator enters a whole eight-seat deal (八人够级, 27 cards a seat) on a 390 px phone
    in en: the hands, every play (two burns on the way), the finish."""
    from matches.events import features
    from matches.games.gouji.engine.selfplay import selfplay
    from matches.models import Event
    from tests.builder import EventBuilder

    b = EventBuilder(unions=4, deals=1, rules={"preset": "eight-players"}).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    round_ = b.round([(0, 1), (2, 3)])
    feature = features.feature_table(b.match(round_, 1).table, 0, "hands", b.organiser)
    record = next(iter(selfplay(1, 9, rules="eight-players")))  # 266 actions, two burns
    context = browser.new_context(
        locale="en-GB", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    path = f"/ref/{feature.operator_link.token}/live/"
    page.goto(f"{live_server.url}/lang/?language=en&next={path}")
    expect(page.locator("#live-hands fieldset.live-seat")).to_have_count(8)
    for seat, cards in record["hands"].items():
        _fill(page, f"h{seat}", cards)
    page.select_option("#live-leader", str(record["leader"]))
    page.locator("#live-hands-save").click()
    expect(page.locator("#live-choices-h")).to_contain_text(f"Seat {record['leader']}")
    for seq, action in enumerate(record["actions"], start=1):
        _tap(page, action)
        if seq < len(record["actions"]):
            expect(page.locator("#live-choices-h")).to_be_visible()
        if seq == 100:
            _shot(page, "operator-eight-seats-en-390")
    expect(page.locator("#live-complete")).to_contain_text("Result submitted")
    deal = LiveDeal.objects.get()
    assert len(live.standing(feature, deal)["burns"]) == 2
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.summary["finish"] == record["claimed"]["finish"]
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    context.close()


def test_a_pooled_place_tribute_on_the_phone(live_server, browser, transactional_db):
    """R38 `pool` at 390 px in zh-hans: the payers put in, the 1st picks from the pool, the 2nd
    leaves its pick empty (the rest), each returns to its payer; the deal starts. The same form
    in en and at 1280 px is only looked at (SHOTS_DIR)."""
    from matches.events import features
    from matches.models import Event
    from tests.builder import EventBuilder
    from tests.live.test_pool_and_buy_three import POOL, _pool_setup

    b = EventBuilder(unions=4, deals=2, rules=POOL).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    round_ = b.round([(0, 1), (2, 3)])
    feature = features.feature_table(b.match(round_, 1).table, 0, "hands", b.organiser)
    actor = Actor.from_link(feature.operator_link)
    play_first_deal(feature, actor)
    owed = live.tributes_owed(feature, 2)
    dealt = _dealt(11)
    pool, returns = _pool_setup(owed, dealt)
    path = f"/ref/{feature.operator_link.token}/live/"
    for width, language in [(1280, "en"), (390, "en"), (1280, "zh-hans"), (390, "zh-hans")]:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{live_server.url}/lang/?language={language}&next={path}")
        expect(page.locator("#live-tributes")).to_be_visible()
        if language == "zh-hans" and width == 390:
            break
        _shot(page, f"operator-pool-{language}-{width}")
        context.close()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    expect(page.locator("#live-tributes")).to_contain_text("贡牌池")
    for seat, cards in dealt.items():
        _fill(page, f"h{seat}", cards)
    first_pick = next(i for i, row in enumerate(owed) if row.get("pool") == "pick")
    _fill(page, f"p{first_pick}", pool[:2])
    for i, back in enumerate(returns):
        if back:
            _fill(page, f"r{i}", back)
    _shot(page, "operator-pool-zh-hans-390")
    page.click("#live-hands-save")
    expect(page.locator("#live-choices-h")).to_contain_text("轮到 1号")
    assert LiveDeal.objects.get(feature=feature, number=2).setup["picks"] == [pool[:2]]
    context.close()
