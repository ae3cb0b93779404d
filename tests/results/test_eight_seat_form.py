"""The table phone's form at eight seats (R44) and the deal viewer's joker groups (R52)."""

from __future__ import annotations

from django.test import RequestFactory

from matches.games.gouji.referee_form import SEATS, DealEntry
from matches.games.gouji.viewer import joker_group_weight

EIGHT = tuple(range(1, 9))


def post(**data):
    return RequestFactory().post("/", data).POST


def test_eight_taps_make_a_finishing_order_of_eight_seats():
    finish = ""
    for seat in (5, 1, 6, 2, 7, 3, 8, 4):
        entry = DealEntry.from_post(post(finish=finish, tap=str(seat)), seats=EIGHT)
        finish = entry.finish_text
    assert entry.finish == [5, 1, 6, 2, 7, 3, 8, 4]
    # a ninth tap changes nothing; seat 8's point and declaration are read
    entry = DealEntry.from_post(
        post(finish=finish, tap="8", point_8="1", decl_8="clear", burn_0_burner="7"),
        seats=EIGHT,
    )
    assert len(entry.finish) == 8 and entry.points == {8} and entry.declarations == {8: "clear"}
    assert entry.burns[0]["burner"] == 7
    assert entry.summary()["finish"] == [5, 1, 6, 2, 7, 3, 8, 4]


def test_a_six_seat_form_refuses_seats_seven_and_eight():
    entry = DealEntry.from_post(post(finish="1,7,2", tap="8", point_7="1"), seats=SEATS)
    assert entry.finish == [1, 2] and entry.points == set()


def test_a_joker_group_weighs_small_one_big_two():
    assert joker_group_weight("B") == 1
    assert joker_group_weight("RR") == 4 and joker_group_weight("BBR") == 4
    assert joker_group_weight("RRRRRRBBBBBB") == 18
    assert joker_group_weight("QQR") is None and joker_group_weight("") is None
