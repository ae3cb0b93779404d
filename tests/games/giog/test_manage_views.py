"""Organiser and second-referee pages for Giog hands: confirmation page, correction, PDFs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import DealReport, Event, Union
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.builder import EventBuilder, giog_outcome

pytestmark = pytest.mark.django_db

FOUR = {1: 12, 2: 8, 3: 8, 4: 4}


@pytest.fixture
def pending(db):
    builder = EventBuilder("giog", confirmation=Event.Confirmation.REFEREE).register()
    match = builder.draw().matches.order_by("table__number").first()
    link = match.table.referee_links.create()
    report, _ = submit_report(
        deal_for(match, 1), giog_outcome(4, FOUR, [4]), None, Actor.from_link(link)
    )
    return builder, match, report


def test_the_second_referee_reads_the_hand_and_confirms_it(client, pending):
    builder, match, report = pending
    client.force_login(builder.organiser)
    page = client.get(reverse("referee:report", args=[report.pk])).content.decode()
    assert "赢子" in page and "斩首" in page and "4号" in page
    client.post(reverse("referee:report", args=[report.pk]), {"agrees": "yes"})
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL


def test_the_organiser_corrects_a_hand(client, pending):
    builder, match, report = pending
    confirm_report(report, Actor(user=builder.organiser), True)
    client.force_login(builder.organiser)
    url = reverse("manage:results-correct", args=[builder.event.pk, match.table_id, 1])
    page = client.get(url).content.decode()
    assert 'name="won_1" value="12"' in page and 'name="reason"' in page
    fragment = client.post(
        url + "?check=1&part=verdict",
        {"won_1": "4", "won_2": "8", "won_3": "8", "won_4": "8"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert 'data-rule="G10"' in fragment and "<html" not in fragment
    response = client.post(
        url,
        {
            "won_1": "4",
            "won_2": "8",
            "won_3": "8",
            "won_4": "12",
            "reason": "1 号与 4 号记反了",
            "idempotency_key": "fix",
        },
    )
    assert response.status_code == 302
    final = DealReport.objects.final().get(deal__match=match, deal__number=1)
    assert final.kind == DealReport.Kind.CORRECTION and final.replaces_id == report.pk
    assert final.verdict["places"] == [[4], [2, 3], [1]] and final.reason


def test_a_correction_needs_a_reason(client, pending):
    builder, match, _report = pending
    client.force_login(builder.organiser)
    url = reverse("manage:results-correct", args=[builder.event.pk, match.table_id, 1])
    response = client.post(url, {"won_1": "12", "won_2": "8", "won_3": "8", "won_4": "4"})
    assert (
        response.status_code == 422 and 'data-code="reason_required"' in response.content.decode()
    )


def test_organiser_pages_of_a_giog_round_open(client, pending):
    builder, match, _report = pending
    client.force_login(builder.organiser)
    for url in (
        reverse("manage:results", args=[builder.event.pk]),
        reverse("manage:results-table", args=[builder.event.pk, match.table_id]),
        f"/manage/events/{builder.event.pk}/",
        f"/manage/events/{builder.event.pk}/rounds/1/tables.pdf",
        f"/manage/events/{builder.event.pk}/rounds/1/pairings.pdf",
    ):
        assert client.get(url).status_code == 200, url


def test_a_giog_event_must_be_individual():
    from django.core.exceptions import ValidationError

    builder = EventBuilder("giog", players=2).register()
    builder.event.entry_type = Event.EntryType.TEAM
    with pytest.raises(ValidationError):
        builder.event.full_clean()


@pytest.mark.parametrize(
    "value, ok",
    [
        ([3, 2, 1, 0], True),
        ([5, 3, 1, 0], True),
        ([1, 1, 1, 1], True),
        ([3, 2, 1], False),
        ([0, 1, 2, 3], False),
        ([3, 2, 1, -1], False),
        ([3, 2, 1.5, 0], False),
        ("3/2/1/0", False),
    ],
)
def test_place_points_validation(value, ok):
    from matches.games.giog.settings import SettingsError, check_place_points

    if ok:
        assert check_place_points(value) == tuple(value)
    else:
        with pytest.raises(SettingsError):
            check_place_points(value)


def test_giog_table_cards_have_one_page_per_table(client, pending):
    import re

    builder, _match, _report = pending
    client.force_login(builder.organiser)
    body = client.get(f"/manage/events/{builder.event.pk}/rounds/1/tables.pdf").content
    assert body.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type /Page\b(?!s)", body)) == 2
    listing = client.get(f"/manage/events/{builder.event.pk}/rounds/1/pairings.pdf").content
    assert listing.startswith(b"%PDF-")


def test_giog_exports_list_points_and_hands(client, pending):
    builder, match, report = pending
    confirm_report(report, Actor(user=builder.organiser), True)
    from matches.standings import service as standings

    standings.recompute_event(builder.event.pk)
    client.force_login(builder.organiser)
    text = client.get(f"/manage/events/{builder.event.pk}/export/standings.csv").content.decode()
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0].split(",")[2] == "积分" and len(lines) == 1 + 8
    seat1 = match.table.seats.get(seat=1).player.name
    assert lines[1].split(",")[:4] == ["1", seat1, "3", "12"]
    hands = client.get(f"/manage/events/{builder.event.pk}/export/results.csv").content.decode()
    rows = [line.split(",") for line in hands.lstrip("\ufeff").splitlines()[1:]]
    assert len(rows) == 4
    assert rows[-1][3:] == ["4", "4", match.table.seats.get(seat=4).player.name, "4", "1", "0"]


def test_the_points_table_is_frozen_by_the_first_hand(pending):
    from django.core.exceptions import ValidationError

    builder, _match, _report = pending
    event = Event.objects.get(pk=builder.event.pk)
    assert event.rules_frozen_at is not None
    event.game_settings = {"place_points": [5, 3, 1, 0]}
    with pytest.raises(ValidationError):
        event.save()
    event.game_settings = {"place_points": [3, 2, 1, 0]}
    event.name = "改名不受影响"
    event.save()


def test_the_organiser_table_page_shows_hands_not_unions(client, pending):
    builder, match, _report = pending
    client.force_login(builder.organiser)
    page = client.get(reverse("manage:results-table", args=[builder.event.pk, match.table_id]))
    body = page.content.decode()
    assert "第1手" in body and "赢子" in body and "（A）" not in body


def test_organiser_and_confirmation_pages_show_no_unions_for_giog(client, pending):
    """A Giog table's sides are its players: no union exists, no page speaks of sides A/B."""
    builder, match, report = pending
    assert not Union.objects.filter(event=builder.event).exists()
    assert [side.player_id for side in match.ordered_sides] == list(
        match.table.seats.order_by("seat").values_list("player_id", flat=True)
    )
    client.force_login(builder.organiser)
    for url in (
        reverse("manage:results", args=[builder.event.pk]),
        f"/manage/events/{builder.event.pk}/progress/",
        reverse("referee:report", args=[report.pk]),
    ):
        body = client.get(url).content.decode()
        assert "（A）" not in body and "1·3·5" not in body and "None" not in body, url
