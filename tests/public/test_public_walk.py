"""Issue 27, findings 1 and 2: nothing the release settings hold back is readable by the public.

For an event under each release setting that matters (the draw held, the results held, the
standings held, a silent round, an unpublished event), every GET route the URL resolver knows is
walked with real ids (and the ids the next rows will take), signed out and as a signed-in
stranger, twice: before the held data exists and after it arrived. The held data carries planted
markers: distinctive names for the round's drawn unions, a forfeit worth a distinctive score.

- no body contains a planted marker;
- every answer (status, body, ETag) is the same before and after: what the public reads does not
  depend on held data at all, so nothing held can be read or inferred from a changing ETag;
- then the held thing is released, and the same walk must see it (the walk can fail).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from matches.models import Deal, DealReport, Event, Round, Table, Union
from matches.results import forfeits
from matches.standings import service as standings
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

#: What the public must never read while it is held: the drawn unions' names and the forfeit's
#: score (no deal, match or standings figure of the event comes near it).
HELD_NAME = "HELDDRAW"
HELD_SCORE = 987654
AFTER_CLOSE, AT_END = Event.Release.AFTER_CLOSE, Event.Release.AT_END


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


#: Every route but Django's admin, the static API description and the live streams (endless
#: server-sent events carrying notices, never data; tests/live/test_push.py holds them: held
#: results send no public notice).
ROUTES = sorted(
    route
    for route in set(_routes(get_resolver().url_patterns))
    if not route.startswith(("admin/", "^", "api/docs/", "api/schema/", "live/"))
)
PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
#: Routes whose every combination of ids is walked: the public pages and the API's reads. The
#: others (organiser and referee pages, which refuse these two visitors, and POST-only routes)
#: with the first ids only.
PUBLIC_PREFIXES = ("events/", "api/v1/public/")
API_READS = ("api/v1/tables/<int:table_id>", "api/v1/reports/<int:report_id>")

#: What differs between two renderings of the same page for reasons other than the data.
NOISE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), "csrf"),
    (re.compile(r'nonce="[^"]*"'), "nonce"),
    # The wizard's one-time token against a double submit (issue 25): new at every rendering.
    (re.compile(r'<input type="hidden" name="token" value="[^"]*">'), "wizard token"),
]


def _normal(body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    for pattern, word in NOISE:
        text = pattern.sub(word, text)
    return text


# --- the event -----------------------------------------------------------------------------------


class World:
    """An individual Gou Ji event (its unions are drawn each round, so a round's unions are its
    draw): round 1 played and closed in public, round 2 the round under test."""

    def __init__(self, **release):
        self.b = EventBuilder(
            players=12,
            deals=2,
            entry_type=Event.EntryType.INDIVIDUAL,
            confirmation=Event.Confirmation.NONE,
            forfeit_score=HELD_SCORE,
        ).register()
        self.b.play_rounds(1)
        self.b.standings()
        self.event = self.b.event
        Event.objects.filter(pk=self.event.pk).update(**release)
        self.event.refresh_from_db()
        self.round = self.b.draw(seed=31, publish=False)
        # The planted names: a drawn union's name is the draw (no service renames a union).
        for union in Union.objects.filter(round=self.round):
            union.name = f"{HELD_NAME}-{union.name}"
            union.save(update_fields=["name"])
        self.stranger = self.b.people.stranger

    def publish(self):
        self.b.publish(self.round)

    def play(self):
        """The held data arrives: table 1 forfeited (the planted score), table 2's deals
        reported and final, every match settled and the standings written."""
        first, second = self.b.matches(self.round)[:2]
        forfeits.award_forfeit(first, "B", user=self.b.organiser)
        for number in (1, 2):
            self.b.final(second, number, [1, 2, 3, 4, 5, 6], points=[1])
        self.b.settle(self.round)
        standings.recompute_event(self.event.pk)

    # --- the walk --------------------------------------------------------------------------

    def values(self) -> dict[str, list]:
        """Ids to fill the routes with: every row of the event, and the next ids (which the
        rows written between the two walks take)."""

        def with_next(queryset, extra):
            ids = sorted(queryset.values_list("pk", flat=True))
            top = max(ids + [0])
            return ids + list(range(top + 1, top + 1 + extra))

        event = self.event
        return {
            "event_id": [event.pk],
            "number": [1, 2],
            "table": [1, 2],
            "deal": [1, 2],
            "player_id": [p.pk for p in self.b.players[:4]],
            "union_id": with_next(Union.objects.filter(event=event), 2),
            "table_id": with_next(Table.objects.filter(round__event=event), 2),
            "report_id": with_next(DealReport.objects.filter(deal__match__round__event=event), 6),
            "deal_id": with_next(Deal.objects.filter(match__round__event=event), 6),
            "entry_id": list(event.registrations.values_list("pk", flat=True)[:2]),
        }


def _urls(values: dict) -> list[str]:
    words = {"game": ["gouji"], "what": ["results"], "fmt": ["csv"]}
    urls = []
    for route in ROUTES:
        names = [m.group(2) for m in PARAM.finditer(route)]
        choices = [values.get(n) or words.get(n) or ["x"] for n in names]
        combos: Iterable[tuple] = itertools.product(*choices)
        if not route.startswith(PUBLIC_PREFIXES) and route not in API_READS:
            combos = itertools.islice(combos, 1)
        for combo in combos:
            filled = iter(str(v) for v in combo)
            urls.append("/" + PARAM.sub(lambda m: next(filled), route))
    return urls


def _visitors(world) -> dict[str, Client]:
    stranger = Client()
    stranger.force_login(world.stranger)
    return {"signed out": Client(), "stranger": stranger}


def walk(world, urls, visitors=("signed out", "stranger")) -> dict:
    """(visitor, url, htmx) -> (status, ETag, normalised body), from a cold cache."""
    cache.clear()  # no fragment rendered before the change may answer after it
    seen = {}
    clients = _visitors(world)
    for who in visitors:
        client = clients[who]
        for url in urls:
            # The htmx fragments too (polled every 5 s, cached apart from the pages): signed
            # out, as the hall's screens poll them.
            fragments = url.startswith("/events/") and who == "signed out"
            for htmx in (False, True) if fragments else (False,):
                headers = {"HX-Request": "true"} if htmx else {}
                response = client.get(url, headers=headers)
                assert response.status_code < 500, (who, url, response.status_code)
                seen[(who, url, htmx)] = (
                    response.status_code,
                    response.get("ETag"),
                    _normal(response.content),
                )
    return seen


DRAW_AND_RESULTS = (HELD_NAME, str(HELD_SCORE))
RESULTS = (str(HELD_SCORE),)


def assert_nothing_planted_shows(seen: dict, markers):
    for key, (_status, _etag, body) in seen.items():
        for marker in markers:
            assert marker not in body, f"held {marker!r} shows at {key}"


def assert_same(before: dict, after: dict):
    changed = [key for key in before if before[key] != after[key]]
    detail = []
    for key in changed[:8]:
        (s0, e0, b0), (s1, e1, b1) = before[key], after[key]
        detail.append(f"{key}: status {s0}->{s1}, etag {e0}->{e1}, body changed: {b0 != b1}")
    assert not changed, f"{len(changed)} answers moved with held data:\n" + "\n".join(detail)


def held_then_released(world, *, start, release, markers=RESULTS):
    """`start()` puts round 2 in its held state; the walk before and after `world.play()` must
    agree and show no marker; after `release()` the walk must see the markers."""
    start()
    urls = _urls(world.values())
    before = walk(world, urls)
    assert_nothing_planted_shows(before, markers)
    world.play()
    after = walk(world, urls)
    assert_nothing_planted_shows(after, markers)
    assert_same(before, after)
    release()
    released = walk(world, urls, visitors=("signed out",))
    bodies = "".join(body for _s, _e, body in released.values())
    return bodies


def _close(world):
    world.b.close(world.round)


def _conclude(world):
    Event.objects.filter(pk=world.event.pk).update(concluded_at=timezone.now())
    Round.objects.filter(pk=world.round.pk).update(state=Round.State.CLOSED)  # its row moves too


# --- the release settings ------------------------------------------------------------------------


@pytest.mark.parametrize("when", [AFTER_CLOSE, AT_END])
def test_a_held_draw_shows_nothing_of_the_round(settings, when):
    """Finding 2: the draw held until the round closes or the event ends. Publishing the round
    and playing it change nothing the public reads (pages, API, results API, ETags)."""
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World(release_draw=when)

    def start():
        pass  # drawn, not yet published: the draft is nobody's business

    def play():
        world.publish()
        World.play(world)

    world.play = play
    bodies = held_then_released(
        world,
        start=start,
        release=lambda: _close(world) if when == AFTER_CLOSE else _conclude(world),
        markers=DRAW_AND_RESULTS,
    )
    assert HELD_NAME in bodies and str(HELD_SCORE) in bodies


@pytest.mark.parametrize("when", [AFTER_CLOSE, AT_END])
def test_held_results_show_nothing_of_the_results(settings, when):
    """Finding 1: the draw is public, the results held. The round's tables and seats show; no
    score, deal, table state or standings of the round shows, through any route."""
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World(release_results=when)
    bodies = held_then_released(
        world,
        start=world.publish,
        release=lambda: _close(world) if when == AFTER_CLOSE else _conclude(world),
    )
    assert str(HELD_SCORE) in bodies


@pytest.mark.parametrize("when", [AFTER_CLOSE, AT_END])
def test_held_standings_do_not_move(settings, when):
    """Results public at once, standings held: the round's results show as they come (before
    the walk), the standings written from them do not."""
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World(release_standings=when)
    world.publish()
    first, second = world.b.matches(world.round)[:2]
    forfeits.award_forfeit(first, "B", user=world.b.organiser)
    for number in (1, 2):
        world.b.final(second, number, [1, 2, 3, 4, 5, 6], points=[1])
    world.b.settle(world.round)

    urls = _urls(world.values())
    before = walk(world, urls)
    standings.recompute_event(world.event.pk)
    after = walk(world, urls)
    assert_same(before, after)
    _close(world) if when == AFTER_CLOSE else _conclude(world)
    released = walk(world, urls)
    assert any(released[key] != after[key] for key in after if "standings" in key[1])


def test_a_silent_round_shows_nothing_of_its_results(settings):
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World()
    Round.objects.filter(pk=world.round.pk).update(silent=True)
    bodies = held_then_released(world, start=world.publish, release=lambda: _conclude(world))
    assert str(HELD_SCORE) in bodies


def test_a_silent_round_with_results_after_close_stays_silent_when_it_closes(settings):
    """Both hold the round's results: closing the round releases them for `after_close`, not
    for a silent round (which waits for the end of the event)."""
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World(release_results=AFTER_CLOSE)
    Round.objects.filter(pk=world.round.pk).update(silent=True)

    def close_then_end():
        _close(world)
        seen = walk(world, _urls(world.values()))
        assert_nothing_planted_shows(seen, RESULTS)
        _conclude(world)

    bodies = held_then_released(world, start=world.publish, release=close_then_end)
    assert str(HELD_SCORE) in bodies


def test_an_unpublished_event_shows_nothing(settings):
    settings.PUBLIC_VERSION_SECONDS = 0
    world = World()
    Event.objects.filter(pk=world.event.pk).update(published=False)

    def publish_event():
        Event.objects.filter(pk=world.event.pk).update(published=True)

    bodies = held_then_released(
        world, start=world.publish, release=publish_event, markers=DRAW_AND_RESULTS
    )
    assert HELD_NAME in bodies and str(HELD_SCORE) in bodies
