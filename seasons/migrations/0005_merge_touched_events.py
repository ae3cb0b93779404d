"""Who may split a merge is fixed when it is made: `PlayerMerge.touched`, every event of both
records then. Merges made before hold the merged record's events and the kept record's events
as they are at this migration (the best that is known of them)."""

from django.db import migrations, models


def fill_touched(apps, schema_editor):
    PlayerMerge = apps.get_model("seasons", "PlayerMerge")
    UnionMember = apps.get_model("matches", "UnionMember")
    Registration = apps.get_model("matches", "Registration")
    TableSeat = apps.get_model("matches", "TableSeat")
    for merge in PlayerMerge.objects.all():
        kept = (
            set(
                UnionMember.objects.filter(player_id=merge.kept_id).values_list(
                    "event_id", flat=True
                )
            )
            | set(
                Registration.objects.filter(player_id=merge.kept_id).values_list(
                    "event_id", flat=True
                )
            )
            | set(
                TableSeat.objects.filter(player_id=merge.kept_id).values_list(
                    "round__event_id", flat=True
                )
            )
        )
        merge.touched = sorted(set(merge.events) | kept)
        merge.save(update_fields=["touched"])


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0035_signup_fees"),
        ("seasons", "0004_merge_request"),
    ]

    operations = [
        migrations.AddField(
            model_name="playermerge",
            name="touched",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(fill_touched, migrations.RunPython.noop),
    ]
