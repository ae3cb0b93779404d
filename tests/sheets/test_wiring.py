"""A score sheet's photo through the site: sent from the table's phone (拍照录入), kept (EXIF
stripped), read by the Celery task into the deal form, boxes the reader was unsure of ticked
by a person before the deal goes in, the summary judged by the rules engine as a typed one;
refusals said in words; the photo shown to the event's staff only, never public, never on the
mirror."""

from __future__ import annotations

import io
import os
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from hall import publication
from matches.draw.sheet_printing import sheet_key
from matches.models import DealReport, SheetPhoto
from matches.paper import layout, reader
from matches.sheets import service as sheets
from tests.sheets.photos import sheet_photo
from tests.sheets.test_reader import bomb

ORDER = [3, 1, 5, 2, 6, 4]


@pytest.fixture
def table(build):
    b = build(unions=2, deals=2)
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    link = b.people.referee_link
    return b, match, reverse("referee:link-table", args=[link.token])


def written(key, rows: dict) -> dict:
    """The sheet's boxes with `rows` ({row: finishing order}) written, the rest blank."""
    values = {box.name: None for box in layout.boxes(key)}
    for row, order in rows.items():
        for place, seat in enumerate(order):
            values[f"{row}.finish.{place}"] = seat
    return values


def send(client, url, data: bytes, capture):
    """Send a photo from the table's page; the table's page once the task has read it."""
    with capture(execute=True):
        client.post(url + "photo", {"photo": io.BytesIO(data)})
    return client.get(url)


def photo_of(match, seed=1, rows=None, key=None):
    key = key or sheets.expected_key(match)
    data, values = sheet_photo(key, seed, values=written(key, rows or {1: ORDER}))
    return data, values


def test_a_photo_fills_the_deal_form_and_the_referee_submits_it(
    client, table, django_capture_on_commit_callbacks
):
    b, match, url = table
    data, _values = photo_of(match)
    page = send(client, url, data, django_capture_on_commit_callbacks)
    assert page.status_code == 200
    photo = SheetPhoto.objects.get(match=match)
    assert photo.state == "read", photo.message
    html = page.content.decode()
    assert 'data-state="read"' in html
    # The form holds what was read: the order as the hidden taps, every box sure or listed.
    row = sheets.row_of(photo, 1)
    assert [s for s in row["finish"]] == ORDER or row["unsure"]
    assert f'name="finish" value="{",".join(str(s) for s in row["finish"] if s)}"' in html
    assert f'name="sheet_photo" value="{photo.pk}"' in html
    form = {
        "finish": ",".join(map(str, ORDER)),
        "sheet_photo": str(photo.pk),
        "sheet_checked": row["unsure"],
        "idempotency_key": "photo-1",
        "burn_rows": "1",
        "suff_rows": "1",
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url + "deals/1/submit", form)
    assert response.status_code == 302
    report = DealReport.objects.get(deal__match=match, deal__number=1)
    assert report.summary["finish"] == ORDER


def test_each_unsure_box_must_be_ticked_before_the_deal_goes_in(
    client, table, django_capture_on_commit_callbacks, monkeypatch
):
    b, match, url = table
    monkeypatch.setattr(reader, "TRUST", 0.999999)  # nearly every box unsure
    data, _values = photo_of(match, seed=2)
    send(client, url, data, django_capture_on_commit_callbacks)
    photo = SheetPhoto.objects.get(match=match)
    unsure = sheets.row_of(photo, 1)["unsure"]
    assert unsure
    page = client.get(url).content.decode()
    assert 'id="sheet-unsure"' in page and 'name="sheet_checked"' in page
    form = {
        "finish": ",".join(map(str, ORDER)),
        "sheet_photo": str(photo.pk),
        "sheet_checked": unsure[1:],  # one left unticked
        "idempotency_key": "photo-2",
    }
    refused = client.post(url + "deals/1/submit", form)
    assert refused.status_code == 422
    assert 'data-code="sheet_unchecked"' in refused.content.decode()
    assert not DealReport.objects.filter(deal__match=match).exists()
    form["sheet_checked"] = unsure
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url + "deals/1/submit", form).status_code == 302
    assert DealReport.objects.filter(deal__match=match).exists()


def test_a_sheet_that_does_not_add_up_is_refused_by_the_engine_with_its_rule(
    client, table, django_capture_on_commit_callbacks
):
    b, match, url = table
    data, _values = photo_of(match, seed=3, rows={1: [3, 1, 5, 2, 6, 3]})  # seat 3 twice
    page = send(client, url, data, django_capture_on_commit_callbacks).content.decode()
    assert SheetPhoto.objects.get(match=match).state == "read"
    assert 'data-rule="R30"' in page  # the engine's rule: no order of the six seats


