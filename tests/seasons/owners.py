"""Two organisers who share people (docs/security.md, "Who owns a person"): the fixtures of
the ownership and merge-consent tests, and the merge as the page makes it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.events import entries
from players.models import Club
from tests.builder import EventBuilder


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two_organisers():
    """Organiser B runs a published cup and an unpublished one; organiser A runs a cup of
    their own."""
    club = Club.objects.create(name="海大")
    b_public = EventBuilder(unions=0, name="B 的公开杯").register()
    organiser_b = b_public.organiser
    public = entries.add(b_public.event, players=["王五", "赵六", "孙七"], name="B甲", club="海大")
    hidden = EventBuilder(unions=0, name="B 的内部杯", published=False).register()
    hidden.event.organisers.set([organiser_b])
    secret = entries.add(hidden.event, players=["隐士", "钱八", "周九"], name="B乙", club="海大")
    a = EventBuilder(unions=0, name="A 的杯").register()
    assert a.organiser != organiser_b
    return {
        "club": club,
        "b": organiser_b,
        "b_public": b_public.event,
        "public": public.union.players_in_order(),
        "hidden": hidden.event,
        "secret": secret.union.players_in_order(),
        "a": a.organiser,
        "a_event": a.event,
    }


@pytest.fixture
def pulled_in(two_organisers):
    """B has two records of one person, each in one of B's events; A enters each of them in an
    event of A's (confirming the public match), so both appear in A's events too."""
    o = two_organisers
    b_second = EventBuilder(unions=0, name="B 的第二杯").register()
    b_second.event.organisers.set([o["b"]])
    copy = entries.add(b_second.event, players=["王五", "吴一", "吴二"], name="B丙", club="别处")
    o["copy"] = copy.union.players_in_order()[0]
    o["b_second"] = b_second.event
    a_second = EventBuilder(unions=0, name="A 的第二杯").register()
    a_second.event.organisers.set([o["a"]])
    o["a_second"] = a_second.event
    wang = o["public"][0]
    entries.add(
        o["a_event"],
        players=["王五", "甲二", "甲三"],
        name="A甲",
        club="海大",
        user=o["a"],
        known={wang.pk},
    )
    entries.add(
        a_second.event,
        players=["王五", "乙二", "乙三"],
        name="A乙",
        club="别处",
        user=o["a"],
        known={o["copy"].pk},
    )
    return o


def merge_on_page(client, kept, merged):
    """As on the page: the two records shown side by side, then the confirm button."""
    url = reverse("seasons-manage:merge")
    ids = {"kept": kept.pk, "merged": merged.pk}
    shown = client.get(url, ids)
    assert shown.status_code == 200
    return client.post(url, {**ids, "seen": shown.context["shown"].fingerprint, "confirm": "yes"})
