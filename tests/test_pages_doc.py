"""docs/pages.md lists every URL pattern the project serves, with its view: checked here
against Django's URL resolver, so the page list cannot drift from the code."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

DOC = Path(__file__).resolve().parent.parent / "docs" / "pages.md"

# Internals the doc leaves out on purpose (docs/pages.md says so too): Django's admin and
# drf-spectacular's schema and Swagger UI. Static files are served by nginx, not routed.
LEFT_OUT = ("admin/", "api/schema/", "api/docs/")

# A row of a pages table: | `/url/<int:x>/` | `module.view` | template | who |
ROW = re.compile(r"^\| `(/[^`]*)` \| `([\w.]+)` \|")

# A value each path converter accepts, to turn a documented pattern into a real path.
SAMPLES = {"int": "7", "str": "abc", "slug": "abc", "path": "a/b", "uuid": "0" * 32}


def documented() -> dict[str, str]:
    rows: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found:
            url, view = found.groups()
            assert url not in rows, f"{url} is listed twice in docs/pages.md"
            rows[url] = view
    return rows


def served(resolver: URLResolver | None = None, prefix: str = ""):
    """Every (route, callback) of the project, nested includes flattened."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from served(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.callback


def view_name(callback) -> str:
    """The view as its module names it (views made by a factory share a `__name__`, so the
    module attribute that holds the callback is the name)."""
    view = getattr(callback, "view_class", callback)
    module = sys.modules[view.__module__]
    attr = next((k for k, v in vars(module).items() if v is callback or v is view), view.__name__)
    return f"{view.__module__}.{attr}"


def project_routes() -> dict[str, str]:
    return {
        "/" + route: view_name(callback)
        for route, callback in served()
        if not route.startswith(LEFT_OUT)
    }


def sample_path(pattern: str) -> str:
    return re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], pattern)


def test_the_doc_has_a_table_of_pages():
    rows = documented()
    assert len(rows) > 100
    assert rows["/events/<int:event_id>/standings/"] == "matches.views.public.standings_page"


def test_every_url_pattern_of_the_project_is_in_the_doc():
    missing = sorted(set(project_routes()) - set(documented()))
    assert not missing, f"add these URL patterns to docs/pages.md: {missing}"


@pytest.mark.parametrize("url,view", sorted(documented().items()))
def test_every_documented_path_resolves_to_its_view(url, view):
    path = sample_path(url)
    try:
        match = resolve(path)
    except Resolver404:
        pytest.fail(f"docs/pages.md lists {url}, which no longer resolves")
    assert "/" + match.route == url, f"{path} resolves to /{match.route}, not {url}"
    assert view_name(match.func) == view, f"{url} is served by {view_name(match.func)}"


def test_a_stale_row_is_caught():
    """The check can fail: a pattern that the project does not serve does not resolve."""
    with pytest.raises(Resolver404):
        resolve(sample_path("/events/<int:event_id>/no-such-page/"))
    assert "/events/<int:event_id>/no-such-page/" not in project_routes()
