"""The tamper-evident record of an event's results: a hash chain, one entry per
accepted result, confirmation, correction and forfeit, written by matches/store/chain.py in
the transaction that writes the result itself."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ResultChainEntry(models.Model):
    """Entry `seq` of its event's chain: `digest` = sha256(`prev_digest` + `payload`), where
    `payload` is the canonical JSON of what was accepted (stored as the exact text hashed)."""

    class Kind(models.TextChoices):
        RESULT = "result", _("成绩生效")
        CONFIRMATION = "confirmation", _("确认")
        CORRECTION = "correction", _("更正")
        FORFEIT = "forfeit", _("弃权")
        STOP = "stop", _("超时中止")
        BYE = "bye", _("轮空")

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # The row the entry is about: a DealReport (result, correction), a Confirmation or a Match
    # (forfeit, time stop, bye). No foreign key: the chain must outlive whatever is done to the rows.
    object_id = models.PositiveBigIntegerField()
    payload = models.TextField()
    prev_digest = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event_id", "seq"]
        constraints = [
            # Two writers that read the same head cannot both append after it: one retries.
            models.UniqueConstraint(fields=["event", "seq"], name="result_chain_one_entry_per_seq"),
        ]

    def __str__(self):
        return f"{self.event_id}#{self.seq} {self.kind} {self.digest[:12]}"
