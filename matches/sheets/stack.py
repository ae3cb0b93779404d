"""A stack of score sheets photographed at the desk for a round (docs/scoresheets.md, "The
desk's stack"): each photo (or each page of a scanner's PDF) is kept as a `StackSheet`, a
worker reads it and learns from its corner codes whose sheet it is, and the match gets the
photo with what was read, as if its table had sent it. The desk then works through the queue
(matches/views/organiser/sheet_stack.py sends a sheet's deals down the table phone's result
path). A sheet refused by the reader stays in the queue with its reason."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from django.core.files.base import ContentFile

from matches import signals
from matches.kernel.games.sheet_desk import SheetDesk
from matches.models import DealReport, Match, Round, SheetPhoto, StackSheet
from matches.paper import reader
from matches.sheets.service import (
    PhotoRefused,
    clean_photo,
    expected_key,
    keep_once,
    reading_json,
)

#: a scanner's PDF: at most this many pages, each rasterised at this resolution (an A4 page at
#: 200 dpi is 1654 px wide: the reader wants about 1200 or more)
PDF_MAX_PAGES = 60
PDF_DPI = 200
PDF_SECONDS = 120


def pdf_pages(data: bytes) -> list[bytes]:
    """A PDF's pages as PNG images (poppler's pdftoppm). Refused in words when there is no
    pdftoppm, the file is no PDF, or it has too many pages."""
    tool = shutil.which("pdftoppm")
    if tool is None:
        raise PhotoRefused("no_pdf_tool", "this server cannot open PDF files (no pdftoppm)")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "scan.pdf"
        source.write_bytes(data)
        try:
            subprocess.run(
                [
                    tool,
                    "-r",
                    str(PDF_DPI),
                    "-png",
                    "-l",
                    str(PDF_MAX_PAGES + 1),
                    str(source),
                    str(Path(folder) / "page"),
                ],
                check=True,
                capture_output=True,
                timeout=PDF_SECONDS,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            raise PhotoRefused("not_an_image", "this PDF cannot be opened")
        pages = sorted(Path(folder).glob("page-*.png"))
        if len(pages) > PDF_MAX_PAGES:
            raise PhotoRefused("too_large", f"a PDF of more than {PDF_MAX_PAGES} pages")
        return [page.read_bytes() for page in pages]


def accept(round_: Round, data: bytes, name: str, user=None) -> StackSheet:
    """Keep one photo of a round's stack (EXIF stripped, as a table's photo is) and ask for its
    reading after commit. The same bytes again give the row they gave before."""
    digest = hashlib.sha256(data).hexdigest()
    kept = StackSheet.objects.filter(round=round_, digest=digest).first()
    if kept is not None:
        return kept
    sheet = StackSheet(
        round=round_,
        digest=digest,
        name=name[:120],
        uploaded_by=user if getattr(user, "is_authenticated", False) else None,
    )
    kept = keep_once(sheet, clean_photo(data), round=round_, digest=digest)
    if kept is sheet:
        signals.request_stack_read(sheet.pk, round_.event_id)
    return kept


def match_of(round_: Round, key) -> Match:
    """The round's match whose printed sheet `key` is; refused by name otherwise."""
    if key.event != round_.event_id:
        raise reader.Refused("other_event", "this is a score sheet of another event")
    if key.round != round_.number:
        raise reader.Refused(
            "other_round",
            f"this is the score sheet of round {key.round}, not of round {round_.number}",
        )
    match = (
        round_.matches.played()
        .select_related("round__event", "table")
        .filter(table__number=key.table)
        .first()
    )
    if match is None:
        raise reader.Refused("other_table", f"round {round_.number} has no table {key.table}")
    wanted = expected_key(match)
    if (key.seats, key.rows) != (wanted.seats, wanted.rows):
        raise reader.Refused("old_sheet", "this sheet was printed before the event's deals changed")
    return match


