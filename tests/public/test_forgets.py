"""The freshness map (matches/public/forgets.py): which write makes which public copy stale,
written once and read by the box's receiver, the mirror's listener and docs/public.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.cache import cache

from hall.listener import Batch, Listener
from matches.models import DealTally, Registration, TableSeat
from matches.public import forgets, stamps
from tests.builder import EventBuilder

DOC = Path(__file__).resolve().parents[2] / "docs" / "public.md"
LAYER_NAMES = {
    "PAGES": stamps.PAGES,
    "STANDINGS": stamps.STANDINGS,
    "FIND": stamps.FIND,
    "FILES": stamps.FILES,
}


def documented() -> dict[str, set[str]]:
    """Layer -> the models docs/public.md's "who forgets it" column names for it."""
    found: dict[str, set[str]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        layer = re.match(r"`forget\(id, (\w+)\)`", cells[4])
        if layer:
            name = LAYER_NAMES[layer.group(1)]
            assert name not in found, f"{name} is documented twice"
            found[name] = set(re.findall(r"`([A-Z]\w+)`", cells[4]))
    return found


def test_the_docs_who_forgets_it_column_is_the_map() -> None:
    in_map: dict[str, set[str]] = {}
    for label, stale in forgets.MAP.items():
        for layer in stale.layers:
            in_map.setdefault(layer, set()).add(label.split(".")[1])
    assert documented() == in_map


def test_the_docs_name_no_module_that_is_gone():
    assert "hotpath" not in DOC.read_text(encoding="utf-8")


@pytest.fixture
def b(db):
    builder = EventBuilder(unions=4, deals=1).register()
    builder.round([(0, 1), (2, 3)])
    return builder


def _held(event_id: int) -> set[str]:
    """The stamps the cache still holds as `_warm` left them (one forgotten may have been
    computed again since, by the live check: a real stamp, not "x")."""
    keys = {
        stamps.PAGES: f"event-version:{event_id}",
        stamps.STANDINGS: f"standings-version:{event_id}",
    }
    return {layer for layer, key in keys.items() if cache.get(key) == "x"}


def _warm(event_id: int) -> str:
    cache.set(f"event-version:{event_id}", "x", None)
    cache.set(f"standings-version:{event_id}", "x", None)
    return stamps.find_version(event_id)


def test_a_check_in_leaves_find_alone_and_a_new_number_moves_it(b):
    entry = Registration.objects.get(event=b.event, union=b.unions[0])
    counter = _warm(b.event.pk)
    entry.save(update_fields=["status"])  # the map's field predicate: no number changed
    assert stamps.find_version(b.event.pk) == counter
    entry.seed = 40
    entry.save(update_fields=["seed"])
    assert stamps.find_version(b.event.pk) != counter
    assert _held(b.event.pk) == {stamps.PAGES, stamps.STANDINGS}  # find only


def test_a_drafts_seat_is_not_public_and_a_published_rounds_is(b):
    published = TableSeat.objects.filter(round__event=b.event).first()
    draft_round = b.round([(0, 2), (1, 3)], publish=False)
    draft = TableSeat.objects.filter(round=draft_round).first()
    counter = _warm(b.event.pk)
    draft.save()
    assert stamps.find_version(b.event.pk) == counter
    published.save()
    assert stamps.find_version(b.event.pk) != counter


def test_a_tally_forgets_the_pages_and_not_the_standings(b):
    b.report_all()
    tally = DealTally.objects.filter(match__round__event=b.event).first()
    counter = _warm(b.event.pk)
    tally.save()
    assert _held(b.event.pk) == {stamps.STANDINGS}
    assert stamps.find_version(b.event.pk) == counter


def test_the_mirror_forgets_what_the_box_would_by_the_same_map(b):
    """The listener turns the replicated tables into layers through the map: a registration
    moves find only, a tally the pages, a round everything, its standings files rewritten."""
    listener = Listener()
    event_id = b.event.pk

    def heard(*payloads) -> tuple[set[str], bool, bool]:
        counter = _warm(event_id)
        listener.files_pending.clear()
        listener.files_due = {event_id: float("inf")}  # kept pending: the test reads it
        batch = Batch()
        for payload in payloads:
            batch.add(payload)
        listener.handle(batch)
        return (
            _held(event_id),
            stamps.find_version(event_id) != counter,
            bool(listener.files_pending),
        )

    assert heard({"t": "matches.Registration", "e": event_id}) == (
        {stamps.PAGES, stamps.STANDINGS},
        True,
        False,
    )
    match = b.first_match()
    assert heard({"t": "matches.DealTally", "m": match.pk}) == ({stamps.STANDINGS}, False, False)
    assert heard({"t": "matches.Round", "e": event_id, "r": match.round_id}) == (set(), True, True)
    assert heard({"t": "matches.Stage", "e": event_id}) == (
        {stamps.PAGES, stamps.STANDINGS},
        False,
        True,
    )
