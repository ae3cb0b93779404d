"""Live push (issue 28): who may open which stream, what a stream carries, and that the public
channel hears only of what the public may read (matches/push.py, matches/events/notify.py)."""

import concurrent.futures
import json

import pytest
from django.urls import reverse

from matches import push
from matches.events import notify
from matches.models import Event


def open_sinks() -> set:
    """The streams open in this process now. Other tests' streams may still be open in it
    (a browser test's page, a response nobody closed): a test looks at its own only."""
    with push.hub.lock:
        return {sink for group in push.hub.sinks.values() for sink in group}


@pytest.fixture
def event(build):
    b = build(unions=4, deals=1)
    Event.objects.filter(pk=b.event.pk).update(published=True)
    b.event.refresh_from_db()
    return b


def test_public_stream_says_hello_then_passes_notices(client, event, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    before = open_sinks()
    response = client.get(reverse("live:event", args=[event.event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache, no-store"
    it = iter(response.streaming_content)
    assert b"event: hello" in next(it)
    mine = open_sinks() - before
    assert len(mine) == 1
    push.send(push.public_event(event.event.pk), "version", v="abc")
    push.send(push.public_event(event.event.pk + 999), "version", v="other event")
    frame = next(it).decode()
    assert frame.startswith("data: ")
    assert json.loads(frame[6:]) == {"kind": "version", "v": "abc"}
    assert next(it) == b": ping\n\n"  # the other event's notice never arrives here
    response.close()
    assert not mine & open_sinks()  # closing the response closed its stream


def test_unpublished_event_has_no_public_stream(client, event):
    Event.objects.filter(pk=event.event.pk).update(published=False)
    assert client.get(reverse("live:event", args=[event.event.pk])).status_code == 404


def test_staff_stream_is_for_the_events_staff_only(client, event, other_organiser):
    url = reverse("live:staff", args=[event.event.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(other_organiser)
    assert client.get(url).status_code == 404
    client.force_login(event.organiser)
    response = client.get(url)
    assert response.status_code == 200
    response.close()


def test_table_stream_needs_a_public_round(client, event):
    round_ = event.round([(0, 1), (2, 3)], publish=False)
    match = event.match(round_, 1)
    url = reverse("live:table", args=[match.pk])
    assert client.get(url).status_code == 404
    event.publish(round_)
    response = client.get(url)
    assert response.status_code == 200
    response.close()


def test_disabled_or_unreachable_answers_503(client, event, settings):
    settings.LIVE_ENABLED = False
    response = client.get(reverse("live:event", args=[event.event.pk]))
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    settings.LIVE_ENABLED = True
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    assert client.get(reverse("live:event", args=[event.event.pk])).status_code == 503


def test_public_notice_only_when_public_stamps_move(event, django_capture_on_commit_callbacks):
    """A held (silent) round's final result sends nothing on the public channel; the staff
    channel hears of it; publishing a round moves the public stamps and sends one notice."""
    sink = push._ThreadSink()
    channels = [push.public_event(event.event.pk), push.staff_event(event.event.pk)]
    push.hub.subscribe(channels, sink)
    try:
        notify.check(event.event.pk)  # the current stamps, as sent
        while sink.get(0) is not None:
            pass
        with django_capture_on_commit_callbacks(execute=True):
            round_ = event.round([(0, 1), (2, 3)], silent=True)
        assert json.loads(sink.get(0))["kind"] == "changed"  # staff hear of it
        assert notify.check(event.event.pk) is True  # a published draw is public
        got = [json.loads(m) for m in iter(lambda: sink.get(0), None)]
        assert [m["kind"] for m in got if m["kind"] == "version"] == ["version"]
        with django_capture_on_commit_callbacks(execute=True):
            event.final(event.match(round_, 1), 1, [1, 2, 3, 4, 5, 6])
        staff = [json.loads(m) for m in iter(lambda: sink.get(0), None)]
        assert staff and all(m["kind"] == "changed" for m in staff)
        # Held results: the public stamps did not move, nothing for the public.
        assert notify.check(event.event.pk, {event.match(round_, 1).pk}) is False
    finally:
        push.hub.unsubscribe(channels, sink)


def test_player_stream_is_signed(client, event):
    from matches.views.live import player_stream_url

    url = player_stream_url(7)
    response = client.get(url)
    assert response.status_code == 200
    response.close()
    forged = url.replace(url.rstrip("/").rsplit(":", 1)[-1], "AAAAAAAAAAAAAAAAAAAAAAAAAAA")
    assert client.get(forged).status_code == 404
    assert client.get("/live/players/7/").status_code == 404


def test_players_hear_their_table_once_the_draw_is_public(event, settings):
    """A draft round sends nothing; published, each seated player gets their table."""
    from matches.models import TableSeat

    settings.LIVE_ENABLED = True
    round_ = event.round([(0, 1), (2, 3)], publish=False)
    assert notify.seated(round_.pk) == 0
    event.publish(round_)
    seat = TableSeat.objects.filter(round=round_).select_related("table").first()
    sink = push._ThreadSink()
    channels = [push.private_player(seat.player_id)]
    push.hub.subscribe(channels, sink)
    try:
        assert notify.seated(round_.pk) == TableSeat.objects.filter(round=round_).count()
        got = json.loads(sink.get(0))
        assert got == {
            "kind": "seat",
            "round": round_.number,
            "table": seat.table.number,
            "seat": seat.seat,
        }
        assert sink.get(0) is None  # only their own
    finally:
        push.hub.unsubscribe(channels, sink)


def test_one_transaction_sends_one_staff_notice_per_event(
    event, django_capture_on_commit_callbacks
):
    """A confirmation saves several rows of one event in one transaction: the staff channel
    hears of it once, at commit; a rolled-back transaction sends nothing."""
    from django.db import transaction

    from matches.events import notify as notify_module

    sink = push._ThreadSink()
    channel = push.staff_event(event.event.pk)
    push.hub.subscribe([channel], sink)
    try:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            with transaction.atomic():
                notify_module.changed(event.event.pk, None)
                notify_module.changed(event.event.pk, None)
                notify_module.changed(event.event.pk, None)
        assert len(callbacks) == 1
        assert [json.loads(m)["kind"] for m in iter(lambda: sink.get(0), None)] == ["changed"]

        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            try:
                with transaction.atomic():
                    notify_module.changed(event.event.pk, None)
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
        assert sink.get(0) is None
    finally:
        push.hub.unsubscribe([channel], sink)


def test_referee_stream_hears_own_tables_and_ends_on_a_round_change(client, event, settings):
    """A referee's list hears its own tables' notices, not the rest of the hall's; a round
    change is passed on and ends the stream, so the browser opens it again with the new
    round's tables."""
    from django.contrib.auth import get_user_model

    from matches.models import EventStaff, RefereeTable
    from matches.models.staff import StaffRole

    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    round_ = event.round([(0, 1), (2, 3)])
    mine, other = event.match(round_, 1), event.match(round_, 2)
    referee = get_user_model().objects.create_user("zone-ref", password="x")
    EventStaff.objects.create(event=event.event, user=referee, role=StaffRole.REFEREE)
    RefereeTable.objects.create(event=event.event, referee=referee, number=1)
    client.force_login(referee)
    before = open_sinks()
    response = client.get(reverse("live:referee"))
    assert response.status_code == 200
    it = iter(response.streaming_content)
    assert b"event: hello" in next(it)
    stream = open_sinks() - before
    push.send(push.staff_table(other.pk), "changed")
    push.send(push.staff_event(event.event.pk), "changed")
    assert next(it) == b": ping\n\n"  # another table's deal, the organiser's channel: unheard
    push.send(push.staff_table(mine.pk), "changed")
    assert json.loads(next(it).decode()[6:]) == {"kind": "changed"}
    push.send(push.staff_rounds(event.event.pk), "round")
    assert json.loads(next(it).decode()[6:]) == {"kind": "round"}
    with pytest.raises(StopIteration):
        next(it)
    response.close()
    assert stream and not stream & open_sinks()


def test_a_call_and_its_acknowledgement_reach_the_tables_referees(
    event, django_capture_on_commit_callbacks
):
    from django.contrib.auth import get_user_model

    from matches.events import calls

    round_ = event.round([(0, 1), (2, 3)])
    match = event.match(round_, 1)
    sink = push._ThreadSink()
    channels = [push.staff_table(match.pk), push.staff_event(event.event.pk)]
    push.hub.subscribe(channels, sink)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            call, new = calls.call_referee(match.table)
        assert new
        assert len([m for m in iter(lambda: sink.get(0), None)]) == 2  # the table, the queue
        organiser = get_user_model().objects.create_user("ack", password="x")
        with django_capture_on_commit_callbacks(execute=True):
            assert calls.acknowledge(call, organiser)
        assert len([m for m in iter(lambda: sink.get(0), None)]) == 2
    finally:
        push.hub.unsubscribe(channels, sink)


def test_streams_opening_at_once_share_one_check_of_the_event(
    client, event, django_assert_num_queries
):
    """A hall's pages open their streams at once: the first asks the database whether the
    event is public, the others within a few seconds read the answer from the cache (under
    ASGI each would hold a connection of its own)."""
    missing = reverse("live:event", args=[event.event.pk + 999])
    assert client.get(missing).status_code == 404
    with django_assert_num_queries(0):
        assert client.get(missing).status_code == 404
    url = reverse("live:event", args=[event.event.pk])
    first = client.get(url)
    with django_assert_num_queries(0):
        second = client.get(url)
    assert first.status_code == second.status_code == 200
    # (Closed last: closing a stream ends the test client's request, which on PostgreSQL
    # closes the test's database connection.)
    first.close()
    second.close()


def test_with_live_push_off_a_publication_starts_no_check(event, settings):
    """LIVE_ENABLED=False turns every notice off, the seating notice of a publication included:
    its check ran in a thread of its own and read the database anyway."""
    settings.LIVE_ENABLED = False
    notify.quiesce()
    notify.mark(event.event.pk, seated_round=1)
    assert not notify._dirty and not notify._rounds


@pytest.mark.parametrize("lost", ["restart", "quiet hour"])
def test_no_public_notice_from_held_data_after_a_restart_or_a_quiet_hour(
    event, django_capture_on_commit_callbacks, monkeypatch, lost
):
    """The first check after the record of what was sent is gone (the cache restarted) or
    would have lapsed (an hour without a change) compares with nothing: it must not send, or
    a held result would be timed by its notice."""
    from django.core.cache import cache
    from django.core.cache.backends import locmem

    with django_capture_on_commit_callbacks(execute=True):
        round_ = event.round([(0, 1), (2, 3)], silent=True)
    notify.check(event.event.pk)  # the stamps, as sent
    if lost == "restart":
        cache.delete(f"live-sent:{event.event.pk}")
    else:
        later = locmem.time.time() + 3 * 3600
        monkeypatch.setattr(locmem.time, "time", lambda: later)
    sink = push._ThreadSink()
    channels = [push.public_event(event.event.pk)]
    push.hub.subscribe(channels, sink)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            event.final(event.match(round_, 1), 1, [1, 2, 3, 4, 5, 6])  # held: silent round
        assert notify.check(event.event.pk, {event.match(round_, 1).pk}) is False
        assert sink.get(0) is None
        # What is public still moves it: the round's next published state is told.
        with django_capture_on_commit_callbacks(execute=True):
            event.round([(0, 2), (1, 3)])
        assert notify.check(event.event.pk) is True
        assert json.loads(sink.get(0))["kind"] == "version"
    finally:
        push.hub.unsubscribe(channels, sink)


def test_live_streams_per_address_have_an_allowance(client, event, settings):
    """A hall behind one address holds two streams a phone; a client holding more than the
    allowance gets 503 with Retry-After, others are not touched, and a closed stream gives
    its place back."""
    from django.test import Client

    settings.RATE_LIMITS = {"live_streams": {"limit": 3, "window": 900}}
    url = reverse("live:event", args=[event.event.pk])
    hall = Client(REMOTE_ADDR="10.9.0.1")
    held = [hall.get(url) for _ in range(3)]
    assert [r.status_code for r in held] == [200] * 3
    refused = hall.get(url)
    assert refused.status_code == 503 and int(refused["Retry-After"]) > 0
    other = Client(REMOTE_ADDR="10.9.0.2").get(url)
    assert other.status_code == 200
    held[0].close()
    again = hall.get(url)
    assert again.status_code == 200
    for response in (*held[1:], again, other):
        response.close()
    last = hall.get(url)
    assert last.status_code == 200  # every place given back
    last.close()


def test_a_notice_wakes_each_event_loop_once_for_all_its_streams():
    """A hall's screens on one table: the notice reaches every stream of the channel, and the
    event loop serving them is woken once, not once a stream (bench/spectators.py)."""
    import asyncio

    hub = push.Hub()
    channel = "feature-test-batch"

    async def main():
        loop = asyncio.get_running_loop()
        wakes = []
        plain = loop.call_soon_threadsafe

        def counted(callback, *args):
            if getattr(callback, "__name__", "") in ("_put_all", "_put"):  # a delivery's wake-up
                wakes.append(callback)
            return plain(callback, *args)

        loop.call_soon_threadsafe = counted
        sinks = [push._AsyncSink() for _ in range(50)]
        thread_sink = push._ThreadSink()
        hub.subscribe([channel], thread_sink)
        for sink in sinks:
            hub.subscribe([channel], sink)
        await asyncio.to_thread(hub.deliver, channel, "hello-all")
        got = [await sink.get(2) for sink in sinks]
        return wakes, got, thread_sink.get(2)

    # In a thread of its own: a browser test earlier in this process leaves Playwright's event
    # loop running in the main thread, where asyncio.run() refuses to start another.
    with concurrent.futures.ThreadPoolExecutor(1) as own_thread:
        wakes, got, threaded = own_thread.submit(asyncio.run, main()).result()
    assert got == ["hello-all"] * 50 and threaded == "hello-all"
    assert len(wakes) == 1
