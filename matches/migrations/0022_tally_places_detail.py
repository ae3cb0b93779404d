# DealTally keeps what every game has (the places, best first, and the two sides' scores, now
# empty in a game whose sides score nothing) plus one document of the game's own, `detail`, that
# the game's adapter reads into its engine's tally type. The Gou Ji-shaped columns
# (finish, points, burners, strung, streak, tributes) move into it and go.

from django.db import migrations, models

BATCH = 1000

# The two games' tally documents as they were when this migration was written (their engines'
# `GoujiTally` and `GiogTally`); a tally of another game keeps its places and an empty document.


def _gouji_forward(tally) -> None:
    tally.places = [[seat] for seat in tally.finish or []]
    tally.detail = {
        "points": list(tally.points or []),
        "burners": list(tally.burners or []),
        "strung": tally.strung or None,
        "streak": tally.streak or 0,
        "tributes": list(tally.tributes or []),
    }


def _giog_forward(tally) -> None:
    # finish: seats grouped by place; points: pieces won, seat 1 first; burners: beheaded seats
    tally.places = [list(group) for group in tally.finish or []]
    tally.detail = {
        "won": {str(seat): won for seat, won in enumerate(tally.points or [], 1)},
        "beheaded": list(tally.burners or []),
    }
    tally.score_a = tally.score_b = None  # a hand has no sides' scores (they were 0 : 0)


def _other_forward(tally) -> None:
    finish = tally.finish or []
    tally.places = [g if isinstance(g, list) else [g] for g in finish]
    tally.detail = {}


def _gouji_back(tally) -> None:
    detail = tally.detail or {}
    tally.finish = [seat for group in tally.places or [] for seat in group]
    tally.points = list(detail.get("points") or [])
    tally.burners = list(detail.get("burners") or [])
    tally.strung = detail.get("strung") or ""
    tally.streak = detail.get("streak") or 0
    tally.tributes = list(detail.get("tributes") or [])


def _giog_back(tally) -> None:
    detail = tally.detail or {}
    won = {int(seat): n for seat, n in (detail.get("won") or {}).items()}
    tally.finish = [list(group) for group in tally.places or []]
    tally.points = [won[seat] for seat in sorted(won)]
    tally.burners = list(detail.get("beheaded") or [])
    tally.score_a = tally.score_b = 0


def _other_back(tally) -> None:
    places = tally.places or []
    single = all(len(group) == 1 for group in places)
    tally.finish = [group[0] for group in places] if single else [list(g) for g in places]


FORWARD = {"gouji": _gouji_forward, "giog": _giog_forward}
BACK = {"gouji": _gouji_back, "giog": _giog_back}


def _rewrite(apps, moves, default, fields) -> None:
    DealTally = apps.get_model("matches", "DealTally")
    Match = apps.get_model("matches", "Match")
    game_of = dict(Match.objects.values_list("pk", "round__event__game"))
    batch = []
    for tally in DealTally.objects.order_by("pk").iterator(chunk_size=BATCH):
        moves.get(game_of.get(tally.match_id), default)(tally)
        batch.append(tally)
        if len(batch) >= BATCH:
            DealTally.objects.bulk_update(batch, fields)
            batch = []
    if batch:
        DealTally.objects.bulk_update(batch, fields)


def to_places_detail(apps, schema_editor):
    _rewrite(apps, FORWARD, _other_forward, ["places", "detail", "score_a", "score_b"])


def _no_empty_score(move):
    def back(tally) -> None:
        move(tally)
        # the old columns took no empty score
        tally.score_a = tally.score_a if tally.score_a is not None else 0
        tally.score_b = tally.score_b if tally.score_b is not None else 0

    return back


def from_places_detail(apps, schema_editor):
    moves = {game: _no_empty_score(move) for game, move in BACK.items()}
    fields = ["finish", "points", "burners", "strung", "streak", "tributes", "score_a", "score_b"]
    _rewrite(apps, moves, _no_empty_score(_other_back), fields)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0021_ladder_seasons"),
    ]

    operations = [
        migrations.AddField(
            model_name="dealtally",
            name="places",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="dealtally",
            name="detail",
            field=models.JSONField(default=dict),
        ),
        migrations.AlterField(
            model_name="dealtally",
            name="score_a",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="dealtally",
            name="score_b",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.RunPython(to_places_detail, from_places_detail),
        migrations.RemoveField(model_name="dealtally", name="finish"),
        migrations.RemoveField(model_name="dealtally", name="points"),
        migrations.RemoveField(model_name="dealtally", name="burners"),
        migrations.RemoveField(model_name="dealtally", name="strung"),
        migrations.RemoveField(model_name="dealtally", name="streak"),
        migrations.RemoveField(model_name="dealtally", name="tributes"),
    ]
