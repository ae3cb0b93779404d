"""The public pages' ETags and shared caches.

- The ETag of a public page is the release (the templates' stamp) and its event's public
  stamp (`matches.public.stamps`), the language, page or htmx fragment, and the query parameters the view reads. Its function reads
  the public event once (the precompiled statement of `public_event_or_none`) and hands the row
  to the view (`request.public_event`): one read of the event per request.
- `shared_cache` keeps a live fragment's bytes in Django's cache under its ETag, and `page`
  keeps a full page's costly fragment there the same way: every spectator polling a live event
  gets the same bytes, and a new result changes the ETag, so nothing goes stale (the entries
  simply age out after `PAGE_CACHE_SECONDS`).
- Every answer varies on `HX-Request` (fragment or page), the cookie and the language.
"""

from __future__ import annotations

import functools
import hashlib
import time

from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from matches.public import stamps, visibility

PAGE_CACHE_SECONDS = 300


def etag_from(version, prefix: str = "", params=lambda request: ""):
    """An ETag function for `condition`: the event's public stamp `version(event)`, the language,
    page or htmx fragment, and the query parameters the view reads (`params(request)`)."""

    def etag_func(request, event_id, *args, **kwargs):
        event = visibility.public_event_or_none(event_id)
        if event is None:
            return None
        fragment = "hx" if request.headers.get("HX-Request") else "page"
        etag = (
            f"{prefix}{stamps.release()}-{version(event)}-{get_language()}-{fragment}"
            f"-{params(request)}"
        )
        request.public_etag = etag  # for `page`, which caches a full page's fragment under it
        request.public_event = event  # for the view: the same row, no second read
        return etag

    return etag_func


event_etag = etag_from(stamps.event_version)


def public_event(request, event_id: int):
    """The published event of the page, as its ETag function read it (or read now)."""
    event = getattr(request, "public_event", None)
    if event is not None and event.pk == event_id:
        return event
    return visibility.public_event_or_404(event_id)


def cacheable(response):
    # Revalidate every time: the ETag makes that a 304 when nothing changed.
    patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
    patch_vary_headers(response, ["HX-Request", "Cookie", "Accept-Language"])
    return response


def shared_cache(view=None, *, etag_func=None):
    """Keep a live fragment's rendering in the cache under its ETag.

    Only htmx fragments: a full page carries a signed-in visitor's name and CSRF token."""
    if view is None:
        return functools.partial(shared_cache, etag_func=etag_func)
    etag_func = etag_func or event_etag

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "GET" or not request.headers.get("HX-Request"):
            return view(request, *args, **kwargs)
        etag = getattr(request, "public_etag", None) or etag_func(request, *args, **kwargs)
        if etag is None:
            return view(request, *args, **kwargs)
        key = "public-page:" + hashlib.sha1(f"{request.path}|{etag}".encode()).hexdigest()
        content = cache.get(key)
        if content is not None:
            return cacheable(HttpResponse(content))
        response = view(request, *args, **kwargs)
        if response.status_code == 200:
            cache.set(key, response.content, PAGE_CACHE_SECONDS)
        return response

    return wrapper


def shared_fragment(key: str | None, render_fragment) -> str:
    """The fragment under `key`, rendered by one request only when it is missing.

    When the standings change, every reader misses the cache at the same moment; without the
    lock each of them rendered the whole table (thousands of rows at a festival) at once. The
    others wait a little for the one rendering, then render themselves if it is slow."""
    if key is None:
        return render_fragment()
    html = cache.get(key)
    if html is not None:
        return html
    if not cache.add(key + ":lock", 1, 10):
        for _ in range(40):  # up to about 2 s
            time.sleep(0.05)
            html = cache.get(key)
            if html is not None:
                return html
    html = render_fragment()
    cache.set(key, html, PAGE_CACHE_SECONDS)
    cache.delete(key + ":lock")
    return html


def page(request, full: str, fragment: str, context: dict, fragment_context=None):
    """Render the full page or, for htmx, its live fragment.

    With `fragment_context` (a function giving what only the fragment needs), a full page
    takes its fragment from the shared cache as well: the fragment is the same for every
    visitor and the costly part (a festival's standings are thousands of rows), while the page
    around it carries a signed-in visitor's name and CSRF token and is rendered each time.
    """
    if request.headers.get("HX-Request"):
        if fragment_context is not None:
            context = {**context, **fragment_context()}
        return cacheable(render(request, fragment, context))
    if fragment_context is not None:
        etag = getattr(request, "public_etag", None)
        key = (
            "public-fragment:" + hashlib.sha1(f"{request.path}|{etag}".encode()).hexdigest()
            if etag
            else None
        )
        html = shared_fragment(
            key, lambda: render_to_string(fragment, {**context, **fragment_context()}, request)
        )
        context = {**context, "fragment_html": mark_safe(html)}
    return cacheable(render(request, full, context))
