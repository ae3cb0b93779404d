"""Rounds, tables, seats, matches and deals.

The database itself refuses what must never happen: a player at two tables in one round, two
players on one seat, a union paired twice in one round, two unions on one side of a match.
Where a rule spans tables, the round is denormalised onto the row so a UniqueConstraint can
hold it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Prefetch, Q
from django.utils.translation import gettext_lazy as _

SIDE_A = "A"  # seats 1-3-5
SIDE_B = "B"  # seats 2-4-6


class Round(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("草稿")
        PUBLISHED = "published", _("已公布")
        CLOSED = "closed", _("已结束")

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="rounds")
    stage = models.ForeignKey("matches.Stage", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("轮次"))  # in the event: 1, 2, 3, ...
    stage_round = models.PositiveSmallIntegerField(_("阶段内轮次"), default=1)
    state = models.CharField(max_length=12, choices=State.choices, default=State.DRAFT)
    # Played, but results are not shown to the public (e.g. the last Swiss rounds).
    silent = models.BooleanField(_("不公开成绩"), default=False)
    # The draw's random seed: the same seed and the same standings give the same draw.
    seed = models.BigIntegerField(_("随机种子"))
    quality = models.JSONField(_("编排质量"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "number"]
        verbose_name = _("轮次")
        verbose_name_plural = _("轮次")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="round_number_unique_in_event"
            ),
            models.UniqueConstraint(fields=["stage", "stage_round"], name="round_unique_in_stage"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.event} · {self.number}"

    @property
    def is_draft(self) -> bool:
        return self.state == self.State.DRAFT


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("桌号"))
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tables"
    )

    class Meta:
        ordering = ["round_id", "number"]
        verbose_name = _("牌桌")
        verbose_name_plural = _("牌桌")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="table_number_unique_in_round"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return f"{self.round} · {self.number}"


class Match(models.Model):
    """Two unions meeting at a table in a round, or one union's bye (no table, no union_b).

    The result fields are filled by the deal-recording issue.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="match"
    )
    union_a = models.ForeignKey("matches.Union", on_delete=models.PROTECT, related_name="+")
    union_b = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Why the draw is what it is: pulled_up/pulled_down, bye, rematch_forced, club_clash, ...
    flags = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)
    # Results (the standings service writes them): deal-score totals and match points.
    score_a = models.IntegerField(null=True, blank=True)
    score_b = models.IntegerField(null=True, blank=True)
    points_a = models.PositiveSmallIntegerField(null=True, blank=True)
    points_b = models.PositiveSmallIntegerField(null=True, blank=True)
    # Who did not play: "A", "B" or "both" (a no-show); the result is then the event's forfeit.
    forfeit = models.CharField(
        _("弃权"),
        max_length=4,
        blank=True,
        default="",
        choices=[("", "—"), ("A", "A"), ("B", "B"), ("both", _("双方"))],
    )
    # Stopped by time after this many deals: scored from those deals (event setting).
    stopped_after = models.PositiveSmallIntegerField(_("超时中止于第几局后"), null=True, blank=True)

    class Meta:
        ordering = ["round_id", "table__number", "id"]
        verbose_name = _("对局")
        verbose_name_plural = _("对局")
        constraints = [
            models.CheckConstraint(condition=~Q(union_a=F("union_b")), name="match_unions_differ"),
            models.CheckConstraint(
                condition=(Q(union_b__isnull=True) & Q(table__isnull=True))
                | (Q(union_b__isnull=False) & Q(table__isnull=False)),
                name="match_bye_has_no_table",
            ),
        ]

    def __str__(self):
        return f"{self.union_a} – {self.union_b or _('轮空')}"

    @property
    def is_bye(self) -> bool:
        return self.union_b_id is None

    @property
    def has_result(self) -> bool:
        return self.points_a is not None

    def forfeited_by(self, union_id) -> bool:
        side = "A" if union_id == self.union_a_id else "B"
        return self.forfeit in (side, "both")


class RoundEntry(models.Model):
    """One union's place in a round (side A, side B or bye), so the database refuses a union
    paired twice in a round and two unions on one side of a match."""

    class Side(models.TextChoices):
        A = SIDE_A, _("单号座 1-3-5")
        B = SIDE_B, _("双号座 2-4-6")
        BYE = "bye", _("轮空")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    union = models.ForeignKey(
        "matches.Union", on_delete=models.PROTECT, related_name="round_entries"
    )
    side = models.CharField(max_length=4, choices=Side.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "union"], name="union_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_union_per_side"),
        ]


