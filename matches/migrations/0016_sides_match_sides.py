"""Sides as rows: `RoundEntry` becomes `MatchSide` (a union or a single player),
`Match.union_a/union_b` go (the sides hold them), the Gou Ji seat-parity check leaves the
database for the game's adapter, and `Match.completed_at` says a match is over.

The existing data moves in 0014 (a separate migration: on PostgreSQL the indexes this one
creates at its end cannot follow row changes in the same transaction).
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0015_types_game_settings"),
        ("players", "0001_players_and_clubs"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="completed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="完成时间"),
        ),
        migrations.RemoveConstraint(model_name="match", name="match_unions_differ"),
        migrations.RemoveConstraint(model_name="match", name="match_bye_has_no_table"),
        migrations.RemoveConstraint(model_name="roundentry", name="one_union_per_side"),
        migrations.RemoveConstraint(model_name="roundentry", name="union_once_per_round"),
        migrations.RenameModel(old_name="RoundEntry", new_name="MatchSide"),
        migrations.RenameField(model_name="matchside", old_name="side", new_name="position"),
        migrations.AlterField(
            model_name="matchside",
            name="position",
            field=models.CharField(max_length=4),
        ),
        migrations.AlterField(
            model_name="matchside",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="sides", to="matches.match"
            ),
        ),
        migrations.AlterField(
            model_name="matchside",
            name="round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="sides", to="matches.round"
            ),
        ),
        migrations.AlterField(
            model_name="matchside",
            name="union",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sides",
                to="matches.union",
            ),
        ),
        migrations.AddField(
            model_name="matchside",
            name="player",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="sides",
                to="players.player",
            ),
        ),
        migrations.AlterModelOptions(name="matchside", options={"ordering": ["match_id", "position"]}),
        migrations.RemoveField(model_name="match", name="union_a"),
        migrations.RemoveField(model_name="match", name="union_b"),
        migrations.RemoveConstraint(model_name="tableseat", name="seat_parity_matches_side"),
        migrations.AlterField(
            model_name="tableseat",
            name="side",
            field=models.CharField(blank=True, choices=[("A", "A"), ("B", "B")], max_length=1),
        ),
        migrations.AlterField(
            model_name="tableseat",
            name="union",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="matches.union",
            ),
        ),
        migrations.AddConstraint(
            model_name="matchside",
            constraint=models.UniqueConstraint(fields=("round", "union"), name="union_once_per_round"),
        ),
        migrations.AddConstraint(
            model_name="matchside",
            constraint=models.UniqueConstraint(
                fields=("round", "player"), name="player_side_once_per_round"
            ),
        ),
        migrations.AddConstraint(
            model_name="matchside",
            constraint=models.UniqueConstraint(
                fields=("match", "position"), name="one_side_per_position"
            ),
        ),
        migrations.AddConstraint(
            model_name="matchside",
            constraint=models.CheckConstraint(
                condition=Q(union__isnull=False) | Q(player__isnull=False),
                name="side_is_a_union_or_a_player",
            ),
        ),
    ]
