"""Who may change a person (issue 38, findings 1 and 2; docs/security.md, "Who owns a person").

Organiser B runs a published cup and an unpublished one. Organiser A — any account may make an
event — adds entries with B's players' names and edits them, imports them, and tries to merge
them. Nothing A does renames B's records, tells A who is entered in B's unpublished event,
writes A's typing into B's records, or changes B's events.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from matches.events import entries, importing
from matches.models import Registration
from players.models import Player
from tests.builder import EventBuilder
from tests.seasons.owners import (  # noqa: F401 (fixtures)
    merge_on_page,
    pulled_in,
    signed_in,
    two_organisers,
)

pytestmark = pytest.mark.django_db


def _post_entry(client, event, players, *, union="A甲", club="海大", **extra):
    data = {"union": union, "club": club, "captain": "1"}
    data.update({f"player{k}": name for k, name in enumerate(players, start=1)})
    data.update(extra)
    return client.post(reverse("manage:entries", args=[event.pk]), data)


def test_a_player_only_in_another_organisers_unpublished_event_is_not_found(two_organisers):
    o = two_organisers
    client = signed_in(o["a"])
    answer = _post_entry(client, o["a_event"], ["隐士", "新人一", "新人二"])
    # No question asked: nothing known was found, so nothing tells A that 隐士 plays for B.
    assert answer.status_code == 302
    entry = Registration.objects.get(event=o["a_event"])
    assert entry.union.players_in_order()[0].pk != o["secret"][0].pk
    assert (
        "内部杯"
        not in client.get(reverse("manage:entries", args=[o["a_event"].pk])).content.decode()
    )


def test_a_public_match_is_confirmed_in_the_form_before_it_is_linked(two_organisers):
    o = two_organisers
    client = signed_in(o["a"])
    asked = _post_entry(client, o["a_event"], ["王五", "赵六", "新人"])
    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="known-matches"' in page
    assert f'value="{o["public"][0].pk}"' in page and "B 的公开杯" in page
    assert not Registration.objects.filter(event=o["a_event"]).exists()  # nothing added yet
    # A ticks 王五 only: 赵六 is a namesake, a new record.
    done = _post_entry(
        client, o["a_event"], ["王五", "赵六", "新人"], answered="1", known=[o["public"][0].pk]
    )
    assert done.status_code == 302
    members = Registration.objects.get(event=o["a_event"]).union.players_in_order()
    assert members[0].pk == o["public"][0].pk
    assert members[1].pk != o["public"][1].pk and members[1].name == "赵六"


def test_renaming_a_shared_player_forks_a_record_for_this_event(two_organisers):
    o = two_organisers
    client = signed_in(o["a"])
    _post_entry(
        client, o["a_event"], ["王五", "甲二", "甲三"], answered="1", known=[o["public"][0].pk]
    )
    entry = Registration.objects.get(event=o["a_event"])
    wang = o["public"][0]
    answer = client.post(
        reverse("manage:entry", args=[o["a_event"].pk, entry.pk]),
        {
            "union": "A甲",
            "club": "别的俱乐部",
            "player1": "王五改",
            "player2": "甲二改",
            "player3": "甲三",
            "captain": "1",
        },
    )
    assert answer.status_code == 302
    wang.refresh_from_db()
    assert (wang.name, wang.club_id) == ("王五", o["club"].pk)  # B's record as it was
    members = entry.union.players_in_order()
    assert members[0].pk != wang.pk and members[0].name == "王五改"
    assert members[1].name == "甲二改"  # A's own record: renamed in place
    b_members = Registration.objects.get(event=o["b_public"]).union.players_in_order()
    assert b_members[0].pk == wang.pk and b_members[0].name == "王五"


def test_the_organiser_renames_the_players_of_their_own_events(two_organisers):
    o = two_organisers
    entry = Registration.objects.get(event=o["b_public"])
    entries.edit(entry, players=["王五五", "赵六", "孙七"], name="B甲", club="海大", user=o["b"])
    o["public"][0].refresh_from_db()
    assert o["public"][0].name == "王五五"


def test_a_typed_member_number_is_never_written_into_a_found_record(two_organisers):
    o = two_organisers
    wang = o["public"][0]
    sheet = "联邦,俱乐部,选手1,会员号1,选手2,选手3\n丙,海大,王五,A-999,丁二,丁三\n".encode()
    rows = importing.validate_rows(
        o["a_event"], importing.read_upload(SimpleUploadedFile("e.csv", sheet)), o["a"]
    )
    assert [k["id"] for k in rows[0]["known"]] == [wang.pk]
    importing.import_rows(o["a_event"], [r["values"] for r in rows], user=o["a"], known={wang.pk})
    wang.refresh_from_db()
    assert wang.member_number == ""
    assert o["a_event"].unions.get(name="丙").players_in_order()[0].pk == wang.pk


def test_the_import_links_only_the_known_players_ticked_in_the_preview(two_organisers):
    o = two_organisers
    client = signed_in(o["a"])
    url = reverse("manage:import", args=[o["a_event"].pk])
    sheet = "联邦,俱乐部,选手1,选手2,选手3\n丙,海大,王五,赵六,隐士\n".encode()
    preview = client.post(url, {"file": SimpleUploadedFile("e.csv", sheet)})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert f'value="{o["public"][0].pk}"' in page and f'value="{o["public"][1].pk}"' in page
    assert f'value="{o["secret"][0].pk}"' not in page  # B's unpublished player: not found
    assert client.post(url, {"confirm": "1", "known": [o["public"][1].pk]}).status_code == 302
    members = o["a_event"].unions.get(name="丙").players_in_order()
    assert members[1].pk == o["public"][1].pk
    assert members[0].pk != o["public"][0].pk and members[2].pk != o["secret"][0].pk
    assert Player.objects.filter(name="隐士").count() == 2


def test_a_merge_of_another_organisers_records_waits_for_their_consent(pulled_in):
    from seasons.models import MergeRequest, PlayerMerge

    o = pulled_in
    wang, copy = o["public"][0], o["copy"]
    a = signed_in(o["a"])
    assert merge_on_page(a, wang, copy).status_code == 302
    assert Player.objects.filter(pk=copy.pk).exists()  # nothing merged yet
    assert not PlayerMerge.objects.exists()
    asked = MergeRequest.objects.get()
    assert asked.state == "open" and set(asked.waiting) == {o["b_public"].pk, o["b_second"].pk}
    # A cannot accept their own request for B.
    accept = reverse("seasons-manage:merge-answer", args=[asked.pk, "accept"])
    assert a.post(accept).status_code == 403
    b = signed_in(o["b"])
    page = b.get(reverse("seasons-manage:players")).content.decode()
    assert 'id="incoming-requests"' in page and f'data-request="{asked.pk}"' in page
    # B answers on the same facts: both records side by side, B's own events among them.
    assert 'class="merge-request-records"' in page and 'data-side="merged"' in page
    assert b.post(accept).status_code == 302
    asked.refresh_from_db()
    assert asked.state == "done" and asked.merge is not None
    assert not Player.objects.filter(pk=copy.pk).exists()
    # B, whose events the merge touched, may split it although A made it.
    split = reverse("seasons-manage:split", args=[asked.merge.pk])
    assert b.post(split).status_code == 302
    assert Player.objects.filter(pk=copy.pk).exists()


def test_a_refused_request_merges_nothing(pulled_in):
    from seasons.models import MergeRequest

    o = pulled_in
    merge_on_page(signed_in(o["a"]), o["public"][0], o["copy"])
    asked = MergeRequest.objects.get()
    refuse = reverse("seasons-manage:merge-answer", args=[asked.pk, "refuse"])
    assert signed_in(o["b"]).post(refuse).status_code == 302
    asked.refresh_from_db()
    assert asked.state == "refused" and Player.objects.filter(pk=o["copy"].pk).exists()


def test_a_merge_of_the_organisers_own_records_is_made_at_once(two_organisers):
    from seasons.models import MergeRequest

    o = two_organisers
    one = entries.add(o["a_event"], players=["甲一", "甲二", "甲三"], name="A甲", user=o["a"])
    other = EventBuilder(unions=0, name="A 的第二杯").register()
    other.event.organisers.set([o["a"]])
    two = entries.add(other.event, players=["甲一", "乙二", "乙三"], name="A乙", user=o["a"])
    kept, merged = one.union.players_in_order()[0], two.union.players_in_order()[0]
    assert kept.pk != merged.pk
    assert merge_on_page(signed_in(o["a"]), kept, merged).status_code == 302
    assert not Player.objects.filter(pk=merged.pk).exists()
    assert not MergeRequest.objects.exists()


def test_who_may_split_a_merge_is_fixed_when_it_is_made(two_organisers):
    from seasons.models import PlayerMerge

    o = two_organisers
    wang = o["public"][0]
    b_second = EventBuilder(unions=0, name="B 的第二杯").register()
    b_second.event.organisers.set([o["b"]])
    copy = entries.add(b_second.event, players=["王五", "吴一", "吴二"], name="B丙", club="别处")
    copy_of_wang = copy.union.players_in_order()[0]
    # B merges two records of B's own events: at once.
    assert merge_on_page(signed_in(o["b"]), wang, copy_of_wang).status_code == 302
    merge = PlayerMerge.objects.get()
    # A then links B's kept (public) record into an event of A's, through the known box.
    a = signed_in(o["a"])
    _post_entry(a, o["a_event"], ["王五", "甲二", "甲三"], answered="1", known=[wang.pk])
    assert Registration.objects.get(event=o["a_event"]).union.players_in_order()[0] == wang
    # The merge touched none of A's events when it was made: it is not A's to undo.
    split = reverse("seasons-manage:split", args=[merge.pk])
    assert a.post(split).status_code == 403
    merge.refresh_from_db()
    assert merge.split_at is None and not Player.objects.filter(pk=copy_of_wang.pk).exists()
    page = a.get(reverse("seasons-manage:players")).content.decode()
    assert split not in page  # no split button for A either
    # B, whose events it touched, still may.
    assert signed_in(o["b"]).post(split).status_code == 302
    assert Player.objects.filter(pk=copy_of_wang.pk).exists()


def test_the_merge_page_shows_no_record_the_organiser_may_not_see(two_organisers):
    o = two_organisers
    mine = entries.add(o["a_event"], players=["甲一", "甲二", "甲三"], name="A甲", user=o["a"])
    own = mine.union.players_in_order()[0]
    hidden = o["secret"][0]  # 隐士: only in B's unpublished cup
    Player.objects.filter(pk=hidden.pk).update(member_number="QD-SECRET-7")
    client = signed_in(o["a"])
    url = reverse("seasons-manage:merge")
    missing = Player.objects.order_by("-pk").first().pk + 1000
    answers = {}
    for kept, merged in ((own.pk, hidden.pk), (hidden.pk, own.pk), (own.pk, missing)):
        page = client.get(url, {"kept": kept, "merged": merged})
        html = page.content.decode()
        assert page.status_code == 400
        for secret in ("隐士", "QD-SECRET-7", "内部杯"):
            assert secret not in html
        answers[merged] = page.context["form"].errors.get("merged")
    # An unseen record and an id that does not exist are refused alike: nothing to list.
    assert answers[hidden.pk] == answers[missing] and answers[missing]
    # A public record and a record of no event are the organiser's to see.
    assert client.get(url, {"kept": own.pk, "merged": o["public"][1].pk}).status_code == 200
    loose = Player.objects.create(name="散人")
    assert client.get(url, {"kept": own.pk, "merged": loose.pk}).status_code == 200


def _known_box(html: str, player_id: int) -> str:
    """The checkbox of one known record on a page."""
    start = html.index(f'value="{player_id}"')
    return html[html.rindex("<input", 0, start) : html.index(">", start) + 1]


def test_another_organisers_record_is_offered_unticked_and_named_with_its_event(two_organisers):
    o = two_organisers
    wang = o["public"][0]  # B's player, in B's public cup
    # A's own record from an earlier cup of A's.
    earlier = EventBuilder(unions=0, name="A 的春季杯").register()
    earlier.event.organisers.set([o["a"]])
    mine = entries.add(earlier.event, players=["甲九", "甲八", "甲七"], name="A旧", club="海大")
    nine = mine.union.players_in_order()[0]
    client = signed_in(o["a"])
    paste = client.post(
        reverse("manage:paste", args=[o["a_event"].pk]), {"text": "A甲 海大 王五 甲九 新人"}
    )
    html = paste.content.decode()
    assert paste.status_code == 200
    # B's record: offered, not ticked, named with B's cup and B's account.
    assert "checked" not in _known_box(html, wang.pk)
    assert "B 的公开杯" in html and f"组织者：{o['b'].get_username()}" in html
    assert "不是您赛事中的选手" in html
    # A's own record: ticked, as before.
    assert "checked" in _known_box(html, nine.pk) and "A 的春季杯" in html
    # The entry form asks the same way.
    asked = _post_entry(client, o["a_event"], ["王五", "甲九", "新人"], union="A乙")
    form = asked.content.decode()
    assert "checked" not in _known_box(form, wang.pk) and "checked" in _known_box(form, nine.pk)
    assert f"组织者：{o['b'].get_username()}" in form
    # Confirmed as shown (the browser sends the ticked box only): B's record is not linked.
    client.post(
        reverse("manage:paste", args=[o["a_event"].pk]), {"confirm": "1", "known": [nine.pk]}
    )
    members = Registration.objects.get(event=o["a_event"]).union.players_in_order()
    assert members[0].pk != wang.pk and members[1].pk == nine.pk


def test_a_rename_that_splits_a_person_says_so_before_and_after(two_organisers):
    o = two_organisers
    client = signed_in(o["a"])
    wang = o["public"][0]
    _post_entry(client, o["a_event"], ["王五", "甲二", "甲三"], answered="1", known=[wang.pk])
    entry = Registration.objects.get(event=o["a_event"])
    url = reverse("manage:entry", args=[o["a_event"].pk, entry.pk])
    page = client.get(url).content.decode()
    assert 'id="shared-players"' in page and f"王五（#{wang.pk}）也在其他组织者的赛事中" in page
    fields = {"union": "A甲", "club": "海大", "player2": "甲二", "player3": "甲三", "captain": "1"}
    saved = client.post(url, {**fields, "player1": "王五改"}, follow=True)
    told = [str(m) for m in saved.context["messages"]]
    own = entry.union.players_in_order()[0]
    assert own.pk != wang.pk
    assert any(f"#{wang.pk}" in m and f"#{own.pk}" in m and "王五改" in m for m in told), told


def test_the_owner_is_told_of_a_merge_request_on_their_dashboard_and_events_list(pulled_in):
    from seasons.models import MergeRequest

    o = pulled_in
    b = signed_in(o["b"])
    events_list = reverse("manage:events")
    dashboard = reverse("manage:dashboard", args=[o["b_public"].pk])
    assert 'id="merge-requests-waiting"' not in b.get(events_list).content.decode()
    merge_on_page(signed_in(o["a"]), o["public"][0], o["copy"])
    asked = MergeRequest.objects.get()
    for url in (events_list, dashboard):
        html = b.get(url).content.decode()
        assert 'id="merge-requests-waiting"' in html and f'data-request="{asked.pk}"' in html
        assert reverse("seasons-manage:players") in html
    # The requester is not asked on theirs; B, once answered, is told no more.
    a_page = signed_in(o["a"]).get(reverse("manage:dashboard", args=[o["a_event"].pk]))
    assert 'id="merge-requests-waiting"' not in a_page.content.decode()
    b.post(reverse("seasons-manage:merge-answer", args=[asked.pk, "refuse"]))
    assert 'id="merge-requests-waiting"' not in b.get(events_list).content.decode()
