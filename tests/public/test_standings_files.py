"""The public standings written as files after each standings run and served by nginx
(issue 28; matches/public/standings_files.py, deploy/nginx.conf's standings location)."""

from __future__ import annotations

import gzip
import http.client
import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.translation import trans_real

from matches.draw import late
from matches.models import Event, Round
from matches.public import standings_files
from matches.standings import service as standings
from tests.builder import EventBuilder
from tests.public.test_nginx import running_front

LANG = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def files_dir(settings, tmp_path, eager_tasks):
    """The files' folder of this test. The standings runs that write them run in this process
    (also in CI's pass with a real worker, whose folder is another)."""
    root = tmp_path / "standings"
    settings.STANDINGS_FILES_DIR = str(root)
    return root


def _built():
    """A team event: round 1 closed with its results, round 2 published with none yet."""
    b = EventBuilder(unions=4, deals=2).register()
    first = b.round([(0, 1), (2, 3)])
    b.report_all(first)
    b.close(first)
    second = b.round([(0, 2), (1, 3)])
    return b, first, second


def _folder(root, event):
    return root / "events" / str(event.pk) / "standings"


def _app(event, language: str, hx: bool = False) -> bytes:
    """The app's own answer to an anonymous reader in `language` (the whole middleware stack)."""
    client = Client()
    client.cookies[LANG] = language
    response = client.get(
        reverse("public:standings", args=[event.pk]), headers={"HX-Request": "true"} if hx else {}
    )
    assert response.status_code == 200
    return response.content


def _written(root, event) -> dict[str, bytes]:
    folder = _folder(root, event)
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*"))} if folder.exists() else {}


@pytest.mark.django_db
def test_a_standings_run_writes_each_language_as_the_app_renders_it(
    files_dir, django_capture_on_commit_callbacks
):
    b, first, second = _built()
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    files = _written(files_dir, b.event)
    assert sorted(files) == sorted(
        f"{lang}.{part}.html{gz}"
        for lang in ("zh-hans", "en")
        for part in ("page", "hx")
        for gz in ("", ".gz")
    )
    for lang in ("zh-hans", "en"):
        page, fragment = files[f"{lang}.page.html"], files[f"{lang}.hx.html"]
        assert page == _app(b.event, lang)
        assert fragment == _app(b.event, lang, hx=True)
        assert gzip.decompress(files[f"{lang}.page.html.gz"]) == page
        assert gzip.decompress(files[f"{lang}.hx.html.gz"]) == fragment
        assert f'<html lang="{lang}">'.encode() in page
        # The live push: the stream to listen to, and the fragment that reloads itself.
        assert f'<meta name="live-stream" content="/live/events/{b.event.pk}/'.encode() in page
        assert b"data-live-poll" in page and b'id="standings-live"' in fragment
        assert b"<html" not in fragment
    # Readable by nginx's workers, and nothing half-written is left beside them.
    for path in _folder(files_dir, b.event).iterdir():
        assert path.stat().st_mode & 0o044 == 0o044, path
        assert not path.name.startswith("."), path


@pytest.mark.django_db
def test_unpublishing_a_round_removes_the_files_before_anyone_reads_them(
    files_dir, django_capture_on_commit_callbacks
):
    b, first, second = _built()
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    assert b'value="2"' in _written(files_dir, b.event)["en.page.html"]  # round 2 is listed
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        late.unpublish_round(second)
    # Gone when the round changed, before its commit and the standings run that follows it.
    assert _written(files_dir, b.event) == {}
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()  # the commit: the removal again, then the standings run (eager Celery)
    files = _written(files_dir, b.event)
    assert files["en.page.html"] == _app(b.event, "en")
    assert b'value="2"' not in files["en.page.html"]


@pytest.mark.django_db
def test_an_unpublished_or_archived_event_has_no_files(
    files_dir, django_capture_on_commit_callbacks
):
    b, first, second = _built()
    for change in ({"published": False}, {"archived_at": first.published_at}):
        with django_capture_on_commit_callbacks(execute=True):
            standings.recompute_event(b.event.pk)
        assert _written(files_dir, b.event)
        event = Event.objects.get(pk=b.event.pk)
        for name, value in change.items():
            setattr(event, name, value)
        with django_capture_on_commit_callbacks(execute=True):
            event.save()
        assert _written(files_dir, b.event) == {}
        # Nor does the next run write them: the page is not public.
        with django_capture_on_commit_callbacks(execute=True):
            standings.recompute_event(b.event.pk)
        assert _written(files_dir, b.event) == {}
        Event.objects.filter(pk=b.event.pk).update(published=True, archived_at=None)


@pytest.mark.django_db
def test_held_standings_are_not_written(files_dir, django_capture_on_commit_callbacks):
    b, first, second = _built()
    b.event.release_standings = Event.Release.AT_END
    b.event.save()
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    page = _written(files_dir, b.event)["zh-hans.page.html"]
    assert page == _app(b.event, "zh-hans")
    assert b'id="entry-' not in page  # no row: the standings are held until the end