@pytest.mark.parametrize("which, code", [("table", "other_table"), ("round", "other_round")])
def test_another_tables_or_an_earlier_rounds_sheet_is_refused_in_words(
    client, build, django_capture_on_commit_callbacks, which, code
):
    b = build(unions=4, deals=2)
    first = b.round([(0, 1), (2, 3)])
    second = b.round([(0, 2), (1, 3)])
    match = b.match(second, 1)
    if which == "table":
        wrong = sheet_key(second, b.match(second, 2).table, 6)
    else:
        wrong = sheet_key(first, b.match(first, 1).table, 6)
    data, _ = sheet_photo(wrong, 4, values=written(wrong, {1: ORDER}))
    url = reverse("referee:link-table", args=[b.people.for_table(match.table).referee_link.token])
    page = send(client, url, data, django_capture_on_commit_callbacks).content.decode()
    photo = SheetPhoto.objects.get(match=match)
    assert (photo.state, photo.refusal) == ("refused", code)
    assert f'data-code="{code}"' in page


def test_what_is_no_photo_or_too_large_is_refused_and_not_kept(
    client, table, django_capture_on_commit_callbacks
):
    b, match, url = table
    for data in (b"GIF89a broken", bomb(12_000)):
        page = send(client, url, data, django_capture_on_commit_callbacks)
        assert page.status_code == 200
        assert "sheet-photo" in page.content.decode()
    assert not SheetPhoto.objects.exists()


def test_the_kept_photo_has_no_exif_and_the_same_photo_twice_is_one(
    client, table, django_capture_on_commit_callbacks
):
    b, match, url = table
    data, _ = photo_of(match, seed=5)
    image = Image.open(io.BytesIO(data))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x8825] = {2: (36.0, 4.0, 0.0)}  # GPSInfo: a latitude
    tagged = io.BytesIO()
    image.save(tagged, "JPEG", exif=exif)
    send(client, url, tagged.getvalue(), django_capture_on_commit_callbacks)
    send(client, url, tagged.getvalue(), django_capture_on_commit_callbacks)
    photo = SheetPhoto.objects.get(match=match)
    with photo.image.open("rb") as stored:
        kept = Image.open(io.BytesIO(stored.read()))
        assert not kept.getexif()
    sheets.read_photo(photo.pk)  # the task again: nothing changes
    photo.refresh_from_db()
    assert photo.state == "read"


def test_the_photo_is_evidence_for_the_events_staff_only(
    client, table, django_capture_on_commit_callbacks
):
    b, match, url = table
    data, _ = photo_of(match, seed=6)
    send(client, url, data, django_capture_on_commit_callbacks)
    photo = SheetPhoto.objects.get(match=match)
    image_url = reverse("manage:sheet-photo", args=[b.event.pk, photo.pk])
    client.logout()
    assert client.get(image_url).status_code == 302  # to the sign-in page
    client.force_login(b.people.other_organiser)
    assert client.get(image_url).status_code == 403
    client.force_login(b.organiser)
    staff_page = client.get(reverse("manage:results-table", args=[b.event.pk, match.table_id]))
    assert image_url in staff_page.content.decode()
    image = client.get(image_url)
    assert image["Content-Type"] == "image/jpeg" and "no-store" in image["Cache-Control"]
    # The public pages of the event never point at it, and the mirror never gets the row.
    client.logout()
    public = client.get(reverse("public:event", args=[b.event.pk])).content.decode()
    assert "photos/" not in public and "sheet-photos" not in public
    assert SheetPhoto not in publication.published_models()


def test_photos_past_the_retention_are_deleted_with_their_files(
    client, table, django_capture_on_commit_callbacks, settings
):
    b, match, url = table
    send(client, url, b"\xff\xd8 not really", django_capture_on_commit_callbacks)
    data, _ = photo_of(match, seed=7)
    send(client, url, data, django_capture_on_commit_callbacks)
    photo = SheetPhoto.objects.get(match=match)
    path = photo.image.path
    call_command("purge_sheet_photos", "--days", "1", stdout=io.StringIO())
    assert SheetPhoto.objects.filter(pk=photo.pk).exists()  # a photo of today stays
    SheetPhoto.objects.filter(pk=photo.pk).update(uploaded_at=timezone.now() - timedelta(days=2))
    call_command("purge_sheet_photos", "--days", "1", stdout=io.StringIO())
    assert not SheetPhoto.objects.exists()
    assert not os.path.exists(path)


def test_the_desk_sends_a_tables_photo_and_lands_on_its_filled_page(
    client, build, django_capture_on_commit_callbacks
):
    b = build(unions=4, deals=2)
    round_ = b.round([(0, 1), (2, 3)])
    match = b.match(round_, 2)
    client.force_login(b.organiser)
    desk = client.get(reverse("manage:results-sheets", args=[b.event.pk])).content.decode()
    upload = reverse("referee:table-photo", args=[match.table_id])
    assert 'id="desk-table-1"' in desk and 'id="desk-table-2"' in desk and upload in desk
    data, _ = photo_of(match, seed=8)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(upload, {"photo": io.BytesIO(data)})
    table_page = reverse("referee:table-table", args=[match.table_id])
    assert response.status_code == 302 and response["Location"] == table_page
    assert SheetPhoto.objects.get(match=match).uploaded_by == b.organiser
    assert 'data-state="read"' in client.get(table_page).content.decode()
    desk = client.get(reverse("manage:results-sheets", args=[b.event.pk])).content.decode()
    assert 'data-state="read"' in desk
    client.force_login(b.people.other_organiser)
    assert client.get(reverse("manage:results-sheets", args=[b.event.pk])).status_code == 403
