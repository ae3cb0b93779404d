"""What the Celery computations write: each deal's tally, standings snapshots per round, and a
record of every computation so organisers see what is pending, done or failed.

Everything here is derived from final deal results and can be thrown away and rebuilt by the
`recompute_event` task with the same numbers.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DealTally(models.Model):
    """One deal's settled result as the standings read it (from its final DealReport): what
    every game has (the places; the two sides' scores in a game of two scored sides) and one
    document of the game's own (`detail`: Gou Ji's points opened, burns, strings of three and
    ledger, Giog's pieces won and beheadings). Shared code reads `detail` only through the
    game's adapter (`read_tally`), which turns the row into a `Tally` with the game's typed
    document; the adapter's `tally_deal` makes one (`matches/kernel/tallies.py` writes it)."""

    deal = models.OneToOneField("matches.Deal", on_delete=models.CASCADE, related_name="tally")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="tallies")
    # The final report this tally was computed from: a newer final report makes it stale.
    report_id = models.BigIntegerField()
    # Seats grouped by place, best first: [[1], [3], [5], [2], [4], [6]]; a group shares its
    # place (Giog's [[2], [1, 3], [4]]).
    places = models.JSONField(default=list)
    # Side A's and side B's deal scores (Gou Ji's union scores); None in a game whose sides
    # score nothing in a deal (Giog: one player a side).
    score_a = models.IntegerField(null=True, blank=True)
    score_b = models.IntegerField(null=True, blank=True)
    # The game's own figures of the deal: its engine's tally type as JSON (`to_json`).
    detail = models.JSONField(default=dict)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        # Order by the foreign key's column, not the related model's own ordering: that one
        # made every `.first()` join the whole chain up to the event (a profile found it).
        ordering = ["match_id", "deal__number"]


class StandingsSnapshot(models.Model):
    """The standings as they stood after a round: a past round's table is shown as it was."""

    class Kind(models.TextChoices):
        UNIONS = "unions", _("联邦排名")
        PLAYERS = "players", _("个人排名")

    class Scope(models.TextChoices):
        EVENT = "event", _("全部轮次")
        STAGE = "stage", _("本阶段")

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="snapshots")
    round = models.ForeignKey("matches.Round", on_delete=models.CASCADE, related_name="snapshots")
    stage = models.ForeignKey("matches.Stage", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    scope = models.CharField(max_length=8, choices=Scope.choices)
    rows = models.JSONField(default=list)
    # Matches still without a result in the round when this was computed (0 = final).
    unfinished = models.PositiveIntegerField(default=0)
    # The round's matches at a table (byes not counted) when this was computed: with
    # `unfinished`, the "live: N of M tables final" of a round still being played.
    # 0 in a snapshot written before the field existed.
    tables = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)

    @property
    def is_live(self) -> bool:
        """The round was still being played when this was computed (a closed round's
        standings are final, whatever it left unfinished)."""
        return self.unfinished > 0 and self.round.state != "closed"

    @property
    def tables_final(self) -> int:
        return max(0, self.tables - self.unfinished)

    class Meta:
        ordering = ["event_id", "round__number", "kind", "scope"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "kind", "scope"], name="one_snapshot_per_round_kind_scope"
            ),
        ]


class ComputationRun(models.Model):
    """The last run of one computation (task + key), for the organiser's dashboard."""

    class State(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("计算中")
        RETRYING = "retrying", _("重试中")
        DONE = "done", _("已完成")
        FAILED = "failed", _("失败")

    PENDING = (State.QUEUED, State.RUNNING, State.RETRYING)

    event = models.ForeignKey(
        "matches.Event", on_delete=models.CASCADE, related_name="computations"
    )
    task = models.CharField(max_length=40)
    key = models.CharField(max_length=60)  # e.g. "match:12", "standings", "event"
    args = models.JSONField(default=dict, blank=True)  # what the queued run will do
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    succeeded_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)  # how long the last successful run took

    class Meta:
        ordering = ["event_id", "-queued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "task", "key"], name="one_run_row_per_computation"
            ),
        ]

    def __str__(self):
        return f"{self.task}({self.key}) {self.state}"


class DerivedCheck(models.Model):
    """The organisers' check of an event's derived rows against a recompute of the chained
    results (the chain page; matches/standings/verify.py): a task runs it match by match, its
    progress and its last answer are kept here, one row an event."""

    class State(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("核对中")
        DONE = "done", _("已完成")
        FAILED = "failed", _("失败")

    event = models.OneToOneField(
        "matches.Event", on_delete=models.CASCADE, related_name="derived_check"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)  # steps done: a match each, then the standings
    total = models.PositiveIntegerField(default=0)
    rows = models.JSONField(default=list, blank=True)  # the rows that differ, named
    pending = models.JSONField(default=list, blank=True)  # those a computation will still write
    digest = models.CharField(max_length=64, blank=True)  # the chain's head when it was checked
    error = models.TextField(blank=True)

    RUNNING_STATES = (State.QUEUED, State.RUNNING)

    def __str__(self):
        return f"derived check of event {self.event_id}: {self.state}"
