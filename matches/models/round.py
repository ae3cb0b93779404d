"""Rounds, tables, seats, matches and deals.

The database itself refuses what must never happen: a player at two tables in one round, two
players on one seat, a union (or a player's side) placed twice in one round, two sides on one
position of a match. What only one game requires (Gou Ji's seat parity) its adapter checks.
Where a rule spans tables, the round is denormalised onto the row so a UniqueConstraint can
hold it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils.translation import gettext_lazy as _

from matches.models.stamped import ChangedAt

SIDE_A = "A"  # Gou Ji: seats 1-3-5 at six seats, 1-4 at eight (the game's table_shape)
SIDE_B = "B"  # seats 2-4-6 at six seats, 5-8 at eight


class Round(ChangedAt):
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


class MatchQuerySet(models.QuerySet):
    def with_sides(self):
        """Matches with their sides (and each side's union or player) read in one query."""
        return self.prefetch_related(
            Prefetch("sides", queryset=MatchSide.objects.select_related("union", "player"))
        )

    def involving(self, union):
        """Matches where `union` holds a side."""
        return self.filter(sides__union=union)

    def played(self):
        """Matches at a table (not byes)."""
        return self.filter(table__isnull=False)

    def unfinished(self):
        """Matches at a table still without a result."""
        return self.filter(table__isnull=False, completed_at__isnull=True)


class Match(models.Model):
    """What is played at a table in a round: its sides are `MatchSide` rows (two unions in Gou
    Ji, one side per player in Giog). A bye is a match with one side and no table.

    The result fields are written by the standings service; `completed_at` says the match is
    over (a bye at once, a table when every deal has its final result).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="match"
    )
    # Why the draw is what it is: pulled_up/pulled_down, bye, rematch_forced, club_clash, ...
    flags = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)
    # When the match was complete (its result settled); null while it is being played.
    completed_at = models.DateTimeField(_("完成时间"), null=True, blank=True)
    # Results of a game of two sides A and B (Gou Ji; the standings service writes them):
    # deal-score totals and match points. A game whose sides are players leaves them empty.
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

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["round_id", "table__number", "id"]
        verbose_name = _("对局")
        verbose_name_plural = _("对局")

    def __str__(self):
        names = [str(side) for side in self.ordered_sides]
        return " – ".join(names) if self.table_id else f"{names[0] if names else '?'} ({_('轮空')})"

    # --- the sides, read from the rows (prefetch them with `Match.objects.with_sides()`) -----
    @property
    def ordered_sides(self) -> list:
        """The match's sides, in position order (A before B, seat 1 before seat 2)."""
        return sorted(self.sides.all(), key=lambda side: side.sort_key)

    def side_at(self, position: str):
        return next((s for s in self.sides.all() if s.position == position), None)

    @property
    def side_a(self):
        """Side A (a bye's only side counts as A), or None in a game without union sides."""
        return self.side_at(SIDE_A) or self.side_at(MatchSide.BYE)

    @property
    def side_b(self):
        return self.side_at(SIDE_B)

    @property
    def union_a(self):
        side = self.side_a
        return side.union if side else None

    @property
    def union_b(self):
        side = self.side_b
        return side.union if side else None

    @property
    def union_a_id(self):
        side = self.side_a
        return side.union_id if side else None

    @property
    def union_b_id(self):
        side = self.side_b
        return side.union_id if side else None

    @property
    def union_sides(self) -> list:
        """The sides that are unions (none in a game whose sides are players)."""
        return [s for s in self.ordered_sides if s.union_id is not None]

    @property
    def is_bye(self) -> bool:
        return self.table_id is None

    @property
    def is_complete(self) -> bool:
        return self.completed_at is not None

    def forfeited_by(self, union_id) -> bool:
        side = "A" if union_id == self.union_a_id else "B"
        return self.forfeit in (side, "both")


class MatchSide(models.Model):
    """One side of a match (Tabbycat's DebateTeam): a union (Gou Ji: A on seats 1-3-5, B on
    2-4-6 at six seats; A on 1-4, B on 5-8 at eight, R44; or a bye) or a single player (Giog:
    one side per seat). The round is denormalised so the database refuses a union or a player
    placed twice in a round and two sides on one position of a match."""

    BYE = "bye"

    class Side(models.TextChoices):
        # Which seats a side holds is the game's table (`adapter.table_shape(event)`): Gou Ji's
        # A is 1-3-5 at six seats and 1-2-3-4 at eight (R44), so the names carry no seats.
        A = SIDE_A, _("A 方")
        B = SIDE_B, _("B 方")
        BYE = "bye", _("轮空")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sides")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    # "A", "B" or "bye" for union sides; the seat number ("1".."6") for a player's side.
    position = models.CharField(max_length=4)
    union = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.PROTECT, related_name="sides"
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="sides"
    )

    class Meta:
        ordering = ["match_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "union"], name="union_once_per_round"),
            models.UniqueConstraint(fields=["round", "player"], name="player_side_once_per_round"),
            models.UniqueConstraint(fields=["match", "position"], name="one_side_per_position"),
            models.CheckConstraint(
                condition=Q(union__isnull=False) | Q(player__isnull=False),
                name="side_is_a_union_or_a_player",
            ),
        ]

    def __str__(self):
        who = self.union if self.union_id else self.player
        return str(who) if who is not None else self.position

    @property
    def sort_key(self) -> tuple:
        return (int(self.position), "") if self.position.isdigit() else (0, self.position)

    @property
    def name(self) -> str:
        who = self.union if self.union_id else self.player
        return who.name if who is not None else ""


class TableSeat(models.Model):
    """A player on a seat. In a game of union sides the seat's union and side (A or B) are
    written too; the game's adapter checks which seats a side may hold (Gou Ji R1: A on 1-3-5,
    B on 2-4-6; R44 at eight seats: A on 1-4, B on 5-8)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")  # denormalised
    seat = models.PositiveSmallIntegerField(_("座位"))
    side = models.CharField(max_length=1, blank=True, choices=[(SIDE_A, "A"), (SIDE_B, "B")])
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="seats")
    union = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            # six seats, or eight at an eight-player Gou Ji table (R44)
            models.CheckConstraint(condition=Q(seat__gte=1) & Q(seat__lte=8), name="seat_1_to_8"),
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
        # made every `.first()` join the whole chain up to the event (a profile found it).
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
        # A captain-PIN lock lifted by an organiser (matches/results/lockouts.py).
        PIN_UNLOCK = "pin_unlock", _("解除队长密码锁定")
        # The table's referee confirmed a deal in a union's captain's place.
        STAND_IN = "stand_in", _("裁判代队长确认")
        # The organiser accepted every pending result of a table in one click.
        ACCEPT_TABLE = "accept_table", _("接受整桌成绩")
        WITHDRAW = "withdraw", _("退赛")
        BREAK = "break", _("晋级名单")
        CLOSE = "close", _("结束")
        DELETE_DRAFT = "delete_draft", _("删除草稿")
        REOPEN = "reopen", _("重新开启")
        ARCHIVE = "archive", _("归档")
        RESTORE = "restore", _("恢复")
        # The hall's clock (matches/draw/clock.py).
        CLOCK_START = "clock_start", _("开始计时")
        CLOCK_PAUSE = "clock_pause", _("暂停计时")
        CLOCK_RESUME = "clock_resume", _("继续计时")
        CLOCK_EXTEND = "clock_extend", _("延长时间")
        # The check-in desk (matches/events/scan.py): a badge scanned in, a check-in undone.
        CHECK_IN = "check_in", _("签到")
        CHECK_IN_UNDO = "check_in_undo", _("撤销签到")

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
