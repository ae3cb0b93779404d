"""The club guard's Chinese typos (issue 37, problem 3): a club typed in traditional characters
(李滄俱樂部) or with a one-character homophone (李仓俱乐部) beside 李沧俱乐部 is warned on the
entry form and in the import preview, and unrelated clubs (市南/市北) are not."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players import clubs
from players.models import Club

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "existing", "why"),
    [
        # the same name in traditional characters, with or without the generic suffix folded
        ("李滄俱樂部", "李沧俱乐部", clubs.TRADITIONAL),
        ("黃島協會", "黄岛协会", clubs.TRADITIONAL),
        ("李滄 俱樂部", "李沧俱乐部", clubs.TRADITIONAL),  # spaced as well
        # a one-character homophone in a short name (a pinyin input method's slip)
        ("李仓俱乐部", "李沧俱乐部", clubs.HOMOPHONE),
        ("李苍", "李沧俱乐部", clubs.HOMOPHONE),  # suffix left out too
        ("李仓队", "李沧俱乐部", clubs.HOMOPHONE),  # another generic suffix
        ("劳山俱乐部", "崂山俱乐部", clubs.HOMOPHONE),
        ("崇庆", "重庆", clubs.HOMOPHONE),  # 重 reads chong as well as zhong
        ("青岛大雪", "青岛大学", clubs.HOMOPHONE),  # four characters: still short
        ("李倉俱樂部", "李沧俱乐部", clubs.HOMOPHONE),  # traditional and a homophone at once
        # what the guard caught before
        ("黄岛 俱乐部", "黄岛俱乐部", clubs.SPACING),
        ("ＱＤ Club", "qd club", clubs.SPACING),
        ("黄岛俱乐", "黄岛俱乐部", clubs.TRUNCATED_NAME),
        ("青岛黄岛区棋牌协会", "青岛黄岛区棋牌会", clubs.CLOSE),
        # unrelated clubs: different sounds, or more than one character off
        ("市南俱乐部", "市北俱乐部", None),
        ("市南", "市北", None),
        ("李沧", "历城", None),  # li cang / li cheng
        ("黄岛俱乐部", "青岛俱乐部", None),
        ("崂山", "李沧", None),
        ("市南区俱乐部", "市北区俱乐部", None),
        ("黄岛一队", "黄岛二队", None),
        ("一队", "二队", None),  # one-character names are too short to tell
        ("南队", "难队", None),
        ("李沧", "里仓", None),  # two homophones: not "one character off"
        ("青岛海洋大学", "青岛海阳大学", clubs.CLOSE),  # long names: characters decide
        ("Laoshan", "Liangshan", None),
        ("", "李沧俱乐部", None),
    ],
)
def test_the_matcher(typed, existing, why):
    assert clubs.likeness(typed, existing) == why
    assert clubs.likeness(existing, typed) == why  # either way round
    assert clubs.similar(typed, existing) is (why is not None)


def test_a_traditional_or_homophone_name_is_still_a_new_club_once_confirmed():
    """Folding is for warning only: 李滄俱樂部 is not merged silently into 李沧俱乐部 (a Hong
    Kong club may write its name so); spacing and width still are."""
    Club.objects.create(name="李沧俱乐部")
    assert clubs.same_club("李滄俱樂部") is None and clubs.same_club("李仓俱乐部") is None
    assert clubs.near_duplicates("李滄俱樂部", clubs.all_names()) == ["李沧俱乐部"]
    assert clubs.get_or_create("李 沧俱乐部").name == "李沧俱乐部"


ENTRY = {"union": "新队", "player1": "甲", "player2": "乙", "player3": "丙"}


@pytest.mark.parametrize(
    ("typed", "zh", "en"),
    [
        ("李滄俱樂部", "“李滄俱樂部”是“李沧俱乐部”的繁体写法", "the traditional-character"),
        ("李仓俱乐部", "“李仓俱乐部”与“李沧俱乐部”读音相同", "sounds the same"),
    ],
)
def test_the_entry_form_warns_and_the_organiser_can_confirm_a_new_club(
    client, build, typed, zh, en
):
    Club.objects.create(name="李沧俱乐部")
    Club.objects.create(name="市北俱乐部")
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:entries", args=[b.event.pk])
    warned = client.post(url, {**ENTRY, "club": typed})
    html = warned.content.decode()
    assert warned.status_code == 400 and zh in html
    assert 'name="new_club"' in html and 'value="李沧俱乐部" class="use-club"' in html
    assert not b.event.unions.exists()
    english = client.post(url, {**ENTRY, "club": typed}, HTTP_ACCEPT_LANGUAGE="en")
    assert en in english.content.decode()
    # An unrelated club passes without a word; a homophone the organiser confirms is new.
    assert client.post(url, {**ENTRY, "union": "北队", "club": "市南俱乐部"}).status_code == 302
    client.post(url, {**ENTRY, "club": typed, "new_club": "on"})
    assert b.event.unions.get(name="新队").club.name == typed
    # Or the organiser picks the existing club with one tap (the button posts club=...).
    client.post(url, {**ENTRY, "union": "另一队", "club": "李沧俱乐部"})
    assert b.event.unions.get(name="另一队").club.name == "李沧俱乐部"


def test_the_import_preview_warns_and_imports_all_the_same(client, build):
    Club.objects.create(name="李沧俱乐部")
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    sheet = (
        "联邦,俱乐部,选手1,选手2,选手3\n"
        "一队,李滄俱樂部,甲,乙,丙\n"
        "二队,李仓俱乐部,丁,戊,己\n"
        "三队,市南俱乐部,庚,辛,壬\n"
        "四队,市北俱乐部,子,丑,寅\n"
    )
    page = client.post(url, {"file": SimpleUploadedFile("e.csv", sheet.encode())})
    html = page.content.decode()
    assert page.status_code == 200 and 'id="club-warnings"' in html
    assert "“李滄俱樂部”是“李沧俱乐部”的繁体写法" in html
    assert "“李仓俱乐部”与“李沧俱乐部”读音相同" in html
    warned = [chunk.split('"')[0] for chunk in html.split('class="warn" data-line="')[1:]]
    assert warned == ["2", "3"]  # 市南 and 市北 (both new, one after the other) are not warned
    client.post(url, {"confirm": "1"})
    assert b.event.unions.count() == 4  # warnings do not block


def test_the_import_preview_warns_in_english(client, build):
    Club.objects.create(name="李沧俱乐部")
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    sheet = "union,club,player1,player2,player3\nA,李仓俱乐部,a,b,c\n"
    html = client.post(
        url, {"file": SimpleUploadedFile("e.csv", sheet.encode())}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "“李仓俱乐部” sounds the same as “李沧俱乐部”" in html
