"""Browser tests: Python Playwright driving Debian's Chromium (installed by `make chromium`).

Playwright's sync API runs an event loop in this thread, and Django refuses ORM calls from a
thread with a running loop; the tests only touch the ORM from plain synchronous code, so the
guard is lifted for this directory.
"""

from __future__ import annotations

import os
import re
import shutil
from urllib.parse import urlsplit

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PAGE_TIMEOUT = 30_000  # ms: see `patient_expectations`
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _close_leftover_contexts(browser):
    """Close every context a test left open. A leaked page goes on polling the live server after
    its test, and the server's thread then prints tracebacks into later, unrelated tests."""
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture(autouse=True)
def patient_expectations():
    """Playwright's expectations give up after 5 s and the pages' actions (the fixtures below)
    after 10 s: enough on a quiet machine, not on this shared one under load, where one page
    load took longer. Both wait for their condition, so a passing test waits no longer; only
    a failing one is told later. (A module may set its own, as the same fixture.)"""
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT)
    yield page
    context.close()


@pytest.fixture
def phone_page(browser):
    """A phone-sized page, as a referee at the table holds it."""
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT)
    yield page
    context.close()


@pytest.fixture
def signed_in(live_server):
    """Signs a person in on a page through the login form and waits for the page they were
    going to: `signed_in(page, "organiser")` opens /manage/, `signed_in(page, "captain_b",
    next="/referee/")` the referee's home. The password defaults to the test personas'
    `pw-<username>` (tests/personas.py)."""

    def sign_in(page, username: str, password: str | None = None, next: str = "/manage/"):
        page.goto(f"{live_server.url}/accounts/login/?next={next}")
        page.fill("input[name='username']", username)
        page.fill("input[name='password']", password or f"pw-{username}")
        page.locator("main form button[type='submit']").click()
        page.wait_for_url(re.compile(re.escape(urlsplit(next).path)))
        return page

    return sign_in
