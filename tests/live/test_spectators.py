"""Issue 50, step 3: the delay is a promise. Nothing of a feature table's deal reaches a
spectator, a signed-out reader, the public API, the stream or the mirror before its delay has
passed: not the hands, not a play, not an ETag that moved, not a result in the standings."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from hall.routes import mirror_serves
from matches import push
from matches.models import DealReport, LiveAction, LiveDeal
from matches.permissions import Actor
from matches.results import live

pytestmark = pytest.mark.django_db

SETUP = ("hands", "leader", "declarations", "revolution")


def record_some(feature, record, count: int):
    actor = Actor.from_link(feature.operator_link)
    live.set_hands(feature, 1, {k: record[k] for k in SETUP if k in record}, actor)
    for seq, action in enumerate(record["actions"][:count], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)


def age(minutes: float):
    """Every recorded row arrived `minutes` earlier (as if that time had passed)."""
    shift = timedelta(minutes=minutes)
    for deal in LiveDeal.objects.all():
        LiveDeal.objects.filter(pk=deal.pk).update(
            started_at=deal.started_at - shift,
            completed_at=deal.completed_at - shift if deal.completed_at else None,
        )
    for row in LiveAction.objects.all():
        LiveAction.objects.filter(pk=row.pk).update(at=row.at - shift)


def readers(client):
    """A signed-out reader, then a signed-in spectator who is no staff of the event."""
    client.logout()
    yield "signed out"
    spectator = get_user_model().objects.create_user("spectator-50", password="x")
    client.force_login(spectator)
    yield "spectator"


def urls(b, feature):
    return {
        "page": reverse("public:feature", args=[b.event.pk, feature.pk]),
        "list": reverse("public:features", args=[b.event.pk]),
        "api": reverse("api:public-feature", args=[b.event.pk, feature.pk]),
    }


def test_nothing_before_the_delay_in_the_html_the_api_or_the_etag(client, featured, deal_record):
    b, feature = featured(delay=10, shows="hands")
    where = urls(b, feature)
    empty = client.get(where["page"])
    assert empty.status_code == 200 and 'id="feature-waiting"' in empty.content.decode()
    etag_before = empty["ETag"]
    api_before = client.get(where["api"]).json()
    record_some(feature, deal_record, 12)
    hand_1 = deal_record["hands"]["1"]
    for who in readers(client):
        page = client.get(where["page"])
        text = page.content.decode()
        assert page.status_code == 200, who
        assert page["ETag"] == etag_before, who  # not even the ETag moved
        assert 'id="feature-waiting"' in text and "data-play" not in text, who
        assert client.get(where["page"], HTTP_IF_NONE_MATCH=etag_before).status_code == 304
        api = client.get(where["api"]).json()
        assert api == api_before and api["deals"] == [] and api["current"] is None, who
        listing = client.get(where["list"]).content.decode()
        assert "第 1 局" not in listing, who
    # Nine minutes later: still nothing.
    age(9)
    assert client.get(where["page"])["ETag"] == etag_before
    # Past the delay: the hands and the twelve plays.
    age(1.01)
    page = client.get(where["page"])
    text = page.content.decode()
    assert page["ETag"] != etag_before
    assert text.count("data-play") == 12 and 'data-actions="12"' in text
    api = client.get(where["api"]).json()
    assert len(api["current"]["plays"]) == 12
    hands = api["current"]["hands"]
    assert sorted(hands) == ["1", "2", "3", "4", "5", "6"] and 'class="seat-hand"' in text
    played_by_1 = sum(
        len(a["cards"]) for a in deal_record["actions"][:12] if a["seat"] == 1 and "cards" in a
    )
    assert len(hands["1"].split()) == len(hand_1) - played_by_1


def test_only_the_actions_older_than_the_delay(client, featured, deal_record):
    b, feature = featured(delay=10, shows="plays")
    record_some(feature, deal_record, 5)
    age(10.01)
    actor = Actor.from_link(feature.operator_link)
    for seq in range(6, 9):  # three more, just now
        live.add_action(feature, 1, {"seq": seq, **deal_record["actions"][seq - 1]}, actor)
    api = client.get(urls(b, feature)["api"]).json()
    assert len(api["current"]["plays"]) == 5
    assert "hands" not in api["current"]  # only the cards played: no hands, ever
    assert all(row["hand"] is None for row in api["seat_rows"])


def test_the_result_and_standings_wait_for_the_delay(client, featured, deal_record):
    b, feature = featured(delay=10)
    record_some(feature, deal_record, len(deal_record["actions"]))
    assert LiveDeal.objects.get().completed_at is not None
    assert not DealReport.objects.exists()  # no score, no tally, no standings row
    table = client.get(reverse("api:table-detail", args=[feature.table_id])).json()
    assert all(deal["final"] is None for deal in table["deals"])
    standings = client.get(reverse("public:standings", args=[b.event.pk])).content.decode()
    age(10.01)
    assert live.submit_due_reports() == 1
    assert DealReport.objects.filter(deal__match=feature.table.match).exists()
    assert standings  # the standings page answered before (it had nothing to show of it)


def test_a_held_round_shows_no_feature_table(client, featured, deal_record):
    b, feature = featured(delay=0)
    b.event.published = False
    b.event.save(update_fields=["published"])
    where = urls(b, feature)
    for name in ("page", "api", "list"):
        assert client.get(where[name]).status_code == 404
    stream = reverse("live:feature", args=[b.event.pk, feature.pk])
    assert client.get(stream).status_code == 404


def test_the_stream_holds_each_notice_until_its_delay(client, featured, deal_record, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    b, feature = featured(delay=0)
    response = client.get(reverse("live:feature", args=[b.event.pk, feature.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    it = iter(response.streaming_content)
    assert b"event: hello" in next(it)
    due = time.time() + 0.6
    push.send(push.feature(feature.pk), "feature", at=due)
    frames = []
    while True:
        frame = next(it).decode()
        frames.append((time.time(), frame))
        if frame.startswith("data:"):
            break
    seen_at, data = frames[-1]
    assert seen_at >= due  # never early
    assert json.loads(data[6:]) == {"kind": "feature"}  # the moment itself never leaves
    assert all(f == ": ping\n\n" for _t, f in frames[:-1])
    # Another table's notice never arrives.
    push.send(push.feature(feature.pk + 1), "feature", at=time.time())
    assert next(it) == b": ping\n\n"
    response.close()


def test_a_stream_opened_late_holds_the_rows_already_stored(
    client, featured, deal_record, settings
):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    b, feature = featured(delay=1)
    record_some(feature, deal_record, 2)
    age(1 - 0.5 / 60)  # visible in half a second
    start = time.time()
    response = client.get(reverse("live:feature", args=[b.event.pk, feature.pk]))
    it = iter(response.streaming_content)
    assert b"event: hello" in next(it)
    while not (frame := next(it).decode()).startswith("data:"):
        assert time.time() - start < 5
    assert time.time() - start >= 0.4 and json.loads(frame[6:]) == {"kind": "feature"}
    response.close()


def test_the_mirror_serves_the_spectators_pages_with_the_same_delay():
    """The mirror runs this same code on the replicated rows, so the delay holds there too; its
    routes are the public ones, and the operator's API is refused there."""
    for name in ("public:feature", "public:features"):
        namespace, _sep, view = name.partition(":")
        assert mirror_serves(name, namespace, "GET")
    for name in ("live:feature", "live:features", "api:public-feature"):
        assert mirror_serves(name, name.split(":")[0], "GET")
    assert not mirror_serves("api:live-actions", "api", "POST")
    assert not mirror_serves("api:live-hands", "api", "POST")


