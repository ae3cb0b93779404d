"""The individual draft (issue 25, problem 8): every table shows its six players, and the
organiser swaps two players or moves one to a seat, checked and logged like the team edits."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.draw import control, refusals
from matches.draw import service as draw
from matches.models import Event, RoundLog, TableSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def individual(build):
    b = build(entry_type=Event.EntryType.INDIVIDUAL, players=12, deals=1)
    round_ = draw.create_round(b.stage, seed=3)
    return b, round_


def seat_of(round_, player_id):
    seat = TableSeat.objects.select_related("table").get(round=round_, player_id=player_id)
    return seat.table.number, seat.seat


def test_the_individual_draft_shows_every_table_s_players_and_edit_tools(client, individual):
    b, round_ = individual
    client.force_login(b.organiser)
    page = client.get(reverse("manage:round", args=[b.event.pk, 1])).content.decode()
    for seat in TableSeat.objects.filter(round=round_).select_related("player"):
        assert f'data-player="{seat.player_id}"' in page and seat.player.name in page
    assert page.count('class="rt-seats"') == 2  # two tables of six
    assert 'id="edit-player-swap"' in page and 'id="edit-player-move"' in page
    assert 'id="edit-swap"' not in page  # the team tools need unions


def test_swapping_and_moving_players_is_checked_and_logged(client, individual):
    b, round_ = individual
    client.force_login(b.organiser)
    seats = list(TableSeat.objects.filter(round=round_).order_by("table__number", "seat"))
    first, other = seats[0], seats[7]  # table 1 seat 1, table 2 seat 2
    where = (seat_of(round_, first.player_id), seat_of(round_, other.player_id))
    response = client.post(
        reverse("manage:edit-seats", args=[b.event.pk, 1]),
        {"first": first.player_id, "second": other.player_id},
        follow=True,
    )
    assert "已调整" in response.content.decode()
    assert seat_of(round_, first.player_id) == where[1]
    assert seat_of(round_, other.player_id) == where[0]
    # Move: the player sitting at table 1 seat 6 takes the mover's place.
    sitter = TableSeat.objects.get(round=round_, table__number=1, seat=6).player_id
    mover = other.player_id  # now at table 1 seat 1
    client.post(
        reverse("manage:edit-player-move", args=[b.event.pk, 1]),
        {"player": mover, "table": 1, "seat": 6},
    )
    assert seat_of(round_, mover) == (1, 6) and seat_of(round_, sitter) == (1, 1)
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.SWAP_PLAYERS).count() == 2
    # Bad input: a message, never a 500; nothing moves.
    response = client.post(
        reverse("manage:edit-player-move", args=[b.event.pk, 1]),
        {"player": mover, "table": 9, "seat": 1},
        follow=True,
    )
    assert "本轮没有第 9 桌第 1 座" in response.content.decode()
    with pytest.raises(refusals.SeatingRefused):
        control.move_player(round_, mover, 1, 6)
    # After publishing: refused.
    draw.publish_round(round_)
    with pytest.raises(refusals.SeatingRefused):
        control.move_player(round_, mover, 1, 1)
