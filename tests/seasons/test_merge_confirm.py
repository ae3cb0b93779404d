"""A merge of two player records is confirmed on a page of its own (docs/ratings.md, "Merge"):
both records side by side (names, clubs, member numbers, the events each played with their
dates, ratings) and what the kept record will be. Nothing merges until its confirm button is
pressed; a wrong choice is swapped or dropped before that; records that change meanwhile are
shown again; another organiser's players are not theirs to merge."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from matches.events import entries
from players.models import Club, Player
from seasons.models import MergeRequest, PlayerMerge, PlayerRating
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db

URL = "seasons-manage:merge"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def twins():
    """One organiser's two cups; 张三 entered each, once for 海大 and once for 别处."""
    Club.objects.create(name="海大")
    spring = EventBuilder(unions=0, name="春季杯", start_date=datetime.date(2026, 4, 5)).register()
    organiser = spring.organiser
    autumn = EventBuilder(unions=0, name="秋季杯", start_date=datetime.date(2026, 10, 3)).register()
    autumn.event.organisers.set([organiser])
    one = entries.add(spring.event, players=["张三", "甲二", "甲三"], name="A甲", club="海大")
    two = entries.add(autumn.event, players=["张三", "乙二", "乙三"], name="A乙", club="别处")
    kept, merged = one.union.players_in_order()[0], two.union.players_in_order()[0]
    assert kept.pk != merged.pk
    Player.objects.filter(pk=merged.pk).update(member_number="QD-0007")
    PlayerRating.objects.create(player=kept, mu=27.4, sigma=4.1, ordinal=15.1, events=1)
    return {"organiser": organiser, "kept": kept, "merged": merged}


def show(client, kept, merged, **extra):
    return client.get(reverse(URL), {"kept": kept.pk, "merged": merged.pk, **extra})


def test_the_page_shows_both_records_and_the_result_and_merges_nothing(twins):
    client = signed_in(twins["organiser"])
    kept, merged = twins["kept"], twins["merged"]
    page = show(client, kept, merged)
    assert page.status_code == 200
    html = page.content.decode()
    for seen in ("张三", "海大", "别处", "春季杯", "2026-04-05", "秋季杯", "2026-10-03", "QD-0007"):
        assert seen in html, seen
    assert "15.1" in html and "尚无等级分" in html  # one rated, one not
    assert "按合并后的全部计分轮次重新计算" in html
    shown = page.context["shown"]
    assert [e.name for e in shown.kept.events] == ["春季杯"]
    assert [e.name for e in shown.events] == ["秋季杯", "春季杯"]  # newest first
    assert shown.member_number == "QD-0007"  # the kept record has none: it takes this one
    assert 'id="merge-yes"' in html and f"?kept={merged.pk}&amp;merged={kept.pk}" in html
    assert Player.objects.filter(pk=merged.pk).exists() and not PlayerMerge.objects.exists()
    # The form of the players page, sent as before (a page left open), merges nothing either.
    old = client.post(reverse("seasons-manage:players"), {"kept": kept.pk, "merged": merged.pk})
    assert old.status_code == 302 and old["Location"].startswith(reverse(URL))
    assert Player.objects.filter(pk=merged.pk).exists() and not PlayerMerge.objects.exists()


def test_only_the_confirm_button_merges_and_the_merge_is_logged_with_who_and_when(twins):
    client = signed_in(twins["organiser"])
    kept, merged = twins["kept"], twins["merged"]
    ids = {"kept": kept.pk, "merged": merged.pk}
    seen = show(client, kept, merged).context["shown"].fingerprint
    # Pressing Enter in an address bar, a form without the button's fields: shown again.
    for data in (ids, {**ids, "seen": seen}, {**ids, "confirm": "yes"}):
        again = client.post(reverse(URL), data)
        assert again.status_code in (400, 409) and 'id="merge-compare"' in again.content.decode()
    assert Player.objects.filter(pk=merged.pk).exists() and not PlayerMerge.objects.exists()
    done = client.post(reverse(URL), {**ids, "seen": seen, "confirm": "yes"})
    assert done.status_code == 302
    log = PlayerMerge.objects.get()
    assert (log.kept_id, log.merged_id, log.by) == (kept.pk, merged.pk, twins["organiser"])
    assert log.at is not None and log.merged_fields["member_number"] == "QD-0007"
    assert not Player.objects.filter(pk=merged.pk).exists()
    # Confirmed twice (a double tap): the second finds no record to merge and merges nothing.
    twice = client.post(reverse(URL), {**ids, "seen": seen, "confirm": "yes"})
    assert twice.status_code == 400 and PlayerMerge.objects.count() == 1


