"""The deal viewer: who sees which play log (the referee its own table's, the organiser its own
events', the public only once the round's results are public), the ?step=N page without
JavaScript, and the first step where a log and a competing summary disagree, marked."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from matches.kernel.games.registry import get_game
from matches.models import DealReport, Event, Round
from tests.builder import EventBuilder, outcome

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def record():
    return next(iter(get_game("gouji").selfplay(1, 7)))


@pytest.fixture
def event(db, record):
    """Two tables; deal 1 of table 1 played from a log and final, deal 1 of table 2 too."""
    b = EventBuilder(unions=4, deals=2).register()
    round_ = b.round([(0, 1), (2, 3)])
    one, two = b.match(round_, 1), b.match(round_, 2)
    b.report_one = b.result(one, 1, play_log=record)
    b.report_two = b.result(two, 1, play_log=record)
    b.one, b.two = one, two
    b.round_ = round_
    return b


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def data_of(response) -> dict:
    html = response.content.decode()
    start = html.index('id="viewer-data"')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(body)


def public_url(b, deal=1, table=1):
    return reverse("public:deal", args=[b.event.pk, b.round_.number, table, deal])


# --- the referee ------------------------------------------------------------------------------


def test_the_referee_link_sees_its_own_tables_log_step_by_step(event, record):
    assert event.report_one.state == DealReport.State.FINAL
    link = event.people.referee_link
    table_page = Client().get(f"/ref/{link.token}/").content.decode()
    url = reverse("referee:link-viewer", args=[link.token, event.report_one.pk])
    assert url in table_page  # the deals' list links to the viewer
    response = Client().get(url)
    assert response.status_code == 200
    data = data_of(response)
    assert len(data["steps"]) == len(record["actions"]) + 1
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3, 4, 5, 6]
    assert (
        response["Cache-Control"].startswith("max-age=0") or "no-cache" in response["Cache-Control"]
    )


def test_a_referee_link_never_sees_another_tables_deal(event):
    link = event.people.referee_link
    url = reverse("referee:link-viewer", args=[link.token, event.report_two.pk])
    assert Client().get(url).status_code == 404


def test_a_signed_in_referee_sees_only_the_tables_they_referee(event):
    referee = event.people.referee
    table = event.one.table
    own = reverse("referee:table-viewer", args=[table.pk, event.report_one.pk])
    assert client_of(referee).get(own).status_code == 200
    # Another table's report through their own table's address: not there.
    crossed = reverse("referee:table-viewer", args=[table.pk, event.report_two.pk])
    assert client_of(referee).get(crossed).status_code == 404
    # Another table's address: not theirs.
    other = reverse("referee:table-viewer", args=[event.two.table.pk, event.report_two.pk])
    assert client_of(referee).get(other).status_code == 403


def test_the_no_script_page_renders_the_step_asked_for(event, record):
    link = event.people.referee_link
    url = reverse("referee:link-viewer", args=[link.token, event.report_one.pk])
    first = record["actions"][0]
    html = Client().get(url + "?step=1").content.decode()
    assert "第 1 步，共" in html and f"{first['seat']}号" in html
    assert 'href="?step=2"' in html and 'href="?step=0"' in html
    # Out of range or not a number: the last step, or the first.
    last = len(record["actions"])
    assert f"第 {last} 步，共 {last} 步" in Client().get(url + "?step=99999").content.decode()
    assert "第 0 步，共" in Client().get(url + "?step=x").content.decode()


def test_english_pages_say_one_card_and_two_cards(event):
    link = event.people.referee_link
    url = reverse("referee:link-viewer", args=[link.token, event.report_one.pk])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    data = data_of(client.get(url))
    assert data["counts"][1] == "1 card" and data["counts"][2] == "2 cards"
    html = client.get(url).content.decode()
    assert "Step 0 of" in html and "第" not in html.split('id="viewer-data"')[0].split("<main")[1]


# --- the organiser ----------------------------------------------------------------------------


def test_the_organiser_reaches_the_viewer_from_the_tables_history(event):
    organiser = event.people.organiser
    table = event.one.table
    page = client_of(organiser).get(
        reverse("manage:results-table", args=[event.event.pk, table.pk])
    )
    url = reverse("manage:results-viewer", args=[event.event.pk, table.pk, event.report_one.pk])
    assert url in page.content.decode()
    response = client_of(organiser).get(url)
    assert response.status_code == 200
    assert 'id="viewer-mismatch"' not in response.content.decode()  # log and summary agree


def test_another_events_organiser_is_refused(event):
    table = event.one.table
    url = reverse("manage:results-viewer", args=[event.event.pk, table.pk, event.report_one.pk])
    assert client_of(event.people.other_organiser).get(url).status_code == 403
    assert client_of(event.people.stranger).get(url).status_code == 403


def test_a_competing_summary_is_marked_at_the_first_step_that_contradicts_it(event, record):
    """The organiser corrects the logged result with a summary that swaps 1st and 6th: the
    superseded log, compared with the correction, is marked where a seat first finishes
    somewhere other than the correction says."""
    finish = list(record["claimed"]["finish"])
    finish[0], finish[-1] = finish[-1], finish[0]
    correction = event.correct(event.one, 1, outcome(finish, points=record["claimed"]["points"]))
    assert correction.is_final
    table = event.one.table
    organiser = client_of(event.people.organiser)
    history = organiser.get(
        reverse("manage:results-table", args=[event.event.pk, table.pk])
    ).content.decode()
    base = reverse("manage:results-viewer", args=[event.event.pk, table.pk, event.report_one.pk])
    url = f"{base}?against={correction.pk}"
    assert url.replace("&", "&amp;") in history or url in history
    correct = organiser.get(
        reverse("manage:results-correct", args=[event.event.pk, table.pk, 1])
    ).content.decode()
    assert url.replace("&", "&amp;") in correct or url in correct  # the decision page too
    response = organiser.get(url)
    html = response.content.decode()
    assert 'id="viewer-mismatch"' in html
    data = data_of(response)
    marked = [step["n"] for step in data["steps"] if step["marked"]]
    assert len(marked) == 1
    # The first seat to play out is the claimed 6th: the step where it finishes is marked.
    events = [e for step in data["steps"][: marked[0] + 1] for e in step["events"]]
    assert any("出完牌" in e for e in data["steps"][marked[0]]["events"])
    assert sum("出完牌" in e for e in events) == 1
    assert "第 %d 步" % marked[0] in html.replace("第 ", "第 ")
    # The page opens at the marked step.
    assert f'data-current="{marked[0]}"' in html


def test_the_organiser_may_compare_with_the_logs_own_summary(event, record):
    finish = list(record["claimed"]["finish"])
    finish[0], finish[-1] = finish[-1], finish[0]
    event.correct(event.one, 1, outcome(finish, points=record["claimed"]["points"]))
    table = event.one.table
    base = reverse("manage:results-viewer", args=[event.event.pk, table.pk, event.report_one.pk])
    html = client_of(event.people.organiser).get(f"{base}?against={event.report_one.pk}")
    assert 'id="viewer-mismatch"' not in html.content.decode()


# --- the public -------------------------------------------------------------------------------


def test_the_public_sees_a_log_once_the_rounds_results_are_public(event):
    table_page = (
        Client()
        .get(reverse("public:table", args=[event.event.pk, event.round_.number, 1]))
        .content.decode()
    )
    assert public_url(event) in table_page
    assert Client().get(public_url(event)).status_code == 200
    assert Client().get(public_url(event, deal=2)).status_code == 404  # not played


def test_the_public_never_sees_a_log_before_the_results_are_public(event):
    Event.objects.filter(pk=event.event.pk).update(release_results=Event.Release.AFTER_CLOSE)
    assert Client().get(public_url(event)).status_code == 404
    table_page = (
        Client()
        .get(reverse("public:table", args=[event.event.pk, event.round_.number, 1]))
        .content.decode()
    )
    assert public_url(event) not in table_page
    Round.objects.filter(pk=event.round_.pk).update(state=Round.State.CLOSED)
    assert Client().get(public_url(event)).status_code == 200


def test_a_silent_round_or_an_unpublished_event_hides_the_log(event):
    Round.objects.filter(pk=event.round_.pk).update(silent=True)
    assert Client().get(public_url(event)).status_code == 404
    Round.objects.filter(pk=event.round_.pk).update(silent=False)
    Event.objects.filter(pk=event.event.pk).update(published=False)
    assert Client().get(public_url(event)).status_code == 404


# --- Giog ---------------------------------------------------------------------------------------


def test_a_giog_hand_record_steps_trick_by_trick(db):
    from matches.games.giog.engine.selfplay import selfplay

    record = next(iter(selfplay(1, 3, players=4)))
    g = EventBuilder("giog", players=8).register()
    match = g.first_match(g.draw())
    report = g.result(match, 1, play_log=record)
    link = g.people.referee_link
    url = reverse("referee:link-viewer", args=[link.token, report.pk])
    assert url in Client().get(f"/ref/{link.token}/").content.decode()
    response = Client().get(url + "?step=4")
    assert response.status_code == 200
    html = response.content.decode()
    assert "第1手" in html and "这一墩" in html  # a hand, its trick on the table
    data = data_of(response)
    assert len(data["steps"]) == len(record["actions"]) + 1
    assert data["labels"]["K"] == "帥" and data["kinds"]["k"] == "black"
    assert data["counts"][1] == "1 子"
    english = data_of(Client(HTTP_ACCEPT_LANGUAGE="en").get(url))
    assert english["labels"]["k"] == "K" and english["counts"][2] == "2 pieces"
    # The public table page links to it.
    table = Client().get(reverse("public:table", args=[g.event.pk, 1, match.table.number]))
    public = reverse("public:deal", args=[g.event.pk, 1, match.table.number, 1])
    assert public in table.content.decode()
    assert Client().get(public).status_code == 200
