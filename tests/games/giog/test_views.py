"""The Giog referee page: full page, htmx verdict fragment, submit, and who may see it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from matches.games.giog.engine.selfplay import selfplay
from matches.models import DealReport
from matches.results.confirm import confirm_report
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    builder = EventBuilder("giog", players=7).register()  # tables of 4 and 3
    round_ = builder.draw(seed=5)
    match = round_.matches.select_related("table").order_by("table__number").last()
    return builder, match, builder.people.for_table(match.table).referee_link


def url(link, name, **kw):
    return reverse(f"referee:link-{name}", kwargs={"token": link.token, **kw})


def test_the_page_lists_the_seats_and_the_hand_form(client, table):
    builder, match, link = table
    page = client.get(url(link, "table"))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'data-game="giog"' in body and "第1手" in body
    for seat in match.table.seats.select_related("player"):
        assert seat.player.name in body and f'name="won_{seat.seat}"' in body
    assert 'name="won_4"' not in body  # a table of three
    assert "burn_0_burner" not in body  # no Gou Ji fields


def test_the_verdict_fragment_shows_errors_with_their_rule(client, table):
    _builder, _match, link = table
    response = client.post(
        url(link, "check", number=1) + "?part=verdict",
        {"won_1": "15", "won_2": "9", "won_3": "9"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.strip().startswith('<div id="verdict"')
    assert 'data-rule="G10"' in body and 'data-code="won_total"' in body


def test_a_consistent_entry_is_shown_with_its_points(client, table):
    _builder, _match, link = table
    response = client.post(
        url(link, "check", number=1) + "?part=verdict",
        {"won_1": "15", "won_2": "9", "won_3": "6", "beheaded_3": "1"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert 'id="verdict-ok"' in body and "3号 0分" in body and "1号 3分" in body


def test_submit_stores_the_hand_and_moves_to_the_next(client, table):
    _builder, match, link = table
    response = client.post(
        url(link, "submit", number=1),
        {"won_1": "15", "won_2": "9", "won_3": "6", "idempotency_key": "x1"},
    )
    assert response.status_code == 302
    report = DealReport.objects.get(deal__match=match, deal__number=1)
    assert report.state == DealReport.State.FINAL and report.verdict["places"] == [[1], [2], [3]]
    page = client.get(url(link, "table")).content.decode()
    assert "第2手" in page and 'data-hand="1"' in page


def test_a_refused_submit_shows_the_rule_and_stores_nothing(client, table):
    _builder, match, link = table
    response = client.post(
        url(link, "submit", number=1),
        {
            "won_1": "15",
            "won_2": "15",
            "won_3": "0",
            "beheaded_1": "1",
            "beheaded_2": "1",
            "beheaded_3": "1",
        },
    )
    assert response.status_code == 422
    assert 'data-rule="G12"' in response.content.decode()
    assert not DealReport.objects.filter(deal__match=match).exists()


def test_an_uploaded_hand_record_is_replayed(client, table):
    _builder, match, link = table
    record = next(iter(selfplay(1, 11, players=3)))
    response = client.post(
        url(link, "submit", number=1), {"hand_record": json.dumps(record), "idempotency_key": "rec"}
    )
    assert response.status_code == 302
    report = DealReport.objects.get(deal__match=match)
    assert report.play_log == record and report.verdict["replay"]["complete"]


def test_a_signed_in_outsider_may_not_open_the_table(client, table):
    builder, match, _link = table
    stranger = builder.people.stranger
    assert client.login(username=stranger.username, password="pw-" + stranger.username)
    response = client.get(reverse("referee:table-table", kwargs={"table_id": match.table_id}))
    assert response.status_code == 403


def test_the_organiser_opens_the_table_signed_in(client, table):
    builder, match, _link = table
    client.force_login(builder.organiser)
    response = client.get(reverse("referee:table-table", kwargs={"table_id": match.table_id}))
    assert response.status_code == 200 and 'data-game="giog"' in response.content.decode()


def test_the_giog_referee_page_speaks_english_too(table, settings):
    from django.test import Client

    _builder, _match, link = table
    client = Client(headers={"Accept-Language": "en"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(url(link, "table")).content.decode()
    assert "Hand 1" in html and "Pieces won and beheadings per seat" in html


@pytest.fixture
def confirmed_table(db):
    """A Giog table whose event asks a second referee to confirm each hand."""
    builder = EventBuilder("giog", players=7, confirmation="referee").register()
    match = builder.draw(seed=5).matches.select_related("table").order_by("table__number").last()
    return builder, match, builder.people.for_table(match.table).referee_link


#: a consistent hand at a table of three: 30 pieces, each count a multiple of 3
HAND = {"idempotency_key": "k1", "won_1": "15", "won_2": "9", "won_3": "6"}


def test_a_pending_hand_says_a_new_report_replaces_it(client, confirmed_table):
    """The shared table page (templates/referee/table.html): Giog gets the note Gou Ji had."""
    builder, match, link = confirmed_table
    client.post(url(link, "submit", number=1), HAND)
    assert DealReport.objects.get().state == DealReport.State.PENDING
    body = client.get(url(link, "table")).content.decode()
    # The table plays on (issue 28): the form is hand 2's, the pending hand waits above it
    # with the note and a way back to report it again.
    assert 'class="muted pending-note"' in body and "新的报告将取代这份" in body
    assert 'id="hand-title">第2手' in body
    refill = f"{url(link, 'table')}?deal=1"
    assert f'href="{refill}"' in body
    again = client.get(refill).content.decode()
    assert 'id="pending-note"' in again and 'id="hand-title">第1手' in again
    assert 'id="hand-form"' in again  # inside "重新填写本手", to replace the pending report
    # Reported again from there: the new report replaces the pending one.
    client.post(url(link, "submit", number=1), {**HAND, "idempotency_key": "k1b"})
    states = sorted(DealReport.objects.values_list("state", flat=True))
    assert states == [DealReport.State.PENDING, DealReport.State.SUPERSEDED]


def test_a_refused_submit_at_a_disputed_hand_lists_the_problem(client, confirmed_table):
    """No form while the organiser decides a dispute; a submit all the same is refused, and the
    page lists why (the problem list of the shared page, which Giog lacked)."""
    builder, match, link = confirmed_table
    client.post(url(link, "submit", number=1), HAND)
    organiser = builder.people.actor("organiser")  # a second referee: may confirm or dispute
    confirm_report(DealReport.objects.get(), organiser, agrees=False, note="数错了")
    assert DealReport.objects.get().state == DealReport.State.DISPUTED
    page = client.post(url(link, "submit", number=1), {**HAND, "idempotency_key": "k2"})
    body = page.content.decode()
    assert page.status_code >= 400 and 'id="hand-form"' not in body
    assert '<ul class="problems" role="alert">' in body
    assert DealReport.objects.count() == 1
