"""The score sheet's photo on the table's phone (拍照录入) and at the desk: the upload, the
photo itself (to the table's referee and the event's staff only, never cached), what the read
sheet puts in the deal form, and the guard that a person ticked every box the reader was
unsure of before the deal is submitted. docs/scoresheets.md."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.models import SheetPhoto
from matches.sheets import service as sheets
from matches.views.referee.access import Access, at_table
from matches.views.sheets import keep_private

#: the reader's reasons in words (the code stays in the page for tests and logs)
REFUSALS = {
    "not_an_image": gettext_lazy("这不是能打开的照片。"),
    "too_large": gettext_lazy("照片太大（文件或像素），请用手机相机的普通设置重拍。"),
    "not_a_sheet": gettext_lazy("照片里找不到记分表：请把整张记分表拍进去，放平。"),
    "corners": gettext_lazy("只看到记分表的一个角：请把四个角的二维码都拍进去。"),
    "other_event": gettext_lazy("这是另一个赛事的记分表。"),
    "other_round": gettext_lazy("这是另一轮的记分表，请拍本轮的。"),
    "other_table": gettext_lazy("这是另一张桌子的记分表。"),
    "old_sheet": gettext_lazy("这张记分表是赛事局数改动前打印的，请重新打印。"),
    "no_sheet": gettext_lazy("这张桌子没有可拍照的记分表。"),
    "no_pdf_tool": gettext_lazy("服务器上没有打开 PDF 的工具（pdftoppm），请上传照片。"),
}


def refusal_words(code: str) -> str:
    return str(REFUSALS.get(code, _("无法读取这张照片。")))


@at_table(["POST"])
def upload_photo(request, access: Access):
    """A photo of the sheet: kept, then read by a worker; back to the table page, where the
    read rows fill the form."""
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    # A phone's photo is larger than the site's usual upload cap (gouji_tournament/uploads.py).
    request.upload_max_size = settings.SHEET_PHOTO_MAX_BYTES
    upload = request.FILES.get("photo")
    if upload is None:
        too_large = getattr(request, "upload_too_large", False)
        messages.error(request, refusal_words("too_large") if too_large else _("请选择一张照片。"))
        return redirect(access.url("table"))
    try:
        sheets.accept_photo(match, upload.read(), access.actor.user)
    except sheets.PhotoRefused as exc:
        messages.error(request, refusal_words(exc.code))
    return redirect(access.url("table"))


@at_table(["GET"])
def photo_image(request, access: Access, photo_id: int):
    photo = get_object_or_404(SheetPhoto, pk=photo_id, match__table=access.table)
    return photo_response(photo)


def photo_response(photo: SheetPhoto) -> HttpResponse:
    """The kept JPEG, never stored by a browser or a proxy."""
    try:
        with photo.image.open("rb") as stored:
            body = stored.read()
    except FileNotFoundError:
        raise Http404
    return keep_private(HttpResponse(body, content_type="image/jpeg"))


def sheet_context(access: Access, match, number: int | None, checked: list[str]) -> dict:
    """The table page's photo part: the latest photo of the match's sheet, its state, and for
    the deal in the form the boxes to check (each with what was read and how sure)."""
    photo = sheets.latest(match) if match is not None else None
    if photo is None:
        return {"photo": None, "row": None, "upload_url": access.url("photo")}
    row = sheets.row_of(photo, number) if number else None
    read: dict = (row or {}).get("read", {})
    sure: dict = (row or {}).get("confidence", {})
    unsure = [
        {
            "name": name,
            "label": box_label(match.round.event, name),
            "value": read.get(name),
            "confidence": round(100 * sure.get(name, 0)),
            "checked": name in checked,
        }
        for name in (row or {}).get("unsure", [])
    ]
    return {
        "photo": photo,
        "upload_url": access.url("photo"),
        "image_url": access.url("photo-image", photo_id=photo.pk),
        "refusal": refusal_words(photo.refusal) if photo.refusal else "",
        "row": row,
        "unsure": unsure,
    }


def box_label(event, name: str) -> str:
    """A box of a deal's row in words, as the event's game says it ("finish.5" -> 第6名)."""
    return event.adapter.score_sheet.box_label(name)


def unchecked_problems(match, number: int, data) -> list[dict]:
    """A deal filled from a photo: each box the reader was unsure of must be ticked as checked
    by a person before the deal goes in (a refusal naming them otherwise)."""
    photo_id = data.get("sheet_photo", "")
    if not photo_id.isdigit():
        return []
    photo = SheetPhoto.objects.filter(pk=int(photo_id), match=match).first()
    missing = sheets.unchecked(photo, number, data.getlist("sheet_checked"))
    if not missing:
        return []
    labels = "、".join(box_label(match.round.event, name) for name in missing)
    return [
        {
            "rule": None,
            "code": "sheet_unchecked",
            "message": f"unchecked boxes read from the photo: {', '.join(missing)}",
            "text": _("请对照照片核对并勾选：%(boxes)s") % {"boxes": labels},
        }
    ]


def photo_rows(event, photos) -> list[dict]:
    """The staff's view of a match's photos (the table's results page, the desk)."""
    return [
        {
            "photo": photo,
            "url": reverse("manage:sheet-photo", args=[event.pk, photo.pk]),
            "refusal": refusal_words(photo.refusal) if photo.refusal else "",
        }
        for photo in photos
    ]
