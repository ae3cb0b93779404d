"""The desk's stack with Giog's sheets (docs/scoresheets.md, "The desk's stack"): the photos
of a round's Giog tables go up at once, each is read and given to its table, and the desk's
page lays out the sheet's own boxes (each seat's pieces won, tens and units; two beheaded
seats), as the game's sheet says, with no finishing order. A hand that does not add up (G10)
is marked and named before anything is sent, and refused until it is right; a sheet submitted
records its hands as the table's typed hand form does, confirmation as the event says; a
refused sheet gets its boxes once the desk names its table."""

from __future__ import annotations

import io
import re

import pytest
from django.http import QueryDict
from django.urls import reverse
from PIL import Image

from matches.models import DealReport, StackSheet
from matches.sheets import service as sheets
from tests.sheets.photos import giog_photo, giog_values

#: hand 1 of a four-seat table written 12, 8, 8, 8: 36 pieces, but 32 are in play (G10)
NOT_ADDING_UP = {1: 12, 2: 8, 3: 8, 4: 8}


@pytest.fixture
def desk(giog, client):
    round_ = giog.draw()
    client.force_login(giog.organiser)
    url = reverse("manage:results-stack", args=[giog.event.pk]) + f"?round={round_.number}"
    tables = list(round_.matches.played().select_related("table").order_by("table__number"))
    return giog, tables, url


def send(client, url, files, capture):
    with capture(execute=True):
        return client.post(url, {"photos": [io.BytesIO(d) for d in files]})


def written(match, seed: int, hand_one: dict[int, int] | None = None) -> dict:
    """What the referee wrote on the match's sheet: self-played hands, hand 1 as given."""
    values = giog_values(sheets.expected_key(match), seed)
    for seat, count in (hand_one or {}).items():
        values[f"1.won_tens.{seat - 1}"] = count // 10 or None
        values[f"1.won_units.{seat - 1}"] = count % 10
    return values


def typed(values: dict, checked: list[str]) -> dict:
    """The desk's form: every box as the paper says, the marked boxes ticked."""
    form: dict = {f"d{name}": "" if v is None else str(v) for name, v in values.items()}
    form["checked"] = checked
    return form


def unsure(sheet: StackSheet) -> list[str]:
    """The boxes the reader marked, as the desk's checks name them ("1.won_units.0")."""
    assert sheet.photo is not None and sheet.photo.reading
    rows = sheet.photo.reading["rows"]
    return [f"{row['number']}.{name}" for row in rows for name in row["unsure"]]


def page_of(event, sheet) -> str:
    return reverse("manage:results-stack-sheet", args=[event.pk, sheet.pk])


def test_a_stack_of_giog_sheets_is_laid_out_and_recorded_as_the_hand_form_records(
    client, desk, django_capture_on_commit_callbacks
):
    b, (one, two), url = desk
    values = {match.pk: written(match, seed) for match, seed in ((one, 11), (two, 12))}
    photos = [giog_photo(sheets.expected_key(m), 13, values[m.pk])[0] for m in (two, one)]
    assert send(client, url, photos, django_capture_on_commit_callbacks).status_code == 302
    first, second = StackSheet.objects.order_by("id")
    assert [first.state, second.state] == ["read", "read"], [first.message, second.message]
    assert [first.match, second.match] == [two, one]  # each found by its corner codes
    html = client.get(page_of(b.event, first)).content.decode()
    # The Giog sheet's boxes, no finishing order, no event strip.
    for name in ("d1.won_tens.0", "d1.won_units.3", "d2.beheaded.1"):
        assert f'name="{name}"' in html
    assert "finish." not in html and 'id="stack-events"' not in html
    assert "4号" in html and "斩首" in html
    for name in first.photo.reading["rows"][0]["unsure"]:
        assert re.search(rf'name="d1\.{re.escape(name)}"[^>]*data-marked', html)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_of(b.event, first), typed(values[two.pk], unsure(first)))
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert response["Location"] == page_of(b.event, second)
    first.refresh_from_db()
    assert first.state == "done"
    # Each hand recorded as the table's typed hand form records the same counts.
    adapter = b.event.adapter
    for number in range(1, b.event.deals_per_match + 1):
        report = DealReport.objects.get(deal__match=two, deal__number=number)
        data = QueryDict(mutable=True)
        for seat in range(1, 5):
            tens = values[two.pk][f"{number}.won_tens.{seat - 1}"] or 0
            data[f"won_{seat}"] = str(tens * 10 + values[two.pk][f"{number}.won_units.{seat - 1}"])
        for k in range(2):
            if values[two.pk][f"{number}.beheaded.{k}"]:
                data[f"beheaded_{values[two.pk][f'{number}.beheaded.{k}']}"] = "1"
        hand_form = adapter.result_form.from_post(two.table, data, {})
        assert report.summary == hand_form.summary()
        assert report.state == "final"  # the event asks no confirmation
    # The done sheet shows its boxes as they went in.
    done = client.get(page_of(b.event, first)).content.decode()
    assert 'id="stack-done"' in done
    units = values[two.pk]["1.won_units.0"]
    assert re.search(rf'name="d1\.won_units\.0" [^>]*value="{units}"', done)


