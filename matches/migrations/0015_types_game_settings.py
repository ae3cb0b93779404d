# Event.rules (Gou Ji's rule set) and Event.place_points (Giog's points per place) become one
# document, Event.game_settings, that the event's game reads through its adapter.

from django.db import migrations, models

# The games as they were when this migration was written: only Giog kept place points.
PLACE_POINTS_GAMES = {"giog"}


def to_game_settings(apps, schema_editor):
    Event = apps.get_model("matches", "Event")
    for event in Event.objects.all().only("pk", "game", "rules", "place_points"):
        if event.game in PLACE_POINTS_GAMES:
            settings = {"place_points": list(event.place_points or [3, 2, 1, 0])}
        else:
            settings = {"rules": event.rules or {"preset": "standard"}}
        Event.objects.filter(pk=event.pk).update(game_settings=settings)


def from_game_settings(apps, schema_editor):
    Event = apps.get_model("matches", "Event")
    for event in Event.objects.all().only("pk", "game_settings"):
        settings = event.game_settings or {}
        Event.objects.filter(pk=event.pk).update(
            rules=settings.get("rules", {"preset": "standard"}),
            place_points=settings.get("place_points", [3, 2, 1, 0]),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0014_drawedges_undo_and_archive"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="game_settings",
            field=models.JSONField(blank=True, default=dict, verbose_name="游戏设置"),
        ),
        migrations.RunPython(to_game_settings, from_game_settings),
        migrations.RemoveField(model_name="event", name="place_points"),
        migrations.RemoveField(model_name="event", name="rules"),
    ]
