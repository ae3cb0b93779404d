"""Migrations 0013-0014 (sides as rows) on existing data: a Giog event written the old way (two
placeholder unions a table, a 0 : 0 match result) keeps its hands and standings, loses its
placeholder unions, and gets one side per seated player; a Gou Ji match keeps its unions."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches.games.giog.engine.outcome import points_for_places
from matches.games.giog.standings import points_table

OLD = [("matches", "0015_types_game_settings"), ("players", "0001_players_and_clubs")]
NEW = [("matches", "0017_sides_data")]
PLACES = [[2], [1, 3], [4]]  # seat 2 first, seats 1 and 3 share second place, seat 4 last
WON = {"1": 8, "2": 12, "3": 8, "4": 4}


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def build_old_giog_event(apps):
    """A closed Giog round of one table of four, as the old draw and settlement wrote it."""
    get = apps.get_model
    Player = get("players", "Player")
    event = get("matches", "Event").objects.create(
        name="旧 Giog",
        start_date=datetime.date(2026, 5, 1),
        game="giog",
        entry_type="individual",
        deals_per_match=1,
        result_confirmation="captain",
    )
    stage = get("matches", "Stage").objects.create(event=event, format="swiss")
    round_ = get("matches", "Round").objects.create(
        event=event, stage=stage, number=1, seed=1, state="closed"
    )
    table = get("matches", "Table").objects.create(round=round_, number=1)
    Union, Member = get("matches", "Union"), get("matches", "UnionMember")
    union_a = Union.objects.create(event=event, round=round_, name="1-1A")
    union_b = Union.objects.create(event=event, round=round_, name="1-1B")
    match = get("matches", "Match").objects.create(
        round=round_,
        table=table,
        union_a=union_a,
        union_b=union_b,
        score_a=0,
        score_b=0,
        points_a=0,
        points_b=0,
    )
    Entry = get("matches", "RoundEntry")
    Entry.objects.create(round=round_, match=match, union=union_a, side="A")
    Entry.objects.create(round=round_, match=match, union=union_b, side="B")
    players = {}
    for seat in range(1, 5):
        player = Player.objects.create(name=f"棋手{seat}")
        players[seat] = player.pk
        union = union_a if seat % 2 else union_b
        get("matches", "Registration").objects.create(
            event=event, player=player, status="checked_in"
        )
        Member.objects.create(
            union=union,
            player=player,
            event=event,
            round=round_,
            order=(seat + 1) // 2,
            is_captain=seat <= 2,
        )
        get("matches", "TableSeat").objects.create(
            table=table,
            round=round_,
            seat=seat,
            side="A" if seat % 2 else "B",
            player=player,
            union=union,
        )
    deal = get("matches", "Deal").objects.create(match=match, number=1)
    report = get("matches", "DealReport").objects.create(
        deal=deal,
        kind="report",
        state="final",
        summary={"format": "giog-outcome/1", "players": 4, "won": WON, "beheaded": []},
        verdict={"valid": True, "places": PLACES, "won": WON, "beheaded": []},
    )
    get("matches", "DealTally").objects.create(
        deal=deal,
        match=match,
        report_id=report.pk,
        score_a=0,
        score_b=0,
        finish=PLACES,
        points=[8, 12, 8, 4],
        burners=[],
    )
    return event.pk, match.pk, players


def build_old_gouji_match(apps):
    get = apps.get_model
    event = get("matches", "Event").objects.create(
        name="旧够级", start_date=datetime.date(2026, 5, 1), game="gouji"
    )
    stage = get("matches", "Stage").objects.create(event=event, format="swiss")
    round_ = get("matches", "Round").objects.create(event=event, stage=stage, number=1, seed=1)
    table = get("matches", "Table").objects.create(round=round_, number=1)
    a = get("matches", "Union").objects.create(event=event, name="甲")
    b = get("matches", "Union").objects.create(event=event, name="乙")
    match = get("matches", "Match").objects.create(
        round=round_,
        table=table,
        union_a=a,
        union_b=b,
        score_a=5,
        score_b=-5,
        points_a=3,
        points_b=0,
    )
    for union, side in ((a, "A"), (b, "B")):
        get("matches", "RoundEntry").objects.create(
            round=round_, match=match, union=union, side=side
        )
    return match.pk, a.pk, b.pk


@pytest.mark.django_db(transaction=True)
def test_a_giog_event_with_results_keeps_them_and_loses_its_placeholder_unions():
    old = migrate(OLD)
    event_id, match_id, players = build_old_giog_event(old)
    gouji_match, union_a, union_b = build_old_gouji_match(old)

    new = migrate(NEW)
    Match, Side = new.get_model("matches", "Match"), new.get_model("matches", "MatchSide")
    assert not new.get_model("matches", "Union").objects.filter(event_id=event_id).exists()
    assert not new.get_model("matches", "UnionMember").objects.filter(event_id=event_id).exists()
    giog = Match.objects.get(pk=match_id)
    assert giog.completed_at is not None  # it was complete: its 0 : 0 said so
    assert (giog.score_a, giog.points_a) == (None, None)  # and the fake score is gone
    sides = Side.objects.filter(match_id=match_id).order_by("position")
    assert [(s.position, s.player_id, s.union_id) for s in sides] == [
        (str(seat), players[seat], None) for seat in range(1, 5)
    ]
    seats = new.get_model("matches", "TableSeat").objects.filter(round__event_id=event_id)
    assert {(s.union_id, s.side) for s in seats} == {(None, "")}
    assert new.get_model("matches", "DealTally").objects.filter(match_id=match_id).count() == 1
    gouji = Match.objects.get(pk=gouji_match)
    assert gouji.completed_at is not None and (gouji.points_a, gouji.points_b) == (3, 0)
    assert sorted(
        Side.objects.filter(match_id=gouji_match).values_list("position", "union_id")
    ) == [("A", union_a), ("B", union_b)]

    # Then the whole project's migrations, and the standings recomputed by today's code.
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())
    from matches.models import Event, Union
    from matches.models import Match as CurrentMatch
    from matches.standings import service as standings

    standings.recompute_event(event_id)
    event = Event.objects.get(pk=event_id)
    assert CurrentMatch.objects.get(pk=match_id).is_complete
    assert not Union.objects.filter(event=event).exists()
    assert event.confirmation == Event.Confirmation.REFEREE  # captains: none in Giog
    rows = {
        row["player"]: row
        for row in event.snapshots.get(round__number=1, kind="players", scope="event").rows
    }
    expected = points_for_places(PLACES, points_table(list(event.game_rules.place_points), 4))
    for seat, player_id in players.items():
        assert rows[player_id]["hands"] == 1
        assert rows[player_id]["pieces"] == WON[str(seat)]
        assert rows[player_id]["points"] == str(expected[seat])
    assert rows[players[2]]["rank"] == 1 and rows[players[4]]["rank"] == 4