@pytest.mark.django_db
def test_a_change_while_the_pages_render_leaves_no_file(files_dir, monkeypatch):
    """A round taken back while a run renders: what it rendered may show it, so it goes."""
    b, first, second = _built()
    standings.recompute_event(b.event.pk)
    render = standings_files.render

    def racing(event_id, language, hx):
        answer = render(event_id, language, hx)
        # No signal: as another process's change, seen by the second stamp only.
        Round.objects.filter(pk=second.pk).update(state=Round.State.DRAFT)
        return answer

    monkeypatch.setattr(standings_files, "render", racing)
    assert standings_files.write(b.event.pk) == 0
    assert _written(files_dir, b.event) == {}
    monkeypatch.setattr(standings_files, "render", render)
    assert standings_files.write(b.event.pk) == 4
    assert _written(files_dir, b.event)["en.page.html"] == _app(b.event, "en")


@pytest.mark.django_db
def test_off_without_a_directory(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.STANDINGS_FILES_DIR = ""
    b, first, second = _built()
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    assert standings_files.write(b.event.pk) == 0
    assert _app(b.event, "en")  # the app serves as ever


# --- through nginx ------------------------------------------------------------------------------


def _get(front, path: str, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", front.port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def _lang(body: bytes) -> str:
    found = re.search(rb'<html lang="([^"]+)"', body)
    assert found, body[:200]
    return found.group(1).decode()


@pytest.fixture
def served(live_server, tmp_path, files_dir):
    b, first, second = _built()
    standings.recompute_event(b.event.pk)  # committed: the files are written after it
    assert _written(files_dir, b.event)
    with running_front(live_server, tmp_path / "nginx", files_dir) as front:
        yield front, b


@pytest.mark.django_db(transaction=True)
def test_nginx_serves_the_file_gzipped_and_the_app_for_the_rest(served, files_dir):
    front, b = served
    url = reverse("public:standings", args=[b.event.pk])
    files = _written(files_dir, b.event)

    status, headers, body = _get(front, url, {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["X-Standings-File"] == "zh-hans"
    assert headers["Content-Encoding"] == "gzip" and headers["X-Cache-Status"] is None
    assert body == files["zh-hans.page.html.gz"]
    assert gzip.decompress(body) == _app(b.event, "zh-hans")
    # A client that takes no gzip gets the same page plain.
    status, headers, body = _get(front, url)
    assert headers["Content-Encoding"] is None and body == _app(b.event, "zh-hans")
    assert headers["X-Standings-File"] == "zh-hans"
    # The htmx poll of the live fragment.
    _, headers, body = _get(front, url, {"HX-Request": "true", "Cookie": f"{LANG}=en"})
    assert headers["X-Standings-File"] == "en" and body == _app(b.event, "en", hx=True)

    # The same headers as the app's answer. An unknown language in the cookie goes to the app,
    # which ignores it: the same page.
    _, app_headers, app_body = _get(front, url, {"Cookie": f"{LANG}=fr"})
    assert app_headers["X-Standings-File"] is None and app_headers["X-Cache-Status"]
    assert app_body == _app(b.event, "zh-hans")
    _, file_headers, _ = _get(front, url)
    for name in (
        "Content-Type",
        "Content-Language",
        "Cache-Control",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "Cross-Origin-Opener-Policy",
        "X-Frame-Options",
    ):
        assert file_headers[name] == app_headers[name], name

    def policy(value: str) -> set[str]:  # django-csp writes the directives in any order
        return {d.strip() for d in value.split(";")}

    assert policy(file_headers["Content-Security-Policy"]) == policy(
        app_headers["Content-Security-Policy"]
    )
    vary = {v.strip().lower() for v in file_headers["Vary"].split(",")}
    assert {v.strip().lower() for v in app_headers["Vary"].split(",")} <= vary
    # nginx answers a revalidation by its own ETag.
    status, _, body = _get(front, url, {"If-None-Match": file_headers["ETag"]})
    assert status == 304 and body == b""

    # Anything else goes to the app.
    for path, headers in [
        (url + "?kind=players", {}),
        (url + "?page=2", {}),
        (url + "?round=1", {}),
        (url, {"Cookie": f"{settings.SESSION_COOKIE_NAME}=whatever"}),
        (url, {"Cookie": "messages=x"}),
        (url, {"Authorization": "Token x"}),
        (url, {"HX-Request": "false"}),
        (url, {"Cookie": f"{LANG}=fr"}),
    ]:
        status, answer, _ = _get(front, path, headers)
        assert status == 200 and answer["X-Standings-File"] is None, (path, headers)


@pytest.mark.django_db(transaction=True)
def test_nginx_tells_the_language_as_django_does(served):
    front, b = served
    url = reverse("public:standings", args=[b.event.pk])
    served_by_file = {
        ("", ""): "zh-hans",
        ("en", ""): "en",
        ("zh-hans", "en-US,en;q=0.9"): "zh-hans",
        ("", "zh-CN,zh;q=0.9"): "zh-hans",
        ("", "zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7"): "zh-hans",
        ("", "en-US,en;q=0.9,zh-CN;q=0.8"): "en",
        ("", "en-GB"): "en",
        ("", "EN-us, zh;q=0.5"): "en",
    }
    to_the_app = [
        ("", "en;q=0.8,zh"),  # a weighted first tag: Django sorts them
        ("", "*"),
        ("", "fr,en"),
        ("", "en, garbage!!"),  # Django rejects the whole header
        ("EN", "en"),
        ("fr", "zh-CN"),
    ]
    factory = RequestFactory()
    for cookie, accept in [*served_by_file, *to_the_app]:
        headers = {"Accept-Language": accept} if accept else {}
        request = factory.get(url, HTTP_ACCEPT_LANGUAGE=accept)
        if cookie:
            headers["Cookie"] = f"{LANG}={cookie}"
            request.COOKIES[LANG] = cookie
        django_choice = trans_real.get_language_from_request(request).lower()  # "EN": en
        status, answer, body = _get(front, url, headers)
        assert status == 200 and _lang(body) == django_choice, (cookie, accept)
        file_lang = answer["X-Standings-File"]
        if (cookie, accept) in served_by_file:
            assert file_lang == served_by_file[(cookie, accept)] == django_choice
        else:
            assert file_lang is None, (cookie, accept)


@pytest.mark.django_db(transaction=True)
def test_through_nginx_the_public_never_reads_an_unpublished_event(served, files_dir):
    front, b = served
    url = reverse("public:standings", args=[b.event.pk])
    assert _get(front, url)[1]["X-Standings-File"] == "zh-hans"
    event = Event.objects.get(pk=b.event.pk)
    event.published = False
    event.save()
    status, headers, _ = _get(front, url + "?z=1")  # past the front cache's copy
    assert status == 404
    status, headers, _ = _get(front, url)
    assert status == 404 and headers["X-Standings-File"] is None


# --- after a deploy: the files are written anew ---------------------------------------------------


@pytest.mark.django_db
def test_a_template_change_reaches_a_finished_events_file_after_rewrite(
    files_dir, settings, tmp_path, django_capture_on_commit_callbacks
):
    """The files outlive a deploy: a finished event's standings run no more, so only
    `manage.py standings_files --rewrite` (deploy/README.md's upgrade) brings a fixed template
    to its readers; `--clear` leaves every reader to the app."""
    import copy
    import shutil

    from django.core.management import call_command

    b, first, second = _built()
    b.report_all(second)
    b.close(second)
    Event.objects.filter(pk=b.event.pk).update(concluded_at=second.published_at)
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(b.event.pk)
    before = _written(files_dir, b.event)
    assert before["en.page.html"] == _app(b.event, "en")

    # The deploy: a new template for the page around the table and for the table itself.
    fixed = tmp_path / "templates"
    (fixed / "public").mkdir(parents=True)
    for name, mark in (("standings.html", "page"), ("_standings_table.html", "table")):
        source = (settings.BASE_DIR / "templates" / "public" / name).read_text()
        if "{% block content %}" in source:  # the page: inside its block, or it is not shown
            source = source.replace("{% block content %}", "{% block content %}<!-- fixed page -->")
        else:
            source += f"<!-- fixed {mark} -->"
        (fixed / "public" / name).write_text(source)
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [fixed, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    assert b"fixed" not in _written(files_dir, b.event)["en.page.html"]  # nothing runs by itself

    call_command("standings_files", "--rewrite", stdout=open(tmp_path / "out", "w"))
    files = _written(files_dir, b.event)
    for lang in ("zh-hans", "en"):
        assert files[f"{lang}.page.html"] == _app(b.event, lang)
        assert b"<!-- fixed page -->" in files[f"{lang}.page.html"]
        assert b"<!-- fixed table -->" in files[f"{lang}.hx.html"]
        assert files[f"{lang}.hx.html"] == _app(b.event, lang, hx=True)
        assert gzip.decompress(files[f"{lang}.page.html.gz"]) == files[f"{lang}.page.html"]

    # An event no longer public loses its files in the rewrite; --clear removes them all.
    other, *_rounds = _built()
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute_event(other.event.pk)
    Event.objects.filter(pk=other.event.pk).update(published=False)  # no signal: no removal
    assert _written(files_dir, other.event)
    call_command("standings_files", "--rewrite", stdout=open(tmp_path / "out", "w"))
    assert _written(files_dir, other.event) == {}
    assert _written(files_dir, b.event)
    call_command("standings_files", "--clear", stdout=open(tmp_path / "out", "w"))
    assert _written(files_dir, b.event) == {}
    shutil.rmtree(fixed)
