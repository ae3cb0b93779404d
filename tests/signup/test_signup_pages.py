"""The public registration page as a captain uses it on a phone: the form, the sum, each
refusal with its message at its field and everything typed kept, a second press of the button
making one request, the per-address limit, the honeypot, the private page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import EntryRequest
from tests.personas import english
from tests.signup.helpers import open_event

pytestmark = pytest.mark.django_db


def form_of(client: Client, url: str) -> dict:
    """What the page's form holds: the signed sum and its answer, read as a person reads it."""
    page = client.get(url).content.decode()
    token = re.search(r'name="challenge" value="([^"]+)"', page)
    question = re.search(r"(\d+) (?:加|plus) (\d+)", page)
    assert token is not None and question is not None, page
    a, b = question.groups()
    return {"challenge": token.group(1), "answer": str(int(a) + int(b))}


def typed(k: int = 1, **extra) -> dict:
    return {
        "union_name": f"网报联邦{k}",
        "player1": f"网报{k}甲",
        "player2": f"网报{k}乙",
        "player3": f"网报{k}丙",
        "captain": "2",
        "club": "",
        "contact": f"1390000{k:04d}",
        **extra,
    }


def send(client: Client, event, k: int = 1, **extra):
    url = reverse("public:signup", args=[event.pk])
    return client.post(url, {**form_of(client, url), **typed(k, **extra)})


