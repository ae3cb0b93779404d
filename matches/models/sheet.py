"""A photo of a table's paper score sheet (docs/scoresheets.md): kept with the match's reports
as evidence, read by a worker into the result form. The picture is a file under MEDIA_ROOT
(`sheet-photos/`), served to the table's referee and the event's staff only, never on the
public site or the hall mirror (the row stays on the box: hall/publication.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .round import Match


class SheetPhoto(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", "queued"
        READ = "read", "read"
        REFUSED = "refused", "refused"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sheet_photos")
    image = models.FileField(upload_to="sheet-photos/%Y/%m/", max_length=200)
    #: SHA-256 of the photo as it arrived: the same photo sent twice is one row
    digest = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    #: why it was refused: the reader's code ("other_table", "not_a_sheet", ...) and its words
    refusal = models.CharField(max_length=30, blank=True)
    message = models.CharField(max_length=300, blank=True)
    #: what was read, row by row: {"rows": [{"number", "finish", "points", "burns", "unsure",
    #: "confidence"}], "seconds"}: digits and seat numbers only
    reading = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match", "-uploaded_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "digest"], name="sheet_photo_once_per_match")
        ]

    def __str__(self) -> str:
        return f"sheet photo {self.pk} of match {self.match_id}"
