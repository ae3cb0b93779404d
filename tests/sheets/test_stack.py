"""The desk's stack of score sheets: several photos sent at once make the round's queue (each
read and given to the table its codes name), the desk submits a sheet down the table phone's
result path (the engine's rule when it does not add up, marked boxes checked first), a sheet
the reader refused (another round's, no sheet at all) stays in the queue with its reason and is
typed by hand, and a scanner's PDF is a sheet a page."""

from __future__ import annotations

import io
import re
import subprocess

import pytest
from django.urls import reverse
from PIL import Image

from matches.draw.sheet_printing import sheet_key
from matches.models import DealReport, SheetPhoto, StackSheet
from matches.paper import reader
from tests.sheets.photos import sheet_photo
from tests.sheets.test_wiring import written

ORDER = [3, 1, 5, 2, 6, 4]


@pytest.fixture
def desk(build, client):
    b = build(unions=6, deals=1)
    first = b.round([(0, 1), (2, 3), (4, 5)])
    second = b.round([(0, 2), (1, 4), (3, 5)])
    client.force_login(b.organiser)
    url = reverse("manage:results-stack", args=[b.event.pk]) + f"?round={second.number}"
    return b, first, second, url


def photo(round_, table, seed, order=ORDER):
    key = sheet_key(round_, table, 6)
    return sheet_photo(key, seed, values=written(key, {1: order}))[0]


def send(client, url, files, capture):
    with capture(execute=True):
        return client.post(url, {"photos": [io.BytesIO(d) for d in files]})


def test_a_stack_makes_the_queue_and_each_sheet_finds_its_table(
    client, desk, django_capture_on_commit_callbacks
):
    b, first, second, url = desk
    t1, t3 = b.match(second, 1), b.match(second, 3)
    blank = io.BytesIO()
    Image.new("RGB", (1400, 1800), (120, 110, 100)).save(blank, "JPEG")
    files = [
        photo(second, t3.table, 21),
        photo(second, t1.table, 22),
        photo(first, b.match(first, 2).table, 23),  # an earlier round's sheet
        blank.getvalue(),  # no sheet in it
        b"GIF89a not really",  # no picture at all: refused at once, not kept
    ]
    response = send(client, url, files, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    sheets = list(StackSheet.objects.order_by("id"))
    assert [s.state for s in sheets] == ["read", "read", "refused", "refused"]
    assert [s.match for s in sheets[:2]] == [t3, t1]
    assert [s.refusal for s in sheets[2:]] == ["other_round", "not_a_sheet"]
    # The match has the photo with what was read, as if its table had sent it.
    assert SheetPhoto.objects.get(match=t1).state == "read"
    page = client.get(url).content.decode()
    assert 'data-code="other_round"' in page and 'data-code="not_a_sheet"' in page
    assert "这是另一轮的记分表" in page and "这不是能打开的照片" in page  # the GIF named
    assert 'id="stack-start"' in page
    # The same stack again is the same queue.
    send(client, url, files[:2], django_capture_on_commit_callbacks)
    assert StackSheet.objects.count() == 4


def test_the_desk_submits_a_sheet_and_goes_to_the_next(
    client, desk, django_capture_on_commit_callbacks
):
    b, first, second, url = desk
    t1, t2 = b.match(second, 1), b.match(second, 2)
    send(
        client,
        url,
        [photo(second, t1.table, 31), photo(second, t2.table, 32)],
        django_capture_on_commit_callbacks,
    )
    one, two = StackSheet.objects.order_by("id")
    page_url = reverse("manage:results-stack-sheet", args=[b.event.pk, one.pk])
    page = client.get(page_url).content.decode()
    box = re.search(r'<input name="d1\.finish\.0"[^>]*>', page)
    assert box and (f'value="{ORDER[0]}"' in box.group() or "data-marked" in page)
    form = {f"d1.finish.{p}": str(s) for p, s in enumerate(ORDER)}
    form["checked"] = [f"1.{n}" for n in one.photo.reading["rows"][0]["unsure"]]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_url, form)
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:results-stack-sheet", args=[b.event.pk, two.pk])
    report = DealReport.objects.get(deal__match=t1)
    assert report.summary["finish"] == ORDER
    # Confirmation as the event says: the captains confirm on the table's phone.
    assert b.event.confirmation != "none" and report.state == "pending"
    assert "等待双方队长确认" in client.get(response["Location"]).content.decode()
    one.refresh_from_db()
    assert one.state == "done"


