"""One person across events: a known player is matched on registration and import (and the
preview says so); merging two records and splitting the merge keep every result, standings
table and rating consistent with a recompute from scratch."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.events import entries, importing
from matches.models import StandingsSnapshot, TableSeat
from players.identity import find_existing
from players.models import Club, Player
from seasons import identity, ratings
from seasons.models import PlayerMerge, PlayerRating
from tests.seasons.helpers import pool, rated_event, snapshot

pytestmark = pytest.mark.django_db


def standings_rows() -> list:
    return sorted(
        (s.round_id, s.kind, s.scope, repr(s.rows)) for s in StandingsSnapshot.objects.all()
    )


def test_a_known_player_is_found_by_member_number_or_by_name_and_club():
    club = Club.objects.create(name="海大")
    known = Player.objects.create(name="王五", club=club, member_number="QD-007")
    Player.objects.create(name="王五", club=None)
    assert find_existing("王五", "海大") == known
    assert find_existing("王五", club) == known
    assert find_existing("别名", "", "QD-007") == known
    assert find_existing("王五", "别的俱乐部") is None
    # Two namesakes of one club: no guess, a new record.
    Player.objects.create(name="王五", club=club)
    assert find_existing("王五", "海大") is None


def test_registration_enters_the_known_player_not_a_copy(build):
    people = pool(6, clubs=1)
    b = rated_event(people, 0, unions=2, day=1)
    second = build(unions=0)
    found = entries.known_matches(second.event, ["棋友00", "棋友01", "新人"], "俱乐部0")
    assert [m["id"] for m in found] == [people[0].pk, people[1].pk]
    entry = entries.add(
        second.event,
        players=["棋友00", "棋友01", "新人"],
        name="老友联邦",
        club="俱乐部0",
        known={m["id"] for m in found},
    )
    members = entry.union.players_in_order()
    assert members[0] == people[0] and members[1] == people[1]
    assert members[2].name == "新人" and members[2].pk not in {p.pk for p in people}
    assert b.event.pk != second.event.pk


def test_the_import_preview_names_known_players_and_the_import_uses_them(build):
    people = pool(3, clubs=1)
    people[2].member_number = "M-3"
    people[2].save()
    b = build(unions=0)
    sheet = "联邦,俱乐部,选手1,选手2,选手3,会员号3\n甲,俱乐部0,棋友00,生人,谁,M-3\n".encode()
    upload = SimpleUploadedFile("entries.csv", sheet, content_type="text/csv")
    rows = importing.validate_rows(b.event, importing.read_upload(upload))
    assert [k["id"] for k in rows[0]["known"]] == [people[0].pk, people[2].pk]
    importing.import_rows(b.event, [r["values"] for r in rows], known={people[0].pk, people[2].pk})
    union = b.event.unions.get(name="甲")
    assert [p.pk for p in union.players_in_order()][::2] == [people[0].pk, people[2].pk]


def test_merge_and_split_keep_results_and_ratings_consistent(django_capture_on_commit_callbacks):
    user = get_user_model().objects.create_user("org")
    people = pool(18)
    first = rated_event(people, 0, unions=4, day=1)
    copy = Player.objects.create(name=people[0].name, club=people[0].club)  # a second record
    others = people[12:18] + [copy] + people[3:8]
    second = rated_event(others, 0, unions=4, day=8)
    with django_capture_on_commit_callbacks(execute=True):
        first.play_rounds(2)
        second.play_rounds(2)
    ratings.recompute_all()
    before, tables_before = snapshot(), standings_rows()
    assert PlayerRating.objects.get(player=people[0]).events == 1

    with django_capture_on_commit_callbacks(execute=True):
        log = identity.merge(people[0], copy, user)
    assert not Player.objects.filter(pk=copy.pk).exists()
    assert TableSeat.objects.filter(player=people[0]).count() == 4  # two rounds of each event
    assert PlayerRating.objects.get(player=people[0]).events == 2
    merged = snapshot()
    ratings.recompute_all()
    assert snapshot() == merged  # what the signals left is what a recompute gives
    assert merged != before

    with django_capture_on_commit_callbacks(execute=True):
        restored = identity.split(log, user)
    assert restored.pk == copy.pk and restored.name == copy.name
    assert TableSeat.objects.filter(player=restored).count() == 2
    assert snapshot() == before  # every rating exactly as before the merge
    assert standings_rows() == tables_before
    log.refresh_from_db()
    assert log.split_at is not None and log.split_by == user
    with pytest.raises(identity.MergeRefused):
        identity.split(log, user)


def test_two_records_seen_in_one_event_are_not_one_person():
    user = get_user_model().objects.create_user("org")
    people = pool(12)
    rated_event(people, 0, unions=2, day=1)
    with pytest.raises(identity.MergeRefused):
        identity.merge(people[0], people[1], user)
    with pytest.raises(identity.MergeRefused):
        identity.merge(people[0], people[0], user)
    assert not PlayerMerge.objects.exists()


def test_a_namesake_already_in_the_event_or_the_file_is_another_person(build):
    b = build(unions=0)
    first = entries.add(b.event, players=["王强", "李四", "赵六"], name="甲")
    second = entries.add(b.event, players=["王强", "钱七", "孙八"], name="乙")
    assert first.union.players_in_order()[0] != second.union.players_in_order()[0]
    sheet = "联邦,选手1,选手2,选手3\n丙,王强,周九,吴十\n丁,王强,郑一,冯二\n".encode()
    upload = SimpleUploadedFile("entries.csv", sheet, content_type="text/csv")
    rows = importing.validate_rows(b.event, importing.read_upload(upload))
    assert [r["known"] for r in rows] == [[], []]  # 王强 of no club is taken twice already
    importing.import_rows(b.event, [r["values"] for r in rows])
    wangs = Player.objects.filter(name="王强").count()
    assert wangs == 4


def test_a_merge_keeps_the_merged_records_pass_and_find_terms_and_a_split_gives_them_back():
    """The merged record's own page (its token on a printed badge) and find-my-table in its
    event: a merge that deleted the record cascaded both away."""
    from matches.models import FloorPass, SearchTerm
    from matches.public import find, floor_passes

    user = get_user_model().objects.create_user("org")
    people = pool(12)
    rated_event(people, 0, unions=2, day=1)
    copy = Player.objects.create(name="新名字", club=people[0].club)
    second = rated_event(people[6:12] + [copy] + people[1:6], 6, unions=2, day=8)
    token = floor_passes.pass_token(second.event, player=copy)
    assert find.search(second.event, "xmz")[1][0].id == copy.pk  # by pinyin initials

    log = identity.merge(people[0], copy, user)
    owner = FloorPass.objects.get(token=token)
    assert owner.player_id == people[0].pk  # the badge opens the kept record's page
    hits = find.search(second.event, people[0].name)[1]
    assert [h.id for h in hits if h.kind == "player"] == [people[0].pk]
    assert not SearchTerm.objects.filter(player_id=copy.pk).exists()

    restored = identity.split(log, user)
    assert FloorPass.objects.get(token=token).player_id == restored.pk
    assert find.search(second.event, "xmz")[1][0].id == restored.pk
    after = find.search(second.event, people[0].name)[1]
    assert people[0].pk not in {h.id for h in after if h.kind == "player"}


def test_the_merge_page_lists_no_player_of_another_organisers_unpublished_event(build):
    from django.test import Client
    from django.urls import reverse

    mine = build(unions=0, name="我的杯")
    theirs = build(unions=0, published=False, name="别人的内部杯")
    public = build(unions=0, name="公开杯")
    entries.add(mine.event, players=["张一", "张二", "张三"], name="甲")
    entries.add(theirs.event, players=["张四", "张五", "张六"], name="乙")
    entries.add(public.event, players=["张七", "张八", "张九"], name="丙")
    loose = Player.objects.create(name="张十")
    client = Client()
    client.force_login(mine.organiser)
    answer = client.get(reverse("seasons-manage:players"), {"q": "张"})
    listed = {p.name: p.events_seen for p in answer.context["candidates"]}
    assert set(listed) == {"张一", "张二", "张三", "张七", "张八", "张九", loose.name}
    # Each record with the events it played: two namesakes told apart before a merge.
    assert listed["张一"] == [mine.event.name] and listed["张七"] == [public.event.name]
    assert listed["张十"] == []
    assert "别人的内部杯" not in answer.content.decode()


def test_the_entries_page_says_which_names_were_taken_as_known_players(build):
    """The registration form has no preview: its confirmation names the known players, as
    the import's preview does."""
    from django.test import Client
    from django.urls import reverse

    people = pool(6, clubs=1)
    rated_event(people, 0, unions=2, day=1)
    second = build(unions=0)
    client = Client()
    client.force_login(second.organiser)
    answer = client.post(
        reverse("manage:entries", args=[second.event.pk]),
        {
            "union": "老友联邦",
            "club": "俱乐部0",
            "player1": "棋友00",
            "player2": "新人",
            "player3": "棋友02",
            "captain": "1",
            "answered": "1",  # the organiser confirmed both known records (test_ownership.py)
            "known": [people[0].pk, people[2].pk],
        },
        follow=True,
    )
    said = " ".join(str(m) for m in answer.context["messages"])
    assert f"棋友00：已有选手 #{people[0].pk}，沿用其记录" in said
    assert f"棋友02：已有选手 #{people[2].pk}" in said and "新人：已有" not in said
