"""A photo of a table's paper score sheet (docs/scoresheets.md): kept with the match's reports
as evidence, read by a worker into the result form. The picture is a file under MEDIA_ROOT
(`sheet-photos/`), served to the table's referee and the event's staff only, never on the
public site or the hall mirror (the row stays on the box: hall/publication.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .round import Match, Round


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


class StackSheet(models.Model):
    """A sheet of a stack photographed at the desk for a round (several photos at once, or a
    scanner's PDF a page each): read by a worker, which finds whose sheet it is from its corner
    codes and keeps a `SheetPhoto` of that match with what was read; the desk then works
    through the round's queue a sheet at a time. A sheet the reader refused stays in the queue
    with its reason: the desk picks the table and types it by hand."""

    class State(models.TextChoices):
        QUEUED = "queued", "queued"
        READ = "read", "read"
        REFUSED = "refused", "refused"
        DONE = "done", "done"  # its deals went in

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="stack_sheets")
    image = models.FileField(upload_to="sheet-stacks/%Y/%m/", max_length=200)
    #: SHA-256 of the photo as it arrived: the same photo in two stacks of a round is one row
    digest = models.CharField(max_length=64)
    #: the uploaded file's name (a PDF's page: "scan.pdf p. 3"), shown in the queue
    name = models.CharField(max_length=120, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    refusal = models.CharField(max_length=30, blank=True)
    message = models.CharField(max_length=300, blank=True)
    #: whose sheet: read from its codes, or chosen at the desk for a refused one
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the match's copy of the photo, with the reading (the evidence the staff see)
    photo = models.ForeignKey(
        SheetPhoto, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "digest"], name="stack_sheet_once_per_round")
        ]

    def __str__(self) -> str:
        return f"stack sheet {self.pk} of round {self.round_id}"
