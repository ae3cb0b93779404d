"""Live push: notices to the open pages' server-sent-event streams.

A notice says only "what this page shows may have changed" (a channel name, a kind and, on
public channels, the public version stamps): never data. The page answers by fetching its
fragment through the views it already polls, so every visibility rule (`matches.public.visibility`)
stays where it is. Channels:

- `public:event:<id>`: the event's public pages (event, round, standings, projector, and a
  player's private page). Sent by `matches.receivers` when the public stamps move, so a held
  draw or held results send nothing the public could time.
- `public:table:<match_id>`: one table's public page, with the same rule.
- `staff:event:<id>`: the organiser's dashboard and results queue: sent on commit of every
  report, tally, call and round change of the event.
- `staff:table:<match_id>` and `staff:rounds:<event_id>`: a referee's table list hears only its
  own tables (their reports, tallies and calls) and the event's round changes (which change
  the list itself), not every deal of a 1,700-table hall.
- `private:player:<id>`: one player's private page ("where do I sit now"). When a round's draw
  becomes public, each seated player gets `{"kind": "seat", "round", "table", "seat"}` (what the
  public round page shows anyway, sent only once the draw is visible), so 10,002 pages learn
  their table without 10,002 requests. The stream URL is signed (`matches/views/live.py`,
  `player_stream_url`): a private page renders it and needs no other authorisation.

Transport: with `LIVE_REDIS_URL` set, `publish` goes through Redis pub/sub and each web process
keeps one subscription (a thread) that hands notices to its own open streams, so any number of
gunicorn/uvicorn workers share every notice. With nothing set, notices stay in the process
(the embedded default: `runserver`, one process). The streams themselves are
`matches/views/live.py`; the browser side is `static/js/live.js`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

PREFIX = "gouji-live:"


def public_event(event_id: int) -> str:
    return f"public:event:{event_id}"


def public_table(match_id: int) -> str:
    return f"public:table:{match_id}"


def staff_event(event_id: int) -> str:
    return f"staff:event:{event_id}"


def staff_table(match_id: int) -> str:
    return f"staff:table:{match_id}"


def staff_rounds(event_id: int) -> str:
    return f"staff:rounds:{event_id}"


def feature(feature_id: int) -> str:
    """A feature table's deals. Its notices carry `at`, the moment spectators may see what
    changed: the spectators' stream holds each one until then and passes on only the kind."""
    return f"feature:{feature_id}"


def feature_list(event_id: int) -> str:
    """The event's list of feature tables (as `feature`, held until `at`)."""
    return f"feature-list:{event_id}"


def staff_table_live(table_id: int) -> str:
    """A feature table's operator page: every action at once."""
    return f"staff:live:{table_id}"


def private_player(player_id: int) -> str:
    return f"private:player:{player_id}"


class _ThreadSink:
    """A stream served by a thread (WSGI: runserver, gunicorn gthread)."""

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue(maxsize=256)

    def put(self, message: str) -> None:
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # a stalled reader: it will refetch anyway
            pass

    def get(self, timeout: float) -> str | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None


