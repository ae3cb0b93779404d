"""Natural stamps: the public pages' version hashes each shown row's `changed_at`
(matches/models/stamped.py), not a hand-picked list of its columns, so a field added to a page
cannot be missed; a held round's row still moves nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Event, Round
from tests.builder import EventBuilder

ROOT = Path(__file__).resolve().parents[2]
APP_FOLDERS = ("matches", "players", "seasons", "ladders", "hall", "gouji_tournament")

# The queryset updates of Event and Round rows (they bypass `changed_at`), each with why the
# stamp may stay: none writes a field the public sees.
UPDATES_THAT_KEEP_THE_STAMP = {
    # The rules freeze at the first recorded deal (or round published): shown to the
    # organiser only, and a held first result must not move the public stamp.
    "rules_frozen_at",
}


@pytest.fixture
def b(db, settings):
    settings.PUBLIC_VERSION_SECONDS = 0  # no cached stamp: every request computes it
    builder = EventBuilder(unions=4, deals=1).register()
    builder.round([(0, 1), (2, 3)])
    return builder


def etag(event: Event) -> str:
    return Client().get(reverse("public:event", args=[event.pk]))["ETag"]


def _changed_at(model, pk):
    return model.objects.filter(pk=pk).values_list("changed_at", flat=True).get()


@pytest.mark.parametrize("model", [Event, Round])
def test_a_save_naming_any_one_field_moves_the_rows_stamp(b, model):
    """Every service writes with `update_fields`, which `auto_now` alone would skip."""
    row = b.event if model is Event else b.latest
    for field in model._meta.concrete_fields:
        if field.primary_key or field.name == "changed_at":
            continue
        before = _changed_at(model, row.pk)
        row.save(update_fields=[field.name])
        assert _changed_at(model, row.pk) > before, field.name


def test_a_row_read_with_only_some_fields_moves_its_stamp_when_saved(b):
    before = _changed_at(Round, b.latest.pk)
    Round.objects.only("state").get(pk=b.latest.pk).save()
    assert _changed_at(Round, b.latest.pk) > before


def test_a_field_no_list_names_moves_the_etag(b):
    """The event's titles (`labels`) were never among the hashed columns."""
    before = etag(b.event)
    b.event.labels = {**b.event.labels, "round": "场次"}
    b.event.save(update_fields=["labels"])
    assert etag(b.event) != before


def test_a_published_rounds_edit_moves_the_etag_and_a_drafts_does_not(b):
    published = b.latest
    draft = b.round([(0, 2), (1, 3)], publish=False)
    before = etag(b.event)
    draft.quality = {**draft.quality, "swaps": 1}
    draft.save(update_fields=["quality"])  # a held draw: not public, no stamp moves
    assert etag(b.event) == before
    published.quality = {**published.quality, "swaps": 1}
    published.save(update_fields=["quality"])
    assert etag(b.event) != before


def _updates_of_events_and_rounds():
    """(file, line, fields) of every `.update(...)` on an Event or Round queryset in app code."""
    for folder in APP_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "update"
                ):
                    continue
                names, inner = set(), node.func.value
                while isinstance(inner, (ast.Call, ast.Attribute)):
                    if isinstance(inner, ast.Attribute):
                        names.add(inner.attr)
                    inner = inner.func if isinstance(inner, ast.Call) else inner.value
                if isinstance(inner, ast.Name):
                    names.add(inner.id)
                if names & {"Event", "Round", "rounds", "events"}:
                    fields = {k.arg for k in node.keywords}
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", fields


def test_every_queryset_update_of_an_event_or_round_keeps_the_public_fields_alone():
    """A queryset `.update()` bypasses `changed_at`: one that writes a field the public sees
    must set `changed_at` too (or be listed above with the reason it need not)."""
    found = list(_updates_of_events_and_rounds())
    assert found, "the scan finds the known updates (the rules' freeze)"
    for where, fields in found:
        assert "changed_at" in fields or fields <= UPDATES_THAT_KEEP_THE_STAMP, (where, fields)