def test_a_record_changed_after_it_was_shown_is_shown_again(twins):
    client = signed_in(twins["organiser"])
    kept, merged = twins["kept"], twins["merged"]
    seen = show(client, kept, merged).context["shown"].fingerprint
    Player.objects.filter(pk=merged.pk).update(name="张叁")  # renamed in another tab
    stale = client.post(
        reverse(URL), {"kept": kept.pk, "merged": merged.pk, "seen": seen, "confirm": "yes"}
    )
    assert stale.status_code == 409
    assert 'id="merge-changed"' in stale.content.decode() and "张叁" in stale.content.decode()
    assert not PlayerMerge.objects.exists()


def test_a_wrong_choice_is_swapped_or_dropped_before_the_confirm(twins):
    client = signed_in(twins["organiser"])
    kept, merged = twins["kept"], twins["merged"]
    swapped = show(client, merged, kept)  # the swap link's address
    assert swapped.context["shown"].kept.player == merged
    back = client.get(reverse("seasons-manage:players"), {"kept": kept.pk, "merged": merged.pk})
    html = back.content.decode()
    assert back.status_code == 200 and f'value="{kept.pk}"' in html  # the choice, to change
    assert not PlayerMerge.objects.exists()


def test_two_records_of_one_event_are_refused_before_any_button(twins):
    client = signed_in(twins["organiser"])
    kept = twins["kept"]
    partner = Player.objects.get(name="甲二")  # same union, same event
    page = show(client, kept, partner)
    html = page.content.decode()
    assert 'id="merge-refusal"' in html and "同一赛事" in html and 'id="merge-yes"' not in html
    posted = client.post(reverse(URL), {"kept": kept.pk, "merged": partner.pk, "confirm": "yes"})
    assert posted.status_code == 400 and not PlayerMerge.objects.exists()


def test_another_organiser_cannot_merge_or_see_your_players(twins):
    kept, merged = twins["kept"], twins["merged"]
    ids = {"kept": kept.pk, "merged": merged.pk}
    rival = EventBuilder(unions=0, name="别人的杯").register().organiser
    assert rival != twins["organiser"]
    client = signed_in(rival)
    page = show(client, kept, merged)
    assert page.status_code == 400 and "只能合并自己赛事中的选手" in page.content.decode()
    assert "春季杯" not in page.content.decode()  # the refusal shows nothing of them
    from seasons.identity import fingerprint

    forged = {**ids, "seen": fingerprint(kept, merged), "confirm": "yes"}
    assert client.post(reverse(URL), forged).status_code == 400
    assert not PlayerMerge.objects.exists() and not MergeRequest.objects.exists()
    stranger = signed_in(make_user("stranger"))  # runs no event at all
    assert show(stranger, kept, merged).status_code == 403
    assert stranger.post(reverse(URL), forged).status_code == 403
    assert Client().get(reverse(URL), ids).status_code == 302  # to sign in
    assert Player.objects.filter(pk=merged.pk).exists()


def test_the_page_is_in_english_too(twins):
    client = signed_in(twins["organiser"])
    page = client.get(
        reverse(URL),
        {"kept": twins["kept"].pk, "merged": twins["merged"].pk},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    html = page.content.decode()
    assert "Check, then merge" in html and "Merged record" in html
    assert "核对后合并" not in html and "合并后" not in html