class _AsyncSink:
    """A stream served by an event loop (ASGI: uvicorn)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=256)

    def _put(self, message: str) -> None:
        if not self.queue.full():
            self.queue.put_nowait(message)

    def put(self, message: str) -> None:
        try:
            self.loop.call_soon_threadsafe(self._put, message)
        except RuntimeError:  # the loop is closed
            pass

    async def get(self, timeout: float) -> str | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


def _put_all(sinks: list[_AsyncSink], message: str) -> None:
    for sink in sinks:
        sink._put(message)


class Hub:
    """The process's open streams by channel, and its one Redis subscription."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sinks: dict[str, set] = {}
        self.listener: threading.Thread | None = None
        self.connected = threading.Event()
        self._redis: Any = None

    @property
    def url(self) -> str:
        return getattr(settings, "LIVE_REDIS_URL", "") or ""

    # --- sending ------------------------------------------------------------------------
    def publish(self, channel: str, message: str) -> None:
        if not self.url:
            self.deliver(channel, message)
            return
        try:
            if self._redis is None:
                import redis

                self._redis = redis.Redis.from_url(
                    self.url, socket_timeout=1, socket_connect_timeout=1
                )
            self._redis.publish(PREFIX + channel, message)
        except Exception:  # noqa: BLE001 - a notice lost: pages still poll
            log.warning("live: publish to %s failed", channel, exc_info=True)
            self._redis = None

    def publish_many(self, items: list[tuple[str, str]]) -> None:
        """Many notices in one round trip (a pipeline) when through Redis."""
        if not self.url:
            for channel, message in items:
                self.deliver(channel, message)
            return
        try:
            if self._redis is None:
                import redis

                self._redis = redis.Redis.from_url(
                    self.url, socket_timeout=5, socket_connect_timeout=1
                )
            pipe = self._redis.pipeline(transaction=False)
            for channel, message in items:
                pipe.publish(PREFIX + channel, message)
            pipe.execute()
        except Exception:  # noqa: BLE001 - notices lost: pages still poll
            log.warning("live: publishing %d notices failed", len(items), exc_info=True)
            self._redis = None

    def deliver(self, channel: str, message: str) -> None:
        """To every stream of `channel`: the event loop's streams in one wake-up of their loop
        (a hall's 1,000 screens on one table cost one call, not 1,000), the threads' one each."""
        with self.lock:
            sinks = list(self.sinks.get(channel, ()))
        by_loop: dict[asyncio.AbstractEventLoop, list[_AsyncSink]] = {}
        for sink in sinks:
            if isinstance(sink, _AsyncSink):
                by_loop.setdefault(sink.loop, []).append(sink)
            else:
                sink.put(message)
        for loop, group in by_loop.items():
            try:
                loop.call_soon_threadsafe(_put_all, group, message)
            except RuntimeError:  # the loop is closed
                pass

    # --- receiving ----------------------------------------------------------------------
    def start(self) -> None:
        """Subscribe now (an ASGI server at start-up: gouji_tournament/asgi.py)."""
        if self.url:
            self._start_listener()

    def available(self) -> bool:
        """True when notices reach this process (always without Redis)."""
        if not self.url:
            return True
        self._start_listener()
        return self.connected.wait(3.0)

    def subscribe(self, channels: list[str], sink) -> None:
        with self.lock:
            for channel in channels:
                self.sinks.setdefault(channel, set()).add(sink)

    def unsubscribe(self, channels: list[str], sink) -> None:
        with self.lock:
            for channel in channels:
                group = self.sinks.get(channel)
                if group is not None:
                    group.discard(sink)
                    if not group:
                        del self.sinks[channel]

    def _start_listener(self) -> None:
        with self.lock:
            if self.listener is not None and self.listener.is_alive():
                return
            self.listener = threading.Thread(
                target=self._listen, args=(self.url,), name="live-hub", daemon=True
            )
            self.listener.start()

    def _listen(self, url: str) -> None:
        import redis

        while self.url == url:
            try:
                client = redis.Redis.from_url(url, socket_connect_timeout=2)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(PREFIX + "*")
                self.connected.set()
                while self.url == url:
                    item = pubsub.get_message(timeout=5.0)
                    if item is None:
                        client.ping()
                        continue
                    channel = item["channel"].decode()[len(PREFIX) :]
                    self.deliver(channel, item["data"].decode())
            except Exception:  # noqa: BLE001 - Redis away: streams close, pages poll
                if self.connected.is_set():
                    log.warning("live: Redis subscription lost", exc_info=True)
                self.connected.clear()
                if self.url == url:
                    self._close_all()
                time.sleep(1.0)
        self.connected.clear()

    def _close_all(self) -> None:
        """Tell every open stream to end: their pages fall back to polling and reconnect."""
        with self.lock:
            sinks = {s for group in self.sinks.values() for s in group}
        for sink in sinks:
            sink.put(CLOSE)


CLOSE = "\x00close"
hub = Hub()


def notice(kind: str, **fields) -> str:
    return json.dumps({"kind": kind, **fields}, separators=(",", ":"))


def send(channel: str, kind: str, **fields) -> None:
    """Publish a notice now."""
    hub.publish(channel, notice(kind, **fields))
