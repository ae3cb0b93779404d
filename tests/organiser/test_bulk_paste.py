"""Bulk paste (issue 37): entries pasted one per line into the entries page, previewed like an
import with each line's errors, imported all or nothing on confirm; the club guard warns there
too; only the event's own staff may paste."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.events.pasting import cells, check_paste, read_paste
from matches.models import Registration, UnionMember
from players.models import Club

pytestmark = pytest.mark.django_db

EIGHT = {"preset": "eight-players"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "青岛一队\t李沧俱乐部\t张三\t李四\t王五",
            ["青岛一队", "李沧俱乐部", "张三", "李四", "王五"],
        ),
        ("青岛一队\t\t张三\t李四\t王五\t\t", ["青岛一队", "", "张三", "李四", "王五"]),  # Excel
        ("Team A\tQD Club\tAnn Lee\tBo\tCy", ["Team A", "QD Club", "Ann Lee", "Bo", "Cy"]),
        (
            "青岛一队，李沧俱乐部，张三，李四，王五",
            ["青岛一队", "李沧俱乐部", "张三", "李四", "王五"],
        ),
        ("Team A, QD Club, Ann Lee, Bo, Cy", ["Team A", "QD Club", "Ann Lee", "Bo", "Cy"]),
        (
            "青岛一队  李沧俱乐部 张三　李四 王五",
            ["青岛一队", "李沧俱乐部", "张三", "李四", "王五"],
        ),
        ("张三、李四", ["张三", "李四"]),
    ],
)
def test_the_separator_rule(line, expected):
    assert cells(line) == expected


def test_lines_are_numbered_as_pasted_and_a_header_line_is_skipped():
    text = "联邦\t俱乐部\t选手1\t选手2\t选手3\n\n一队 甲 乙 丙\n二队 李沧 丁 戊\n三队 李沧 己 庚 辛 壬\n"
    pasted = read_paste(text, 3, team=True)
    assert [p.line for p in pasted] == [3, 4, 5]
    assert pasted[0].row["union"] == "一队" and pasted[0].row["club"] == ""  # club left out
    assert pasted[0].row["player3"] == "丙" and not pasted[0].errors
    assert pasted[1].row["club"] == "" and pasted[1].row["player1"] == "李沧"  # 4 cells: no club
    assert pasted[2].errors and "这一行有 6 项" in pasted[2].errors[0]


def test_a_paste_is_checked_by_the_service_a_wrong_shape_saying_only_its_shape(build):
    b = build(unions=0, deals=1)
    text = "一队 李沧 甲 乙 丙\n\n二队 李沧 丁 戊 己 庚\n一队 市南 辛 壬 癸"
    paste = check_paste(b.event, text, b.organiser)
    assert paste.lines == [1, 3, 4] and [r["union"] for r in paste.rows] == ["一队", "二队", "一队"]
    first, wrong, twice = paste.checked
    assert first["errors"] == []
    assert len(wrong["errors"]) == 1 and "这一行有 6 项" in wrong["errors"][0]
    assert twice["errors"] == ["联邦“一队”在名单中重复"]


def team_lines(*lines: str) -> str:
    return "\n".join(lines)


def test_a_paste_is_previewed_then_imported_all_or_nothing(client, build):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    entries = client.get(reverse("manage:entries", args=[b.event.pk])).content.decode()
    assert 'id="paste-text"' in entries and "青岛一队 李沧俱乐部 张三 李四 王五" in entries
    url = reverse("manage:paste", args=[b.event.pk])
    bad = client.post(
        url,
        {
            "text": team_lines(
                "青岛一队\t李沧俱乐部\t张三\t李四\t王五",
                "",
                "青岛二队 李沧俱乐部 赵六 钱七",  # one player short: read as "no club", 3 players
                "青岛三队 李沧俱乐部 孙八 周九 吴十 郑十一",  # one too many
                "青岛一队 市南俱乐部 冯甲 陈乙 褚丙",  # the name twice
            )
        },
    )
    html = bad.content.decode()
    assert bad.status_code == 400 and 'id="paste-errors"' in html
    assert 'data-line="1"' in html and 'data-line="3"' in html and 'data-line="5"' in html
    assert "这一行有 6 项" in html and "联邦“青岛一队”在名单中重复" in html
    assert "孙八" in html and "郑十一" in html  # a line of the wrong shape shown as read
    assert "青岛一队\t李沧俱乐部" in html  # the text stays in the box to be corrected
    assert 'id="confirm-import"' not in html
    # Confirming what was never previewed clean imports nothing.
    refused = client.post(url, {"confirm": "1"})
    assert refused.status_code == 302 and not b.event.unions.exists()
    good = client.post(
        url,
        {
            "text": team_lines(
                "青岛一队\t李沧俱乐部\t张三\t李四\t王五", "青岛二队,市南俱乐部,赵六,钱七,孙八"
            )
        },
    )
    assert good.status_code == 200 and 'id="confirm-import"' in good.content.decode()
    assert not b.event.unions.exists()  # the preview imports nothing
    done = client.post(url, {"confirm": "1"}, follow=True)
    assert "已导入 2 行" in done.content.decode()
    union = b.event.unions.get(name="青岛一队")
    assert union.club.name == "李沧俱乐部"
    assert [p.name for p in union.players_in_order()] == ["张三", "李四", "王五"]
    assert union.captain.name == "张三"
    assert Registration.objects.filter(event=b.event).count() == 2
    # Pasting the same again: every union is already entered, nothing more is imported.
    again = client.post(url, {"text": "青岛一队 李沧俱乐部 张三 李四 王五"})
    assert again.status_code == 400 and "联邦“青岛一队”已报名" in again.content.decode()


def test_a_union_has_four_players_at_eight_seats(client, build):
    b = build(unions=0, deals=1, rules=EIGHT)
    client.force_login(b.organiser)
    page = client.get(reverse("manage:entries", args=[b.event.pk])).content.decode()
    assert "青岛一队 李沧俱乐部 张三 李四 王五 赵六" in page and "再是 4 名选手" in page
    url = reverse("manage:paste", args=[b.event.pk])
    three = client.post(url, {"text": "崂山一队 崂山俱乐部 甲 乙 丙 丁 戊"})
    assert three.status_code == 400 and "应为“联邦 俱乐部 4 名选手”" in three.content.decode()
    four = client.post(url, {"text": "崂山一队 崂山俱乐部 甲 乙 丙 丁"})
    assert four.status_code == 200
    client.post(url, {"confirm": "1"})
    members = UnionMember.objects.filter(union__event=b.event).order_by("order")
    assert [m.player.name for m in members] == ["甲", "乙", "丙", "丁"]


def test_an_individual_event_takes_a_player_and_a_club(client, build):
    from matches.models import Event

    b = build(players=0, deals=1, entry_type=Event.EntryType.INDIVIDUAL)
    client.force_login(b.organiser)
    url = reverse("manage:paste", args=[b.event.pk])
    preview = client.post(url, {"text": "张三 李沧俱乐部\n李四\n王五 一 二\n李四,市南"})
    html = preview.content.decode()
    assert preview.status_code == 400 and "这一行有 3 项" in html
    assert "选手“李四”在名单中重复" in html and 'data-line="4"' in html
    client.post(url, {"text": "张三 李沧俱乐部\n李四"})
    client.post(url, {"confirm": "1"})
    entered = Registration.objects.filter(event=b.event).select_related("player__club")
    assert {(r.player.name, r.player.club.name if r.player.club else "") for r in entered} == {
        ("张三", "李沧俱乐部"),
        ("李四", ""),
    }


def test_the_club_guard_warns_in_the_paste_preview(client, build):
    Club.objects.create(name="李沧俱乐部")
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:paste", args=[b.event.pk])
    page = client.post(
        url,
        {"text": "一队 李滄俱樂部 甲 乙 丙\n二队 李仓俱乐部 丁 戊 己\n三队 市北俱乐部 庚 辛 壬"},
    )
    html = page.content.decode()
    assert page.status_code == 200 and 'id="club-warnings"' in html
    assert "“李滄俱樂部”是“李沧俱乐部”的繁体写法" in html
    assert "“李仓俱乐部”与“李沧俱乐部”读音相同" in html
    assert "请在名单中改成相同的名称后重新预览" in html
    english = client.post(url, {"text": "二队 李仓俱乐部 丁 戊 己"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "sounds the same as" in english.content.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "请粘贴报名名单"),
        ("\n \n\t\n", "请粘贴报名名单"),
        ("联邦\t俱乐部\t选手1\t选手2\t选手3", "请粘贴报名名单"),  # headers only
        ("一队 甲 乙 丙\n" * 5001, "一次最多导入 5000 行"),
        ("x" * 400_001, "粘贴的内容太长：一次最多 400,000 个字符"),
        ("一队 " + "甲" * 121 + " 乙 丙", "内容过长：player1"),
    ],
)
def test_bad_pastes_are_clear_errors_never_a_500(client, build, text, message):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    response = client.post(reverse("manage:paste", args=[b.event.pk]), {"text": text})
    assert response.status_code == 400 and message in response.content.decode()
    assert not b.event.unions.exists()


def test_a_control_character_never_reaches_a_name(client, build):
    """The text middleware (gouji_tournament/text.py) drops it from the paste; tabs and line
    breaks, which the paste's rule needs, stay."""
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:paste", args=[b.event.pk])
    assert client.post(url, {"text": "一队\t李沧\t甲\x1b\t乙\t丙\r\n"}).status_code == 200
    client.post(url, {"confirm": "1"})
    union = b.event.unions.get(name="一队")
    assert [p.name for p in union.players_in_order()] == ["甲", "乙", "丙"]


