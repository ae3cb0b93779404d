"""Events, their stages, unions (联邦) and registrations."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.kernel.games.registry import adapter_for, default_game, game_choices
from matches.models.stamped import ChangedAt

#: tie-breaks an event may order (matches/standings/ranking.py ranks unions by them).
TIE_BREAKS = (
    "match_points",  # 场分 / match points
    "score_difference",  # deal-score difference over all matches
    "opponents_match_points",  # Buchholz: the sum of the opponents' match points
    "head_to_head",
    "deal_wins",
    "strings_of_three",  # how many deals the union strung three (串三户)
    "seed",
)
DEFAULT_TIE_BREAKS = ["match_points", "score_difference", "opponents_match_points", "head_to_head"]
#: 局/把/场 name different things in different cities; the event says which word it uses.
LABEL_KEYS = ("deal", "match", "round")
DEFAULT_LABELS = {"deal": "局", "match": "场", "round": "轮"}


def default_tie_breaks():
    return list(DEFAULT_TIE_BREAKS)


def default_labels():
    return dict(DEFAULT_LABELS)


# The four below were the defaults and validators of `Event.rules` and `Event.place_points`,
# now `Event.game_settings` (read by the game's adapter); the old migrations still name them.


def default_rules():
    return {"preset": "standard"}


def validate_rules(value) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("preset", "standard"), str):
        raise ValidationError(_('规则须为 {"preset": 名称, 规则项: 值} 形式'), code="rules")


def default_place_points():
    return [3, 2, 1, 0]


def validate_place_points(value) -> None:
    if not isinstance(value, list) or len(value) != 4:
        raise ValidationError(
            _("名次分须为四个不递增的非负整数，如 [3, 2, 1, 0]"), code="place_points"
        )


class Event(ChangedAt):
    class ClubPolicy(models.TextChoices):
        AVOID = "avoid", _("尽量避开同俱乐部")
        IGNORE = "ignore", _("不考虑俱乐部")

    class Release(models.TextChoices):
        """When the public sees something (as Tabbycat's release toggles)."""

        AT_ONCE = "at_once", _("立即公开")
        AFTER_CLOSE = "after_close", _("本轮结束后公开")
        AT_END = "at_end", _("赛事结束时公开")

    class EntryType(models.TextChoices):
        TEAM = "team", _("团体赛（联邦报名）")
        INDIVIDUAL = "individual", _("个人赛（每轮抽签组邦）")

    class Confirmation(models.TextChoices):
        # Both unions agree: the reporter's union (a captain reporting) and the other one, by
        # account or by PIN on the table's phone; or a second referee or an organiser confirms.
        CAPTAIN = "captain", _("双方队长确认")
        REFEREE = "referee", _("第二名裁判确认")
        NONE = "none", _("裁判提交即生效")
        # Individual events: another player of the table agrees with their own PIN (on their
        # badge and private page), on the table's phone.
        PLAYER = "player", _("同桌另一名选手确认")

    name = models.CharField(_("名称"), max_length=200)
    venue = models.CharField(_("地点"), max_length=200, blank=True)
    start_date = models.DateField(_("开始日期"))
    end_date = models.DateField(_("结束日期"), null=True, blank=True)
    # An organiser acts only on their own events (matches/permissions.py).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("组织者"),
        blank=True,
        related_name="organised_events",
    )
    # Which game is played: a name in matches/kernel/games/registry.py (the game's adapter).
    game = models.CharField(_("游戏"), max_length=16, choices=game_choices, default=default_game)
    entry_type = models.CharField(
        _("报名方式"), max_length=16, choices=EntryType.choices, default=EntryType.TEAM
    )
    # The game's own settings (Gou Ji: its rule set; Giog: points per place) in one JSON
    # document, owned by the game: its adapter reads it into its frozen settings type
    # (`game_rules`) and refuses what it cannot read (`clean`).
    game_settings = models.JSONField(_("游戏设置"), default=dict, blank=True)
    rules_frozen_at = models.DateTimeField(_("规则锁定时间"), null=True, blank=True)
    deals_per_match = models.PositiveSmallIntegerField(_("每场局数"), default=6)
    # Extra deals to break a tied knockout match; blank = play on until one union leads.
    tie_break_deals = models.PositiveSmallIntegerField(_("加赛局数"), null=True, blank=True)
    points_win = models.PositiveSmallIntegerField(_("胜场分"), default=3)
    points_draw = models.PositiveSmallIntegerField(_("平场分"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("负场分"), default=0)
    points_bye = models.PositiveSmallIntegerField(_("轮空场分"), default=3)
    # A bye's deal score (its match points are `points_bye`).
    bye_score = models.IntegerField(_("轮空局分"), default=0)
    # A forfeit: the present union wins (`points_win`) with this deal score, the absent one 0.
    forfeit_score = models.PositiveIntegerField(_("弃权判胜局分"), default=0)
    # A match stopped by time after some deals is scored from the deals played (else it waits).
    score_stopped_matches = models.BooleanField(_("超时中止按已打局计分"), default=True)
    club_policy = models.CharField(
        _("同俱乐部"), max_length=8, choices=ClubPolicy.choices, default=ClubPolicy.AVOID
    )
    release_draw = models.CharField(
        _("对阵公开"), max_length=12, choices=Release.choices, default=Release.AT_ONCE
    )
    release_results = models.CharField(
        _("成绩公开"), max_length=12, choices=Release.choices, default=Release.AT_ONCE
    )
    release_standings = models.CharField(
        _("排名公开"), max_length=12, choices=Release.choices, default=Release.AT_ONCE
    )
    # Set when the organiser ends the event: everything held back "until the end" shows.
    concluded_at = models.DateTimeField(_("赛事结束时间"), null=True, blank=True)
    tie_breaks = models.JSONField(_("名次判定顺序"), default=default_tie_breaks)
    labels = models.JSONField(_("称谓"), default=default_labels)
    check_in_required = models.BooleanField(_("须签到"), default=True)
    # Captains may check their union in from its private link (the entry's own page).
    self_check_in = models.BooleanField(_("队长可自助签到"), default=False)
    # Only published events are visible on the public pages and the public API.
    published = models.BooleanField(_("公开"), default=False)
    # Who turns a referee's deal report into the final result (the result-entry issue).
    result_confirmation = models.CharField(
        _("成绩确认方式"), max_length=8, choices=Confirmation.choices, default=Confirmation.CAPTAIN
    )
    # Rated: its closed rounds enter the rating list (seasons/, docs/ratings.md).
    rated = models.BooleanField(_("计入等级分"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archived: off the lists and the public pages, every row kept; restoring clears it.
    archived_at = models.DateTimeField(_("归档时间"), null=True, blank=True)
    # The wizard's one-time token: a second submit of the same wizard finds this event.
    creation_token = models.CharField(max_length=40, unique=True, null=True, blank=True)

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("赛事")
        verbose_name_plural = _("赛事")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="event_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_draw"))
                & Q(points_draw__gte=F("points_loss")),
                name="event_win_draw_loss_points_ordered",
            ),
            models.CheckConstraint(
                condition=Q(deals_per_match__gte=1), name="event_deals_per_match_positive"
            ),
        ]

    def __str__(self):
        return self.name

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance._stored_game_settings = instance.__dict__.get("game_settings")
        return instance

    def clean(self):
        super().clean()
        tie_breaks = self.tie_breaks
        if not isinstance(tie_breaks, list) or not all(t in TIE_BREAKS for t in tie_breaks):
            raise ValidationError({"tie_breaks": _("未知的名次判定项")})
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValidationError({"tie_breaks": _("名次判定项重复")})
        if not isinstance(self.labels, dict) or set(self.labels) - set(LABEL_KEYS):
            raise ValidationError({"labels": _("称谓只可设 deal / match / round")})
        if self.game not in dict(game_choices()):
            return  # the field's own check says the game is unknown
        refused = self.adapter.validate_event(self)
        if refused:
            raise ValidationError(refused)

    def save(self, *args, **kwargs):
        # Results are judged by the rules they were played under (Giog: hands scored keep their
        # points table): no change to the game's settings after the first deal.
        stored = getattr(self, "_stored_game_settings", None)
        if self.rules_frozen_at and self.pk and stored is not None and stored != self.game_settings:
            raise ValidationError(_("首局成绩已录入，规则已锁定，不能再改"), code="rules_frozen")
        super().save(*args, **kwargs)
        self._stored_game_settings = self.game_settings

    def freeze_rules(self) -> None:
        """Called when the first deal is recorded (the deal-result issue calls it)."""
        if self.rules_frozen_at is None:
            self.rules_frozen_at = timezone.now()
            Event.objects.filter(pk=self.pk, rules_frozen_at__isnull=True).update(
                rules_frozen_at=self.rules_frozen_at
            )

    @property
    def is_team(self) -> bool:
        return self.entry_type == self.EntryType.TEAM

    @property
    def adapter(self):
        """The event's game behind its small interface (`matches/kernel/games/adapter.py`)."""
        return adapter_for(self)

    @property
    def game_rules(self):
        """`game_settings` as the game's frozen settings type (Gou Ji's rule set, Giog's
        points per place). Raises the game's SettingsError when it cannot be read (`clean`
        refuses such settings before they are saved)."""
        return self.adapter.read_settings(self.game_settings)

    @property
    def confirmation(self) -> str:
        """How results are confirmed in fact: captains confirm only in a game whose sides have
        captains; an event of another game set to it (before the form stopped offering it)
        falls back to the next mode that works, a second referee's confirmation."""
        if self.result_confirmation == self.Confirmation.CAPTAIN and not (
            self.adapter.sides_have_captains
        ):
            return self.Confirmation.REFEREE
        return self.result_confirmation

    @property
    def avoids_clubs(self) -> bool:
        return self.club_policy == self.ClubPolicy.AVOID


