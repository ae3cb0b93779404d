"""Proof of the game seam: a third game that exists only in the tests (tests/games/highcard/)
runs an event end to end (registration, draw, a reported and confirmed result, standings, the
public pages and API) through the shared code, with no change to it."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from matches.draw import service as draw
from matches.events import registration
from matches.kernel.games import registry
from matches.models import (
    DealReport,
    DealTally,
    Event,
    Match,
    RefereeLink,
    Stage,
    StandingsSnapshot,
)
from players.models import Player
from tests.games.highcard.engine import HighCardTally

HIGHCARD = "tests.games.highcard"


@pytest.fixture
def highcard(settings, eager_tasks):
    registry.register_game("highcard", f"{HIGHCARD}.adapter.HighCardAdapter")
    template_dirs = settings.TEMPLATES[0]["DIRS"]
    settings.TEMPLATES = [
        {
            **settings.TEMPLATES[0],
            "DIRS": [*template_dirs, settings.BASE_DIR / "tests/games/highcard/templates"],
        }
    ]
    yield
    registry.ADAPTERS.pop("highcard")
    registry.adapter_named.cache_clear()


@pytest.fixture
def event(db, highcard):
    organiser = get_user_model().objects.create_user("org", password="pw-org")
    event = Event(
        name="High card night",
        start_date=datetime.date(2026, 12, 1),
        game="highcard",
        entry_type=Event.EntryType.INDIVIDUAL,
        deals_per_match=2,
        published=True,
        result_confirmation=Event.Confirmation.REFEREE,
    )
    event.full_clean()  # the registered game is a valid choice, and its rules hold
    event.save()
    event.organisers.add(organiser)
    for k in range(4):
        entry = registration.register_player(
            event, Player.objects.create(name=f"P{k + 1}"), seed=k + 1
        )
        registration.check_in(entry)
    Stage.objects.create(event=event, order=1, planned_rounds=1)
    return event


def test_an_unregistered_game_is_refused_by_validation(db):
    event = Event(name="?", start_date=datetime.date(2026, 12, 1), game="snap")
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert "game" in refused.value.message_dict


def test_a_game_known_only_to_the_tests_runs_a_whole_event(
    event, django_capture_on_commit_callbacks
):
    round_ = draw.create_round(event.stages.get())
    tables = list(round_.tables.order_by("number"))
    assert [sorted(t.seats.values_list("seat", flat=True)) for t in tables] == [[1, 2], [1, 2]]
    draw.publish_round(round_)

    for table, cards in zip(tables, ({"1": 12, "2": 3}, {"1": 2, "2": 9})):
        reporter = RefereeLink.objects.create(table=table)
        second = RefereeLink.objects.create(table=table)
        page = Client().get(f"/ref/{reporter.token}/")
        assert page.status_code == 200 and 'data-game="highcard"' in page.content.decode()
        # The game's own rules answer through the shared check: a tie breaks its rule H2.
        check = Client().post(
            f"/ref/{reporter.token}/deals/1/check?part=verdict",
            {"card_1": "5", "card_2": "5"},
            HTTP_HX_REQUEST="true",
        )
        assert 'data-rule="H2"' in check.content.decode()
        for number in (1, 2):
            form = {
                "card_1": str(cards["1"]),
                "card_2": str(cards["2"]),
                "idempotency_key": f"t{table.pk}-d{number}",
            }
            with django_capture_on_commit_callbacks(execute=True):
                sent = Client().post(f"/ref/{reporter.token}/deals/{number}/submit", form)
            assert sent.status_code == 302
            report = DealReport.objects.get(
                deal__match__table=table, deal__number=number, state=DealReport.State.PENDING
            )
            # Second-referee mode: the table's other link confirms; the reporter may not.
            refused = Client().post(
                f"/ref/{reporter.token}/reports/{report.pk}/confirm", {"agrees": "yes"}
            )
            assert refused.status_code == 302
            report.refresh_from_db()
            assert report.state == DealReport.State.PENDING
            with django_capture_on_commit_callbacks(execute=True):
                Client().post(f"/ref/{second.token}/reports/{report.pk}/confirm", {"agrees": "yes"})
            report.refresh_from_db()
            assert report.state == DealReport.State.FINAL

    draw.close_round(round_)  # every match settled: the shared rule of a complete round
    # The interface's own settlement wrote each card's tally: places and the sides' scores in
    # the shared columns, the game's typed document in `detail`, read back by its adapter.
    tally = DealTally.objects.get(deal__match__table=tables[1], deal__number=1)
    assert (tally.places, tally.score_a, tally.score_b) == ([[2], [1]], -1, 1)
    assert event.adapter.read_tally(tally).detail == HighCardTally(winner=2)
    assert Match.objects.get(table=tables[1]).score_b == 2
    rows = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event").rows
    assert [(row["name"], row["wins"], row["deals"]) for row in rows] == [
        ("P1", 2, 2),
        ("P4", 2, 2),
        ("P2", 0, 2),
        ("P3", 0, 2),
    ]

    standings = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert "Wins" in standings and "P4" in standings
    # The hall's screen shows the game's own points column (its first numeric one), by key.
    projector = Client().get(f"/events/{event.pk}/standings/projector/").content.decode()
    assert '<th class="num">Wins</th>' in projector
    assert re.search(r"P1</td><td class=\"num p-table-no\">2</td>", projector)
    pairings = Client().get(f"/api/v1/public/events/{event.pk}/rounds/1/pairings/").json()
    assert [t["winners"] for t in pairings["tables"]] == [[1, 1], [2, 2]]
    verdict = (
        Client()
        .post(
            "/api/v1/rules/highcard/settle",
            {"cards": {"1": 4, "2": 4}},
            content_type="application/json",
        )
        .json()
    )
    assert verdict["errors"][0]["rule"] == "H2"
