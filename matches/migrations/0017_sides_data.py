"""Sides as rows, the data: every match was complete when its `points_a` was set.
Giog tables were written with two placeholder unions each and a 0 : 0 result: they get one side
per seated player, their seats lose the placeholder union and side, the placeholder unions go,
and the fake score is cleared (the tallies keep the hands)."""

from django.db import migrations
from django.utils import timezone


def completed_and_giog_sides(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    MatchSide = apps.get_model("matches", "MatchSide")
    TableSeat = apps.get_model("matches", "TableSeat")
    Union = apps.get_model("matches", "Union")
    UnionMember = apps.get_model("matches", "UnionMember")
    now = timezone.now()
    Round = apps.get_model("matches", "Round")
    for round_ in Round.objects.only("pk", "closed_at"):  # one UPDATE a round
        Match.objects.filter(round=round_, points_a__isnull=False).update(
            completed_at=round_.closed_at or now
        )
    giog = Match.objects.filter(round__event__game="giog")
    for match in giog.filter(table__isnull=False).only("pk", "round_id", "table_id"):
        MatchSide.objects.filter(match=match).delete()
        seats = TableSeat.objects.filter(table_id=match.table_id).order_by("seat")
        MatchSide.objects.bulk_create(
            MatchSide(round_id=match.round_id, match=match, position=str(s.seat), player_id=s.player_id)
            for s in seats
        )
    TableSeat.objects.filter(round__event__game="giog").update(union=None, side="")
    # Giog has no match result: the 0 : 0 only marked a complete table.
    giog.update(score_a=None, score_b=None, points_a=None, points_b=None)
    placeholders = Union.objects.filter(event__game="giog", round__isnull=False)
    UnionMember.objects.filter(union__in=placeholders).delete()
    placeholders.delete()


class Migration(migrations.Migration):

    dependencies = [("matches", "0016_sides_match_sides")]

    operations = [migrations.RunPython(completed_and_giog_sides, migrations.RunPython.noop)]