class Stage(models.Model):
    """One stage of an event: e.g. Swiss rounds, then a knockout of the best eight."""

    class Format(models.TextChoices):
        SWISS = "swiss", _("瑞士制")
        ROUND_ROBIN = "round_robin", _("循环赛")
        SINGLE_ELIMINATION = "single_elimination", _("单败淘汰")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(_("阶段顺序"), default=1)
    name = models.CharField(_("名称"), max_length=100, blank=True)
    format = models.CharField(
        _("赛制"), max_length=24, choices=Format.choices, default=Format.SWISS
    )
    planned_rounds = models.PositiveSmallIntegerField(_("计划轮数"), null=True, blank=True)
    group_count = models.PositiveSmallIntegerField(_("小组数"), default=1)
    # How many entrants of the previous stage's standings go on into this one (blank: all).
    qualifiers = models.PositiveIntegerField(_("晋级名额"), null=True, blank=True)
    # Round 1 of the stage: by seed (True) or a random draw from the stored seed.
    seeded = models.BooleanField(_("按种子排位"), default=False)
    # The break into this stage as confirmed by the organiser: union ids in seed order.
    break_unions = models.JSONField(_("晋级名单"), default=list, blank=True)

    class Meta:
        ordering = ["event_id", "order"]
        verbose_name = _("阶段")
        verbose_name_plural = _("阶段")
        constraints = [
            models.UniqueConstraint(fields=["event", "order"], name="stage_order_unique_in_event"),
            models.CheckConstraint(condition=Q(group_count__gte=1), name="stage_has_a_group"),
        ]

    def __str__(self):
        return f"{self.event} · {self.label}"

    @property
    def label(self) -> str:
        """The stage's name in the page's language (an organiser's own name as typed)."""
        from matches.models.labels import stage_label

        return stage_label(self)


