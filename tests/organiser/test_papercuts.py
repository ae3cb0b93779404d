"""Issue 37, problem 10: the morning's papercuts. The wizard comes back to its step after a
reload; a same-name event is made only when confirmed; 对外公开赛事 (the event) and 公布本轮对阵
(a round) are told apart; table cards name the hall's zone; badges print by club or by table;
a bye prints as 轮空; knockout rounds have one naming scheme; a copy keeps zones and referees;
the table phone drops 裁判正在赶来 once a referee answers."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from matches.draw import printing
from matches.draw import service as draw
from matches.events import calls, zones
from matches.events import staff as staff_service
from matches.models import Event, EventStaff, RefereeCall, RefereeTable, StaffRole, Stage
from tests.builder import EventBuilder
from tests.personas import english, make_user, owned, signed_in_organiser, wizard_rules_step

pytestmark = pytest.mark.django_db

BASICS = {
    "step": "basics",
    "game": "gouji",
    "name": "市北杯",
    "start_date": "2026-06-01",
    "entry_type": "team",
}
FORMAT = {
    "step": "format",
    "stage1_format": "swiss",
    "stage1_rounds": "5",
    "deals_per_match": "4",
    "result_confirmation": "captain",
}


@pytest.fixture
def organiser(client):
    return signed_in_organiser(client, "org-37")


def pdf_text(data: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-q", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode("utf-8")


def add_referee(event, name: str):
    user = make_user(name)
    staff_service.accept(staff_service.invite(event, "referee"), user)
    return user


# --- 1. the wizard keeps its place on a reload --------------------------------------------------


def test_a_reload_on_step_3_comes_back_to_step_3_with_steps_1_and_2_kept(client, organiser):
    url = reverse("manage:new-event")
    # 新建赛事 links to ?restart=1; the page leaves that address, so a reload does not restart.
    started = client.get(url + "?restart=1")
    assert started.status_code == 302 and started["Location"] == url
    client.post(url, BASICS)
    step3 = client.post(url, FORMAT).content.decode()
    assert 'name="step" value="rules"' in step3
    reloaded = client.get(url)  # the browser's reload: a GET of the same address
    text = reloaded.content.decode()
    assert reloaded.status_code == 200 and 'name="step" value="rules"' in text
    assert 'id="wizard-draft"' in text
    # Steps 1 and 2 are as filled in: going back shows them, and creating uses them.
    back = client.post(url, {"step": "rules", "back": "1"}).content.decode()
    assert 'value="4"' in back and 'name="step" value="format"' in back
    assert 'name="step" value="format"' in client.get(url).content.decode()  # reload again
    client.post(url, FORMAT)
    assert client.post(url, wizard_rules_step()).status_code == 302
    event = Event.objects.get(name="市北杯")
    assert event.deals_per_match == 4 and event.start_date.isoformat() == "2026-06-01"
    # A new wizard starts afresh at step 1.
    assert 'name="step" value="basics"' in client.get(url).content.decode()


def test_restart_clears_the_wizards_draft(client, organiser):
    url = reverse("manage:new-event")
    client.post(url, BASICS)
    client.post(url, FORMAT)
    page = client.get(url + "?restart=1", follow=True).content.decode()
    assert 'name="step" value="basics"' in page and 'value="市北杯"' not in page


def test_the_draft_is_the_sessions_own(client, organiser):
    url = reverse("manage:new-event")
    client.post(url, BASICS)
    client.post(url, FORMAT)
    other = Client()
    other.force_login(organiser)  # another browser of the same organiser: its own wizard
    page = other.get(url).content.decode()
    assert 'name="step" value="basics"' in page and 'value="市北杯"' not in page


# --- 2. a same-name event is confirmed, not only warned ----------------------------------------


def test_a_same_name_event_is_refused_until_confirmed(client, organiser):
    owned(organiser, unions=2, name="市北杯")
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    client.post(url, BASICS)
    step3 = client.post(url, FORMAT).content.decode()
    assert 'id="confirm-same-name"' in step3
    refused = client.post(url, wizard_rules_step())
    assert refused.status_code == 400
    text = refused.content.decode()
    assert 'id="same-name-error"' in text and "是的，再建一个同名赛事" in text
    assert Event.objects.filter(name="市北杯").count() == 1
    english(client)
    refused = client.post(url, wizard_rules_step()).content.decode()
    assert "Yes, make another event of the same name" in refused
    made = client.post(url, {**wizard_rules_step(), "confirm_same_name": "yes"})
    assert made.status_code == 302
    assert Event.objects.filter(name="市北杯").count() == 2


def test_a_new_name_needs_no_confirmation(client, organiser):
    owned(organiser, unions=2, name="市北杯")
    url = reverse("manage:new-event")
    client.post(url, {**BASICS, "name": "市南杯"})
    page = client.post(url, FORMAT).content.decode()
    assert 'id="confirm-same-name"' not in page
    assert client.post(url, wizard_rules_step()).status_code == 302


def test_another_organisers_event_of_that_name_is_not_asked_about(client, organiser):
    EventBuilder(unions=2, name="市北杯").register()  # someone else's
    url = reverse("manage:new-event")
    client.post(url, BASICS)
    client.post(url, FORMAT)
    assert client.post(url, wizard_rules_step()).status_code == 302


def test_copying_onto_a_name_in_use_is_confirmed_too(client, organiser):
    b = owned(organiser, unions=2, name="2026 市北杯")
    owned(organiser, unions=2, name="2027 市北杯")
    url = reverse("manage:copy", args=[b.event.pk])
    data = {"name": "2027 市北杯", "start_date": "2027-05-01"}
    refused = client.post(url, data)
    assert refused.status_code == 400 and 'id="confirm-same-name"' in refused.content.decode()
    assert Event.objects.filter(name="2027 市北杯").count() == 1
    assert client.post(url, {**data, "confirm_same_name": "yes"}).status_code == 302
    assert Event.objects.filter(name="2027 市北杯").count() == 2


# --- 3. 对外公开赛事 and 公布本轮对阵 are two things -------------------------------------------


def test_the_event_toggle_and_the_round_publish_say_different_things(client, organiser):
    b = owned(organiser, unions=4, published=False)
    draw.create_round(b.stage, seed=1)  # a draft: its publish button shows
    url = reverse("manage:dashboard", args=[b.event.pk])
    page = client.get(url).content.decode()
    toggle = re.search(r'id="toggle-published"[^>]*>([^<]+)<', page).group(1)
    assert toggle == "对外公开赛事"
    assert "公布本轮对阵" in page and 'id="publish-help"' in page
    assert "本赛事未对外公开" in page
    english(client)
    page = client.get(url).content.decode()
    toggle = re.search(r'id="toggle-published"[^>]*>([^<]+)<', page).group(1)
    assert toggle == "Open the event to the public"
    assert "Publish the round&#x27;s pairings" in page or "Publish the round's pairings" in page
    assert ">Publish<" not in page and "Unpublish" not in page
    client.post(reverse("manage:toggle-published", args=[b.event.pk]))
    page = client.get(url).content.decode()
    toggle = re.search(r'id="toggle-published"[^>]*>([^<]+)<', page).group(1)
    assert toggle == "Hide the event from the public"


# --- 4. table cards carry the zone -----------------------------------------------------------


def test_table_cards_name_each_tables_zone(build):
    b = build(unions=6, deals=2)
    round_ = b.draw()
    zones.define_zones(b.event, "北区 1-2\n南区 3-10")
    text = pdf_text(printing.table_cards_pdf(round_, {}))
    assert "第 1 桌 · 区域 北区" in text
    assert "第 2 桌 · 区域 北区" in text
    assert "第 3 桌 · 区域 南区" in text


def test_a_table_outside_every_zone_has_no_zone_line(build):
    b = build(unions=4, deals=1)
    round_ = b.draw()
    zones.define_zones(b.event, "北区 2-9")
    text = pdf_text(printing.table_cards_pdf(round_, {}))
    assert "第 2 桌 · 区域 北区" in text
    assert re.search(r"第 1 桌\s*\n", text) and "第 1 桌 · 区域" not in text


# --- 5. badges by club or by table ----------------------------------------------------------


def badge_names(page: str) -> list[str]:
    return re.findall(r'<p class="badge-name">([^<]+)</p>', page)


def test_badges_print_by_club_or_by_table(client, organiser):
    b = owned(organiser, unions=6, deals=1, clubs=3)
    round_ = b.draw()
    url = reverse("manage:badges", args=[b.event.pk])
    by_club = client.get(url + "?order=club").content.decode()
    groups = re.findall(r'<h2 class="badge-group">([^<]+)</h2>', by_club)
    clubs = sorted({u.club.name for u in b.unions})
    assert groups == clubs  # one heading per club, in order
    # Each union's card sits under its club's heading (the nearest heading before it).
    for union in b.unions:
        card = by_club.index(f'<p class="badge-name">{union.name}</p>')
        heading = re.findall(r'<h2 class="badge-group">([^<]+)</h2>', by_club[:card])[-1]
        assert heading == union.club.name

    by_table = client.get(url + "?order=table").content.decode()
    tables = [int(n) for n in re.findall(r'data-table="(\d+)"', by_table)]
    assert tables == sorted(tables) and len(set(tables)) == 3
    assert re.findall(r'<h2 class="badge-group">([^<]+)</h2>', by_table) == [
        "第 1 桌",
        "第 2 桌",
        "第 3 桌",
    ]
    first = round_.tables.get(number=1).match
    # Table 1's two unions (a union card and its players each) come first.
    assert {first.union_a.name, first.union_b.name} <= set(badge_names(by_table)[:8])
    assert 'aria-current="true">按桌号<' in by_table
    # The default stays the entry order, and a made-up order falls back to it.
    plain = client.get(url + "?order=<b>").content.decode()
    assert 'class="badge-group"' not in plain and 'aria-current="true">按报名顺序<' in plain


def test_badges_by_table_put_a_bye_last_and_say_so(client, organiser):
    b = owned(organiser, unions=3, deals=1)
    round_ = b.draw()
    bye = next(m for m in round_.matches.with_sides() if m.is_bye).union_a
    page = client.get(reverse("manage:badges", args=[b.event.pk]) + "?order=table")
    text = page.content.decode()
    groups = re.findall(r'<h2 class="badge-group">([^<]+)</h2>', text)
    assert groups == ["第 1 桌", "本轮轮空或未排桌"]
    assert badge_names(text)[-4] == bye.name  # the union card, then its three players


def test_badges_are_for_the_events_staff_only(client, organiser):
    b = EventBuilder(unions=2).register()  # not organiser's
    assert client.get(reverse("manage:badges", args=[b.event.pk]) + "?order=club").status_code in (
        403,
        404,
    )


# --- 6. a bye prints as 轮空 -----------------------------------------------------------------


def test_a_bye_prints_as_a_bye_everywhere(client, organiser):
    b = owned(organiser, unions=5, deals=2)
    round_ = draw.create_round(b.stage, seed=1)
    bye = next(m for m in round_.matches.with_sides() if m.is_bye).union_a
    cards = pdf_text(printing.table_cards_pdf(round_, {}))
    assert re.search(rf"{bye.name}\s+—\s+轮空", cards)  # the byes' page, in the stack
    wall = pdf_text(printing.pairings_pdf(round_))
    lines = [line for line in wall.splitlines() if line.strip()]
    assert re.search(rf"—\s+{bye.name}\s+轮空", lines[-1])  # after the tables
    by_name = pdf_text(printing.pairings_pdf(round_, order="name"))
    line = next(line for line in by_name.splitlines() if line.startswith(bye.name))
    assert re.fullmatch(rf"{bye.name}\s+—\s+—\s+轮空", line.strip())
    for text in (cards, wall, by_name):
        assert "None" not in text
    dashboard = client.get(reverse("manage:dashboard", args=[b.event.pk])).content.decode()
    assert re.search(rf"{bye.name} — <span class=\"bye-word\">轮空</span>", dashboard)
    assert "None" not in dashboard


# --- 7. one naming scheme for knockout rounds ---------------------------------------------------


def knockout_of_eight(organiser) -> EventBuilder:
    b = owned(organiser, unions=8, fmt=Stage.Format.SINGLE_ELIMINATION, clubs=8)
    b.stage.qualifiers, b.stage.planned_rounds = 8, 3
    b.stage.break_unions = [u.pk for u in b.unions]
    b.stage.save()
    return b


def test_the_dashboard_and_the_public_pages_name_knockout_rounds_in_one_scheme(client, organiser):
    b = knockout_of_eight(organiser)
    quarter = draw.create_round(b.stage, seed=1)
    draw.publish_round(quarter)
    b.event.published = True
    b.event.save(update_fields=["published"])
    dashboard = reverse("manage:dashboard", args=[b.event.pk])
    page = client.get(dashboard).content.decode()
    row = re.search(r'<tr data-round="1">.*?</tr>', page, re.S).group(0)
    assert "1/4决赛" in row
    public = client.get(reverse("public:event", args=[b.event.pk])).content.decode()
    assert "1/4决赛" in public
    bracket = client.get(reverse("public:bracket", args=[b.event.pk])).content.decode()
    assert "1/4决赛" in bracket and "半决赛" in bracket and "决赛" in bracket
    for text in (page, public, bracket):
        assert "四分之一" not in text and "强" not in text
    english(client)
    assert "Quarter-final" in client.get(dashboard).content.decode()


@pytest.mark.parametrize("places", [2, 4, 8, 16, 32, 64, 128, 256, 512])
def test_every_knockout_round_name_is_of_the_one_scheme(places):
    from django.utils import translation

    from matches.draw.bracket import round_name

    with translation.override("zh-hans"):
        name = round_name(places)
    assert name in ("决赛", "半决赛") or re.fullmatch(r"1/\d+决赛", name)
    if name.startswith("1/"):
        assert int(name[2:-2]) == places // 2


# --- 9. a copy keeps zones and referees -------------------------------------------------------


def test_copying_keeps_the_zones_and_the_referees(client, organiser):
    b = owned(organiser, unions=4, name="2026 市北杯")
    event = b.event
    north, south, gone = (add_referee(event, n) for n in ("north", "south", "gone"))
    zones.define_zones(event, "A区 1-10\nB区 11-20")
    a, bz = event.zones.get(name="A区"), event.zones.get(name="B区")
    zones.assign(event, {north.pk: ([a.pk], []), south.pk: ([bz.pk], [3]), gone.pk: ([a.pk], [4])})
    EventStaff.objects.filter(event=event, user=gone).update(revoked_at=event.created_at)
    page = client.get(reverse("manage:copy", args=[event.pk])).content.decode()
    assert 'id="copied-zones"' in page and "A区" in page and "north" in page
    client.post(
        reverse("manage:copy", args=[event.pk]),
        {"name": "2027 市北杯", "start_date": "2027-05-01"},
    )
    copy = Event.objects.get(name="2027 市北杯")
    assert [(z.name, z.first_table, z.last_table) for z in copy.zones.all()] == [
        ("A区", 1, 10),
        ("B区", 11, 20),
    ]
    assert [r.username for r in copy.zones.get(name="A区").referees.all()] == ["north"]
    assert [r.username for r in copy.zones.get(name="B区").referees.all()] == ["south"]
    assert list(
        RefereeTable.objects.filter(event=copy).values_list("referee__username", "number")
    ) == [("south", 3)]
    staff = EventStaff.objects.filter(event=copy, revoked_at__isnull=True)
    assert sorted(s.user.username for s in staff) == ["north", "south"]
    assert {s.role for s in staff} == {StaffRole.REFEREE}
    # The original keeps its own rows.
    assert event.zones.count() == 2 and event.staff.count() == 3


# --- 10. the phone drops 裁判正在赶来 when the referee answers -----------------------------------


def test_the_call_box_says_the_call_was_answered_once_acknowledged(setup):
    phone = Client()
    base = f"/ref/{setup.link.token}/"
    phone.post(base + "call")
    box = phone.get(base + "call")
    text = box.content.decode()
    assert box.status_code == 200 and "裁判正在赶来" in text
    assert 'hx-get="' + base + 'call"' in text and "hx-trigger=" in text  # it asks again
    assert box["Cache-Control"].startswith("private") or "no-store" in box["Cache-Control"]
    call = RefereeCall.objects.get()
    calls.acknowledge(call, setup.referee)
    text = phone.get(base + "call").content.decode()
    assert "裁判正在赶来" not in text and "裁判已于" in text and "响应呼叫" in text
    assert "hx-get" not in text  # nothing more to wait for
    page = phone.get(base).content.decode()
    assert "裁判正在赶来" not in page and "响应呼叫" in page
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "answered your call" in phone.get(base + "call").content.decode()


def test_the_call_box_needs_the_tables_link(setup):
    assert Client().get("/ref/" + "x" * 32 + "/call").status_code == 404
    revoked = setup.link
    revoked.revoked_at = revoked.created_at
    revoked.save(update_fields=["revoked_at"])
    assert Client().get(f"/ref/{revoked.token}/call").status_code == 404
