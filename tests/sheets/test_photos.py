"""The test photos' generator writes what a real sheet holds: results the rules engine takes."""

import numpy as np

from matches.paper import layout
from matches.paper.layout import SheetKey
from tests.sheets.photos import random_values, refusals, sheet_row


def test_every_generated_row_is_a_result_the_engine_accepts():
    burns = 0
    for k in range(30):
        key = SheetKey(1, 2, 3 + k, 8 if k % 3 == 2 else 6, 4 + k % 5)
        values = random_values(key, np.random.default_rng(k))
        assert set(values) == {box.name for box in layout.every_box(key)}
        for number in range(1, key.rows + 1):
            row = sheet_row(values, number, key.seats)
            if not any(row["finish"]):
                continue
            assert sorted(row["finish"]) == list(range(1, key.seats + 1))
            assert refusals(row, key.seats) == []
            burns += len(row["burns"])
    assert burns > 20  # burns are still written, only placed as the rules allow


def test_the_same_seed_writes_the_same_sheet():
    key = SheetKey(1, 2, 3, 6, 4)
    first = random_values(key, np.random.default_rng(7))
    assert random_values(key, np.random.default_rng(7)) == first


def test_refusals_are_the_apps():
    order = [1, 2, 3, 4, 5, 6]
    assert refusals({"finish": order, "points": [2], "burns": [(1, 6)]}, 6) == []
    # a burner placed 5th (D11), a seat twice (R30), a head rival's answer (R21): refused
    assert [e["rule"] for e in refusals({"finish": order, "burns": [(5, 6)]}, 6)] == ["D11"]
    assert [e["rule"] for e in refusals({"finish": [1, 2, 3, 4, 5, 5]}, 6)] == ["R30"]
    assert [e["code"] for e in refusals({"finish": order, "burns": [(1, 4)]}, 6)] == [
        "burn_by_head_rival"
    ]
    # eight seats: a burner may finish 4th, not 5th (D11, R48)
    eight = [1, 2, 3, 4, 5, 6, 7, 8]
    assert refusals({"finish": eight, "burns": [(4, 6)]}, 8) == []
    assert [e["rule"] for e in refusals({"finish": eight, "burns": [(5, 6)]}, 8)] == ["D11"]
