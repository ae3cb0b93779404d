"""Public pages and the API for a Giog event: standings, round, table, player; visibility."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from matches.models import Round
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.builder import EventBuilder, giog_outcome

pytestmark = pytest.mark.django_db

FOUR = {1: 12, 2: 8, 3: 8, 4: 4}


@pytest.fixture
def played(db, committed):
    builder = EventBuilder("giog", players=8, deals=2).register()
    round_ = builder.draw(seed=3)
    match = round_.matches.select_related("table").order_by("table__number").first()
    with committed():
        submit_report(
            deal_for(match, 1),
            giog_outcome(4, FOUR, beheaded=[4]),
            None,
            Actor(user=builder.organiser),
        )
    return builder, round_, match


def seat_player(match, seat):
    return match.table.seats.get(seat=seat).player


def test_public_standings_page_shows_giog_columns(client, played):
    builder, _round, match = played
    page = client.get(reverse("public:standings", args=[builder.event.pk])).content.decode()
    assert 'data-game="giog"' in page
    assert seat_player(match, 1).name in page and "赢子" in page


def test_public_round_page_lists_every_seat(client, played):
    builder, round_, match = played
    page = client.get(reverse("public:round", args=[builder.event.pk, 1])).content.decode()
    for seat in match.table.seats.select_related("player"):
        assert seat.player.name in page
    assert "1-3-5" not in page  # no Gou Ji sides
    assert "已完成 1 手" in page


def test_public_table_page_and_fragment_show_each_hand(client, played):
    builder, _round, match = played
    url = reverse("public:table", args=[builder.event.pk, 1, match.table.number])
    page = client.get(url).content.decode()
    assert 'data-hand="1"' in page and "斩首" in page
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('<div id="table-live"') and "<html" not in fragment
    assert f"1. {seat_player(match, 1).name} · 12 · 3" in fragment


def test_public_player_page_adds_the_points(client, played):
    builder, _round, match = played
    page = client.get(
        reverse("public:player", args=[builder.event.pk, seat_player(match, 2).pk])
    ).content.decode()
    # Seats 2 and 3 share 2nd and 3rd place: (2 + 1) / 2.
    assert 'data-total="points">1.5<' in page


def test_unpublished_giog_event_is_invisible(client, played):
    builder, _round, _match = played
    builder.event.published = False
    builder.event.save()
    assert client.get(reverse("public:standings", args=[builder.event.pk])).status_code == 404
    assert client.get(f"/api/v1/public/events/{builder.event.pk}/standings/").status_code == 404


def test_silent_round_hides_the_hands(client, played):
    builder, round_, match = played
    Round.objects.filter(pk=round_.pk).update(silent=True)
    url = reverse("public:table", args=[builder.event.pk, 1, match.table.number])
    page = client.get(url).content.decode()
    assert "本轮成绩不公开" in page and 'data-hand="1"' not in page
    data = client.get(f"/api/v1/public/events/{builder.event.pk}/rounds/1/pairings/").json()
    assert "result" not in data["tables"][0]


def test_api_event_standings_and_pairings(client, played):
    builder, _round, match = played
    event = client.get(f"/api/v1/public/events/{builder.event.pk}/").json()
    assert event["game"] == "giog" and event["place_points"] == [3, 2, 1, 0]
    standings = client.get(f"/api/v1/public/events/{builder.event.pk}/standings/").json()
    top = standings["rows"][0]
    assert top["player"] == seat_player(match, 1).pk and top["points"] == "3"
    assert standings["final"] is False
    pairings = client.get(f"/api/v1/public/events/{builder.event.pk}/rounds/1/pairings/").json()
    table = next(t for t in pairings["tables"] if t["table"] == match.table.number)
    assert [p["seat"] for p in table["players"]] == [1, 2, 3, 4]
    hand = table["result"]["hands"][0]
    assert hand["places"] == [[1], [2, 3], [4]] and hand["beheaded"] == [4]
    assert hand["points"] == {"1": "3", "2": "1.5", "3": "1.5", "4": "0"}


def test_api_submit_a_hand_with_a_referee_token(client, played):
    builder, round_, _match = played
    other = round_.matches.select_related("table").order_by("table__number").last()
    client.force_login(builder.organiser)
    url = f"/api/v1/tables/{other.table_id}/deals/1/reports"
    body = {"summary": giog_outcome(4, {1: 4, 2: 4, 3: 12, 4: 12})}
    response = client.post(
        url, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY="api-1"
    )
    assert response.status_code == 201, response.content
    assert response.json()["report"]["verdict"]["places"] == [[3, 4], [1, 2]]
    again = client.post(
        url, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY="api-1"
    )
    assert again.status_code == 200
    assert again.json()["report"]["id"] == response.json()["report"]["id"]
    detail = client.get(f"/api/v1/tables/{other.table_id}").json()
    assert detail["event"]["game"] == "giog" and len(detail["seats"]) == 4


def test_api_refuses_an_inconsistent_hand_with_its_rule(client, played):
    builder, round_, _match = played
    other = round_.matches.select_related("table").order_by("table__number").last()
    client.force_login(builder.organiser)
    response = client.post(
        f"/api/v1/tables/{other.table_id}/deals/1/reports",
        json.dumps({"summary": giog_outcome(4, {1: 4, 2: 4, 3: 4, 4: 4})}),
        content_type="application/json",
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "inconsistent_result" and error["rule"] == "G10"
