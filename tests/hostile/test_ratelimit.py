"""Rate limits and brute-force lockouts of the referee-token and login endpoints."""
from __future__ import annotations

import time

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.RATE_LIMITS = {
        "referee_token_failures": {"limit": 3, "window": 60, "lockout": 2},
        "referee_token_requests": {"limit": 8, "window": 60},
        "login_failures_ip": {"limit": 4, "window": 60, "lockout": 2},
        "login_failures_account": {"limit": 3, "window": 60, "lockout": 2},
        "login_requests": {"limit": 50, "window": 60},
        "api_token_failures": {"limit": 3, "window": 60, "lockout": 60},
    }


def api(ip: str, authorization: str) -> APIClient:
    client = APIClient(REMOTE_ADDR=ip)
    client.credentials(HTTP_AUTHORIZATION=authorization)
    return client


def table_url(setup) -> str:
    return f"/api/v1/tables/{setup.table.pk}"


def test_wrong_referee_tokens_lock_the_address_out(limits, setup):
    guesser = api("10.0.0.1", "Referee not-a-token")
    assert [guesser.get(table_url(setup)).status_code for _ in range(3)] == [401] * 3
    response = guesser.get(table_url(setup))
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert "wrong referee tokens" in response.json()["error"]["message"]
    assert int(response["Retry-After"]) >= 1
    # Locked means refused unchecked: even the right token from that address waits.
    assert api("10.0.0.1", "Referee " + setup.link.token).get(table_url(setup)).status_code == 429
    # Another address is not affected.
    assert api("10.0.0.2", "Referee " + setup.link.token).get(table_url(setup)).status_code == 200
    time.sleep(2.1)  # the lockout (2 s here) ends
    assert api("10.0.0.1", "Referee " + setup.link.token).get(table_url(setup)).status_code == 200


def test_legitimate_referee_use_is_not_blocked(limits, setup):
    """Right tokens never count as failures; two wrong ones between them do not lock."""
    referee = api("10.0.1.1", "Referee " + setup.link.token)
    statuses = [referee.get(table_url(setup)).status_code for _ in range(6)]
    assert statuses == [200] * 6
    for _ in range(2):
        assert api("10.0.1.1", "Referee typo").get(table_url(setup)).status_code == 401
    assert api("10.0.1.2", "Referee " + setup.link.token).get(table_url(setup)).status_code == 200


def test_one_referee_link_is_rate_limited(limits, setup):
    referee = api("10.0.2.1", "Referee " + setup.link.token)
    statuses = [referee.get(table_url(setup)).status_code for _ in range(9)]
    assert statuses == [200] * 8 + [429]


def test_wrong_api_tokens_lock_the_address_out(limits, setup):
    guesser = api("10.0.3.1", "Token 0123456789abcdef")
    assert [guesser.get(table_url(setup)).status_code for _ in range(3)] == [401] * 3
    assert guesser.get(table_url(setup)).status_code == 429
    right = "Token " + Token.objects.create(user=setup.referee).key
    assert api("10.0.3.2", right).get(table_url(setup)).status_code == 200


def test_guessing_referee_links_on_the_pages_locks_out(limits, setup):
    browser = Client(REMOTE_ADDR="10.0.4.1")
    assert [browser.get(f"/ref/guess{k}/").status_code for k in range(3)] == [404] * 3
    response = browser.get(f"/ref/{setup.link.token}/")
    assert response.status_code == 429 and "Retry-After" in response
    assert Client(REMOTE_ADDR="10.0.4.2").get(f"/ref/{setup.link.token}/").status_code == 200


def login(ip: str, username: str, password: str):
    return Client(REMOTE_ADDR=ip).post("/accounts/login/",
                                       {"username": username, "password": password})


def test_wrong_passwords_lock_the_account_with_a_clear_message(limits, setup):
    # One account, three addresses: the failure that reaches the limit already says so.
    statuses = [login(ip, "organiser", "wrong").status_code
                for ip in ("10.1.0.1", "10.1.0.2", "10.1.0.3")]
    assert statuses == [200, 200, 429]
    response = login("10.1.0.4", "organiser", "pw-organiser")  # right, but the account is locked
    assert response.status_code == 429
    assert "_auth_user_id" not in response.client.session
    assert "分钟后再试" in response.content.decode() or "minute" in response.content.decode()
    # Other accounts sign in as usual.
    assert login("10.1.0.4", "referee", "pw-referee").status_code == 302
    time.sleep(2.1)
    assert login("10.1.0.4", "organiser", "pw-organiser").status_code == 302


def test_one_address_trying_many_accounts_is_locked(limits, setup):
    for name in ("a", "b", "c", "d"):
        login("10.2.0.1", name, "wrong")
    assert login("10.2.0.1", "referee", "pw-referee").status_code == 429
    assert login("10.2.0.2", "referee", "pw-referee").status_code == 302


def test_a_successful_sign_in_clears_the_account_failures(limits, setup):
    for _ in range(2):
        assert login("10.3.0.1", "organiser", "wrong").status_code == 200
    assert login("10.3.0.1", "organiser", "pw-organiser").status_code == 302
    for _ in range(2):
        assert login("10.3.0.2", "organiser", "wrong").status_code == 200
    assert login("10.3.0.2", "organiser", "pw-organiser").status_code == 302


def test_the_admin_login_is_locked_too(limits, setup):
    admin = Client(REMOTE_ADDR="10.4.0.1")
    for _ in range(3):
        admin.post("/admin/login/", {"username": "admin", "password": "wrong"})
    admin.post("/admin/login/", {"username": "admin", "password": "pw-admin"})
    assert admin.get("/admin/").status_code == 302  # still not signed in


def test_login_posts_are_rate_limited_per_address(limits, settings, setup):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login_requests": {"limit": 2, "window": 60}}
    assert login("10.5.0.1", "referee", "pw-referee").status_code == 302
    assert login("10.5.0.1", "referee", "pw-referee").status_code == 302
    assert login("10.5.0.1", "referee", "pw-referee").status_code == 429