def test_only_the_events_own_staff_may_paste(client, build):
    b = build(unions=0, deals=1)
    url = reverse("manage:paste", args=[b.event.pk])
    text = {"text": "一队 李沧俱乐部 甲 乙 丙"}
    assert client.post(url, text).status_code == 302  # signed out: to the login page
    assert not b.event.unions.exists()
    # Another organiser previews nothing and cannot confirm this event's paste.
    client.force_login(b.organiser)
    assert client.post(url, text).status_code == 200
    client.force_login(b.people.other_organiser)
    assert client.post(url, text).status_code == 403
    assert client.post(url, {"confirm": "1"}).status_code == 403
    client.force_login(b.people.stranger)
    assert client.post(url, {"confirm": "1"}).status_code == 403
    assert not b.event.unions.exists()
    assert client.get(url).status_code == 405  # a paste is posted
    # A paste previewed for one event is not confirmed into another event of the organiser's.
    other = build(unions=0, deals=1)
    other.event.organisers.add(b.organiser)
    client.force_login(b.organiser)  # a new sign-in starts a new session: preview again
    assert client.post(url, text).status_code == 200
    elsewhere = client.post(reverse("manage:paste", args=[other.event.pk]), {"confirm": "1"})
    assert elsewhere.status_code == 302 and not other.event.unions.exists()
    client.post(url, {"confirm": "1"})
    assert list(b.event.unions.values_list("name", flat=True)) == ["一队"]
