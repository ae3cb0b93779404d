"""Data entry (issue 25, problem 8): import templates per entry mode, the captain column, clubs
that are probably typos, the add form that stays open, and names sorted with numbers by value."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from matches.draw.listing import name_key
from matches.models import Event, UnionMember
from players import clubs
from players.models import Club

pytestmark = pytest.mark.django_db


def upload(client, url, name, data: bytes):
    return client.post(url, {"file": SimpleUploadedFile(name, data)})


def test_the_team_template_round_trips_with_a_captain_column(client, build):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    page = client.get(url).content.decode()
    assert 'id="template-xlsx"' in page and 'id="template-csv"' in page and "队长" in page
    sheet = client.get(reverse("manage:import-template", args=[b.event.pk, "csv"]))
    assert sheet["Content-Disposition"].endswith('entries-unions.csv"')
    text = sheet.content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(text))) == [
        "联邦",
        "俱乐部",
        "选手1",
        "选手2",
        "选手3",
        "队长",
        "种子",
    ]
    filled = text + "黄岛一队,黄岛俱乐部,甲,乙,丙,丙,1\n黄岛二队,黄岛俱乐部,丁,戊,己,,2\n"
    preview = upload(client, url, "entries.csv", filled.encode("utf-8-sig"))
    assert preview.status_code == 200 and "丙★" in preview.content.decode()
    client.post(url, {"confirm": "1"})
    captains = dict(
        UnionMember.objects.filter(union__event=b.event, is_captain=True).values_list(
            "union__name", "player__name"
        )
    )
    assert captains == {"黄岛一队": "丙", "黄岛二队": "丁"}  # blank: player 1
    # A captain who is not in the union is an error naming the row, and nothing is imported.
    bad = upload(client, url, "e.csv", (text + "三队,,庚,辛,壬,癸,\n").encode("utf-8-sig"))
    assert bad.status_code == 400 and "队长“癸”不是本联邦的选手" in bad.content.decode()


def test_the_xlsx_template_in_english_and_the_individual_page(client, build):
    b = build(unions=0, deals=1, entry_type=Event.EntryType.INDIVIDUAL)
    client.force_login(b.organiser)
    page = client.get(
        reverse("manage:import", args=[b.event.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert (
        "Headers: player, club, seed" in page
        and "player1" not in page.split("import-headers")[1][:200]
    )
    sheet = client.get(
        reverse("manage:import-template", args=[b.event.pk, "xlsx"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert sheet["Content-Disposition"].endswith('entries-players.xlsx"')
    rows = list(load_workbook(io.BytesIO(sheet.content)).active.iter_rows(values_only=True))
    assert rows == [("player", "club", "seed")]
    preview = client.get(reverse("manage:import", args=[b.event.pk])).content.decode()
    assert "联邦" not in preview.split('id="import-headers"')[1].split("</p>")[0]
    assert (
        client.get(reverse("manage:import-template", args=[b.event.pk, "pdf"])).status_code == 404
    )


def test_club_names_that_differ_in_spacing_are_one_club_and_typos_are_warned(client, build):
    Club.objects.create(name="黄岛俱乐部")
    assert clubs.similar("黄岛俱乐部", "黄岛 俱乐部") and clubs.similar("黄岛俱乐部", "黄岛俱乐")
    assert clubs.similar("黄岛俱乐部", "黄岛俱乐部　")  # a full-width space
    assert not clubs.similar("黄岛俱乐部", "青岛俱乐部") and not clubs.similar("崂山", "李沧")
    assert clubs.get_or_create("黄岛 俱乐部").name == "黄岛俱乐部"
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    sheet = "联邦,俱乐部,选手1,选手2,选手3\n一队,黄岛 俱乐部,甲,乙,丙\n二队,黄岛俱乐,丁,戊,己\n"
    page = upload(client, url, "e.csv", sheet.encode()).content.decode()
    assert "将并入已有俱乐部“黄岛俱乐部”" in page
    assert "俱乐部“黄岛俱乐”与“黄岛俱乐部”相近" in page and 'id="club-warnings"' in page
    client.post(url, {"confirm": "1"})  # warnings do not block
    assert set(Club.objects.values_list("name", flat=True)) == {"黄岛俱乐部", "黄岛俱乐"}


def test_the_add_form_warns_on_a_near_club_and_stays_open(client, build):
    Club.objects.create(name="黄岛俱乐部")
    b = build(unions=1, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:entries", args=[b.event.pk])
    page = client.get(url).content.decode()
    assert '<datalist id="club-choices">' in page and '<option value="黄岛俱乐部">' in page
    entry = {"union": "新队", "player1": "甲", "player2": "乙", "player3": "丙", "club": "黄岛俱乐"}
    warned = client.post(url, entry, HTTP_HX_REQUEST="true").content.decode()
    assert "与已有的俱乐部“黄岛俱乐部”相近" in warned and 'name="new_club"' in warned
    assert not b.event.unions.filter(name="新队").exists()
    # Picking the existing club adds the union to it; the form comes back open and empty.
    added = client.post(url, {**entry, "club": "黄岛俱乐部"}, HTTP_HX_REQUEST="true")
    html = added.content.decode()
    assert 'id="entry-added"' in html and "新队" in html
    assert '<details open class="add-entry" id="add-entry">' in html
    assert 'hx-swap-oob="true"' in html  # the list comes along with the new entry
    assert b.event.unions.get(name="新队").club.name == "黄岛俱乐部"
    # Or confirm that it is a new club.
    client.post(url, {**entry, "union": "另一队", "new_club": "on"}, HTTP_HX_REQUEST="true")
    assert b.event.unions.get(name="另一队").club.name == "黄岛俱乐"
    # Without JavaScript the page after an add has the form open too.
    response = client.post(url, {**entry, "union": "第三队", "club": ""}, follow=True)
    assert '<details open class="add-entry"' in response.content.decode()


def test_chinese_numerals_sort_by_value():
    names = [
        "十二队",
        "五队",
        "一队",
        "二队",
        "十队",
        "黄岛十一队",
        "黄岛二队",
        "team 10",
        "team 9",
    ]
    assert sorted(names, key=name_key) == [
        "一队",
        "二队",
        "五队",
        "十队",
        "十二队",
        "黄岛二队",
        "黄岛十一队",
        "team 9",
        "team 10",
    ]


def test_the_edit_page_offers_the_clubs_and_warns_too(client, build):
    Club.objects.create(name="黄岛俱乐部")
    b = build(unions=1, deals=1)
    client.force_login(b.organiser)
    entry = b.event.registrations.get()
    url = reverse("manage:entry", args=[b.event.pk, entry.pk])
    assert '<datalist id="club-choices">' in client.get(url).content.decode()
    members = list(entry.union.members.order_by("order"))
    data = {
        "union": entry.union.name,
        **{f"player{m.order}": m.player.name for m in members},
        "captain": 1,
        "club": "黄岛 俱乐",
    }
    warned = client.post(url, data)
    assert warned.status_code == 400 and "与已有的俱乐部“黄岛俱乐部”相近" in warned.content.decode()
    client.post(url, {**data, "club": "黄岛 俱乐部"})  # spacing only: the existing club
    entry.union.refresh_from_db()
    assert entry.union.club.name == "黄岛俱乐部" and Club.objects.count() == 1
