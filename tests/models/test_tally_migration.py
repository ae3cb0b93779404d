"""Migration 0021 moves each deal tally into its new shape (the places and side scores every game
has, the game's own typed document in `detail`) and back. The old rows are what the old
settlement wrote for real deals (two strings of three by union B in a row, R40's streak; Giog
hands of three with a shared place and a beheading); after the migration, today's recompute
writes the very same tallies again, and the standings read them."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches.games.giog.engine.verdict import GiogTally
from matches.games.gouji.engine.verdict import GoujiTally, Tribute

# The players app at its latest (its member number is NOT NULL): only matches moves.
PLAYERS = ("players", "0002_ratings_member_number")
BEFORE = [("matches", "0021_ladder_seasons"), PLAYERS]
AFTER = [("matches", "0022_tally_places_detail"), PLAYERS]
DAY = datetime.date(2026, 5, 1)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def leaf():
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def tributes(*entries):
    return [dict(zip(("from", "to", "kind", "cards"), entry)) for entry in entries]


# Three deals of one Gou Ji match, each as reported and as the old settlement tallied it.
GOUJI = [
    {
        "summary": {"finish": [6, 2, 4, 5, 3, 1], "points": [6, 5, 3]},
        "old": {
            "score_a": -12,
            "score_b": 12,
            "finish": [6, 2, 4, 5, 3, 1],
            "points": [3, 5, 6],
            "burners": [],
            "strung": "B",
            "streak": 0,
            "tributes": tributes(
                (1, 4, "string_three", 1), (3, 6, "string_three", 1), (5, 2, "string_three", 1)
            ),
        },
    },
    {
        "summary": {"finish": [4, 6, 2, 1, 3, 5], "points": [4, 5]},
        "old": {
            "score_a": -12,
            "score_b": 12,
            "finish": [4, 6, 2, 1, 3, 5],
            "points": [4, 5],
            "burners": [],
            "strung": "B",
            "streak": 1,
            "tributes": tributes(
                (5, 2, "string_three", 1), (3, 6, "string_three", 1), (1, 4, "string_three", 1)
            ),
        },
    },
    {
        "summary": {"finish": [1, 6, 5, 3, 4, 2], "points": [1, 3]},
        "old": {
            "score_a": 4,
            "score_b": -4,
            "finish": [1, 6, 5, 3, 4, 2],
            "points": [1, 3],
            "burners": [],
            "strung": "",
            "streak": 0,
            "tributes": tributes(
                (2, 5, "point", 1),
                (4, 1, "point", 1),
                (5, 2, "point", 1),
                (6, 3, "point", 1),
                (2, 1, "place", 2),
            ),
        },
    },
]

# Two hands at a Giog table of three, as reported, checked and tallied the old way.
GIOG = [
    {"places": [[2], [1], [3]], "won": {"1": 3, "2": 24, "3": 3}, "beheaded": [3]},
    {"places": [[3], [1, 2]], "won": {"1": 8, "2": 8, "3": 14}, "beheaded": []},
]


def build_gouji(apps):
    get = apps.get_model
    event = get("matches", "Event").objects.create(
        name="旧够级",
        start_date=DAY,
        game="gouji",
        deals_per_match=3,
        game_settings={"rules": {"preset": "standard"}},
    )
    stage = get("matches", "Stage").objects.create(event=event, format="swiss")
    round_ = get("matches", "Round").objects.create(
        event=event, stage=stage, number=1, seed=1, state="closed"
    )
    table = get("matches", "Table").objects.create(round=round_, number=1)
    match = get("matches", "Match").objects.create(
        round=round_,
        table=table,
        score_a=-20,
        score_b=20,
        points_a=0,
        points_b=3,
        completed_at=datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC),
    )
    for seed, (position, name) in enumerate((("A", "甲"), ("B", "乙")), 1):
        union = get("matches", "Union").objects.create(event=event, name=name)
        get("matches", "Registration").objects.create(event=event, union=union, seed=seed)
        get("matches", "MatchSide").objects.create(
            round=round_, match=match, position=position, union=union
        )
    owed = []
    for number, deal in enumerate(GOUJI, 1):
        row = get("matches", "Deal").objects.create(match=match, number=number, tributes_owed=owed)
        summary = {"format": "gouji-outcome/1", "declarations": {}, "burns": [], **deal["summary"]}
        report = get("matches", "DealReport").objects.create(
            deal=row, kind="report", state="final", summary=summary, score_a=deal["old"]["score_a"]
        )
        get("matches", "DealTally").objects.create(
            deal=row, match=match, report_id=report.pk, **deal["old"]
        )
        owed = deal["old"]["tributes"]
    return event.pk, match.pk


def build_giog(apps):
    get = apps.get_model
    event = get("matches", "Event").objects.create(
        name="旧 Giog",
        start_date=DAY,
        game="giog",
        entry_type="individual",
        deals_per_match=2,
        game_settings={"place_points": [3, 2, 1, 0]},
    )
    stage = get("matches", "Stage").objects.create(event=event, format="swiss")
    round_ = get("matches", "Round").objects.create(
        event=event, stage=stage, number=1, seed=1, state="closed"
    )
    table = get("matches", "Table").objects.create(round=round_, number=1)
    match = get("matches", "Match").objects.create(
        round=round_,
        table=table,
        completed_at=datetime.datetime(2026, 5, 1, 12, tzinfo=datetime.UTC),
    )
    players = {}
    for seat in (1, 2, 3):
        player = get("players", "Player").objects.create(name=f"棋手{seat}")
        players[seat] = player.pk
        get("matches", "Registration").objects.create(event=event, player=player)
        get("matches", "MatchSide").objects.create(
            round=round_, match=match, position=str(seat), player=player
        )
        get("matches", "TableSeat").objects.create(
            table=table, round=round_, seat=seat, player=player
        )
    for number, hand in enumerate(GIOG, 1):
        row = get("matches", "Deal").objects.create(match=match, number=number)
        report = get("matches", "DealReport").objects.create(
            deal=row,
            kind="report",
            state="final",
            summary={
                "format": "giog-outcome/1",
                "players": 3,
                **{k: hand[k] for k in ("won", "beheaded")},
            },
            verdict={"valid": True, "errors": [], **hand},
        )
        get("matches", "DealTally").objects.create(
            deal=row,
            match=match,
            report_id=report.pk,
            score_a=0,
            score_b=0,
            finish=hand["places"],
            points=[hand["won"][str(seat)] for seat in (1, 2, 3)],
            burners=hand["beheaded"],
        )
    return event.pk, match.pk, players


def tallies(apps, match_id, fields):
    rows = apps.get_model("matches", "DealTally").objects.filter(match_id=match_id)
    return [
        {field: getattr(row, field) for field in fields} for row in rows.order_by("deal__number")
    ]


OLD_FIELDS = ["score_a", "score_b", "finish", "points", "burners", "strung", "streak", "tributes"]
NEW_FIELDS = ["score_a", "score_b", "places", "detail"]


@pytest.mark.django_db(transaction=True)
def test_gouji_and_giog_tallies_move_into_places_and_detail_and_back():
    old = migrate(BEFORE)
    try:
        gouji_event, gouji_match = build_gouji(old)
        giog_event, giog_match, players = build_giog(old)
        before = {
            "gouji": tallies(old, gouji_match, OLD_FIELDS),
            "giog": tallies(old, giog_match, OLD_FIELDS),
        }

        new = migrate(AFTER)
        gouji = tallies(new, gouji_match, NEW_FIELDS)
        assert [t["places"] for t in gouji] == [
            [[seat] for seat in deal["old"]["finish"]] for deal in GOUJI
        ]
        assert [(t["score_a"], t["score_b"]) for t in gouji] == [(-12, 12), (-12, 12), (4, -4)]
        # The document is the Gou Ji engine's tally type, read back equal to the old columns.
        typed = [GoujiTally.from_json(t["detail"]) for t in gouji]
        assert typed[1] == GoujiTally(
            points=(4, 5),
            strung="B",
            streak=1,
            tributes=(
                Tribute(5, 2, "string_three", 1),
                Tribute(3, 6, "string_three", 1),
                Tribute(1, 4, "string_three", 1),
            ),
        )
        assert typed[2].strung is None and typed[2].points == (1, 3)
        assert [t.to_json() for t in typed] == [t["detail"] for t in gouji]
        giog = tallies(new, giog_match, NEW_FIELDS)
        assert [t["places"] for t in giog] == [hand["places"] for hand in GIOG]
        assert [(t["score_a"], t["score_b"]) for t in giog] == [(None, None)] * 2
        assert [GiogTally.from_json(t["detail"]) for t in giog] == [
            GiogTally(won=((1, 3), (2, 24), (3, 3)), beheaded=(3,)),
            GiogTally(won=((1, 8), (2, 8), (3, 14))),
        ]

        # Back: the old columns exactly as they were.
        back = migrate(BEFORE)
        assert tallies(back, gouji_match, OLD_FIELDS) == before["gouji"]
        assert tallies(back, giog_match, OLD_FIELDS) == before["giog"]
        migrate(AFTER)
    finally:
        leaf()

    # Today's recompute, from the final reports alone, writes the same tallies again, and the
    # standings read them.
    from matches.models import DealTally, Event, Match
    from matches.standings import service as standings

    for event_id in (gouji_event, giog_event):
        standings.recompute_event(event_id)
    fields = ("score_a", "score_b", "places", "detail")
    for match_id, migrated in ((gouji_match, gouji), (giog_match, giog)):
        rows = DealTally.objects.filter(match_id=match_id).order_by("deal__number")
        assert [dict(zip(fields, values)) for values in rows.values_list(*fields)] == migrated
    match = Match.objects.get(pk=gouji_match)
    assert (match.score_a, match.score_b, match.points_a, match.points_b) == (-20, 20, 0, 3)
    assert list(match.deals.order_by("number").values_list("tributes_owed", flat=True)) == [
        [],
        GOUJI[0]["old"]["tributes"],
        GOUJI[1]["old"]["tributes"],
    ]
    event = Event.objects.get(pk=gouji_event)
    unions = event.snapshots.get(kind="unions", scope="event").rows
    assert [(row["name"], row["strings_of_three"], row["deal_wins"]) for row in unions] == [
        ("乙", 2, 2),
        ("甲", 0, 1),
    ]
    rows = {
        row["player"]: row
        for row in Event.objects.get(pk=giog_event)
        .snapshots.get(kind="players", scope="event")
        .rows
    }
    # A table of three scores 3, 2, 0 (the last place always the last entry). Hand 1: seat 2
    # first, 1 second, 3 last and beheaded; hand 2: seat 3 first, 1 and 2 share (2 + 0) / 2.
    assert [
        (rows[players[seat]]["points_display"], rows[players[seat]]["pieces"]) for seat in (1, 2, 3)
    ] == [("3", 11), ("4", 32), ("3", 17)]
    assert rows[players[3]]["beheaded"] == 1 and rows[players[3]]["firsts"] == 1
