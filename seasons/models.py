"""Seasons' tables: ratings (the current list and each player's steps, round by round), series
of events and their points tables, and the log of merged player records."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def order_key(start_date, event_id: int, number: int) -> int:
    """Where a round stands in the rating's one order: by the event's start date, the event,
    the round's number."""
    return start_date.toordinal() * 10**12 + event_id * 10**3 + number


class PlayerRating(models.Model):
    """A player's rating now (after every rated round): the public list reads it."""

    player = models.OneToOneField(
        "players.Player", primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)  # mu - 3 sigma: what the list shows and sorts by
    rounds = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-ordinal", "player_id"]
        verbose_name = _("等级分")
        verbose_name_plural = _("等级分")


class RatingStep(models.Model):
    """A player's rating after one rated round: the chart's points, and where an incremental
    update restarts from."""

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey("matches.Round", on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    key = models.BigIntegerField()  # order_key of the round
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["player_id", "key"]
        constraints = [
            models.UniqueConstraint(fields=["player", "round"], name="rating_step_once_per_round")
        ]
        indexes = [
            models.Index(fields=["key"], name="rating_step_key_idx"),
            models.Index(fields=["player", "key"], name="rating_step_player_key_idx"),
        ]


class RatedRound(models.Model):
    """A round the rating has taken in (its deals, in the order they were rated)."""

    round = models.OneToOneField("matches.Round", on_delete=models.CASCADE, related_name="+")
    key = models.BigIntegerField(db_index=True)
    deals = models.PositiveIntegerField(default=0)
    rated_at = models.DateTimeField(auto_now=True)


class Series(models.Model):
    """A city league's cups, a season: events whose results add up to one table."""

    class Scoring(models.TextChoices):
        PLACING = "placing", _("按名次积分")
        MATCH_POINTS = "match_points", _("累计场分")

    name = models.CharField(_("名称"), max_length=200)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("组织者"), blank=True, related_name="series"
    )
    scoring = models.CharField(
        _("计分方式"), max_length=16, choices=Scoring.choices, default=Scoring.PLACING
    )
    # Points for 1st, 2nd, ... place (a union's place counts for each of its players).
    place_points = models.JSONField(_("名次积分"), default=list, blank=True)
    # Best N of the events count (blank: all).
    best_of = models.PositiveSmallIntegerField(_("取最好几站"), null=True, blank=True)
    published = models.BooleanField(_("公开"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("系列赛")
        verbose_name_plural = _("系列赛")

    def __str__(self):
        return self.name

    def points_for(self, place: int) -> int:
        table = self.place_points or []
        return int(table[place - 1]) if 1 <= place <= len(table) else 0


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["series_id", "event__start_date", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="series_event_once")
        ]


class PlayerMerge(models.Model):
    """Two records of one person made one (`kept` keeps every result of `merged`), and the
    rows moved, so a wrong merge can be split again."""

    kept = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    merged_id = models.BigIntegerField()  # the removed record's id (restored by a split)
    merged_fields = models.JSONField(default=dict)  # its name, club, member number, ...
    moved = models.JSONField(default=dict)  # {"model label": [row ids moved to `kept`]}
    events = models.JSONField(default=list)  # the events whose computations were asked again
    # Every event of both records when the merge was made: their organisers (and whoever made
    # it) may split it. Fixed then, so that linking a record later gives no say over it.
    touched = models.JSONField(default=list)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    split_at = models.DateTimeField(null=True, blank=True)
    split_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["merged_id"], condition=Q(split_at__isnull=True), name="merge_open_once"
            )
        ]


class SeriesLog(models.Model):
    """Who changed a series, and when: made, its settings or events changed, deleted. The log
    outlives the series (its name is kept) so a deletion stays on record with what it held."""

    class Action(models.TextChoices):
        CREATE = "create", _("创建")
        EDIT = "edit", _("修改")
        DELETE = "delete", _("删除")

    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="log"
    )
    series_name = models.CharField(max_length=200)
    action = models.CharField(max_length=8, choices=Action.choices)
    detail = models.TextField(blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    # A deletion keeps what the series was (`seasons.views.series_snapshot`), so that a series
    # deleted by mistake is made again on the page; `restored_as` is the series made from it.
    snapshot = models.JSONField(default=dict, blank=True)
    restored_as = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-id"]


class MergeRequest(models.Model):
    """A merge that touches records of events another organiser runs: it waits for one
    organiser of each such event to accept it on their players page (`waiting`: the event ids
    still to answer). When the last one accepts, the merge is made in the requester's name."""

    class State(models.TextChoices):
        OPEN = "open", _("待同意")
        DONE = "done", _("已合并")
        REFUSED = "refused", _("已拒绝")
        FAILED = "failed", _("未能合并")

    kept = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    # The merged record is deleted by the merge: the request keeps its id and name.
    merged = models.ForeignKey(
        "players.Player", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_number = models.BigIntegerField()
    merged_name = models.CharField(max_length=120)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    waiting = models.JSONField(default=list)  # event ids whose organisers have not accepted
    answers = models.JSONField(default=list)  # [{"event", "user", "accepted", "at"}]
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    note = models.CharField(max_length=200, blank=True)  # why it could not be made
    merge = models.ForeignKey(
        PlayerMerge, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-id"]
