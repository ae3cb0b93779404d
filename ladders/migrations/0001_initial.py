"""The 擂台赛 ladder's models, moved here from the matches app (its migrations 0021 and 0026 made
the tables; its 0027 let go of the models). Nothing happens to the database: the models name
the old tables (`db_table`), so every row stays where it is. Only the content types (and with
them the admin's permissions and log entries) are relabelled, and back on a reverse."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ["ladderseason", "ladderteam", "laddersession", "ladderchallenge", "ladderlog"]


def _relabel(apps, schema_editor, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    rows = ContentType.objects.using(schema_editor.connection.alias)
    taken = rows.filter(app_label=new, model__in=MODELS).values_list("model", flat=True)
    rows.filter(app_label=old, model__in=MODELS).exclude(model__in=list(taken)).update(
        app_label=new
    )


def to_ladders(apps, schema_editor):
    _relabel(apps, schema_editor, "matches", "ladders")


def to_matches(apps, schema_editor):
    _relabel(apps, schema_editor, "ladders", "matches")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("matches", "0027_ladder_to_its_own_app"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LadderSeason",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=120, verbose_name="赛季名称")),
                        ("published", models.BooleanField(default=False, verbose_name="公开")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "organisers",
                            models.ManyToManyField(
                                related_name="ladder_seasons", to=settings.AUTH_USER_MODEL
                            ),
                        ),
                        (
                            "previous",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="next_seasons",
                                to="ladders.ladderseason",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "擂台赛赛季",
                        "verbose_name_plural": "擂台赛赛季",
                        "db_table": "matches_ladderseason",
                        "ordering": ["-created_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="LadderLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("at", models.DateTimeField(auto_now_add=True)),
                        ("action", models.CharField(max_length=20)),
                        ("detail", models.TextField()),
                        (
                            "by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="log",
                                to="ladders.ladderseason",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_ladderlog",
                        "ordering": ["-at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="LadderSession",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("seed", models.BigIntegerField()),
                        ("challengers", models.JSONField(default=list)),
                        ("opened_at", models.DateTimeField(auto_now_add=True)),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        ("titles_before", models.JSONField(blank=True, default=dict)),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="sessions",
                                to="ladders.ladderseason",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_laddersession",
                        "ordering": ["season_id", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="LadderTeam",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=80, verbose_name="队名")),
                        (
                            "club",
                            models.CharField(blank=True, max_length=80, verbose_name="俱乐部"),
                        ),
                        (
                            "members",
                            models.CharField(blank=True, max_length=200, verbose_name="队员"),
                        ),
                        ("title", models.CharField(blank=True, max_length=16)),
                        ("withdrawn", models.BooleanField(default=False)),
                        (
                            "season",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="teams",
                                to="ladders.ladderseason",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_ladderteam",
                        "ordering": ["season_id", "name"],
                    },
                ),
                migrations.CreateModel(
                    name="LadderChallenge",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[("knockout", "淘汰赛"), ("title", "攻擂")], max_length=10
                            ),
                        ),
                        ("stage", models.PositiveSmallIntegerField()),
                        ("slot", models.CharField(blank=True, max_length=16)),
                        ("scheduled_for", models.DateField(blank=True, null=True)),
                        ("games", models.JSONField(default=list)),
                        ("challenger_no_shows", models.PositiveSmallIntegerField(default=0)),
                        ("defender_no_shows", models.PositiveSmallIntegerField(default=0)),
                        ("void", models.BooleanField(default=False)),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="challenges",
                                to="ladders.laddersession",
                            ),
                        ),
                        (
                            "challenger",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="ladders.ladderteam",
                            ),
                        ),
                        (
                            "defender",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="ladders.ladderteam",
                            ),
                        ),
                        (
                            "winner",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="ladders.ladderteam",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "matches_ladderchallenge",
                        "ordering": ["session_id", "kind", "stage", "id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="laddersession",
                    constraint=models.UniqueConstraint(
                        fields=("season", "number"), name="ladder_session_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="ladderteam",
                    constraint=models.UniqueConstraint(
                        fields=("season", "name"), name="ladder_team_name_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="ladderteam",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("title", ""), _negated=True),
                        fields=("season", "title"),
                        name="ladder_title_one_holder",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_ladders, to_matches),
    ]
