"""The 擂台赛 ladder's models move to their own app (`ladders`). Only Django's picture of the
models changes here: the tables stay where they are, with their names and rows, and
ladders/migrations/0001_initial.py takes them over (its models name these tables)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0026_ladder_withdrawn_and_reopen'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='LadderLog'),
                migrations.DeleteModel(name='LadderChallenge'),
                migrations.DeleteModel(name='LadderSession'),
                migrations.DeleteModel(name='LadderTeam'),
                migrations.DeleteModel(name='LadderSeason'),
            ],
            database_operations=[],
        ),
    ]
