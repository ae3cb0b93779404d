"""The mirror's feature tables (docs/live-tables.md): a replicated action, note or deal reaches
the mirror's spectators' streams as a notice held until the row's arrival on the box plus the
table's delay, the moment the box's own notice carries; never earlier (hall/listener.py)."""

from __future__ import annotations

import json
import time

import pytest

from hall.listener import Batch, Listener
from matches import push
from matches.models import LiveAction, LiveNote
from matches.permissions import Actor
from matches.results import live
from tests.live.conftest import played_deal

pytestmark = pytest.mark.django_db


def _heard(sink) -> list[dict]:
    return [json.loads(m) for m in iter(lambda: sink.get(0), None)]


def test_replicated_rows_reach_the_mirrors_streams_held_by_the_delay(featured):
    b, feature = featured(delay=10)
    actor = Actor.from_link(feature.operator_link)
    record = played_deal(3)
    deal, _ = live.set_hands(
        feature, 1, {"hands": record["hands"], "leader": record["leader"]}, actor
    )
    live.add_action(feature, 1, {"seq": 1, **record["actions"][0]}, actor)
    row = LiveAction.objects.get(deal=deal, seq=1)
    note = LiveNote.objects.create(feature=feature, text="好牌", at=row.at)
    sink = push._ThreadSink()
    channels = [push.feature(feature.pk), push.feature_list(b.event.pk)]
    push.hub.subscribe(channels, sink)
    try:
        batch = Batch()
        # what the mirror's triggers send (hall/publication.py ROW_KEYS)
        batch.add(
            {"t": "matches.LiveAction", "ld": deal.pk, "at": row.at.timestamp(), "op": "INSERT"}
        )
        batch.add(
            {"t": "matches.LiveNote", "lf": feature.pk, "at": note.at.timestamp(), "op": "INSERT"}
        )
        Listener().handle(batch)
        heard = _heard(sink)
        due = row.at.timestamp() + 600
        assert heard == [{"kind": "feature", "at": due}] * 2  # the table and the event's list
        # An undo (the row deleted) counts from when the mirror hears of it, as on the box.
        before = time.time()
        batch = Batch()
        batch.add(
            {"t": "matches.LiveAction", "ld": deal.pk, "at": row.at.timestamp(), "op": "DELETE"}
        )
        batch.add({"t": "matches.LiveDeal", "ld": deal.pk + 999, "op": "DELETE"})  # gone: nothing
        Listener().handle(batch)
        (first, second) = _heard(sink)
        assert first == second and first["at"] >= before + 600
    finally:
        push.hub.unsubscribe(channels, sink)
