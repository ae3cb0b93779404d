"""The ladder's models moved from the matches app to their own (`ladders`): matches 0027 lets
go of them, ladders 0001 takes them over under the same table names. A season written before the
move is read whole after it, by the new app's models, and again by the old ones after a reverse;
the content types follow. Run on SQLite and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# auth and contenttypes at their latest (the states below read users and content types);
# going back to matches 0026 takes ladders 0001 back first (it depends on matches 0027).
KEPT = [
    ("auth", "0012_alter_user_first_name_max_length"),
    ("contenttypes", "0002_remove_content_type_name"),
]
BEFORE = [("matches", "0026_ladder_withdrawn_and_reopen"), *KEPT]
AFTER = [("matches", "0027_ladder_to_its_own_app"), ("ladders", "0001_initial"), *KEPT]
TABLES = [
    "matches_ladderseason",
    "matches_ladderseason_organisers",
    "matches_ladderteam",
    "matches_laddersession",
    "matches_ladderchallenge",
    "matches_ladderlog",
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def leaf():
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def build_season(apps) -> dict:
    """A season as the old app wrote it: an organiser, last season, two teams (one holding the
    chief's title), a closed session with a decided challenge, a log line."""
    get = apps.get_model
    User = get("auth", "User")
    Season = get("matches", "LadderSeason")
    organiser = User.objects.create(username="ladder-organiser")
    last = Season.objects.create(name="2026 擂台赛", published=True)
    season = Season.objects.create(name="2027 擂台赛", previous=last, published=True)
    season.organisers.add(organiser)
    Team = get("matches", "LadderTeam")
    holder = Team.objects.create(season=season, name="守擂1队", club="青岛", title="chief-1")
    challenger = Team.objects.create(season=season, name="攻擂队", members="甲、乙、丙")
    session = get("matches", "LadderSession").objects.create(
        season=season,
        number=1,
        seed=42,
        challengers=[challenger.pk],
        closed_at=datetime.datetime(2027, 3, 31, tzinfo=datetime.UTC),
        titles_before={"chief-1": holder.pk},
    )
    challenge = get("matches", "LadderChallenge").objects.create(
        session=session,
        kind="title",
        stage=7,
        slot="chief-1",
        challenger=challenger,
        defender=holder,
        games=[[[10, 2], [3, 4], [5, 6], [7, 1]], [[9, 1], [2, 2], [4, 3], [6, 5]]],
        winner=challenger,
        decided_at=datetime.datetime(2027, 3, 30, tzinfo=datetime.UTC),
    )
    get("matches", "LadderLog").objects.create(
        season=season, by=organiser, action="result", detail="攻擂队 2:0"
    )
    ContentType = get("contenttypes", "ContentType")
    ContentType.objects.get_or_create(app_label="matches", model="ladderseason")
    return {
        "organiser": organiser.pk,
        "season": season.pk,
        "last": last.pk,
        "holder": holder.pk,
        "challenger": challenger.pk,
        "challenge": challenge.pk,
    }


def read_season(apps, app: str, ids: dict) -> dict:
    """Everything the rows hold, read through `app`'s models."""
    get = apps.get_model
    season = get(app, "LadderSeason").objects.get(pk=ids["season"])
    challenge = get(app, "LadderChallenge").objects.get(pk=ids["challenge"])
    return {
        "season": (season.name, season.previous_id, season.published),
        "organisers": list(season.organisers.values_list("pk", flat=True)),
        "teams": list(
            get(app, "LadderTeam")
            .objects.filter(season=season)
            .order_by("pk")
            .values_list("pk", "name", "club", "members", "title", "withdrawn")
        ),
        "sessions": list(
            get(app, "LadderSession")
            .objects.filter(season=season)
            .values_list("number", "seed", "challengers", "titles_before", "closed_at")
        ),
        "challenge": (
            challenge.session.number,
            challenge.kind,
            challenge.slot,
            challenge.challenger_id,
            challenge.defender_id,
            challenge.winner_id,
            challenge.games,
        ),
        "log": list(
            get(app, "LadderLog").objects.filter(season=season).values_list("by", "detail")
        ),
    }


def content_type_app(apps) -> set[str]:
    ContentType = apps.get_model("contenttypes", "ContentType")
    return set(ContentType.objects.filter(model="ladderseason").values_list("app_label", flat=True))


def tables() -> set[str]:
    return set(connection.introspection.table_names())


@pytest.mark.django_db(transaction=True)
def test_a_season_written_before_the_move_is_whole_after_it_and_after_a_reverse():
    old = migrate(BEFORE)
    try:
        ids = build_season(old)
        written = read_season(old, "matches", ids)
        assert written["organisers"] == [ids["organiser"]] and written["log"]
        before_tables = tables()
        assert set(TABLES) <= before_tables

        new = migrate(AFTER)
        assert read_season(new, "ladders", ids) == written
        with pytest.raises(LookupError):
            new.get_model("matches", "LadderSeason")
        # No table made, dropped or renamed: the rows never moved.
        assert tables() == before_tables
        assert content_type_app(new) == {"ladders"}

        back = migrate(BEFORE)
        assert read_season(back, "matches", ids) == written
        with pytest.raises(LookupError):
            back.get_model("ladders", "LadderSeason")
        assert tables() == before_tables
        assert content_type_app(back) == {"matches"}
    finally:
        leaf()

    # Today's code reads the season the old app wrote: its titles and points.
    from ladders.models import LadderSeason
    from ladders.service.points import points_table
    from ladders.service.shared import holders

    season = LadderSeason.objects.get(pk=ids["season"])
    assert season.organisers.get().username == "ladder-organiser"
    assert {slot.key: team.name for slot, team in holders(season).items()} == {"chief-1": "守擂1队"}
    points = {row.team.name: row.points for row in points_table(season)}
    assert points["攻擂队"] == 6  # the chief's title challenge won (rules.POINTS)
