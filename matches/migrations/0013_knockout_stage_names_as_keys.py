"""The break used to write the stage name 淘汰赛 in Chinese, which then showed
on English pages. A stage the app named leaves its name blank: pages show the format's name, or
the knockout round's name, in the reader's language. Names organisers typed are kept."""

from django.db import migrations


def blank_written_names(apps, schema_editor):
    Stage = apps.get_model("matches", "Stage")
    Stage.objects.filter(format="single_elimination", name="淘汰赛").update(name="")


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0012_captain_pins"),
    ]

    operations = [
        migrations.RunPython(blank_written_names, migrations.RunPython.noop),
    ]
