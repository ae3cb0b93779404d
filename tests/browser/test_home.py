from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_shows_the_title_and_switches_language(live_server, page):
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "够级赛事"
    assert page.title().startswith("够级赛事")
    # A keyboard user can skip straight to the content.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "跳到正文"

    with page.expect_navigation():
        page.select_option("#language-select", "en")
    assert page.locator("html").get_attribute("lang") == "en"


def test_home_page_fits_a_phone_screen(live_server, phone_page):
    phone_page.goto(live_server.url + "/")
    # Nothing scrolls sideways on a 390px-wide phone.
    overflow = phone_page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
