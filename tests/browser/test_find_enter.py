"""Find my table on a 390 px phone: Enter and the 找 button give the whole page, with or without
htmx, and one request for it (no live fragment beside it); a query typed before htmx has loaded
gets its answer.

The page and its live fragment share one address (htmx pushes `?q=` into the address bar as the
player types): the answers vary on HX-Request, so the browser never shows the fragment it kept
from typing as the page that Enter asks for.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_festival_floor import OVERFLOW, hall  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _find_requests(page, event) -> list[str]:
    """Every request the page makes to the find address from now on, as "page" (a document)
    or "fragment" (htmx's live answer), in order."""
    seen: list[str] = []
    path = f"/events/{event.pk}/find/"

    def record(request) -> None:
        if path in request.url:
            seen.append("fragment" if request.headers.get("hx-request") else "page")

    page.on("request", record)
    return seen


def _whole_page(page, event) -> None:
    """The styled page: the site's header, the search form, the stylesheet, and the hits."""
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.locator("form.find-form #find-q")).to_be_visible()
    assert page.evaluate("document.styleSheets.length") >= 2
    expect(page.locator(".find-hit").first.locator("h2")).to_have_text("黄岛五队")
    expect(page.locator(".find-hit").first).to_contain_text("第 1 桌")
    assert page.evaluate(OVERFLOW) <= 0


@pytest.mark.parametrize("submit", ["Enter", "button"])
def test_enter_after_typing_gives_the_whole_page(live_server, browser, hall, submit):  # noqa: F811
    context = browser.new_context(locale="zh-CN", **PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = hall["event"]
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/find/")
        typing = _find_requests(page, event)
        page.locator("#find-q").press_sequentially("hdwd", delay=60)
        # The live answer (htmx) first, which pushed ?q=hdwd into the address bar.
        expect(page.locator(".find-hit").first.locator("h2")).to_have_text("黄岛五队")
        page.wait_for_url(f"**/events/{event.pk}/find/?q=hdwd")
        assert typing and set(typing) == {"fragment"}, typing  # live, as typed
        submitted = _find_requests(page, event)
        with page.expect_event("load"):
            if submit == "Enter":
                page.locator("#find-q").press("Enter")
            else:
                page.locator("form.find-form button[type=submit]").click()
        assert page.evaluate("document.doctype !== null")
        _whole_page(page, event)
        # Enter in a search box also fires its "search" event, which htmx answered with a
        # fragment request beside the page's: one request now, the page's.
        page.wait_for_timeout(500)  # longer than the live search's delay (250 ms)
        assert submitted == ["page"], submitted
        # Reloading the address gives the page too, not a fragment from the browser's cache.
        page.reload()
        _whole_page(page, event)
    finally:
        context.close()


def test_without_htmx_the_form_still_answers(live_server, browser, hall):  # noqa: F811
    context = browser.new_context(locale="zh-CN", java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = hall["event"]
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/find/")
        page.fill("#find-q", "hdwd")
        with page.expect_navigation():
            page.locator("#find-q").press("Enter")
        _whole_page(page, event)
    finally:
        context.close()


def test_a_query_typed_before_htmx_loads_is_answered(live_server, browser, hall):  # noqa: F811
    """On a slow hall network the player types before htmx has arrived: once it has, the query
    in the box is asked for, with no key pressed again."""
    context = browser.new_context(locale="zh-CN", **PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    held = []
    page.route("**/vendor/htmx-*.js", lambda route: held.append(route))
    event = hall["event"]
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/find/", wait_until="commit")
        asked = _find_requests(page, event)
        page.locator("#find-q").fill("hdwd")
        page.wait_for_timeout(300)
        assert held, "htmx was not asked for"
        expect(page.locator(".find-hit")).to_have_count(0)  # nothing could answer yet
        held[0].continue_()
        page.unroute("**/vendor/htmx-*.js")  # the next page's htmx comes at once
        expect(page.locator(".find-hit").first.locator("h2")).to_have_text("黄岛五队")
        page.wait_for_url(f"**/events/{event.pk}/find/?q=hdwd")
        page.wait_for_timeout(500)
        assert asked == ["fragment"], asked  # asked for once
        # Enter then gives the page, and only the page.
        submitted = _find_requests(page, event)
        with page.expect_event("load"):
            page.locator("#find-q").press("Enter")
        _whole_page(page, event)
        page.wait_for_timeout(500)
        assert submitted == ["page"], submitted
    finally:
        context.close()


def test_enter_at_once_after_typing_sends_no_live_search(live_server, browser, hall):  # noqa: F811
    """Enter pressed before the live search's delay is over, on a network slow to answer the
    page: the live search the typing had set going is not sent beside the page's request.

    The live search's delay is stretched from 250 ms to 3 s on this page, so a loaded machine's
    typing and Enter always come first; the test then waits until that search has come due
    (the page says so on its console), not for a time."""
    context = browser.new_context(locale="zh-CN", **PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = hall["event"]
    held = []
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/find/")
        page.evaluate(
            """() => {
                const box = document.querySelector("#find-q");
                box.setAttribute("hx-trigger", "input changed delay:3s, search-pending");
                htmx.process(box);
                document.addEventListener("htmx:beforeRequest", () => console.log("live search due"));
            }"""
        )
        sent = _find_requests(page, event)
        # The page's answer is held back: the old page (its timers) lives on meanwhile.
        page.route(
            f"**/events/{event.pk}/find/?q=*",
            lambda route: (
                held.append(route)
                if route.request.resource_type == "document"
                else route.continue_()
            ),
        )
        with page.expect_console_message(lambda m: m.text == "live search due", timeout=30_000):
            page.locator("#find-q").fill("hdwd")
            page.keyboard.press("Enter")  # (a locator's press would wait for the held page)
        # The live search came due after Enter, and was not sent.
        assert held and sent == ["page"], sent
        with page.expect_event("load"):
            held[0].continue_()
        _whole_page(page, event)
        assert sent == ["page"], sent
    finally:
        context.close()


def test_back_to_a_typed_search_gives_the_whole_page(live_server, browser, hall):  # noqa: F811
    """A player types, opens another page, then presses the phone's back button: the search
    comes back whole (htmx restores its own history entry; a reload of it is the page too)."""
    context = browser.new_context(locale="zh-CN", **PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = hall["event"]
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/find/", timeout=30_000)  # may be first
        page.locator("#find-q").press_sequentially("hdwd", delay=60)
        page.wait_for_url(f"**/events/{event.pk}/find/?q=hdwd")
        expect(page.locator(".find-hit").first.locator("h2")).to_have_text("黄岛五队")
        page.goto(f"{live_server.url}/")
        page.go_back()
        page.wait_for_url(f"**/events/{event.pk}/find/?q=hdwd")
        _whole_page(page, event)
        page.reload()
        _whole_page(page, event)
    finally:
        context.close()
