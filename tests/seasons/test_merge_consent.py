"""The merge consent flow end to end, with transactions that really commit (docs/security.md,
"Who owns a person"): a test's own rolled-back transaction never checks the foreign keys a
commit checks, so a request accepted there looked done while every real acceptance failed.

Organiser A asks to merge two records of one person that B's events hold too; B (and anyone
who enters either record meanwhile) answers on their players page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.events import entries
from players.models import Player
from seasons.models import MergeRequest, PlayerMerge
from tests.builder import EventBuilder
from tests.seasons.owners import (  # noqa: F401 (fixtures)
    merge_on_page,
    pulled_in,
    signed_in,
    two_organisers,
)

pytestmark = pytest.mark.django_db(transaction=True)


def answer(client, asked: MergeRequest, what: str):
    return client.post(reverse("seasons-manage:merge-answer", args=[asked.pk, what]))


def test_an_accepted_request_merges_and_its_record_is_kept(pulled_in):
    o = pulled_in
    wang, copy = o["public"][0], o["copy"]
    assert merge_on_page(signed_in(o["a"]), wang, copy).status_code == 302
    asked = MergeRequest.objects.get()
    b = signed_in(o["b"])
    # Each request is its own transaction here: the merge's commit checks every foreign key.
    assert answer(b, asked, "accept").status_code == 302
    asked.refresh_from_db()
    assert asked.state == MergeRequest.State.DONE
    assert asked.merged_id is None  # the merged record is gone; the request keeps its number
    assert (asked.merged_number, asked.merged_name) == (copy.pk, "王五")
    merge = PlayerMerge.objects.get()
    assert asked.merge_id == merge.pk and merge.kept_id == wang.pk and merge.by_id == o["a"].pk
    assert not Player.objects.filter(pk=copy.pk).exists()
    # Both organisers read the outcome on their players page.
    page = signed_in(o["a"]).get(reverse("seasons-manage:players")).content.decode()
    assert f"(#{copy.pk})" in page and "已合并" in page
    assert signed_in(o["b"]).get(reverse("seasons-manage:players")).status_code == 200


def test_an_organiser_who_enters_a_record_after_the_request_is_asked_too(pulled_in):
    o = pulled_in
    wang, copy = o["public"][0], o["copy"]
    merge_on_page(signed_in(o["a"]), wang, copy)
    asked = MergeRequest.objects.get()
    assert set(asked.waiting) == {o["b_public"].pk, o["b_second"].pk}
    # Organiser C enters 王五 (B's public record) in a cup of C's after A asked.
    c_cup = EventBuilder(unions=0, name="C 的杯").register()
    c = c_cup.organiser
    assert c not in (o["a"], o["b"])
    entries.add(
        c_cup.event,
        players=["王五", "丙二", "丙三"],
        name="C甲",
        club="海大",
        user=c,
        known={wang.pk},
    )
    # C is told on the players page, before anyone else answers.
    page = signed_in(c).get(reverse("seasons-manage:players")).content.decode()
    assert f'data-request="{asked.pk}"' in page
    # B's acceptance does not make the merge: C's cup would be rewritten without C's word.
    assert answer(signed_in(o["b"]), asked, "accept").status_code == 302
    asked.refresh_from_db()
    assert asked.state == MergeRequest.State.OPEN and asked.waiting == [c_cup.event.pk]
    assert Player.objects.filter(pk=copy.pk).exists() and not PlayerMerge.objects.exists()
    assert answer(signed_in(c), asked, "accept").status_code == 302
    asked.refresh_from_db()
    assert asked.state == MergeRequest.State.DONE
    assert not Player.objects.filter(pk=copy.pk).exists()
    assert {a["event"] for a in asked.answers} == {
        o["b_public"].pk,
        o["b_second"].pk,
        c_cup.event.pk,
    }


def test_an_organiser_whose_event_left_the_records_is_no_longer_asked(pulled_in):
    o = pulled_in
    merge_on_page(signed_in(o["a"]), o["public"][0], o["copy"])
    asked = MergeRequest.objects.get()
    # B's second cup is deleted meanwhile: only the public cup still needs B's word.
    o["b_second"].delete()
    assert answer(signed_in(o["b"]), asked, "accept").status_code == 302
    asked.refresh_from_db()
    assert asked.state == MergeRequest.State.DONE
    assert [a["event"] for a in asked.answers] == [o["b_public"].pk]


def test_a_refusal_commits_and_merges_nothing(pulled_in):
    o = pulled_in
    merge_on_page(signed_in(o["a"]), o["public"][0], o["copy"])
    asked = MergeRequest.objects.get()
    assert answer(signed_in(o["b"]), asked, "refuse").status_code == 302
    asked.refresh_from_db()
    assert asked.state == MergeRequest.State.REFUSED and asked.merged_id == o["copy"].pk
    assert not PlayerMerge.objects.exists()
