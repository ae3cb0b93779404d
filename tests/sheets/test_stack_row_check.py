"""The desk's stack says a row's rules again while the desk types it (docs/scoresheets.md, "The
desk's stack"): the row's boxes post the form to `manage:results-stack-check`, which answers the
line under that deal alone, with what the game's `SheetDesk.check` says of the row in words (a
Giog hand whose counts do not add up: G10), or nothing. The event's organisers and assistants
only, as the sheet's page; junk or a row half typed is an empty line, never a 500."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matches.models import StackSheet
from tests.builder import EventBuilder
from tests.personas import make_user

#: hand 1 at a table of four written 12, 8, 8, 8: 36 pieces, but 32 are in play (G10)
NOT_ADDING_UP = [12, 8, 8, 8]
ADDING_UP = [8, 8, 8, 8]


@pytest.fixture
def desk(giog, client):
    """A Giog round's first table, its sheet read, the organiser signed in."""
    round_ = giog.draw()
    match = round_.matches.played().select_related("table").order_by("table__number").first()
    sheet = stack_sheet(round_, match)
    client.force_login(giog.organiser)
    return giog, match, sheet


def stack_sheet(round_, match=None, state="read") -> StackSheet:
    """A sheet of the round's stack as the reader left it (no photo kept: none is needed)."""
    digest = f"{StackSheet.objects.count():064d}"  # a round's photos differ
    return StackSheet.objects.create(
        round=round_, image="sheet-stacks/none.jpg", digest=digest, state=state, match=match
    )


def check_url(event, sheet, deal: int = 1) -> str:
    return reverse("manage:results-stack-check", args=[event.pk, sheet.pk, deal])


def hand(counts: list[int], deal: int = 1) -> dict[str, str]:
    """A hand's count boxes as the desk types them: tens blank under 10."""
    boxes = {}
    for seat, count in enumerate(counts):
        boxes[f"d{deal}.won_tens.{seat}"] = str(count // 10) if count >= 10 else ""
        boxes[f"d{deal}.won_units.{seat}"] = str(count % 10)
    return boxes


def line(response) -> str:
    """The answered line: always the row's one element, swapped in place."""
    assert response.status_code == 200, response.content.decode()[-2000:]
    html = response.content.decode()
    assert re.fullmatch(
        r'\s*<div class="stack-rules" id="stack-rules-\d+"[^>]*>.*</div>\s*', html, re.S
    )
    return html


def test_a_hand_that_does_not_add_up_is_named_by_g10_while_typed(client, desk):
    b, _match, sheet = desk
    html = line(client.post(check_url(b.event, sheet), hand(NOT_ADDING_UP)))
    assert 'id="stack-rules-1"' in html and 'data-rule="G10"' in html
    assert "各家赢子之和是 36" in html and "在场的棋子是 32" in html
    english = client.post(check_url(b.event, sheet), hand(NOT_ADDING_UP), HTTP_ACCEPT_LANGUAGE="en")
    assert "The pieces won add up to 36" in line(english)


def test_a_hand_that_adds_up_or_is_half_typed_says_nothing(client, desk):
    b, _match, sheet = desk
    assert "problem" not in line(client.post(check_url(b.event, sheet), hand(ADDING_UP)))
    half = hand(NOT_ADDING_UP)
    half["d1.won_units.3"] = ""  # seat 4 not typed yet: the rules wait for it
    assert "problem" not in line(client.post(check_url(b.event, sheet), half))


def test_only_the_asked_deal_s_row_is_said(client, desk):
    b, _match, sheet = desk
    typed = {**hand(ADDING_UP, deal=1), **hand(NOT_ADDING_UP, deal=2)}
    assert "problem" not in line(client.post(check_url(b.event, sheet, 1), typed))
    second = line(client.post(check_url(b.event, sheet, 2), typed))
    assert 'id="stack-rules-2"' in second and 'data-rule="G10"' in second


def test_a_refused_sheet_is_checked_once_its_table_is_typed(client, desk):
    b, match, _sheet = desk
    refused = stack_sheet(match.round, state="refused")
    typed = hand(NOT_ADDING_UP)
    assert "problem" not in line(client.post(check_url(b.event, refused), typed))
    typed["table"] = str(match.table.number)
    assert 'data-rule="G10"' in line(client.post(check_url(b.event, refused), typed))


def test_the_sheet_page_posts_each_open_row_to_its_line(client, desk):
    b, _match, sheet = desk
    html = client.get(reverse("manage:results-stack-sheet", args=[b.event.pk, sheet.pk]))
    page = html.content.decode()
    for deal in range(1, b.event.deals_per_match + 1):
        row = re.search(rf'<fieldset class="stack-row" data-deal="{deal}"[^>]*>', page)
        assert row, page[-3000:]
        assert f'hx-post="{check_url(b.event, sheet, deal)}"' in row.group()
        assert f'hx-target="#stack-rules-{deal}"' in row.group()
        assert f'id="stack-rules-{deal}"' in page


@pytest.mark.parametrize(
    "junk",
    [
        {"d1.won_units.0": "x", "d1.won_tens.0": "１", "d1.won_units.1": "８"},
        {**hand(NOT_ADDING_UP), "d1.beheaded.0": "9", "d1.beheaded.1": "-"},
        {"d1.won_units.0": "9" * 5000, "d1.won_units.99": "1", "d.": "", "dd": "1"},
        {"table": "x" * 300, "d0.s_units.0": "7"},
    ],
)
def test_junk_is_an_empty_or_plain_line_never_a_500(client, desk, junk):
    b, _match, sheet = desk
    html = line(client.post(check_url(b.event, sheet), junk))
    assert "Traceback" not in html
    for deal in (0, 99, 10**12):
        assert "problem" not in line(client.post(check_url(b.event, sheet, deal), junk))


def test_only_the_event_s_staff_are_answered(client, desk):
    b, match, sheet = desk
    url = check_url(b.event, sheet)
    assert client.get(url).status_code == 405
    other = EventBuilder("giog", players=8).register()
    theirs = stack_sheet(other.draw())
    # Another event's sheet under this event: none of it.
    assert client.post(check_url(b.event, theirs), hand(NOT_ADDING_UP)).status_code == 404
    client.force_login(other.organiser)  # another event's organiser
    assert client.post(url, hand(NOT_ADDING_UP)).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.post(url, hand(NOT_ADDING_UP)).status_code == 403
    client.logout()
    assert client.post(url, hand(NOT_ADDING_UP)).status_code == 302  # to the sign-in page


def test_a_gou_ji_row_says_what_its_desk_says_nothing(build, client):
    b = build(unions=2, deals=1)
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    sheet = stack_sheet(round_, match)
    client.force_login(b.organiser)
    typed = {f"d1.finish.{p}": str(seat) for p, seat in enumerate([3, 1, 5, 2, 6, 4])}
    typed.update({"d1.burner.0": "1", "d0.s_units.0": "1", "d0.s_seat.0": "9"})
    assert "problem" not in line(client.post(check_url(b.event, sheet), typed))