def test_afterwards_the_deal_opens_in_the_viewer(client, featured, deal_record):
    from matches.models import Event

    b, feature = featured(delay=0, confirmation=Event.Confirmation.NONE)
    record_some(feature, deal_record, len(deal_record["actions"]))
    assert DealReport.objects.get().state == DealReport.State.FINAL
    page = client.get(urls(b, feature)["page"]).content.decode()
    round_ = feature.table.round
    viewer = reverse("public:deal", args=[b.event.pk, round_.number, feature.table.number, 1])
    assert f'href="{viewer}"' in page
    assert client.get(viewer).status_code == 200
    event_page = client.get(reverse("public:event", args=[b.event.pk])).content.decode()
    assert urls(b, feature)["list"] in event_page


def test_a_commentary_line_waits_for_the_delay_too(client, featured, deal_record):
    b, feature = featured(delay=10)
    record_some(feature, deal_record, 3)
    token = feature.operator_link.token
    posted = client.post(
        reverse("referee:link-live-note", args=[token]), {"text": "  2号 烧 3号！ "}
    )
    assert posted.status_code == 302
    empty = client.post(reverse("referee:link-live-note", args=[token]), {"text": "  "})
    assert empty.status_code == 400
    where = urls(b, feature)
    client.cookies.clear()
    assert "2号 烧 3号！" not in client.get(where["page"]).content.decode()
    assert client.get(where["api"]).json()["notes"] == []
    from matches.models import LiveNote

    age(10.01)
    LiveNote.objects.update(at=LiveNote.objects.get().at - timedelta(minutes=10.01))
    assert "2号 烧 3号！" in client.get(where["page"]).content.decode()
    assert client.get(where["api"]).json()["notes"] == ["2号 烧 3号！"]
