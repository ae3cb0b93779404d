"""Six-seat words at an eight-seat table, and the reverse (issue 36): a union of four strings four
(串四户, R47/D22), its tribute is 串四户贡, the places after it are filled "after the string of
four" (D13), side A sits on 1-2-3-4 (R44), and the names of the sides carry no seat numbers.
Every seat count comes from the event's rule set (`adapter.table_shape(event)`)."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches.draw.listing import by_name
from matches.games.gouji import referee_form
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.viewer import deal_viewer
from matches.models import Deal, Event, MatchSide
from matches.permissions import Actor
from matches.results.correct import correct_result, recheck_deal
from matches.standings import breaks
from tests.builder import outcome

pytestmark = pytest.mark.django_db

EIGHT = {"preset": "eight-players"}
FOUR_A = [1, 2, 3, 4, 5, 6, 7, 8]  # union A (seats 1-4) strings four
THREE_A = [1, 3, 5, 2, 4, 6]  # union A (seats 1-3-5) strings three


def strung_log(rules: str, deals: int, seed: int) -> dict:
    """A self-played deal that ends with a string (D13: the other places filled after it)."""
    size = 8 if rules == "eight-players" else 6
    for record in selfplay(deals, seed, rules):
        finish = record["claimed"]["finish"]
        if len({seat % 2 for seat in finish[:3]}) == 1 if size == 6 else max(finish[:4]) <= 4:
            return record
    raise AssertionError("no strung deal in the sample")


def last_events(event, record) -> list[str]:
    viewer = deal_viewer(event, record)
    assert viewer is not None
    return [text for step in viewer["steps"] for text in step["events"]]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_viewer_fills_places_after_a_string_of_four_or_of_three(build, language):
    eight = build(unions=2, rules=EIGHT).event
    six = build(unions=2).event
    with translation.override(language):
        at_eight = " ".join(last_events(eight, strung_log("eight-players", 40, 3)))
        at_six = " ".join(last_events(six, strung_log("standard", 60, 1)))
    four, three = {
        "zh-hans": ("串四户后", "串三户后"),
        "en": ("After the string of four", "After the string of three"),
    }[language]
    assert four in at_eight and three not in at_eight
    assert three in at_six and four not in at_six


def test_the_string_tribute_is_named_for_the_table(build, client):
    b = build(unions=2, rules=EIGHT)
    match = b.match(b.round([(0, 1)]), 1)
    report = b.final(match, 1, FOUR_A)
    rows = referee_form.summary_context(report, {})["tributes"]
    assert {row["kind"] for row in rows} == {"串四户贡"} and len(rows) == 4  # R49: four pairs
    page = client.get(f"/events/{b.event.pk}/rounds/1/tables/1/").content.decode()
    assert "串四户贡" in page and "串三户贡" not in page

    s = build(unions=2, name="六人赛")
    six_match = s.match(s.round([(0, 1)]), 1)
    rows = referee_form.summary_context(s.final(six_match, 1, THREE_A), {})["tributes"]
    assert {row["kind"] for row in rows} == {"串三户贡"} and len(rows) == 3
    with translation.override("en"):
        assert referee_form.tribute_kind("string_three", 8) == "String-of-four tribute"
        assert referee_form.tribute_kind("string_three", 6) == "String-of-three tribute"


def test_the_wall_listing_names_the_seats_of_the_table(build, client):
    b = build(unions=2, rules=EIGHT)
    round_ = b.round([(0, 1)])
    seats = {row["name"]: row["seats"] for row in by_name(round_)}
    assert sorted(seats.values()) == ["1-2-3-4", "5-6-7-8"]
    page = client.get(f"/events/{b.event.pk}/rounds/1/projector/").content.decode()
    assert "1-2-3-4" in page and "1-3-5" not in page
    s = build(unions=2, name="六人赛")
    assert sorted(row["seats"] for row in by_name(s.round([(0, 1)]))) == ["1-3-5", "2-4-6"]


def test_the_names_of_the_sides_carry_no_seat_numbers():
    for side in (MatchSide.Side.A, MatchSide.Side.B):
        assert not any(ch.isdigit() for ch in str(side.label)), side.label
    with translation.override("en"):
        assert str(MatchSide.Side.A.label) == "Side A"


def test_a_break_names_the_string_tie_break_for_the_table(build):
    eight, six = build(unions=2, rules=EIGHT).event, build(unions=2).event
    assert breaks._label("strings_of_three", eight) == "串四户"
    assert breaks._label("strings_of_three", six) == "串三户"
    with translation.override("en"):
        assert breaks._label("strings_of_three", eight) == "Strings of four"


def test_a_recheck_at_eight_seats_names_the_string_of_four(build):
    """R40 at eight seats: three strings of four in a row, the first corrected; the recheck of
    the third stores its reason with 串四户."""
    b = build(unions=2, deals=3, rules=EIGHT)
    match = b.match(b.round([(0, 1)]), 1)
    for number in (1, 2, 3):
        b.final(match, number, FOUR_A)
    organiser = Actor(user=b.organiser)
    first = Deal.objects.get(match=match, number=1)
    correct_result(first, outcome([5, 1, 6, 2, 7, 3, 8, 4]), None, organiser, "记错")
    changed = recheck_deal(Deal.objects.get(match=match, number=3), organiser)
    assert changed is not None and "串四户" in changed.reason and "串三户" not in changed.reason


@pytest.mark.parametrize(
    "rules, finish, sides",
    [(EIGHT, FOUR_A, ("A：1-2-3-4", "B：5-6-7-8")), (None, THREE_A, ("A：1-3-5", "B：2-4-6"))],
)
def test_the_report_page_names_the_seats_of_each_side(build, client, rules, finish, sides):
    b = build(unions=2, rules=rules, confirmation=Event.Confirmation.CAPTAIN)
    match = b.match(b.round([(0, 1)]), 1)
    report = b.report(match, 1, outcome(finish))
    client.force_login(b.people.captain_b)
    page = client.get(f"/referee/reports/{report.pk}/").content.decode()
    assert all(side in page for side in sides), sides
    if rules:
        assert "1·3·5" not in page and "2·4·6" not in page


def test_the_rule_form_speaks_of_both_table_sizes():
    """The rule-set form serves six- and eight-seat events alike: no help text or choice names a
    six-seat place or count alone (落为六科, 每人 36 张, 头科、二科 without the eight-seat reading)."""
    from matches.games.gouji.settings_form import CHOICE_LABELS, FLAG_INFO

    helps = {flag: str(info[3]) for flag, info in FLAG_INFO.items()}
    assert "八人每人 27 张" in helps["decks"]  # R46
    assert "八人第八" in helps["false_burn"]  # R51: forced places fill from 8th up
    assert "八人：头科至四科" in helps["last_hand_answer"]  # R48/D21
    assert "八人：三落再进三科一张" in helps["place_tribute"]  # R49/D24
    assert "串四户" in helps["string_three_score"]  # R47/D22
    assert str(CHOICE_LABELS[("false_burn", "place")]) == "落为末科"
    with translation.override("en"):
        assert "8th at eight seats" in str(FLAG_INFO["false_burn"][3])
        assert str(CHOICE_LABELS[("false_burn", "place")]) == "Placed last"