def new_captain_pin() -> str:
    """A captain's short PIN: four digits, not sequential-looking zeros."""
    import secrets

    return f"{secrets.randbelow(9000) + 1000}"


class Union(models.Model):
    """联邦: three players who sit on alternate seats of one table.

    In a team event a union registers and plays the whole event; in an individual event the
    draw forms new unions each round (`round` is then set).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="unions")
    round = models.ForeignKey(
        "matches.Round",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="drawn_unions",
    )
    name = models.CharField(_("名称"), max_length=120)
    club = models.ForeignKey("players.Club", null=True, blank=True, on_delete=models.SET_NULL)
    # The captain confirms a deal's result on the table's phone with it (docs/results.md); shown
    # on the union's private page and the captain's card of the table cards; organisers reset it.
    captain_pin = models.CharField(_("队长密码"), max_length=8, default=new_captain_pin)

    class Meta:
        # Order by the foreign key's column, not the related model's own ordering: that one
        # made every `.first()` join the whole chain up to the event (a profile found it).
        ordering = ["event_id", "name"]
        verbose_name = _("联邦")
        verbose_name_plural = _("联邦")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "name"],
                condition=Q(round__isnull=True),
                name="union_name_unique_in_event",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def captain(self):
        member = next((m for m in self.members.all() if m.is_captain), None)
        return member.player if member else None

    def players_in_order(self) -> list:
        return [m.player for m in sorted(self.members.all(), key=lambda m: m.order)]


class UnionMember(models.Model):
    union = models.ForeignKey(Union, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="memberships"
    )
    # Denormalised from the union so the database itself refuses a player in two unions.
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(
        "matches.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # 1..n: the union's seats in order (three at a six-seat table, four at eight, R44)
    order = models.PositiveSmallIntegerField(_("座次"))
    is_captain = models.BooleanField(_("队长"), default=False)

    class Meta:
        ordering = ["union_id", "order"]
        constraints = [
            models.CheckConstraint(
                condition=Q(order__gte=1) & Q(order__lte=4), name="member_order_1_to_4"
            ),
            models.UniqueConstraint(fields=["union", "order"], name="member_order_unique_in_union"),
            models.UniqueConstraint(fields=["union", "player"], name="member_once_in_union"),
            models.UniqueConstraint(
                fields=["union"], condition=Q(is_captain=True), name="union_has_one_captain"
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(round__isnull=True),
                name="player_in_one_union_per_event",
            ),
            models.UniqueConstraint(
                fields=["round", "player"],
                condition=Q(round__isnull=False),
                name="player_in_one_drawn_union_per_round",
            ),
        ]

    def save(self, *args, **kwargs):
        self.event_id = self.union.event_id
        self.round_id = self.union.round_id
        super().save(*args, **kwargs)


class Registration(models.Model):
    """An entry: a union (team events) or a player (individual events)."""

    #: Entries in seed order, the same on every database and every page (the entries list, the
    #: badge sheet, the check-in desk): the seeded by seed, then the unseeded as entered.
    #: SQLite sorts a NULL seed first, PostgreSQL last: said once, here.
    SEED_ORDER = (F("seed").asc(nulls_last=True), "id")

    class Status(models.TextChoices):
        REGISTERED = "registered", _("已报名")
        CHECKED_IN = "checked_in", _("已签到")
        WITHDRAWN = "withdrawn", _("已退赛")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    union = models.ForeignKey(
        Union, null=True, blank=True, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        "players.Player",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="registrations",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(_("种子序号"), null=True, blank=True)
    # Late entries join from this round on; withdrawals play no round after `withdrawn_after`.
    joins_round = models.PositiveSmallIntegerField(_("起始轮"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(_("退赛于第几轮后"), null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # The round a check-in was made for; whether it counts later is the round's decision
    # (CheckInRound.carry_over). Blank: made before rounds were counted, counts until reset.
    checked_in_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # A player's own PIN (individual events): another player of the table confirms a result
    # with it on the table's phone; printed on the badge, shown on the private page.
    pin = models.CharField(_("选手密码"), max_length=8, default=new_captain_pin)
    # The entry's private link (captain's page, self check-in); made on first use.
    private_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # What the link is found by: the mirror gets this, never the token (models/digest.py).
    private_token_digest = models.CharField(max_length=64, unique=True, null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    #: Not a column: set by a maker that writes find my table's terms itself, in one go, so
    #: that the receiver of the new entry's save does not (matches/receivers.py).
    terms_written = False

    class Meta:
        ordering = ["event_id", "seed", "id"]
        verbose_name = _("报名")
        verbose_name_plural = _("报名")
        constraints = [
            models.CheckConstraint(
                condition=(Q(union__isnull=False) & Q(player__isnull=True))
                | (Q(union__isnull=True) & Q(player__isnull=False)),
                name="registration_is_a_union_or_a_player",
            ),
            models.UniqueConstraint(
                fields=["event", "union"],
                condition=Q(union__isnull=False),
                name="union_registered_once",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="player_registered_once",
            ),
            models.UniqueConstraint(
                fields=["event", "seed"],
                condition=Q(seed__isnull=False),
                name="seed_unique_in_event",
            ),
            models.CheckConstraint(
                condition=Q(joins_round__gte=1), name="registration_joins_round_1_on"
            ),
        ]

    def save(self, *args, **kwargs):
        from matches.models.digest import token_digest, with_digest

        fields = kwargs.get("update_fields")
        if fields is None or "private_token" in fields:
            self.private_token_digest = token_digest(self.private_token)
            kwargs["update_fields"] = with_digest(fields, "private_token", "private_token_digest")
        super().save(*args, **kwargs)

    def __str__(self):
        return f"{self.union or self.player} @ {self.event}"

    @property
    def entrant(self):
        return self.union or self.player

    def check_in(self, round_number: int | None = None) -> None:
        self.status = self.Status.CHECKED_IN
        self.checked_in_at = timezone.now()
        self.checked_in_round = round_number
        self.save(update_fields=["status", "checked_in_at", "checked_in_round"])

    def withdraw(self, after_round: int) -> None:
        self.status = self.Status.WITHDRAWN
        self.withdrawn_after = after_round
        self.withdrawn_at = timezone.now()
        self.save(update_fields=["status", "withdrawn_after", "withdrawn_at"])

    def plays_in(
        self, round_number: int, check_in_required: bool = True, fresh_from: int | None = None
    ) -> bool:
        """`fresh_from`: the latest round up to `round_number` whose check-in does not carry
        over (matches.draw.entrants.fresh_from); a check-in for an earlier round is void."""
        if round_number < self.joins_round:
            return False
        if self.status == self.Status.WITHDRAWN:
            return self.withdrawn_after is not None and round_number <= self.withdrawn_after
        if not check_in_required:
            return True
        if self.status != self.Status.CHECKED_IN:
            return False
        return (
            fresh_from is None
            or self.checked_in_round is None
            or self.checked_in_round >= fresh_from
        )
