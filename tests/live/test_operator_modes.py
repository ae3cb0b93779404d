"""The operator's page (issue 50): the hands as dealt with the tribute exchange and the R34
declarations, plays without hands ended by a finishing order, and the board refetched when an
action arrives by another way (the API, a second phone)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.games.gouji.engine.cards import RANK_CHARS
from matches.models import DealReport, LiveDeal
from matches.permissions import Actor
from matches.results import live
from tests.live.conftest import play_first_deal, played_deal
from tests.live.test_operator_page import hands_form
from tests.live.test_tributes_plays_only import _dealt, _lowest, with_last_marks

pytestmark = pytest.mark.django_db


def test_the_hands_as_dealt_with_the_tributes_and_a_declaration(client, featured):
    b, feature = featured(deals=2)
    actor = Actor.from_link(feature.operator_link)
    play_first_deal(feature, actor)
    token = feature.operator_link.token
    page = client.get(reverse("referee:link-live", args=[token]) + "?deal=2")
    text = page.content.decode()
    ledger = live.tributes_owed(feature, 2)
    assert 'id="live-tributes"' in text and 'aria-current="true" id="mode-dealt"' in text
    assert text.count('class="live-seat live-tribute"') == len(ledger)
    dealt = _dealt(7)
    form = hands_form({"hands": dealt, "leader": 1}) | {"mode": "dealt", "dec2": "clear"}
    held = dict(dealt)
    for i, row in enumerate(ledger):
        back = _lowest(held[str(row["to"])], row["cards"])
        held[str(row["to"])] = held[str(row["to"])].replace(back, "", 1)
        for char in set(back):
            form[f"r{i}_{char}"] = str(back.count(char))
    wrong = dict(form) | {"r0_3": "9"}
    refused = client.post(reverse("referee:link-live-hands", args=[token, 2]), wrong)
    assert refused.status_code == 422 and 'id="live-error"' in refused.content.decode()
    assert 'value="9"' in refused.content.decode()  # what was typed comes back
    done = client.post(reverse("referee:link-live-hands", args=[token, 2]), form)
    assert done.status_code == 302
    deal = LiveDeal.objects.get(number=2)
    assert deal.setup["declarations"] == {"2": "clear"} and deal.setup["tributes"] == ledger
    assert sorted("".join(live.standing(feature, deal)["record"]["hands"].values())) == sorted(
        "".join(dealt.values())
    )


def test_plays_without_hands_on_the_page_end_with_a_finishing_order(client, featured):
    b, feature = featured()
    token = feature.operator_link.token
    record = played_deal(3)
    form = {"mode": "plays", "leader": str(record["leader"])}
    assert client.post(reverse("referee:link-live-hands", args=[token, 1]), form).status_code == 302
    page = client.get(reverse("referee:link-live", args=[token])).content.decode()
    assert 'id="live-built"' in page and 'id="live-end"' in page and "data-cards" not in page
    action_url = reverse("referee:link-live-action", args=[token, 1])
    for seq, action in enumerate(with_last_marks(record)[:12], start=1):
        post = {"seq": str(seq), "seat": str(action["seat"])}
        if "cards" in action:
            cards = action["cards"]
            natural = [c for c in cards if c in RANK_CHARS[:12]]
            rank = natural[0] if natural else "2"
            post |= {
                "kind": "built",
                "rank": rank,
                "count": str(cards.count(rank)),
                "twos": str(cards.count("2") if rank != "2" else 0),
                "small": str(cards.count("B")),
                "big": str(cards.count("R")),
            }
            if action.get("last"):
                post["last"] = "1"
        else:
            post["kind"] = "pass" if action.get("pass") else "yield"
        assert client.post(action_url, post).status_code == 302, (seq, action)
    deal = LiveDeal.objects.get()
    assert deal.actions.count() == 12
    wrong = client.post(action_url, {"seq": "13", "seat": "9", "kind": "pass"})
    assert wrong.status_code in (400, 422)
    end_url = reverse("referee:link-live-end", args=[token, 1])
    twice = client.post(end_url, {"place": ["1", "1", "2", "3", "4", "5"]})
    assert twice.status_code == 422 and 'id="live-error"' in twice.content.decode()
    finish = record["claimed"]["finish"]
    ended = client.post(end_url, {"place": [str(s) for s in finish]})
    assert ended.status_code == 302
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.summary["finish"] == finish
    shown = client.get(reverse("referee:link-live", args=[token]) + "?deal=1").content.decode()
    assert 'id="live-complete"' in shown and 'id="live-summary"' in shown


def test_the_board_is_refetched_only_when_the_deal_moved(client, featured, deal_record):
    b, feature = featured()
    token = feature.operator_link.token
    actor = Actor.from_link(feature.operator_link)
    board = reverse("referee:link-live-board", args=[token, 1])
    # The hands' form: nothing to do until the deal starts, then the page reloads itself.
    assert client.get(board + "?form=hands").status_code == 204
    live.set_hands(
        feature, 1, {"hands": deal_record["hands"], "leader": deal_record["leader"]}, actor
    )
    started = client.get(board + "?form=hands")
    assert started.status_code == 200 and started["HX-Refresh"] == "true"
    page = client.get(reverse("referee:link-live", args=[token])).content.decode()
    assert f'hx-get="{board}?v=0.0.0.0"' in page and 'hx-trigger="live from:body' in page
    assert client.get(board + "?v=0.0.0.0").status_code == 204
    row, _created, _play = live.add_action(
        feature, 1, {"seq": 1, **deal_record["actions"][0]}, actor
    )  # the API's
    fresh = client.get(board + "?v=0.0.0.0")
    text = fresh.content.decode()
    assert fresh.status_code == 200 and 'id="live-board"' in text and "<html" not in text
    assert f'hx-get="{board}?v=1.{row.pk}.0.0"' in text and text.count("<li value=") == 1


def test_the_page_wants_the_whole_deck(client, featured, deal_record):
    b, feature = featured()
    token = feature.operator_link.token
    form = hands_form(deal_record)
    seat, char = next((s, c) for s, cards in deal_record["hands"].items() for c in cards[:1])
    form[f"h{seat}_{char}"] = str(int(form[f"h{seat}_{char}"]) - 1)  # a seat typed one short
    refused = client.post(reverse("referee:link-live-hands", args=[token, 1]), form)
    assert refused.status_code == 422 and "R3" in refused.content.decode()
    assert not LiveDeal.objects.exists()