def test_a_marked_box_must_be_checked_and_a_wrong_order_is_refused_by_its_rule(
    client, desk, django_capture_on_commit_callbacks, monkeypatch
):
    b, first, second, url = desk
    monkeypatch.setattr(reader, "TRUST", 1.01)  # every box unsure
    t1 = b.match(second, 1)
    send(client, url, [photo(second, t1.table, 41)], django_capture_on_commit_callbacks)
    sheet = StackSheet.objects.get()
    unsure = sheet.photo.reading["rows"][0]["unsure"]
    assert unsure
    page_url = reverse("manage:results-stack-sheet", args=[b.event.pk, sheet.pk])
    assert page_url and "data-marked" in client.get(page_url).content.decode()
    form = {f"d1.finish.{p}": str(s) for p, s in enumerate(ORDER)}
    refused = client.post(page_url, form)
    assert refused.status_code == 422
    assert 'data-code="sheet_unchecked"' in refused.content.decode()
    form["checked"] = [f"1.{n}" for n in unsure]
    form["d1.finish.5"] = "3"  # seat 3 twice
    refused = client.post(page_url, form)
    assert refused.status_code == 422 and 'data-rule="R30"' in refused.content.decode()
    form["d1.finish.5"] = "9"  # no seat of the table
    refused = client.post(page_url, form)
    assert 'data-code="not_a_seat"' in refused.content.decode()
    assert not DealReport.objects.exists()


def test_a_refused_sheet_is_typed_by_hand_for_the_table_the_desk_names(
    client, desk, django_capture_on_commit_callbacks
):
    b, first, second, url = desk
    send(
        client, url, [photo(first, b.match(first, 1).table, 51)], django_capture_on_commit_callbacks
    )
    sheet = StackSheet.objects.get()
    assert sheet.refusal == "other_round"
    page_url = reverse("manage:results-stack-sheet", args=[b.event.pk, sheet.pk])
    page = client.get(page_url).content.decode()
    assert 'id="stack-table"' in page and 'data-code="other_round"' in page
    form = {f"d1.finish.{p}": str(s) for p, s in enumerate(ORDER)}
    assert client.post(page_url, {**form, "table": "9"}).status_code == 422  # no table 9
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_url, {**form, "table": "2"})
    assert response.status_code == 302
    assert DealReport.objects.get().deal.match == b.match(second, 2)


def test_a_scanners_pdf_is_a_sheet_a_page(
    client, desk, django_capture_on_commit_callbacks, tmp_path
):
    b, first, second, url = desk
    pages = []
    for n, seed in ((1, 61), (2, 62)):
        image = Image.open(io.BytesIO(photo(second, b.match(second, n).table, seed)))
        pages.append(image.convert("RGB"))
    pdf = io.BytesIO()
    pages[0].save(pdf, "PDF", save_all=True, append_images=pages[1:], resolution=150)
    send(client, url, [pdf.getvalue()], django_capture_on_commit_callbacks)
    sheets = list(StackSheet.objects.order_by("id"))
    assert [s.state for s in sheets] == ["read", "read"], [s.message for s in sheets]
    assert [s.match.table.number for s in sheets] == [1, 2]
    assert subprocess.run(["pdftoppm", "-v"], capture_output=True).returncode == 0


def test_the_stack_is_the_events_staff_only(client, desk, django_capture_on_commit_callbacks):
    b, first, second, url = desk
    send(
        client,
        url,
        [photo(second, b.match(second, 1).table, 71)],
        django_capture_on_commit_callbacks,
    )
    sheet = StackSheet.objects.get()
    image = reverse("manage:results-stack-photo", args=[b.event.pk, sheet.pk])
    assert "no-store" in client.get(image)["Cache-Control"]
    client.force_login(b.people.other_organiser)
    for target in (url, image, reverse("manage:results-stack-sheet", args=[b.event.pk, sheet.pk])):
        assert client.get(target).status_code == 403
    assert client.post(url, {"photos": [io.BytesIO(b"x")]}).status_code == 403
