"""Issue 37, problem 6 and the private links' export: an invitation carries its referee's zone
or tables (the referee lands there at sign-up, or at once when the invitation is edited after),
cards show the invitation's note beside the username, each invitation has a copy button and a
QR, and the organiser prints or exports every invitation and every entry's private link.
Organiser only: an assistant, a referee and another event's organiser are refused."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from matches.events import links, zones
from matches.events import staff as staff_service
from matches.models import (
    EventStaff,
    FloorPass,
    RefereeTable,
    RefereeZone,
    Registration,
    StaffInvitation,
)
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def hall():
    """A team event of 8 unions, round 1 drawn and published (4 tables), zones A 1-2, B 3-4."""
    b = EventBuilder(unions=8, deals=1).register()
    b.draw()
    zones.define_zones(b.event, "A区 1-2\nB区 3-4")
    return b


def zone(event, name) -> RefereeZone:
    return RefereeZone.objects.get(event=event, name=name)


def sign_up(token: str, username: str) -> Client:
    """A referee opens the invitation link and makes an account on the spot."""
    client = Client()
    response = client.post(
        f"/manage/join/{token}/",
        {
            "accept": "1",
            "signup": "1",
            "username": username,
            "password1": "a-long-Pass-123",
            "password2": "a-long-Pass-123",
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return client


# --- the invitation carries the referee's place -----------------------------------------------


def test_an_invited_referee_lands_on_the_invitations_zone_and_tables_at_sign_up(hall):
    event = hall.event
    organiser = client_for(hall.organiser)
    response = organiser.post(
        reverse("manage:staff", args=[event.pk]),
        {
            "role": "referee",
            "note": "王老师 东区",
            "zone": zone(event, "B区").pk,
            "tables": "7, 9-10",
        },
    )
    assert response.status_code == 302
    invitation = StaffInvitation.objects.get(event=event)
    assert (invitation.note, invitation.zone.name, invitation.tables) == (
        "王老师 东区",
        "B区",
        "7, 9-10",
    )

    sign_up(invitation.token, "wang")
    user = EventStaff.objects.get(event=event, invitation=invitation).user
    assert list(user.referee_zones.values_list("name", flat=True)) == ["B区"]
    assert sorted(RefereeTable.objects.filter(referee=user).values_list("number", flat=True)) == [
        7,
        9,
        10,
    ]
    # The zones page's card and the staff list show the note beside the username.
    zones_page = organiser.get(reverse("manage:zones", args=[event.pk])).content.decode()
    assert 'data-referee="wang"' in zones_page
    card = zones_page.split('data-referee="wang"')[1].split("</li>")[0]
    assert "王老师 东区" in card and 'value="7, 9-10"' in card
    assistant = make_user("assistant")
    staff_service.accept(staff_service.invite(event, "assistant"), assistant)
    read_only = client_for(assistant).get(reverse("manage:zones", args=[event.pk]))
    zone_card = read_only.content.decode().split("B区</strong>")[1].split("</li>")[0]
    assert "wang" in zone_card and "王老师 东区" in zone_card  # an assistant's view of the zones
    staff_page = organiser.get(reverse("manage:staff", args=[event.pk])).content.decode()
    row = staff_page.split('id="staff-list"')[1]
    assert "wang" in row and "王老师 东区" in row


def test_an_invitation_made_before_the_zones_gets_its_zone_later_and_the_referee_follows():
    b = EventBuilder(unions=8, deals=1).register()
    event = b.event
    organiser = client_for(b.organiser)
    page = organiser.get(reverse("manage:staff", args=[event.pk])).content.decode()
    assert 'name="zone"' not in page and 'id="no-zones-yet"' in page  # no zones: tables only
    organiser.post(reverse("manage:staff", args=[event.pk]), {"role": "referee", "note": "李"})
    early = StaffInvitation.objects.get(note="李")
    sign_up(early.token, "li")  # signs up before the zones exist: lands nowhere yet
    li = EventStaff.objects.get(invitation=early).user
    assert not li.referee_zones.exists()

    zones.define_zones(event, "东区 1-2\n西区 3-4")
    organiser.post(reverse("manage:staff", args=[event.pk]), {"role": "referee", "note": "赵"})
    late = StaffInvitation.objects.get(note="赵")
    edit = reverse("manage:invitation-edit", args=[event.pk, late.pk])
    assert 'name="zone"' in organiser.get(edit).content.decode()
    response = organiser.post(
        edit, {"note": "赵 西区", "zone": zone(event, "西区").pk, "tables": ""}
    )
    assert response.status_code == 302
    sign_up(late.token, "zhao")  # the open invitation carries the zone chosen since
    zhao = EventStaff.objects.get(invitation=late).user
    assert list(zhao.referee_zones.values_list("name", flat=True)) == ["西区"]

    # Already signed up: editing the invitation moves the referee at once.
    response = organiser.post(
        reverse("manage:invitation-edit", args=[event.pk, early.pk]),
        {"note": "李 东区", "zone": zone(event, "东区").pk, "tables": "4"},
    )
    assert response.status_code == 302
    assert list(li.referee_zones.values_list("name", flat=True)) == ["东区"]
    assert list(RefereeTable.objects.filter(referee=li).values_list("number", flat=True)) == [4]
    messages = organiser.get(reverse("manage:staff", args=[event.pk])).content.decode()
    assert "li" in messages and "李 东区" in messages


def test_editing_a_used_invitation_takes_back_only_what_the_invitation_gave(hall):
    event = hall.event
    a, b = zone(event, "A区"), zone(event, "B区")
    invitation = staff_service.invite(event, "referee", note="钱", zone=a, tables="5, 6")
    referee = make_user("qian")
    staff_service.accept(invitation, referee)
    # The zones page gives more by hand: B区 and table 8.
    zones.assign(event, {referee.pk: ([a.pk, b.pk], [5, 6, 8])})
    staff_service.edit_invitation(invitation, note="钱", zone=None, tables="6")
    assert list(referee.referee_zones.values_list("name", flat=True)) == ["B区"]
    numbers = RefereeTable.objects.filter(referee=referee).values_list("number", flat=True)
    assert sorted(numbers) == [6, 8]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"role": "assistant", "tables": "5"}, "只有裁判"),
        ({"role": "referee", "tables": "5-x"}, "不是桌号"),
        ({"role": "referee", "tables": "0"}, "不是桌号"),
    ],
)
def test_a_wrong_place_is_refused_with_a_clear_message_and_nothing_made(hall, fields, words):
    response = client_for(hall.organiser).post(
        reverse("manage:staff", args=[hall.event.pk]), {"note": "x", **fields}
    )
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not StaffInvitation.objects.exists()


def test_another_events_zone_is_not_offered_nor_taken(hall):
    other = EventBuilder(unions=4, deals=1).register()
    zones.define_zones(other.event, "外区 1-2")
    foreign = zone(other.event, "外区")
    response = client_for(hall.organiser).post(
        reverse("manage:staff", args=[hall.event.pk]),
        {"role": "referee", "zone": foreign.pk, "tables": ""},
    )
    assert response.status_code == 400 and not StaffInvitation.objects.exists()
    with pytest.raises(staff_service.StaffRefused):
        staff_service.invite(hall.event, "referee", zone=foreign)


def test_a_revoked_invitation_cannot_be_edited(hall):
    invitation = staff_service.invite(hall.event, "referee", note="x")
    staff_service.revoke_invitation(invitation)
    url = reverse("manage:invitation-edit", args=[hall.event.pk, invitation.pk])
    assert client_for(hall.organiser).get(url).status_code == 404


# --- copy, QR, the printed sheet and the spreadsheet of invitations ------------------------------


def test_each_open_invitation_has_a_copy_button_and_a_qr(hall):
    invitation = staff_service.invite(
        hall.event, "referee", note="孙", zone=zone(hall.event, "A区")
    )
    page = client_for(hall.organiser).get(reverse("manage:staff", args=[hall.event.pk]))
    html = page.content.decode()
    card = html.split(f'data-invitation="{invitation.pk}"')[1].split("</li>")[0]
    assert f'data-copy="invite-link-{invitation.pk}"' in card
    assert (
        f'id="invite-link-{invitation.pk}"' in card and f"/manage/join/{invitation.token}/" in card
    )
    assert "<svg" in card and "A区 1-2" in card
    assert page["Cache-Control"] == "private, no-store"


def test_the_invitation_sheet_prints_each_open_invitation(hall):
    event = hall.event
    east = staff_service.invite(event, "referee", note="王老师 东区", zone=zone(event, "A区"))
    tables = staff_service.invite(event, "referee", note="周", tables="3 4")
    used = staff_service.invite(event, "referee", note="已用")
    staff_service.accept(used, make_user("used"))
    response = client_for(hall.organiser).get(reverse("manage:invitation-sheet", args=[event.pk]))
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin" and "no-store" in response["Cache-Control"]
    html = response.content.decode()
    for invitation, place in ((east, "A区 1-2"), (tables, "3-4")):
        slip = html.split(f'data-invitation="{invitation.pk}"')[1].split('<div class="slip"')[0]
        assert invitation.note in slip and place in slip and invitation.code in slip
        assert f"/manage/join/{invitation.token}/" in slip and "<svg" in slip
    assert used.token not in html and "已用" not in html


def test_the_invitations_export_as_csv_with_a_bom_and_as_xlsx(hall):
    event = hall.event
    invitation = staff_service.invite(event, "referee", note="=王老师", zone=zone(event, "B区"))
    organiser = client_for(hall.organiser)
    response = organiser.get(reverse("manage:invitation-export", args=[event.pk, "csv"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["角色", "备注", "区域 / 桌号", "邀请码", "邀请链接"]
    assert rows[1][0] == "裁判" and rows[1][1] == "'=王老师"  # a formula stays text
    assert rows[1][2] == "B区 3-4" and rows[1][3] == invitation.code
    assert rows[1][4] == f"http://testserver/manage/join/{invitation.token}/"

    response = organiser.get(
        reverse("manage:invitation-export", args=[event.pk, "xlsx"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == ["Role", "Note", "Zone / tables", "Invitation code", "Invitation link"]
    assert values[1][1] == "=王老师" and values[1][4].endswith(f"/manage/join/{invitation.token}/")
    assert (
        organiser.get(reverse("manage:invitation-export", args=[event.pk, "pdf"])).status_code
        == 404
    )


# --- every entry's private link --------------------------------------------------------------


def test_every_entrys_private_link_exports_with_its_club_players_and_table(hall):
    event = hall.event
    entry = event.registrations.order_by("seed", "id").first()
    handed_out = client_for(hall.organiser).get(
        reverse("manage:entry-link", args=[event.pk, entry.pk])
    )  # one link already handed out: the export gives the same one
    entry.refresh_from_db()
    kept = entry.private_token
    assert kept and handed_out.status_code == 200

    response = client_for(hall.organiser).get(
        reverse("manage:entry-links-export", args=[event.pk, "csv"])
    )
    assert response.status_code == 200 and response.content.startswith("\ufeff".encode())
    assert response["Cache-Control"] == "private, no-store"
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["联邦", "俱乐部", "队员", "桌号（第1轮）", "链接"]
    assert len(rows) == 1 + event.registrations.count()
    union = entry.union
    first = rows[1]
    assert first[0] == union.name and first[1] == str(union.club or "")
    assert first[2] == "、".join(str(m.player) for m in union.members.order_by("order"))
    seat = hall.latest.tables.filter(seats__union=union).values_list("number", flat=True).first()
    assert first[3] == str(seat)
    assert first[4] == f"http://testserver/entry/{kept}/"
    # Every entry now has a link, each opens its own page.
    assert not Registration.objects.filter(event=event, private_token__isnull=True).exists()
    for row in rows[1:]:
        page = Client().get(row[4].removeprefix("http://testserver"))
        assert page.status_code == 200 and row[0] in page.content.decode()


def test_the_entry_links_export_as_xlsx_in_english_for_an_individual_event():
    b = EventBuilder("giog", players=6, deals=1).register()
    response = client_for(b.organiser).get(
        reverse("manage:entry-links-export", args=[b.event.pk, "xlsx"]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    values = [
        [c.value for c in row]
        for row in load_workbook(io.BytesIO(response.content)).active.iter_rows()
    ]
    assert values[0] == ["Player", "Club", "Members", "Table", "Link", "Player's own page"]
    assert len(values) == 7 and all(v[4].startswith("http://testserver/entry/") for v in values[1:])
    assert all(v[3] is None for v in values[1:])  # nothing drawn yet
    # Each player's own page (the badge's QR code) beside the entry's link (issue 46).
    assert all(v[5].startswith("http://testserver/me/") for v in values[1:])
    for name, _club, _members, _table, _link, own in values[1:]:
        page = Client().get(own.removeprefix("http://testserver"))
        assert page.status_code == 200 and name in page.content.decode()


def test_the_export_gives_each_union_members_own_page_in_member_order(hall):
    """Issue 46 (smaller): the union's link and each member's `/me/` link, the same token the
    badge prints, in one row; a pass that stayed on the hall box says so."""
    event = hall.event
    response = client_for(hall.organiser).get(
        reverse("manage:entry-links-export", args=[event.pk, "csv"])
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][5:] == ["队员1个人页", "队员2个人页", "队员3个人页"]
    entry = event.registrations.order_by("seed", "id").first()
    members = [m.player for m in entry.union.members.order_by("order")]
    passes = {
        p.player_id: p.token for p in FloorPass.objects.filter(event=event, player__in=members)
    }
    assert rows[1][5:] == [f"http://testserver/me/{passes[p.pk]}/" for p in members]
    for player, url in zip(members, rows[1][5:], strict=True):
        page = Client().get(url.removeprefix("http://testserver"))
        assert page.status_code == 200 and player.name in page.content.decode()
    # The badge sheet prints the same links: nothing new is made by either.
    count = FloorPass.objects.filter(event=event).count()
    client_for(hall.organiser).get(reverse("manage:badges", args=[event.pk]))
    again = client_for(hall.organiser).get(
        reverse("manage:entry-links-export", args=[event.pk, "csv"])
    )
    assert FloorPass.objects.filter(event=event).count() == count
    assert list(csv.reader(io.StringIO(again.content.decode("utf-8-sig"))))[1] == rows[1]
    FloorPass.objects.filter(player=members[0], event=event).update(token="")
    kept = client_for(hall.organiser).get(
        reverse("manage:entry-links-export", args=[event.pk, "csv"])
    )
    assert (
        list(csv.reader(io.StringIO(kept.content.decode("utf-8-sig"))))[1][5]
        == "链接留在赛场主机上"
    )


def test_a_link_whose_token_stayed_on_the_hall_box_is_not_replaced(hall):
    """A mirror turned into the server keeps the digest only: a new token would break the link
    already handed out, so the export leaves that entry without a link."""
    event = hall.event
    entry = event.registrations.order_by("seed", "id").first()
    Registration.objects.filter(pk=entry.pk).update(
        private_token=None, private_token_digest="d" * 64
    )
    response = client_for(hall.organiser).get(
        reverse("manage:entry-links-export", args=[event.pk, "csv"])
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1][4] == "链接留在赛场主机上"
    entry.refresh_from_db()
    assert entry.private_token is None and entry.private_token_digest == "d" * 64


def test_withdrawn_entries_are_left_out(hall):
    event = hall.event
    gone = event.registrations.order_by("-seed").first()
    Registration.objects.filter(pk=gone.pk).update(status=Registration.Status.WITHDRAWN)
    rows = links.entry_links(event)
    assert len(rows) == event.registrations.count() - 1 and gone.pk not in [
        r.entry_id for r in rows
    ]


def test_the_entry_links_sheet_prints_a_qr_per_entry_in_pages(hall, monkeypatch):
    from matches.views.organiser import links as link_views

    monkeypatch.setattr(link_views, "SHEET_ENTRIES", 5)
    event = hall.event
    organiser = client_for(hall.organiser)
    url = reverse("manage:entry-links-sheet", args=[event.pk])
    response = organiser.get(url)
    assert response.status_code == 200 and response["Referrer-Policy"] == "same-origin"
    html = response.content.decode()
    assert html.count('class="slip"') == 5 and html.count("<svg") == 5
    assert 'href="?page=2"' in html
    entry = event.registrations.order_by("seed", "id").first()
    entry.refresh_from_db()
    slip = html.split(f'data-entry="{entry.pk}"')[1].split('<div class="slip"')[0]
    assert entry.union.name in slip and f"/entry/{entry.private_token}/" in slip
    assert "第1轮" in slip
    second = organiser.get(url + "?page=2").content.decode()
    assert second.count('class="slip"') == 3
    assert organiser.get(url + "?page=abc").status_code == 200  # a mistyped page: the first


# --- who may ---------------------------------------------------------------------------------


def routes(event, invitation) -> list[str]:
    e = event.pk
    return [
        reverse("manage:invitation-edit", args=[e, invitation.pk]),
        reverse("manage:invitation-sheet", args=[e]),
        reverse("manage:invitation-export", args=[e, "csv"]),
        reverse("manage:invitation-export", args=[e, "xlsx"]),
        reverse("manage:entry-links-export", args=[e, "csv"]),
        reverse("manage:entry-links-export", args=[e, "xlsx"]),
        reverse("manage:entry-links-sheet", args=[e]),
    ]


def test_only_the_events_organiser_sees_or_changes_invitations_and_links(hall):
    event = hall.event
    invitation = staff_service.invite(event, "referee", note="秘密", tables="1")
    assistant, referee = make_user("assistant"), make_user("referee")
    staff_service.accept(staff_service.invite(event, "assistant"), assistant)
    staff_service.accept(staff_service.invite(event, "referee"), referee)
    outsiders = [hall.people.other_organiser, assistant, referee, hall.people.stranger]
    for user in outsiders:
        client = client_for(user)
        for url in routes(event, invitation):
            response = client.get(url)
            assert response.status_code == 403, (user.username, url)
            assert invitation.token not in response.content.decode()
        response = client.post(
            reverse("manage:invitation-edit", args=[event.pk, invitation.pk]),
            {"note": "改", "tables": "2"},
        )
        assert response.status_code == 403
    invitation.refresh_from_db()
    assert (invitation.note, invitation.tables) == ("秘密", "1")
    for url in routes(event, invitation):
        assert Client().get(url).status_code == 302  # signed out: to the sign-in page
    assert not Registration.objects.filter(event=event, private_token__isnull=False).exists()
    organiser = client_for(hall.organiser)
    assert all(organiser.get(url).status_code == 200 for url in routes(event, invitation))
    # An invitation of another event is not found through this one.
    other = EventBuilder(unions=4, deals=1).register()
    foreign = staff_service.invite(other.event, "referee")
    url = reverse("manage:invitation-edit", args=[event.pk, foreign.pk])
    assert organiser.get(url).status_code == 404


def test_the_tokens_stay_off_the_assistants_pages(hall):
    """An assistant runs the day's pages (entries, zones): no invitation or private token shows
    there, nor the organiser's export buttons."""
    event = hall.event
    invitation = staff_service.invite(event, "referee", note="x")
    assistant = make_user("assistant")
    staff_service.accept(staff_service.invite(event, "assistant"), assistant)
    client_for(hall.organiser).get(reverse("manage:entry-links-export", args=[event.pk, "csv"]))
    tokens = [invitation.token, *event.registrations.values_list("private_token", flat=True)]
    client = client_for(assistant)
    for name in ("entries", "zones", "dashboard", "checkin"):
        html = client.get(reverse(f"manage:{name}", args=[event.pk])).content.decode()
        assert not any(t in html for t in tokens), name
        assert "entry-links-csv" not in html
    entries = client_for(hall.organiser).get(reverse("manage:entries", args=[event.pk]))
    assert 'id="entry-links-csv"' in entries.content.decode()
