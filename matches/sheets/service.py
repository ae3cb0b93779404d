"""A photo of a table's score sheet: accepted (checked, EXIF stripped, stored under MEDIA_ROOT,
the same photo twice is one), read by a worker (`read_photo`, the Celery task's body), and
its rows handed to the result form. Nothing here decides a result: the form fills, a person
checks every box the reader was unsure of, and the summary goes through the rules engine as a
typed one does."""

from __future__ import annotations

import datetime
import hashlib
import uuid

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches import signals
from matches.models import Match, SheetPhoto, StackSheet
from matches.paper import layout, reader
from matches.paper.layout import SheetKey


class PhotoRefused(Exception):
    """A photo not kept: `code` and a message for the person who sent it."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def expected_key(match: Match) -> SheetKey:
    """The sheet printed for the match's table (matches/draw/sheet_printing.py)."""
    round_ = match.round
    event = round_.event
    assert match.table is not None  # a played match: accept_photo refuses a bye
    sheet = event.adapter.score_sheet
    return SheetKey.of_table(
        event.pk,
        round_.number,
        match.table.number,
        sheet.seats(event, match.table),
        event.deals_per_match,
        event.tie_break_deals or 0,
        sheet.magic,
    )


def clean_photo(data: bytes) -> bytes:
    """The photo re-encoded without EXIF or location, or a refusal in the service's words
    (not a picture, too large, a decompression bomb)."""
    try:
        return reader.clean_copy(data)
    except reader.Refused as exc:
        raise PhotoRefused(exc.code, exc.message)


def accept_photo(match: Match, data: bytes, user=None) -> SheetPhoto:
    """Keep a photo of the match's sheet and ask for its reading (after commit). Refuses what
    is no picture or too large before anything is stored; the same bytes again give the row
    they gave before."""
    if match.table_id is None or match.round.event.adapter.score_sheet is None:
        raise PhotoRefused("no_sheet", "this table has no score sheet to photograph")
    digest = hashlib.sha256(data).hexdigest()
    kept = SheetPhoto.objects.filter(match=match, digest=digest).first()
    if kept is not None:
        return kept
    photo = SheetPhoto(
        match=match,
        digest=digest,
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
    )
    kept = keep_once(photo, clean_photo(data), match=match, digest=digest)
    if kept is photo:
        signals.request_sheet_read(photo.pk, match.round.event_id)
    return kept


def keep_once(row, clean: bytes, **identity):
    """Save `row` (a table's photo or a stack's sheet) with its cleaned image; the same photo
    sent twice at once finds the row the other request kept (`identity`: its unique key), and
    this one's image file is deleted."""
    row.image.save(f"{uuid.uuid4().hex}.jpg", ContentFile(clean), save=False)
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        row.image.delete(save=False)
        return type(row).objects.get(**identity)
    return row


def read_photo(photo_id: int) -> None:
    """Read a queued photo and keep what was read, or why it was refused. Again on a photo
    already read does nothing (a task run twice)."""
    photo = (
        SheetPhoto.objects.select_related("match__round__event", "match__table")
        .filter(pk=photo_id)
        .first()
    )
    if photo is None or photo.state != SheetPhoto.State.QUEUED:
        return
    with photo.image.open("rb") as stored:
        data = stored.read()
    sheet = photo.match.round.event.adapter.score_sheet
    try:
        reading = reader.read_sheet(data, expected=expected_key(photo.match), boxes=sheet.boxes)
    except reader.Refused as exc:
        photo.state, photo.refusal, photo.message = (
            SheetPhoto.State.REFUSED,
            exc.code,
            exc.message[:300],
        )
    else:
        photo.state = SheetPhoto.State.READ
        photo.reading = reading_json(reading, sheet)
    photo.save(update_fields=["state", "refusal", "message", "reading"])


def reading_json(reading: reader.Reading, sheet) -> dict:
    """What is kept of a reading: per deal row what the game's result form needs (the game's
    `score_sheet.row_json`: for Gou Ji the order, points, burns, events and every box by name,
    "finish.2": the desk's fields), whether it is blank, the boxes to check with what was read
    and how sure; and the boxes of no deal row (Gou Ji's event strip) by name."""
    return {
        "seconds": round(reading.seconds, 3),
        "corners": reading.corners,
        "rows": [
            {
                "number": row.number,
                **sheet.row_json(reading, row),
                "blank": row.blank,
                "unsure": row.unsure,
                "read": {name: _field(reading, row, name).value for name in row.unsure},
                "confidence": {name: _field(reading, row, name).confidence for name in row.unsure},
            }
            for row in sheet.rows(reading)
        ],
        "events": {
            name.split(".", 1)[1]: read.value
            for name, read in reading.fields.items()
            if name.startswith("0.")
        },
    }


def _field(reading: reader.Reading, row, name: str) -> reader.Field:
    return reading.fields.get(layout.full_name(row.number, name), reader.Field(None, 1.0))


def latest(match: Match) -> SheetPhoto | None:
    return match.sheet_photos.order_by("-uploaded_at", "-id").first()


def row_of(photo: SheetPhoto | None, number: int) -> dict | None:
    """What the photo read in deal `number`'s row; None when unread, refused or left blank."""
    if photo is None or photo.state != SheetPhoto.State.READ or not photo.reading:
        return None
    for row in photo.reading.get("rows", []):
        if row["number"] == number:
            if "blank" in row:
                return None if row["blank"] else row
            # A reading kept before rows said whether they are blank (Gou Ji's only).
            written = ("points", "burns", "unsure")
            blank = not (any(row["finish"]) or any(row.get(name) for name in written))
            return None if blank else row
    return None


def unchecked(photo: SheetPhoto | None, number: int, checked: list[str]) -> list[str]:
    """The boxes of deal `number` the reader was unsure of that nobody ticked as checked."""
    row = row_of(photo, number)
    return [name for name in (row or {}).get("unsure", []) if name not in checked]


def purge(days: int | None = None) -> int:
    """Delete the photos older than the retention (SHEET_PHOTO_RETENTION_DAYS), the desk's
    stacks' too; how many."""
    keep = settings.SHEET_PHOTO_RETENTION_DAYS if days is None else days
    before = timezone.now() - datetime.timedelta(days=keep)
    count = 0
    for model in (StackSheet, SheetPhoto):
        for photo in model.objects.filter(uploaded_at__lt=before):
            photo.image.delete(save=False)
            photo.delete()
            count += 1
    return count
