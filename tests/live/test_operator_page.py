"""Issue 50, step 4: the operator's page (the feature table's staff link): the hands as a count
per rank for each seat, then the engine's legal plays as buttons, a wrong typed play answered
with its rule id and nothing stored, undo."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.games.gouji.engine.cards import RANK_CHARS
from matches.models import LiveAction, LiveDeal

pytestmark = pytest.mark.django_db


def hands_form(record) -> dict:
    form = {"leader": str(record["leader"])}
    for seat in record.get("revolution", []):
        form[f"rev{seat}"] = "1"
    for seat, cards in record["hands"].items():
        for char in RANK_CHARS:
            count = cards.count(char)
            if count:
                form[f"h{seat}_{char}"] = str(count)
    return form


def test_an_operator_enters_hands_plays_and_undoes(client, featured, deal_record):
    b, feature = featured(delay=10)
    token = feature.operator_link.token
    page = reverse("referee:link-live", args=[token])
    first = client.get(page)
    assert first.status_code == 200 and 'id="live-hands"' in first.content.decode()
    hands_url = reverse("referee:link-live-hands", args=[token, 1])
    # A typo: a seat with 60 threes is refused with the rule and the form keeps what was typed.
    bad = hands_form(deal_record) | {"h1_3": "60"}
    refused = client.post(hands_url, bad)
    text = refused.content.decode()
    assert refused.status_code == 422 and "R3" in text and 'value="60"' in text
    assert not LiveDeal.objects.exists()
    done = client.post(hands_url, hands_form(deal_record))
    assert done.status_code == 302
    playing = client.get(done["Location"]).content.decode()
    first_play = deal_record["actions"][0]
    assert f'data-cards="{first_play["cards"]}"' in playing  # the engine offers the real play
    action_url = reverse("referee:link-live-action", args=[token, 1])
    # A wrong typed play: the rule id, nothing stored.
    wrong = client.post(action_url, {"seq": "1", "seat": "1", "cards": "RRRR"})
    error = wrong.content.decode().split('id="live-error">')[1].split("</p>")[0]
    assert wrong.status_code == 422 and error.startswith("R15: ")  # seat 6 leads, not seat 1
    assert not LiveAction.objects.exists()
    # The offered play, tapped.
    tap = client.post(
        action_url, {"seq": "1", "seat": str(first_play["seat"]), "cards": first_play["cards"]}
    )
    assert tap.status_code == 302 and LiveAction.objects.count() == 1
    # The same tap again (a double tap): the stale sequence number is refused, not stored twice.
    again = client.post(action_url, {"seq": "1", "seat": "2", "kind": "pass"})
    assert again.status_code == 409 and LiveAction.objects.count() == 1
    client.post(reverse("referee:link-live-undo", args=[token, 1]))
    assert not LiveAction.objects.exists()


def test_a_table_that_is_not_featured_has_no_operator_page(client, featured):
    from matches.models import RefereeLink

    b, feature = featured()
    other = RefereeLink.objects.create(table=b.match(b.latest, 2).table)
    assert client.get(reverse("referee:link-live", args=[other.token])).status_code == 404
    feature.operator_link.revoke()
    assert (
        client.get(reverse("referee:link-live", args=[feature.operator_link.token])).status_code
        == 404
    )


def test_an_eight_seat_deal_in_english(client, build):
    """R44: eight seats, 27 cards each: the hands form has eight seats, the engine's plays come
    from the eight-seat rules, and the whole deal becomes the table's report."""
    from matches.events import features
    from matches.games.gouji.engine.selfplay import selfplay
    from matches.models import DealReport

    b = build(unions=4, deals=1, rules={"preset": "eight-players"})
    round_ = b.round([(0, 1), (2, 3)])
    feature = features.feature_table(b.match(round_, 1).table, 0, "hands", b.organiser)
    record = next(iter(selfplay(1, 7, rules="eight-players")))
    assert len(record["hands"]) == 8 and record["revolution"] == [8]  # seat 8 declared (R29)
    token = feature.operator_link.token
    client.cookies["django_language"] = "en"
    page = client.get(reverse("referee:link-live", args=[token]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert 'data-seat="8"' in text and "Leads first" in text
    done = client.post(reverse("referee:link-live-hands", args=[token, 1]), hands_form(record))
    assert done.status_code == 302
    action_url = reverse("referee:link-live-action", args=[token, 1])
    for seq, action in enumerate(record["actions"], start=1):
        form = {"seq": str(seq), "seat": str(action["seat"])}
        if "cards" in action:
            form["cards"] = action["cards"]
        else:
            form["kind"] = "pass" if action.get("pass") else "yield"
        assert client.post(action_url, form).status_code == 302, (seq, action)
    final = client.get(reverse("referee:link-live", args=[token]) + "?deal=1").content.decode()
    assert 'id="live-complete"' in final and "The deal is over" in final
    report = DealReport.objects.get(deal__match=feature.table.match, deal__number=1)
    assert report.summary["finish"] == record["claimed"]["finish"]
