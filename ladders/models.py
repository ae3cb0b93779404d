"""The 擂台赛 challenge ladder's rows: a club league's season of quarterly sessions in which
challengers take on the holders of eight titles. The rules are `ladders/rules.py`;
`ladders/service/` moves results between these rows and the rules; docs/ladder.md.

The tables keep the names they had when the ladder lived in the matches app (`db_table`):
moving the models into this app moved no row (migrations/0001_initial.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class LadderSeason(models.Model):
    name = models.CharField(_("赛季名称"), max_length=120)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="ladder_seasons")
    # Last season: its points table seeds this one's titles.
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_seasons"
    )
    published = models.BooleanField(_("公开"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "matches_ladderseason"
        ordering = ["-created_at", "-id"]
        verbose_name = _("擂台赛赛季")
        verbose_name_plural = _("擂台赛赛季")

    def __str__(self):
        return self.name


class LadderTeam(models.Model):
    """A union of three that plays the season; `title` is the slot it holds (rules.Slot.key),
    empty for a challenger."""

    season = models.ForeignKey(LadderSeason, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("队名"), max_length=80)
    club = models.CharField(_("俱乐部"), max_length=80, blank=True)
    members = models.CharField(_("队员"), max_length=200, blank=True)
    title = models.CharField(max_length=16, blank=True)
    # Withdrew mid-season: drawn no more, its open challenges forfeited (docs/ladder.md).
    withdrawn = models.BooleanField(default=False)

    class Meta:
        db_table = "matches_ladderteam"
        ordering = ["season_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="ladder_team_name_unique"),
            models.UniqueConstraint(
                fields=["season", "title"], condition=~Q(title=""), name="ladder_title_one_holder"
            ),
        ]

    def __str__(self):
        return self.name


class LadderSession(models.Model):
    """One quarterly session; `seed` makes its draws repeatable."""

    season = models.ForeignKey(LadderSeason, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    # The teams that challenged when the session opened (ids): the knockout's field.
    challengers = models.JSONField(default=list)
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The titles (slot key -> team id) when the session closed: reopening it puts them back.
    titles_before = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "matches_laddersession"
        ordering = ["season_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="ladder_session_unique")
        ]


class LadderChallenge(models.Model):
    """One challenge of a session: a knockout match between two challengers (no title, no
    points) or a challenger against a title's holder. `games` holds the 局 as played: a list
    of 局, each a list of [challenger's score, defender's score] per 把."""

    class Kind(models.TextChoices):
        KNOCKOUT = "knockout", _("淘汰赛")
        TITLE = "title", _("攻擂")

    session = models.ForeignKey(LadderSession, on_delete=models.CASCADE, related_name="challenges")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    stage = models.PositiveSmallIntegerField()  # knockout round, or 先锋 round 1-5, 6 副将, 7 主将
    slot = models.CharField(max_length=16, blank=True)  # the title challenged (rules.Slot.key)
    challenger = models.ForeignKey(LadderTeam, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(LadderTeam, on_delete=models.CASCADE, related_name="+")
    scheduled_for = models.DateField(null=True, blank=True)
    games = models.JSONField(default=list)
    challenger_no_shows = models.PositiveSmallIntegerField(default=0)
    defender_no_shows = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        LadderTeam, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Both sides missed twice: nobody wins, nobody scores, the holder keeps its title.
    void = models.BooleanField(default=False)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "matches_ladderchallenge"
        ordering = ["session_id", "kind", "stage", "id"]

    @property
    def decided(self) -> bool:
        return self.winner_id is not None or self.void


class LadderLog(models.Model):
    """Who did what to a season, and when: results, no-shows, reschedules (with both sides'
    agreement), sessions opened and closed, titles changing hands."""

    season = models.ForeignKey(LadderSeason, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=20)
    detail = models.TextField()
    # What the line says, as values (team names, title keys, session numbers): the page words
    # it in the reader's language (`ladders.views.log_text`). `detail` is the same line as
    # plain text in the writer's language, kept for lines written before `data` existed.
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "matches_ladderlog"
        ordering = ["-at", "-id"]
