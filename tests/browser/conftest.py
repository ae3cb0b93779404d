"""Browser tests: Python Playwright driving Debian's Chromium (installed by `make chromium`).

Playwright's sync API runs an event loop in this thread, and Django refuses ORM calls from a
thread with a running loop; the tests only touch the ORM from plain synchronous code, so the
guard is lifted for this directory.
"""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
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


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def phone_page(browser):
    """A phone-sized page, as a referee at the table holds it."""
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