def test_a_captain_registers_and_lands_on_the_private_page_with_link_qr_and_code():
    b = open_event(fee_fen=6000, capacity=10)
    client = Client()
    answer = send(client, b.event)
    assert answer.status_code == 302
    request = EntryRequest.objects.get(event=b.event)
    assert answer["Location"] == reverse("signup-page", args=[request.token]) + "?new=1"
    assert request.captain == 2 and request.union_name == "网报联邦1"
    page = client.get(answer["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    assert request.code in body and "<svg" in body and "等待组织者审核" in body
    assert "接受后应缴 60 元" in body


def test_the_page_in_english():
    b = open_event()
    client = Client()
    english(client)
    page = client.get(reverse("public:signup", args=[b.event.pk]))
    body = page.content.decode()
    assert "Register" in body and re.search(r"\d+ plus \d+", body)


def test_a_double_submit_makes_one_request():
    b = open_event()
    client = Client()
    url = reverse("public:signup", args=[b.event.pk])
    data = {**form_of(client, url), **typed()}
    first, second = client.post(url, data), client.post(url, data)
    assert first["Location"] == second["Location"]
    assert EntryRequest.objects.filter(event=b.event).count() == 1


def test_a_bad_field_is_said_at_the_field_and_keeps_everything_typed():
    b = open_event()
    client = Client()
    answer = send(client, b.event, player3="网报1甲", contact="12")
    body = answer.content.decode()
    assert answer.status_code == 400
    assert 'data-field="player3"' in body and "同一联邦中选手重名" in body
    assert "请填写完整的手机号或微信号" in body
    for value in ("网报联邦1", "网报1甲", "网报1乙"):
        assert f'value="{value}"' in body
    assert EntryRequest.objects.count() == 0
    # The sum was right: it is kept (hidden), not asked again.
    assert 'type="hidden" name="answer"' in body


def test_a_wrong_sum_asks_again_and_keeps_the_rest():
    b = open_event()
    client = Client()
    url = reverse("public:signup", args=[b.event.pk])
    data = {**form_of(client, url), **typed(), "answer": "999"}
    answer = client.post(url, data)
    body = answer.content.decode()
    assert answer.status_code == 400 and "算式答案不对" in body
    assert 'value="网报联邦1"' in body and EntryRequest.objects.count() == 0


def test_closed_registration_is_refused():
    b = open_event()
    client = Client()
    url = reverse("public:signup", args=[b.event.pk])
    data = {**form_of(client, url), **typed()}
    b.event.signup.is_open = False
    b.event.signup.save()
    answer = client.post(url, data)
    assert answer.status_code == 409 and 'data-state="off"' in answer.content.decode()
    assert "报名尚未开放" in answer.content.decode()
    assert EntryRequest.objects.count() == 0


def test_an_unpublished_event_without_open_registration_is_not_found():
    b = open_event(is_open=False)
    b.event.published = False
    b.event.save()
    assert Client().get(reverse("public:signup", args=[b.event.pk])).status_code == 404


def test_full_is_refused_and_the_form_kept():
    b = open_event(capacity=1, waitlist_limit=0)
    send(Client(), b.event, 1)
    answer = send(Client(), b.event, 2)
    body = answer.content.decode()
    assert answer.status_code == 409 and 'data-code="full"' in body
    assert 'value="网报联邦2"' in body


def test_a_duplicate_union_name_is_said_at_its_field():
    b = open_event()
    send(Client(), b.event, 1)
    answer = send(Client(), b.event, 2, union_name="网报联邦1")
    body = answer.content.decode()
    assert answer.status_code == 400 and "已被报名" in body
    assert re.search(r'data-field="union_name".*?已被报名', body, re.S)


def test_the_address_limit_refuses_with_429_and_keeps_the_form(settings):
    settings.RATE_LIMITS = {"signup_posts": {"limit": 2, "window": 600}}
    b = open_event()
    client = Client()
    assert send(client, b.event, 1).status_code == 302
    assert send(client, b.event, 2).status_code == 302
    answer = send(client, b.event, 3)
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert 'value="网报联邦3"' in answer.content.decode()
    assert EntryRequest.objects.count() == 2


def test_the_honeypot_refuses_a_bot():
    b = open_event()
    answer = send(Client(), b.event, website="http://spam.example")
    assert answer.status_code == 400 and EntryRequest.objects.count() == 0


def test_the_club_guard_warns_of_a_typo_and_a_confirmed_new_club_passes():
    from players.models import Club

    Club.objects.create(name="李沧俱乐部")
    b = open_event()
    client = Client()
    answer = send(client, b.event, club="李滄俱樂部")
    body = answer.content.decode()
    assert answer.status_code == 400 and "繁体" in body
    assert send(client, b.event, club="李沧俱乐部").status_code == 302
    assert EntryRequest.objects.get().club_name == "李沧俱乐部"


def test_the_registrant_edits_and_withdraws_from_the_private_page():
    b = open_event(capacity=1, review=False)
    client = Client()
    location = send(client, b.event, 1)["Location"].split("?")[0]
    waiting = Client()
    waiting_page = send(waiting, b.event, 2)["Location"].split("?")[0]
    token = location.rstrip("/").split("/")[-1]
    edited = client.post(reverse("signup-edit", args=[token]), typed(1, union_name="新名字"))
    assert edited.status_code == 302
    assert EntryRequest.objects.get(token=token).registration.union.name == "新名字"
    assert "候补第 1 位" in waiting.get(waiting_page).content.decode()
    unconfirmed = client.post(reverse("signup-withdraw", args=[token]), follow=True)
    assert "请先勾选确认" in unconfirmed.content.decode()
    assert EntryRequest.objects.get(token=token).status == EntryRequest.Status.ACCEPTED
    client.post(reverse("signup-withdraw", args=[token]), {"confirm": "yes"})
    body = waiting.get(waiting_page).content.decode()
    assert 'data-status="accepted"' in body and 'id="signup-promoted"' in body
    assert 'data-status="withdrawn"' in client.get(location).content.decode()


def test_a_wrong_token_is_not_found():
    assert Client().get(reverse("signup-page", args=["nope"])).status_code == 404


@pytest.mark.parametrize("role, status, made", [("box", 302, 1), ("mirror", 403, 0)])
def test_registration_works_on_the_hall_box_and_is_refused_on_the_mirror(
    settings, role, status, made
):
    b = open_event()
    client = Client()
    url = reverse("public:signup", args=[b.event.pk])
    data = {**form_of(client, url), **typed()}
    settings.SITE_ROLE = role
    settings.STAFF_BASE_URL = "http://192.168.1.10"
    answer = client.post(url, data)
    assert answer.status_code == status
    assert EntryRequest.objects.count() == made
    if role == "mirror":
        page = client.get(url).content.decode()
        assert "报名请使用赛场主机的地址" in page and 'id="signup-submit"' not in page
        token = "x" * 24
        assert client.post(reverse("signup-withdraw", args=[token])).status_code == 403