def read(sheet_id: int) -> None:
    """The worker's part: read a queued sheet, find its match, give the match the photo with
    what was read (the same photo a match already has is that row). A sheet read or refused
    stays so (a task run twice)."""
    sheet = StackSheet.objects.select_related("round__event").filter(pk=sheet_id).first()
    if sheet is None or sheet.state != StackSheet.State.QUEUED:
        return
    with sheet.image.open("rb") as stored:
        data = stored.read()
    game_sheet = sheet.round.event.adapter.score_sheet
    try:
        reading = reader.read_sheet(data, boxes=game_sheet.boxes)
        match = match_of(sheet.round, reading.key)
    except reader.Refused as exc:
        sheet.state, sheet.refusal, sheet.message = (
            StackSheet.State.REFUSED,
            exc.code,
            exc.message[:300],
        )
        sheet.save(update_fields=["state", "refusal", "message"])
        return
    photo = SheetPhoto.objects.filter(match=match, digest=sheet.digest).first()
    if photo is None:
        photo = SheetPhoto(
            match=match,
            digest=sheet.digest,
            uploaded_by=sheet.uploaded_by,
            state=SheetPhoto.State.READ,
            reading=reading_json(reading, game_sheet),
        )
        photo.image.save(f"{uuid.uuid4().hex}.jpg", ContentFile(data), save=False)
        photo.save()
    sheet.state, sheet.match, sheet.photo = StackSheet.State.READ, match, photo
    sheet.save(update_fields=["state", "match", "photo"])


def queue(round_: Round):
    return StackSheet.objects.filter(round=round_).select_related("match__table").order_by("id")


def next_sheet(sheet: StackSheet) -> StackSheet | None:
    """The next sheet of the round's queue still to be worked (read or refused), after this one
    and then from the start."""
    waiting = (
        queue(sheet.round)
        .filter(state__in=[StackSheet.State.READ, StackSheet.State.REFUSED])
        .exclude(pk=sheet.pk)
    )
    return waiting.filter(pk__gt=sheet.pk).first() or waiting.first()


# The desk's typing of a sheet: the boxes as posted, what the game's rules say of its rows.


def typed_boxes(posted) -> dict[str, str]:
    """The boxes' fields as the desk posted them ("d2.won_units.0" -> "8"): a box holds one
    character on the paper, so only the first is kept."""
    return {name: value.strip()[:1] for name, value in posted.items() if name.startswith("d")}


def desk_of(event) -> SheetDesk | None:
    """What the event's game gives the desk's stack to type its sheet (None: nothing)."""
    sheet = event.adapter.score_sheet
    return getattr(sheet, "desk", None) if sheet is not None else None


def seats_of(event, match: Match | None) -> int:
    """Seats of the sheet's boxes: the table's, as its printed sheet has them (with no match
    yet a game may not know them: 0)."""
    table = match.table if match is not None else None
    return event.adapter.score_sheet.seats(event, table)


def deals_of(event) -> int:
    """The sheet's rows: the match's deals and its tie-break deals."""
    return event.deals_per_match + (event.tie_break_deals or 0)


def final_deals(match: Match) -> set[int]:
    """The match's deals already in force: their rows are not typed again."""
    return set(
        DealReport.objects.filter(deal__match=match, state=DealReport.State.FINAL).values_list(
            "deal__number", flat=True
        )
    )


def rules_alone(match: Match, rows: list[dict], seats: int) -> list[dict]:
    """What the game's rules say of each written row alone (a Giog hand whose counts do not
    add up: G10), in words, under its deal."""
    event = match.round.event
    desk = desk_of(event)
    if desk is None:
        return []
    problems = []
    for row in rows:
        for problem in event.adapter.result_form.describe(desk.check(row, seats)):
            problems.append({**problem, "deal": row["number"]})
    return problems


def typed_rules(match: Match, values: dict[str, str], deal: int | None = None) -> list[dict]:
    """What the rules say of the rows as typed (`typed_boxes`), or of deal `deal`'s row alone:
    the line under a row, again while the desk types. A row half typed, a box that is no digit
    or a deal in force says nothing here (the boxes' own faults are said on submitting)."""
    event = match.round.event
    desk = desk_of(event)
    if desk is None:
        return []
    seats = seats_of(event, match)
    rows, _boxes = desk.rows(values, seats, deals_of(event), final_deals(match))
    return rules_alone(match, [row for row in rows if deal in (None, row["number"])], seats)