class TableSeat(models.Model):
    """A player on a seat. Union A holds seats 1-3-5, union B seats 2-4-6 (R1)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")  # denormalised
    seat = models.PositiveSmallIntegerField(_("座位"))
    side = models.CharField(max_length=1, choices=[(SIDE_A, "A"), (SIDE_B, "B")])
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="seats")
    union = models.ForeignKey("matches.Union", on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.CheckConstraint(condition=Q(seat__gte=1) & Q(seat__lte=6), name="seat_1_to_6"),
            models.CheckConstraint(
                condition=(Q(side=SIDE_A) & Q(seat__in=[1, 3, 5]))
                | (Q(side=SIDE_B) & Q(seat__in=[2, 4, 6])),
                name="seat_parity_matches_side",
            ),
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(
                fields=["round", "player"], name="player_at_one_table_per_round"
            ),
        ]

    def save(self, *args, **kwargs):
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)


class DealQuerySet(models.QuerySet):
    def with_final_result(self):
        """Deals that have a final result; `deal.final_reports` holds it (a one-item list)."""
        from .result import DealReport

        final = DealReport.objects.final()
        return self.filter(Exists(final.filter(deal=OuterRef("pk")))).prefetch_related(
            Prefetch("reports", queryset=final, to_attr="final_reports")
        )


class Deal(models.Model):
    """One deal (局/把) of a match, numbered 1..n; extra deals break a tied knockout match.

    Its result (the gouji-deal/1 record or gouji-outcome/1 summary, its verdict and the deal
    scores) is a separate model of the deal-recording issue, one-to-one with this row; storing
    the event's first result must call `Event.freeze_rules()`.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("局号"))
    is_extra = models.BooleanField(_("加赛局"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The tribute ledger owed at the start of this deal (R35-R42), written by the computation
    # side from the previous final deal of the match; null until computed.
    tributes_owed = models.JSONField(_("开局前应进贡"), null=True, blank=True)
    # An earlier deal of the match was corrected: this deal's string-three streak and tributes
    # were worked out from a result that no longer stands.
    needs_recheck = models.BooleanField(_("需复核"), default=False)

    objects = DealQuerySet.as_manager()

    class Meta:
        # Order by the foreign key's column, not the related model's own ordering: that one
        # made every `.first()` join the whole chain up to the event (issue 8's profile).
        ordering = ["match_id", "number"]
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
        ]

    def __str__(self):
        return f"{self.match} · {self.number}"

    @property
    def final_report(self):
        """The accepted result, or None (uses `final_reports` when prefetched)."""
        if hasattr(self, "final_reports"):
            return self.final_reports[0] if self.final_reports else None
        return self.reports.final().first()


class RoundLog(models.Model):
    """Audit: who drew, re-drew, swapped, published, closed or reopened a round, and when.

    An entry outlives its round (a deleted draft keeps its log, `round` then empty) and an
    event-level action (archive, restore) has no round: `event` names the event of both."""

    class Action(models.TextChoices):
        DRAW = "draw", _("编排")
        REDRAW = "redraw", _("重新编排")
        SWAP_UNIONS = "swap_unions", _("调换联邦")
        SWAP_PLAYERS = "swap_players", _("调换选手")
        EDIT = "edit", _("调整编排")
        PUBLISH = "publish", _("公布")
        UNPUBLISH = "unpublish", _("撤回公布")
        LATE_CHANGE = "late_change", _("临时变动")
        FORFEIT = "forfeit", _("判弃权")
        STOPPED = "stopped", _("超时中止")
        WITHDRAW = "withdraw", _("退赛")
        BREAK = "break", _("晋级名单")
        CLOSE = "close", _("结束")
        DELETE_DRAFT = "delete_draft", _("删除草稿")
        REOPEN = "reopen", _("重新开启")
        ARCHIVE = "archive", _("归档")
        RESTORE = "restore", _("恢复")

    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="log"
    )
    event = models.ForeignKey(
        "matches.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round_id", "at", "id"]

    def __str__(self):
        return f"{self.round or self.event} {self.action} {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs):
        if self.event_id is None and self.round_id is not None:
            self.event_id = self.round.event_id  # the round is loaded: it was just given
        super().save(*args, **kwargs)
