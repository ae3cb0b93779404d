"""Referee zones (issue 26): zones as table-number ranges, bulk assignment on the page, a
referee's rights exactly their tables (page and API, both ways), coverage, and the call."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.events import calls, zones
from matches.events import staff as staff_service
from matches.models import DealReport, RefereeCall, RefereeTable, RefereeZone, Round
from matches.permissions import Actor, can_enter_results, tables_of
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db

SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def add_referee(event, name: str):
    user = make_user(name)
    invitation = staff_service.invite(event, "referee")
    staff_service.accept(invitation, user)
    return user


@pytest.fixture
def hall():
    """An event of 12 unions (6 tables a round), round 1 published, two referees."""
    b = EventBuilder(unions=12, deals=1).register()
    b.draw()
    event = b.event
    return {
        "b": b,
        "event": event,
        "round": b.latest,
        "organiser": b.people.organiser,
        "north": add_referee(event, "north"),
        "south": add_referee(event, "south"),
    }


def table(hall, number, round_=None):
    return (round_ or hall["round"]).tables.get(number=number)


# --- zones: validation -------------------------------------------------------------------------


def test_zone_lines_are_parsed_in_the_hall_s_words():
    specs = zones.parse_zones("A区 1-120\nB: 121–240\n\nVIP 241")
    assert [(s.name, s.first, s.last) for s in specs] == [
        ("A区", 1, 120),
        ("B", 121, 240),
        ("VIP", 241, 241),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("A 1-10\nB 10-20", "重叠"),  # overlapping ranges are refused: a table is one place
        ("A 1-10\nB 5-7", "重叠"),
        ("A 10-1", "无效"),
        ("A 0-5", "无效"),
        ("A 1-5\nA 6-9", "重复"),
        ("just words", "第 1 行"),
    ],
)
def test_bad_zones_are_refused_with_a_reason(hall, text, words):
    client = signed_in(hall["organiser"])
    url = reverse("manage:zones", args=[hall["event"].pk])
    response = client.post(url, {"action": "zones", "zones": text})
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not RefereeZone.objects.exists()


def test_redefining_zones_keeps_the_referees_of_a_zone_that_stays(hall):
    event = hall["event"]
    zones.define_zones(event, "A 1-3\nB 4-6")
    a = event.zones.get(name="A")
    zones.assign(event, {hall["north"].pk: ([a.pk], [])})
    zones.define_zones(event, "A 1-2\nC 3-6")
    a.refresh_from_db()
    assert (a.first_table, a.last_table) == (1, 2)
    assert list(a.referees.all()) == [hall["north"]]
    assert sorted(event.zones.values_list("name", flat=True)) == ["A", "C"]


# --- bulk assignment on the page -----------------------------------------------------------------


def test_the_organiser_assigns_zones_and_single_tables_in_one_post(hall):
    event, north, south = hall["event"], hall["north"], hall["south"]
    client = signed_in(hall["organiser"])
    url = reverse("manage:zones", args=[event.pk])
    assert client.post(url, {"action": "zones", "zones": "A 1-3\nB 4-6"}).status_code == 302
    a, b = event.zones.get(name="A"), event.zones.get(name="B")
    response = client.post(
        url,
        {
            "action": "assign",
            f"zones-{north.pk}": [str(a.pk)],
            f"tables-{north.pk}": "",
            f"zones-{south.pk}": [],
            f"tables-{south.pk}": "5, 6 8-9",
        },
    )
    assert response.status_code == 302
    assert list(a.referees.all()) == [north] and not b.referees.exists()
    assert sorted(RefereeTable.objects.filter(referee=south).values_list("number", flat=True)) == [
        5,
        6,
        8,
        9,
    ]
    page = client.get(url).content.decode()
    assert 'value="5-6, 8-9"' in page
    # A second post replaces: north loses A and gets B; south's single tables are cleared.
    client.post(
        url,
        {"action": "assign", f"zones-{north.pk}": [str(b.pk)], f"tables-{south.pk}": ""},
    )
    assert list(north.referee_zones.all()) == [b]
    assert not RefereeTable.objects.filter(referee=south).exists()


def test_bad_single_tables_are_refused_and_nothing_changes(hall):
    event, south = hall["event"], hall["south"]
    client = signed_in(hall["organiser"])
    url = reverse("manage:zones", args=[event.pk])
    response = client.post(url, {"action": "assign", f"tables-{south.pk}": "5, x7"})
    assert response.status_code == 400 and "x7" in response.content.decode()
    assert not RefereeTable.objects.exists()


def test_only_the_event_s_referees_and_zones_can_be_assigned(hall):
    event = hall["event"]
    other = EventBuilder(unions=4, deals=1).register()
    zones.define_zones(other.event, "X 1-2")
    stranger = make_user("not-a-referee")
    with pytest.raises(zones.ZoneError):
        zones.assign(event, {stranger.pk: ([], [1])})
    with pytest.raises(zones.ZoneError):
        zones.assign(event, {hall["north"].pk: ([other.event.zones.get().pk], [])})


def test_only_the_organiser_changes_the_zones_an_assistant_reads_them(hall):
    event = hall["event"]
    url = reverse("manage:zones", args=[event.pk])
    assert signed_in(hall["organiser"]).get(url).status_code == 200
    assistant = make_user("assistant")
    staff_service.accept(staff_service.invite(event, "assistant"), assistant)
    zones.define_zones(event, "A 1-3")
    page = signed_in(assistant).get(url)
    assert page.status_code == 200 and 'id="zones-form"' not in page.content.decode()
    assert "无裁判" in page.content.decode()
    refused = signed_in(assistant).post(url, {"action": "zones", "zones": "B 1-9"})
    assert refused.status_code == 403
    assert list(event.zones.values_list("name", flat=True)) == ["A"]
    assert signed_in(hall["north"]).get(url).status_code == 403
    assert signed_in(hall["b"].people.other_organiser).get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the sign-in page


# --- rights: exactly their tables ----------------------------------------------------------------


@pytest.fixture
def assigned(hall):
    """north: zone A (tables 1-3); south: table 5 alone."""
    event = hall["event"]
    zones.define_zones(event, "A 1-3\nB 4-6")
    zones.assign(
        event,
        {hall["north"].pk: ([event.zones.get(name="A").pk], []), hall["south"].pk: ([], [5])},
    )
    return hall


def test_a_zone_referee_s_tables_are_exactly_the_zone_s(assigned):
    north, south = Actor(user=assigned["north"]), Actor(user=assigned["south"])
    for number in range(1, 7):
        assert can_enter_results(north, table(assigned, number)) == (number <= 3), number
        assert can_enter_results(south, table(assigned, number)) == (number == 5), number
    assert sorted(t.number for t in tables_of(north)) == [1, 2, 3]


def test_a_zone_holds_in_the_next_round_but_not_in_a_draft(assigned):
    b = assigned["b"]
    # Closed without results (the draw of round 2 needs no standings here).
    Round.objects.filter(pk=assigned["round"].pk).update(state=Round.State.CLOSED)
    draft = b.draw(publish=False)
    north = Actor(user=assigned["north"])
    assert not can_enter_results(north, draft.tables.get(number=1))
    b.publish(draft)
    assert can_enter_results(north, draft.tables.get(number=1))
    assert not can_enter_results(north, table(assigned, 1))  # the closed round: organisers only


def test_revoking_the_referee_role_ends_the_zone_s_rights(assigned):
    event, north = assigned["event"], assigned["north"]
    staff_service.revoke_staff(event.staff.get(user=north, revoked_at__isnull=True))
    assert not can_enter_results(Actor(user=north), table(assigned, 1))


def test_a_referee_of_another_event_gets_nothing(assigned):
    other = EventBuilder(unions=4, deals=1).register()
    other.draw()
    outsider = add_referee(other.event, "outsider")
    zones.define_zones(other.event, "All 1-100")
    zones.assign(other.event, {outsider.pk: ([other.event.zones.get().pk], [1, 2, 3])})
    actor = Actor(user=outsider)
    assert not any(can_enter_results(actor, t) for t in assigned["round"].tables.all())
    client = signed_in(outsider)
    assert (
        client.get(reverse("referee:table-table", args=[table(assigned, 1).pk])).status_code == 403
    )


def test_the_table_page_opens_in_the_zone_and_refuses_outside(assigned):
    client = signed_in(assigned["north"])
    inside, outside = table(assigned, 2), table(assigned, 4)
    assert client.get(reverse("referee:table-table", args=[inside.pk])).status_code == 200
    assert client.get(reverse("referee:table-table", args=[outside.pk])).status_code == 403
    form = {"finish": "1,2,3,4,5,6", "point_3": "1", "idempotency_key": "z-1"}
    url = reverse("referee:table-submit", args=[outside.pk, 1])
    assert client.post(url, form).status_code == 403
    assert not DealReport.objects.exists()
    client.post(reverse("referee:table-submit", args=[inside.pk, 1]), form)
    report = DealReport.objects.get()
    assert report.deal.match.table == inside and report.submitted_by == assigned["north"]


def test_the_api_takes_a_zone_referee_s_report_inside_and_refuses_outside(assigned):
    api = APIClient()
    token = Token.objects.get_or_create(user=assigned["north"])[0].key
    api.credentials(HTTP_AUTHORIZATION="Token " + token)

    def submit(number):
        return api.post(
            f"/api/v1/tables/{table(assigned, number).pk}/deals/1/reports",
            data=json.dumps({"summary": SUMMARY}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=f"api-{number}",
        )

    assert submit(6).status_code == 403
    response = submit(1)
    assert response.status_code == 201, response.json()
    assert DealReport.objects.get().deal.match.table.number == 1


# --- the referee's home --------------------------------------------------------------------------


def test_the_home_lists_the_current_round_s_tables_with_their_state(assigned):
    client = signed_in(assigned["north"])
    calls.call_referee(table(assigned, 3))
    page = client.get(reverse("referee:home")).content.decode()
    assert "你还没有被分配到牌桌" not in page
    for number in (1, 2, 3):
        assert f'data-table="{number}"' in page
    assert 'data-table="4"' not in page
    assert "等待第1局" in page  # the game names its deals (局 in Gou Ji)
    # The calling table comes first, with its acknowledge button.
    assert page.index('data-table="3"') < page.index('data-table="1"')
    assert "state-called" in page


def test_the_home_s_queries_do_not_grow_with_the_zone(assigned, django_assert_max_num_queries):
    event = assigned["event"]
    client = signed_in(assigned["north"])
    zones.define_zones(event, "A 1-1\nB 2-6")
    zones.assign(event, {assigned["north"].pk: ([event.zones.get(name="A").pk], [])})
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one_table:
        client.get(reverse("referee:home"))
    zones.assign(event, {assigned["north"].pk: ([z.pk for z in event.zones.all()], [])})
    with django_assert_max_num_queries(len(one_table)):
        page = client.get(reverse("referee:home")).content.decode()
    assert page.count('class="card table-card') == 6


def test_a_referee_without_tables_is_told_so(hall):
    page = signed_in(hall["north"]).get(reverse("referee:home")).content.decode()
    assert "你还没有被分配到牌桌" in page


# --- coverage ------------------------------------------------------------------------------------


def test_coverage_counts_tables_without_an_active_referee(assigned):
    result = zones.coverage(assigned["round"])
    assert result["total"] == 6 and result["uncovered"] == [4, 6]
    assert result["uncovered_ranges"] == "4, 6"
    # A zone with nobody in it covers nothing; a revoked referee covers nothing.
    event = assigned["event"]
    staff_service.revoke_staff(event.staff.get(user=assigned["south"], revoked_at__isnull=True))
    assert zones.coverage(assigned["round"])["uncovered"] == [4, 5, 6]
    # An admin-given referee still counts (Table.referees is kept).
    table(assigned, 4).referees.add(assigned["north"])
    assert zones.coverage(assigned["round"])["uncovered"] == [5, 6]


def test_coverage_shows_on_the_zones_page_and_the_dashboard(assigned):
    client = signed_in(assigned["organiser"])
    event = assigned["event"]
    page = client.get(reverse("manage:zones", args=[event.pk])).content.decode()
    assert "4 / 6 桌有裁判" in page and "4, 6" in page
    dashboard = client.get(reverse("manage:dashboard", args=[event.pk])).content.decode()
    assert 'id="referee-coverage"' in dashboard and "2 桌无裁判" in dashboard


def test_compress_writes_runs_as_ranges():
    assert zones.compress([9, 1, 2, 3, 5, 6]) == "1-3, 5-6, 9"
    assert zones.compress([]) == ""


# --- calling the referee -------------------------------------------------------------------------


def link_of(hall, number):
    from matches.models import RefereeLink

    return RefereeLink.objects.create(table=table(hall, number), created_by=hall["organiser"])


def test_a_table_calls_and_a_second_press_does_not_stack(assigned):
    link = link_of(assigned, 2)
    client = Client()
    page = client.get(f"/ref/{link.token}/").content.decode()
    assert 'id="call-button"' in page
    assert client.post(f"/ref/{link.token}/call").status_code == 302
    assert client.post(f"/ref/{link.token}/call").status_code == 302
    call = RefereeCall.objects.get()
    assert call.table == table(assigned, 2) and call.is_open
    page = client.get(f"/ref/{link.token}/").content.decode()
    assert 'id="call-button"' not in page and "呼叫裁判" in page
    # Only POST calls; a GET answers the call box (the phone polls it) and changes nothing.
    box = client.get(f"/ref/{link.token}/call")
    assert box.status_code == 200 and "裁判正在赶来" in box.content.decode()
    assert RefereeCall.objects.count() == 1


def test_a_call_shows_to_the_zone_referee_and_the_queue_until_acknowledged(assigned):
    link = link_of(assigned, 2)
    Client().post(f"/ref/{link.token}/call")
    call = RefereeCall.objects.get()
    organiser = signed_in(assigned["organiser"])
    queue_url = reverse("manage:results-queue", args=[assigned["event"].pk])
    assert 'data-call-table="2"' in organiser.get(queue_url).content.decode()
    # south (table 5 only) may not acknowledge table 2's call; north (zone A) may.
    ack = reverse("referee:call-acknowledge", args=[call.pk])
    assert signed_in(assigned["south"]).post(ack).status_code == 403
    call.refresh_from_db()
    assert call.is_open
    assert signed_in(assigned["north"]).post(ack).status_code == 302
    call.refresh_from_db()
    assert call.acknowledged_by == assigned["north"] and call.acknowledged_at is not None
    assert 'data-call-table="2"' not in organiser.get(queue_url).content.decode()


def test_the_organiser_acknowledges_from_the_queue(assigned):
    call, created = calls.call_referee(table(assigned, 6))
    assert created
    event = assigned["event"]
    url = reverse("manage:call-acknowledge", args=[event.pk, call.pk])
    assert signed_in(assigned["north"]).post(url).status_code == 403  # referees: no manage page
    assert signed_in(assigned["b"].people.other_organiser).post(url).status_code == 403
    assert signed_in(assigned["organiser"]).post(url).status_code == 302
    call.refresh_from_db()
    assert call.acknowledged_by == assigned["organiser"]


def test_calling_again_waits_a_minute_after_the_last_call(assigned):
    t = table(assigned, 1)
    now = timezone.now()
    call, _ = calls.call_referee(t, now=now)
    calls.acknowledge(call, assigned["north"])
    with pytest.raises(calls.CallRefused) as refused:
        calls.call_referee(t, now=now + timedelta(seconds=10))
    assert refused.value.wait == calls.CALL_GAP_SECONDS - 10
    again, created = calls.call_referee(t, now=now + timedelta(seconds=calls.CALL_GAP_SECONDS))
    assert created and again.pk != call.pk


def test_a_closed_round_cannot_call(assigned):
    Round.objects.filter(pk=assigned["round"].pk).update(state=Round.State.CLOSED)
    link = link_of(assigned, 1)
    with pytest.raises(calls.CallRefused):
        calls.call_referee(link.table.__class__.objects.get(pk=link.table_id))
    client = Client()
    assert 'id="call-button"' not in client.get(f"/ref/{link.token}/").content.decode()
    client.post(f"/ref/{link.token}/call")
    assert not RefereeCall.objects.exists()


def test_a_zone_referee_confirms_as_second_referee_and_an_outsider_cannot(assigned):
    from matches.models import Event
    from matches.permissions import confirmable_reports, confirmation_role
    from matches.results.deals import deal_for
    from matches.results.submit import submit_report

    Event.objects.filter(pk=assigned["event"].pk).update(result_confirmation="referee")
    link = link_of(assigned, 2)
    match = table(assigned, 2).match
    report, _ = submit_report(deal_for(match, 1), SUMMARY, None, Actor.from_link(link), "z-2")
    report = DealReport.objects.get(pk=report.pk)
    north, south = Actor(user=assigned["north"]), Actor(user=assigned["south"])
    assert confirmation_role(north, report) == "referee"
    assert [r.pk for r in confirmable_reports(north)] == [report.pk]
    assert confirmation_role(south, report) is None and confirmable_reports(south) == []