def test_a_hand_that_does_not_add_up_is_marked_and_refused_until_fixed(
    client, desk, django_capture_on_commit_callbacks
):
    b, (one, _two), url = desk
    values = written(one, 21, NOT_ADDING_UP)
    photo = giog_photo(sheets.expected_key(one), 21, values)[0]
    send(client, url, [photo], django_capture_on_commit_callbacks)
    sheet = StackSheet.objects.get()
    assert sheet.state == "read", sheet.message
    html = client.get(page_of(b.event, sheet)).content.decode()
    # Every count box of hand 1 is marked (one of them is wrong: the reader cannot tell
    # which), and the hand's fault is named with its rule before anything is sent.
    for seat in range(4):
        assert re.search(rf'name="d1\.won_units\.{seat}"[^>]*data-marked', html)
    row = re.search(
        r'<fieldset class="stack-row doubt" data-deal="1"[^>]*>.*?</fieldset>', html, re.S
    )
    assert row and 'data-rule="G10"' in row.group() and "32" in row.group()
    # As read, every mark ticked: refused by G10, nothing recorded (not even hand 2).
    refused = client.post(page_of(b.event, sheet), typed(values, unsure(sheet)))
    assert refused.status_code == 422
    assert re.search(r'data-deal="1"[^>]*>.*?data-rule="G10"', refused.content.decode(), re.S)
    assert not DealReport.objects.exists()
    # The desk fixes seat 1's count from the photo's other counts: 8, not 12.
    values["1.won_tens.0"], values["1.won_units.0"] = None, 8
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_of(b.event, sheet), typed(values, unsure(sheet)))
    assert response.status_code == 302
    report = DealReport.objects.get(deal__match=one, deal__number=1)
    assert report.summary["won"] == {"1": 8, "2": 8, "3": 8, "4": 8}


def test_boxes_the_paper_cannot_hold_are_refused_before_the_engine(
    client, desk, django_capture_on_commit_callbacks
):
    b, (one, _two), url = desk
    values = written(one, 31)
    send(
        client,
        url,
        [giog_photo(sheets.expected_key(one), 31, values)[0]],
        django_capture_on_commit_callbacks,
    )
    sheet = StackSheet.objects.get()
    form = typed(values, unsure(sheet))
    form["d1.beheaded.1"] = "7"  # no seat of a table of four
    refused = client.post(page_of(b.event, sheet), form).content.decode()
    assert 'data-code="not_a_seat"' in refused and "第2个斩首座位" in refused
    form["d1.beheaded.1"], form["d1.won_units.2"], form["d1.won_tens.2"] = "", "", "1"
    refused = client.post(page_of(b.event, sheet), form).content.decode()
    assert 'data-code="incomplete_count"' in refused
    assert not DealReport.objects.exists()


def test_a_refused_giog_sheet_gets_its_boxes_once_the_desk_names_its_table(
    client, desk, django_capture_on_commit_callbacks
):
    b, (one, _two), url = desk
    bare = io.BytesIO()
    Image.new("RGB", (1400, 1800), (120, 110, 100)).save(bare, "JPEG")
    send(client, url, [bare.getvalue()], django_capture_on_commit_callbacks)
    sheet = StackSheet.objects.get()
    assert sheet.refusal == "not_a_sheet"
    html = client.get(page_of(b.event, sheet)).content.decode()
    # A Giog table's seats are its own (2-4): no boxes until the table is named.
    assert 'id="stack-table"' in html and "won_units" not in html
    assert 'id="stack-table-first"' in html
    named = client.post(page_of(b.event, sheet), {"table": str(one.table.number)})
    assert named.status_code == 200
    html = named.content.decode()
    assert 'name="d1.won_units.3"' in html and 'name="d1.won_units.4"' not in html
    assert f'value="{one.table.number}"' in html and 'data-code="nothing"' not in html
    counts = {1: [12, 8, 4, 8], 2: [8, 8, 8, 8]}
    form = {"table": str(one.table.number)}
    for number, won in counts.items():
        for seat, count in enumerate(won):
            form[f"d{number}.won_tens.{seat}"] = str(count // 10) if count >= 10 else ""
            form[f"d{number}.won_units.{seat}"] = str(count % 10)
    form["d1.beheaded.0"] = "3"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page_of(b.event, sheet), form).status_code == 302
    report = DealReport.objects.get(deal__match=one, deal__number=1)
    assert report.summary["won"] == {"1": 12, "2": 8, "3": 4, "4": 8}
    assert report.summary["beheaded"] == [3]
