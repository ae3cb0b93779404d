"""Entries of an eight-player Gou Ji event (八人够级, R44): a union holds four players. The hand
form, the import template and sheet, and the table cards follow the event's rule set."""

from __future__ import annotations

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from matches.events import importing
from matches.models import Registration, Union
from tests.standings.test_manage import pdf_text

EIGHT = {"preset": "eight-players"}


def test_the_hand_form_asks_for_four_players_and_a_captain_among_them(client, build):
    b = build(unions=0, deals=1, rules=EIGHT)
    client.force_login(b.organiser)
    url = reverse("manage:register", args=[b.event.pk])
    page = client.get(reverse("manage:entries", args=[b.event.pk])).content.decode()
    assert 'name="player4"' in page and '<option value="4">' in page
    three = client.post(url, {"union": "三人", "player1": "甲", "player2": "乙", "player3": "丙"})
    assert three.status_code == 400 and not Union.objects.filter(event=b.event).exists()
    four = client.post(
        url,
        {
            "union": "崂山四人",
            "player1": "王伟",
            "player2": "李娜",
            "player3": "张强",
            "player4": "赵敏",
            "captain": "4",
        },
    )
    assert four.status_code == 302
    union = Union.objects.get(event=b.event, name="崂山四人")
    assert [p.name for p in union.players_in_order()] == ["王伟", "李娜", "张强", "赵敏"]
    assert union.captain.name == "赵敏"
    # a six-player event's form has no fourth player
    six = build(unions=0, deals=1)
    client.force_login(six.organiser)
    page = client.get(reverse("manage:entries", args=[six.event.pk])).content.decode()
    assert 'name="player3"' in page and 'name="player4"' not in page


def test_the_import_template_and_sheet_have_four_players_a_union(client, build):
    b = build(unions=0, deals=1, rules=EIGHT)
    assert importing.template_headers(b.event, "zh-hans") == (
        "联邦",
        "俱乐部",
        "选手1",
        "选手2",
        "选手3",
        "选手4",
        "队长",
        "种子",
    )
    client.force_login(b.organiser)
    sheet = client.get(reverse("manage:import-template", args=[b.event.pk, "csv"])).content
    assert next(csv.reader(io.StringIO(sheet.decode("utf-8-sig"))))[5] == "选手4"
    url = reverse("manage:import", args=[b.event.pk])
    lines = [
        "联邦,俱乐部,选手1,选手2,选手3,选手4,队长,种子",
        "一队,崂山,甲,乙,丙,丁,4,1",
        "二队,崂山,戊,己,庚,,1,2",
    ]
    upload = SimpleUploadedFile("e.csv", "\n".join(lines).encode(), "text/csv")
    bad = client.post(url, {"file": upload})
    assert bad.status_code == 400 and "联邦须有 4 名选手" in bad.content.decode()
    lines[2] = "二队,崂山,戊,己,庚,辛,辛,2"
    upload = SimpleUploadedFile("e.csv", "\n".join(lines).encode(), "text/csv")
    assert client.post(url, {"file": upload}).status_code == 200
    client.post(url, {"confirm": "1"})
    first = Union.objects.get(event=b.event, name="一队")
    second = Union.objects.get(event=b.event, name="二队")
    assert [p.name for p in first.players_in_order()] == ["甲", "乙", "丙", "丁"]
    assert first.captain.name == "丁" and second.captain.name == "辛"
    assert Registration.objects.filter(event=b.event).count() == 2


def test_table_cards_have_eight_seats_and_place_columns(client, build):
    b = build(unions=2, deals=2, rules=EIGHT)
    client.force_login(b.organiser)
    b.round([(0, 1)])
    text = pdf_text(client.get(reverse("manage:table-cards", args=[b.event.pk, 1])).content)
    assert "(1-2-3-4)" in text and "(5-6-7-8)" in text
    for union in b.unions:
        for player in union.players_in_order():
            assert player.name in text
        union.refresh_from_db()
        assert union.captain_pin in text
    pairings = pdf_text(client.get(reverse("manage:pairings-pdf", args=[b.event.pk, 1])).content)
    assert "A 方 1-2-3-4 号座" in pairings and "B 方 5-6-7-8 号座" in pairings
