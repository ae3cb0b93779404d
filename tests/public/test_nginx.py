"""deploy/nginx.conf in front of a live server: what nginx shares and what it never does.

Needs `nginx` on PATH (`make test` installs it); skipped without it, except when
GOUJI_REQUIRE_INTEGRATION=1 (CI's second pass) says it must be there.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from matches.standings import service as standings
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
LANG = settings.LANGUAGE_COOKIE_NAME


def _nginx() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if not found:
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("nginx is not installed: run `make nginx` (or `make test`)")
        pytest.skip("nginx is not installed (`make nginx`)")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def render_conf(
    workdir: Path, app: str, port: int, standings: Path | None = None, changes=None
) -> Path:
    """deploy/nginx.conf with its placeholders filled, inside a minimal main configuration (on a
    server, Debian's /etc/nginx/nginx.conf is that main configuration). `standings`: the
    directory of the standings files (settings.STANDINGS_FILES_DIR; by default an empty one).
    `changes`: text of the file replaced (a test's smaller numbers), each found exactly once."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for old, new in (changes or {}).items():
        assert site.count(old) >= 1, old
        site = site.replace(old, new)
    for name, value in {
        "__LISTEN__": f"127.0.0.1:{port}",
        "__SERVER_NAME__": "127.0.0.1",
        "__APP__": app,
        "__LIVE__": app,
        "__STATIC_ROOT__": str(ROOT / "static"),
        "__CACHE_DIR__": str(workdir / "cache"),
        "__STANDINGS_DIR__": str(standings or workdir / "standings"),
        "__LOG_DIR__": str(workdir),
        "__TLS__": "",
    }.items():
        assert name in site, name
        site = site.replace(name, value)
    assert "__" not in site.replace("__init__", ""), "a placeholder is left"
    (workdir / "gouji.conf").write_text(site)
    temp = workdir / "tmp"
    temp.mkdir()
    mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
    main = f"""
{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    {mime}
    access_log {workdir}/access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {workdir}/gouji.conf;
}}
"""
    (workdir / "nginx.conf").write_text(main)
    return workdir / "nginx.conf"


class Front:
    """nginx running deploy/nginx.conf; `request` and `get` answer (status, headers, body)."""

    def __init__(self, port: int):
        self.port = port

    def request(self, method: str, path: str, headers=None, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.headers, response.read().decode()
        finally:
            conn.close()

    def get(self, path: str, headers=None):
        return self.request("GET", path, headers)

    def twice(self, path: str, headers=None):
        """Two GETs in a row; the second is asked again while the first is more than half a
        second old (the cache keeps a page one second, and this machine may be busy)."""
        for _ in range(10):
            first = self.get(path, headers)
            started = time.monotonic()
            second = self.get(path, headers)
            if time.monotonic() - started < 0.5:
                return first, second
        return first, second


@contextlib.contextmanager
def running_front(live_server, workdir, standings=None, changes=None):
    """nginx with deploy/nginx.conf in front of `live_server`, its files under `workdir`."""
    binary = _nginx()
    workdir.mkdir()
    workdir.chmod(0o755)  # nginx's workers read and write below it
    port = _free_port()
    conf = render_conf(workdir, urlsplit(live_server.url).netloc, port, standings, changes)
    checked = subprocess.run(
        [binary, "-t", "-p", str(workdir), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen(
        [binary, "-p", str(workdir), "-c", str(conf)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        front = Front(port)
        front.access_log = workdir / "gouji-access.log"
        yield front
    finally:
        proc.terminate()  # the master stops its workers
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def front(live_server, tmp_path):
    with running_front(live_server, tmp_path / "nginx") as front:
        yield front


@pytest.fixture
def event():
    b = EventBuilder(unions=2, deals=2).register()
    round_ = b.round([(0, 1)])
    b.final(b.match(round_, 1), 1, [1, 2, 3, 4, 5, 6])
    standings.recompute_event(b.event.pk)
    return b, round_


def _lang(body: str) -> str:
    return body.split('<html lang="', 1)[1].split('"', 1)[0]


def test_allowances_per_address_hold_in_front(live_server, tmp_path, event):
    """deploy/nginx.conf's allowances (a hall of 2,000 phones: 300 searches a second, a burst
    of 3,000; 4,000 streams), made small here: beyond them nginx answers 429 or 503 with
    Retry-After itself, and the other public pages are not limited."""
    import http.client

    b, _round = event
    small = {
        "rate=300r/s": "rate=1r/m",
        "burst=3000": "burst=2",
        "limit_conn gouji_streams 4000;": "limit_conn gouji_streams 1;",
    }
    with running_front(live_server, tmp_path / "nginx", changes=small) as front:
        url = reverse("public:find", args=[b.event.pk]) + "?q=x"
        statuses = [front.get(url)[0] for _ in range(3)]
        assert statuses == [200, 200, 200]  # one a minute and a burst of two
        status, headers, body = front.get(url)
        assert status == 429 and headers["Retry-After"] == "10" and "Too many" in body
        api_status, api_headers, _ = front.get(f"/api/v1/events/{b.event.pk}/find?q=x")
        assert api_status == 429 and api_headers["Retry-After"] == "10"
        assert front.get(reverse("public:event", args=[b.event.pk]))[0] == 200
        # One stream held open from this address; the second is refused by nginx.
        stream = http.client.HTTPConnection("127.0.0.1", front.port, timeout=30)
        stream.request("GET", reverse("live:event", args=[b.event.pk]))
        opened = stream.getresponse()
        try:
            assert opened.status == 200, opened.status
            status, headers, body = front.get(reverse("live:event", args=[b.event.pk]))
            assert status == 503 and headers["Retry-After"] == "10"
            assert "Too many live streams" in body
        finally:
            stream.close()
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "rate=300r/s" in conf and "burst=3000" in conf and "gouji_streams 4000;" in conf


def test_anonymous_readers_share_one_rendering(front, event):
    url = reverse("public:standings", args=[event[0].event.pk])
    (s1, h1, b1), (s2, h2, b2) = front.twice(url)
    assert s1 == s2 == 200
    assert h1["X-Cache-Status"] in ("MISS", "EXPIRED") and h2["X-Cache-Status"] == "HIT"
    assert b1 == b2 and _lang(b2) == "zh-hans"
    for headers in (h1, h2):
        assert headers.get_all("Set-Cookie") is None
        assert headers["X-Accel-Expires"] is None  # for nginx only
        # Browsers still revalidate every time (a cheap 304 from nginx when the ETag matches).
        assert {d.strip() for d in headers["Cache-Control"].split(",")} == {
            "public",
            "max-age=0",
            "must-revalidate",
        }
        assert headers["ETag"]
    # The htmx poll gets its fragment, not the cached whole page, and is shared too.
    (_, _f1, frag), (_, f2, _b) = front.twice(url, {"HX-Request": "true"})
    assert "<html" not in frag and 'id="standings-live"' in frag and f2["X-Cache-Status"] == "HIT"


def test_each_language_has_its_own_copy(front, event):
    url = reverse("public:standings", args=[event[0].event.pk])
    assert _lang(front.twice(url)[1][2]) == "zh-hans"
    (_, first, english), (_, second, again) = front.twice(url, {"Cookie": f"{LANG}=en"})
    assert first["X-Cache-Status"] != "HIT" and second["X-Cache-Status"] == "HIT"
    assert _lang(english) == _lang(again) == "en"
    assert _lang(front.get(url)[2]) == "zh-hans"  # the Chinese copy is still the Chinese one
    assert _lang(front.get(url, {"Accept-Language": "en"})[2]) == "en"
    assert (
        _lang(front.get(url, {"Accept-Language": "en", "Cookie": f"{LANG}=zh-hans"})[2])
        == "zh-hans"
    )


def test_the_language_switch_works_through_nginx(front, event):
    page = reverse("public:standings", args=[event[0].event.pk])
    front.twice(page)  # a Chinese copy in the cache
    status, headers, _ = front.get(f"/lang/?language=en&next={page}")
    assert status == 302 and headers["Location"] == page
    assert headers["X-Cache-Status"] is None  # /lang/ is never cached
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    assert cookie == f"{LANG}=en"
    assert _lang(front.get(page, {"Cookie": cookie})[2]) == "en"
    # The form on the cached page posts nowhere: a GET to /lang/ with the page as `next`.
    assert '<form action="/lang/" method="get"' in front.get(page)[2]


def test_a_signed_in_visitor_bypasses_the_cache(front, event):
    viewer = event[0].people.stranger.username
    client = Client()
    client.login(username=viewer, password="pw-" + viewer)
    session = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    url = reverse("public:standings", args=[event[0].event.pk])
    front.twice(url)  # an anonymous copy in the cache
    for _ in range(2):
        status, headers, body = front.get(url, {"Cookie": session})
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS"
        assert viewer in body and "X-CSRFToken" in body
    assert viewer not in front.get(url)[2]  # nor did their page reach the cache


def test_referee_pages_and_unpublished_events_are_never_served_from_the_cache(front, event):
    b, round_ = event
    link = b.people.for_table(b.match(round_, 1).table).referee_link
    (_, h1, page), (_, h2, again) = front.twice(reverse("referee:link-table", args=[link.token]))
    assert h1["X-Cache-Status"] is None and h2["X-Cache-Status"] is None  # not a cached location
    assert "csrfmiddlewaretoken" in page and h2["Set-Cookie"]
    assert page != again  # each holder of the link gets a token of their own

    hidden = EventBuilder(unions=2, published=False).register()
    (s1, h1, _), (s2, h2, _) = front.twice(reverse("public:event", args=[hidden.event.pk]))
    assert s1 == s2 == 404 and h2["X-Cache-Status"] == "MISS"
    hidden.event.published = True
    hidden.event.save()
    assert front.get(reverse("public:event", args=[hidden.event.pk]))[0] == 200  # no stale 404


def test_writes_and_the_public_api(front, event):
    url = reverse("public:standings", args=[event[0].event.pk])
    front.twice(url)  # a copy in the cache
    status, headers, _ = front.request("POST", url, body="")
    # Django answers (CSRF: no token), not the cache: nginx does not even look for a POST.
    assert status == 403 and headers["X-Cache-Status"] is None
    api = f"/api/v1/public/events/{event[0].event.pk}/standings/"
    (_, h1, json1), (_, h2, json2) = front.twice(api)
    assert h2["X-Cache-Status"] == "HIT" and json1 == json2
    assert h2["Content-Type"] == "application/json"
    # DRF's HTML page for a browser is not the cached JSON (Accept is in the API's key).
    _, html, _ = front.get(api, {"Accept": "text/html"})
    assert html["Content-Type"].startswith("text/html") and html["X-Cache-Status"] != "HIT"


def test_static_files_come_from_disk(front):
    status, headers, body = front.get("/static/css/site.css")
    assert status == 200 and body == (ROOT / "static" / "css" / "site.css").read_text()
    assert headers["Content-Type"].startswith("text/css") and headers["X-Cache-Status"] is None


def test_the_access_log_masks_referee_tokens(front, event):
    """Issue 17, finding 7: a referee link is a password; nginx logs its path masked."""
    from matches.models import RefereeLink

    link = RefereeLink.objects.create(table=event[0].match(event[1], 1).table)
    assert front.get(f"/ref/{link.token}/")[0] == 200
    assert front.get(f"/ref/{link.token}/deals/1/check?x=1")[0] in (403, 405)
    front.get("/events/")
    deadline = time.monotonic() + 5
    while "/events/" not in front.access_log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = front.access_log.read_text()
    assert link.token not in log
    assert "/ref/<token>/" in log and "/ref/<token>/deals/1/check" in log


@pytest.fixture
def front_without_app(tmp_path):
    """deploy/nginx.conf in front of an address where no gunicorn listens: every proxied
    request fails, and nginx writes why to its error log."""
    binary = _nginx()
    workdir = tmp_path / "nginx-down"
    workdir.mkdir()
    workdir.chmod(0o755)
    port = _free_port()
    conf = render_conf(workdir, f"127.0.0.1:{_free_port()}", port)
    proc = subprocess.Popen(
        [binary, "-p", str(workdir), "-c", str(conf)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        front = Front(port)
        front.workdir = workdir
        yield front
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.django_db(transaction=False)
def test_no_log_of_nginx_holds_a_secret_token_when_the_app_is_down(front_without_app):
    """Issue 17's loose end (issue 27): with gunicorn down, nginx's error log wrote each failed
    request's line and upstream URL, a referee link's token included."""
    front = front_without_app
    secrets = ["R" * 32, "E" * 32, "J" * 32]
    paths = [f"/ref/{secrets[0]}/", f"/entry/{secrets[1]}/", f"/manage/join/{secrets[2]}/"]
    for path in paths:
        assert front.get(path)[0] == 502
    assert front.get("/r%65f/" + secrets[0] + "/x")[0] == 502  # an encoded path: the same
    assert front.get("/manage/events/")[0] == 502  # a path without a secret is logged as usual
    deadline = time.monotonic() + 5
    logs = {}
    while time.monotonic() < deadline:
        logs = {p.name: p.read_text() for p in front.workdir.glob("*.log")}
        if "/manage/events/" in logs.get("error.log", "") and logs.get("gouji-access.log"):
            if logs["gouji-access.log"].count(" 502 ") >= 5:
                break
        time.sleep(0.05)
    assert "/manage/events/" in logs["error.log"]  # the error log works: it would have shown them
    for name, text in logs.items():
        for secret in secrets:
            assert secret not in text, (name, text)
    access = logs["gouji-access.log"]
    for masked in ("/ref/<token>/", "/entry/<token>/", "/manage/join/<token>/", "/ref/<token>/x"):
        assert f'GET {masked} HTTP/1.1" 502' in access, access


def _get_from(front: Front, address: str, path: str):
    """A GET from another client address of this machine (all of 127.0.0.0/8 is loopback):
    a second phone on the hall's Wi-Fi, where each phone has its own address."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", front.port, timeout=30, source_address=(address, 0)
    )
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        conn.close()


def test_one_address_using_up_its_allowance_leaves_the_others_theirs(live_server, tmp_path, event):
    """Issue 47, finding 10: behind the hall box the hall's phones reach the box on the hall's
    Wi-Fi, each from its own address (docs/hall-box.md, step 5). One phone's script uses up its
    own searches and streams; the phone beside it is still served."""
    b, _round = event
    small = {
        "rate=300r/s": "rate=1r/m",
        "burst=3000": "burst=2",
        "limit_conn gouji_streams 4000;": "limit_conn gouji_streams 1;",
    }
    with running_front(live_server, tmp_path / "nginx", changes=small) as front:
        url = reverse("public:find", args=[b.event.pk]) + "?q=x"
        script, neighbour = "127.0.0.2", "127.0.0.3"
        statuses = [_get_from(front, script, url)[0] for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        assert _get_from(front, neighbour, url)[0] == 200
        # A player's own live stream (/live/players/<token>/) counts against the address's
        # streams too: it had no limit_conn.
        from matches.models import UnionMember
        from matches.views.live import player_stream_url

        path = player_stream_url(UnionMember.objects.filter(event=b.event).first().player_id)
        stream = http.client.HTTPConnection(
            "127.0.0.1", front.port, timeout=30, source_address=(script, 0)
        )
        stream.request("GET", path)
        opened = stream.getresponse()
        try:
            assert opened.status == 200, opened.status
            status, headers, body = _get_from(front, script, path)
            assert status == 503 and headers["Retry-After"] == "10"
            assert "Too many live streams" in body
            assert _get_from(front, script, reverse("live:event", args=[b.event.pk]))[0] == 503
            neighbour_stream = http.client.HTTPConnection(
                "127.0.0.1", front.port, timeout=30, source_address=(neighbour, 0)
            )
            neighbour_stream.request("GET", path)
            try:
                assert neighbour_stream.getresponse().status == 200
            finally:
                neighbour_stream.close()
        finally:
            stream.close()
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    players = conf.split("location /live/players/ {", 1)[1].split("}", 1)[0]
    assert "limit_conn gouji_streams 4000;" in players
