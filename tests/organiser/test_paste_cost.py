"""A bulk paste and an import cost a few queries whatever their length (issue 47, finding 9): the
known players and the clubs of the whole list are looked up at once, the entries written in
bulk, their search terms with them. A 5,000-line paste at its limit asked about 25,000 queries
and 31-54 s of CPU; its figure now is in bench/RESULTS-history.md (`bench/paste.py`)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.events import entries
from matches.models import SearchTerm
from matches.public import find, find_terms
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db


@pytest.fixture
def known_field():
    """Another organiser's public cup: twelve unions whose players a list may name."""
    b = EventBuilder(unions=12, clubs=["李沧俱乐部", "市南俱乐部"], name="别人的杯").register()
    return [(p.name, p.club.name) for u in b.unions for p in u.players_in_order()]


def lines(count: int, known: list[tuple[str, str]]) -> list[list[str]]:
    """`count` unions: every other one names two known players (with their club)."""
    rows = []
    for k in range(count):
        if k % 2 and 2 * k + 1 < len(known) and known[2 * k][1] == known[2 * k + 1][1]:
            (one, club), (two, _same) = known[2 * k], known[2 * k + 1]
            rows.append([f"联邦{k}", club, one, two, f"新人{k}"])
        else:
            rows.append(
                [
                    f"联邦{k}",
                    "李沧 俱乐部" if k % 3 else "新的俱乐部",
                    *[f"人{k}-{j}" for j in range(3)],
                ]
            )
    return rows


def queries(call) -> int:
    with CaptureQueriesContext(connection) as done:
        answer = call()
    assert answer.status_code in (200, 302), answer.status_code
    return len(done)


def paste_cost(client, count: int, known) -> tuple[int, int]:
    b = EventBuilder(unions=0, name=f"粘贴 {count}").register()
    client.force_login(b.organiser)
    url = reverse("manage:paste", args=[b.event.pk])
    text = "\n".join("\t".join(row) for row in lines(count, known))
    preview = queries(lambda: client.post(url, {"text": text}))
    confirm = queries(lambda: client.post(url, {"confirm": "1"}))
    assert b.event.registrations.count() == count
    return preview, confirm


def import_cost(client, count: int, known) -> tuple[int, int]:
    b = EventBuilder(unions=0, name=f"导入 {count}").register()
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    sheet = "联邦,俱乐部,选手1,选手2,选手3\n" + "\n".join(
        ",".join(row) for row in lines(count, known)
    )
    upload = SimpleUploadedFile("e.csv", sheet.encode())
    preview = queries(lambda: client.post(url, {"file": upload}))
    confirm = queries(lambda: client.post(url, {"confirm": "1"}))
    assert b.event.registrations.count() == count
    return preview, confirm


@pytest.mark.parametrize("path", [paste_cost, import_cost], ids=["paste", "import"])
def test_a_list_costs_the_same_queries_whatever_its_length(client, known_field, path):
    short = path(client, 4, known_field)
    long = path(client, 40, known_field)
    # Ten times the lines: the same queries, give or take a batch of a bulk insert.
    assert long[0] <= short[0] + 2, (short, long)
    assert long[1] <= short[1] + 6, (short, long)


def terms(event) -> set[tuple]:
    return set(
        SearchTerm.objects.filter(event=event).values_list(
            "term", "weight", "union__name", "player__name"
        )
    )


def test_an_import_writes_the_search_terms_one_entry_at_a_time_would(client, known_field):
    rows = lines(10, known_field)
    imported = EventBuilder(unions=0, name="导入").register()
    client.force_login(imported.organiser)
    url = reverse("manage:paste", args=[imported.event.pk])
    client.post(url, {"text": "\n".join("\t".join(row) for row in rows)})
    client.post(url, {"confirm": "1"})
    one_by_one = EventBuilder(unions=0, name="逐条").register()
    for row in rows:
        entries.add(one_by_one.event, players=row[2:], name=row[0], club=row[1])
    written = terms(imported.event)
    assert written and written == terms(one_by_one.event)
    find_terms.reindex_event(imported.event)
    assert terms(imported.event) == written
    # And find my table answers with them.
    found = find.lookup(imported.event, find.parse_query("人4-1")).hits
    assert [(h.kind, h.name, h.union) for h in found] == [("player", "人4-1", "联邦4")]
