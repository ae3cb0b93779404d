"""The check-in desk (matches/events/scan.py, matches/views/organiser/scan.py): a badge's QR code
(its holder's page), its desk code or an entry's private link checks the entry in once, with
the undo; every refusal is said at the box (400, never a 500) and writes nothing; only the
event's organisers and assistants reach the desk."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.events import checkin, scan
from matches.events import staff as staff_service
from matches.models import Event, FloorPass, Registration, RoundLog, StaffRole
from matches.public import floor_passes
from players.models import Player
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db

SCANNER = "https://hall.example/me/{}/"  # what a badge's QR code holds (the public address)


@pytest.fixture
def team():
    b = EventBuilder(unions=3).register(check_in=False)
    floor_passes.ensure_passes(b.event)
    return b


def pass_of(event, union=None, player=None) -> FloorPass:
    return FloorPass.objects.get(event=event, union=union, player=player)


def desk(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def post_scan(client, event, code, **extra):
    return client.post(reverse("manage:checkin-scan", args=[event.pk]), {"code": code}, **extra)


def present(entry) -> bool:
    event = entry.event
    number = checkin.next_round(event)
    return event.registrations.filter(checkin.present_q(event, number), pk=entry.pk).exists()


def test_a_captain_card_checks_its_union_in_once_and_says_since_when(team):
    union = team.unions[0]
    entry = team.event.registrations.get(union=union)
    token = pass_of(team.event, union=union).token
    client = desk(team.organiser)

    first = post_scan(client, team.event, SCANNER.format(token), HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    body = first.content.decode()
    assert 'class="scan-result scan-ok"' in body and union.name in body
    assert "Checked in: round 1" in body
    assert token not in body  # the desk never shows a token back
    assert present(entry)
    log = RoundLog.objects.get(action=RoundLog.Action.CHECK_IN)
    assert log.event == team.event and log.user == team.organiser
    assert log.details == {"entry": entry.pk, "name": union.name, "round": 1, "via": "scan"}

    entry.refresh_from_db()
    at = timezone.localtime(entry.checked_in_at).strftime("%H:%M")
    again = post_scan(client, team.event, SCANNER.format(token), HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert f"Already checked in at {at}" in again.content.decode()
    assert 'class="scan-result scan-again"' in again.content.decode()
    assert RoundLog.objects.filter(action=RoundLog.Action.CHECK_IN).count() == 1
    entry.refresh_from_db()
    assert timezone.localtime(entry.checked_in_at).strftime("%H:%M") == at  # the first time kept


def test_a_members_badge_checks_the_union_in_and_names_whose_badge_it_was(team):
    union = team.unions[1]
    member = union.players_in_order()[2]
    token = pass_of(team.event, player=member).token
    answer = post_scan(desk(team.organiser), team.event, SCANNER.format(token))
    assert answer.status_code == 200
    body = answer.content.decode()
    assert union.name in body and f"{member}’s badge" in body
    assert present(team.event.registrations.get(union=union))
    # Only that union: the others are still away.
    assert [present(r) for r in team.event.registrations.order_by("seed")] == [False, True, False]


@pytest.mark.parametrize(
    "shape",
    [
        lambda token, code: code,  # printed as 3F9A2-C710B
        lambda token, code: code.lower().replace("-", " "),  # typed by hand
        lambda token, code: code.replace("-", ""),
        lambda token, code: f"  {token}\n",  # the bare token, with a scanner's whitespace
        lambda token, code: f"http://192.168.1.20:8000/me/{token}/?from=badge",  # another host
    ],
)
def test_the_desk_code_and_the_bare_token_are_read_too(team, shape):
    player = team.unions[2].players_in_order()[0]
    token = pass_of(team.event, player=player).token
    answer = post_scan(desk(team.organiser), team.event, shape(token, scan.desk_code(token)))
    assert answer.status_code == 200, answer.content.decode()
    assert present(team.event.registrations.get(union=team.unions[2]))


def test_the_badge_sheet_prints_each_badges_desk_code(team):
    member = team.unions[0].players_in_order()[1]
    code = scan.desk_code(pass_of(team.event, player=member).token)
    assert len(code) == 11 and code[5] == "-"
    page = desk(team.organiser).get(reverse("manage:badges", args=[team.event.pk]))
    assert code in page.content.decode()


def test_a_desk_code_two_badges_share_asks_for_the_qr_code(team):
    # Two passes whose digests share their first ten hex digits (written as rows: made by
    # chance, such a pair would take a million badges).
    twins = [Player.objects.create(name=f"双胞胎{k}") for k in (1, 2)]
    FloorPass.objects.bulk_create(
        FloorPass(event=team.event, player=p, token=f"twin-{k}", token_digest="abcde12345" + c * 54)
        for k, (p, c) in enumerate(zip(twins, "01", strict=True))
    )
    answer = post_scan(desk(team.organiser), team.event, "ABCDE-12345")
    assert answer.status_code == 400 and 'data-error="ambiguous"' in answer.content.decode()
    assert not RoundLog.objects.exists()


def test_an_entrys_private_link_checks_it_in():
    b = EventBuilder("giog", players=4).register(check_in=False)
    entry = b.event.registrations.get(player=b.players[3])
    token = checkin.private_token(entry)
    answer = post_scan(desk(b.organiser), b.event, f"https://hall.example/entry/{token}/")
    assert answer.status_code == 200
    assert b.players[3].name in answer.content.decode()
    assert present(entry)


def test_an_individual_players_badge_checks_the_player_in():
    b = EventBuilder("giog", players=4).register(check_in=False)
    floor_passes.ensure_passes(b.event)
    token = pass_of(b.event, player=b.players[1]).token
    answer = post_scan(desk(b.organiser), b.event, SCANNER.format(token))
    assert answer.status_code == 200
    assert present(b.event.registrations.get(player=b.players[1]))
    assert not present(b.event.registrations.get(player=b.players[0]))


@pytest.mark.parametrize(
    "code, error",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("hello", "unknown"),
        ("https://hall.example/me/AAAAAAAAAAAAAAAAAAAAAAAA/", "unknown"),  # a made-up token
        ("AAAAAAAAAAAAAAAAAAAAAAAA", "unknown"),
        ("00000-00000", "unknown"),
        ("https://hall.example/me/" + "A" * 65 + "/", "unknown"),
        ("x" * 5000, "unknown"),
        ("/me/../../admin/", "unknown"),
        ("够级 😀 \x00", "unknown"),
        ("https://hall.example/events/1/find/?q=%E5%A5%BD", "unknown"),
    ],
)
def test_a_code_that_is_no_badge_is_said_at_the_box(team, code, error):
    answer = post_scan(desk(team.organiser), team.event, code, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert f'data-error="{error}"' in answer.content.decode()
    assert 'role="alert"' in answer.content.decode()
    assert not RoundLog.objects.exists()
    assert not any(present(r) for r in team.event.registrations.all())


def test_without_script_the_page_comes_back_with_the_answer(team):
    answer = post_scan(desk(team.organiser), team.event, "nonsense")
    assert answer.status_code == 400
    body = answer.content.decode()
    assert 'id="scan-form"' in body and "not a badge code of this system" in body


def test_another_events_badge_is_refused_by_url_desk_code_and_private_link(team):
    other = EventBuilder(unions=2, name="别的比赛").register(check_in=False)
    floor_passes.ensure_passes(other.event)
    other.event.organisers.add(team.organiser)  # even its own organiser: the desk is per event
    token = pass_of(other.event, union=other.unions[0]).token
    entry_token = checkin.private_token(other.event.registrations.first())
    client = desk(team.organiser)
    for code in (SCANNER.format(token), scan.desk_code(token), f"/entry/{entry_token}/"):
        answer = post_scan(client, team.event, code, HTTP_HX_REQUEST="true")
        assert answer.status_code == 400
        assert 'data-error="other_event"' in answer.content.decode()
        assert "another event" in answer.content.decode()
    assert not RoundLog.objects.exists()
    assert not Registration.objects.filter(status=Registration.Status.CHECKED_IN).exists()


def test_a_withdrawn_entry_a_later_entry_and_a_lapsed_badge_are_refused(team):
    client = desk(team.organiser)
    withdrawn = team.event.registrations.get(union=team.unions[0])
    withdrawn.withdraw(after_round=0)
    answer = post_scan(
        client, team.event, SCANNER.format(pass_of(team.event, team.unions[0]).token)
    )
    assert answer.status_code == 400 and "withdrawn" in answer.content.decode()

    later = team.event.registrations.get(union=team.unions[1])
    later.joins_round = 3
    later.save(update_fields=["joins_round"])
    answer = post_scan(
        client, team.event, SCANNER.format(pass_of(team.event, team.unions[1]).token)
    )
    assert answer.status_code == 400 and 'data-error="later"' in answer.content.decode()
    assert "from round 3" in answer.content.decode()

    # A badge printed for someone who is no longer in the event (left the union).
    gone = Player.objects.create(name="走了的人")
    lapsed = FloorPass.objects.create(
        event=team.event, player=gone, token="lapsed-token-0123456789"
    )
    answer = post_scan(client, team.event, SCANNER.format(lapsed.token))
    assert answer.status_code == 400 and 'data-error="expired"' in answer.content.decode()
    assert not RoundLog.objects.exists()


def test_undo_takes_the_check_in_back_logged_and_twice_is_said(team):
    entry = team.event.registrations.get(union=team.unions[0])
    assistant = make_user("desk-assistant")
    staff_service.accept(
        staff_service.invite(team.event, StaffRole.ASSISTANT, by=team.organiser), assistant
    )
    client = desk(assistant)
    post_scan(client, team.event, SCANNER.format(pass_of(team.event, team.unions[0]).token))
    undo = reverse("manage:checkin-scan-undo", args=[team.event.pk])

    answer = client.post(undo, {"entry": entry.pk}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Check-in undone" in answer.content.decode()
    assert not present(entry)
    logged = RoundLog.objects.get(action=RoundLog.Action.CHECK_IN_UNDO)
    assert logged.user == assistant and logged.details["entry"] == entry.pk
    assert logged.at <= timezone.now() < logged.at + datetime.timedelta(minutes=1)
    # The desk's log lists both, newest first, with who.
    assert [line.action for line in scan.recent(team.event)] == ["check_in_undo", "check_in"]
    assert "desk-assistant" in answer.content.decode()

    again = client.post(undo, {"entry": entry.pk}, HTTP_HX_REQUEST="true")
    assert again.status_code == 400 and "is not checked in" in again.content.decode()
    assert RoundLog.objects.filter(action=RoundLog.Action.CHECK_IN_UNDO).count() == 1
    assert client.post(undo, {"entry": "abc"}).status_code == 404


def test_undo_reaches_no_other_events_entry(team):
    other = EventBuilder(unions=2, name="别的比赛").register()
    foreign = other.event.registrations.first()
    answer = desk(team.organiser).post(
        reverse("manage:checkin-scan-undo", args=[team.event.pk]), {"entry": foreign.pk}
    )
    assert answer.status_code == 404
    foreign.refresh_from_db()
    assert foreign.status == Registration.Status.CHECKED_IN


def test_only_the_events_organisers_and_assistants_reach_the_desk(team):
    token = pass_of(team.event, union=team.unions[0]).token
    referee = make_user("desk-referee")
    staff_service.accept(
        staff_service.invite(team.event, StaffRole.REFEREE, by=team.organiser), referee
    )
    other_organiser = make_user("other-organiser")
    Event.objects.create(name="别的", start_date=datetime.date(2026, 5, 1)).organisers.add(
        other_organiser
    )
    url = reverse("manage:checkin-scan", args=[team.event.pk])
    undo = reverse("manage:checkin-scan-undo", args=[team.event.pk])
    entry = team.event.registrations.get(union=team.unions[0])
    for user in (referee, other_organiser, make_user("desk-stranger")):
        client = desk(user)
        assert client.get(url).status_code == 403
        assert post_scan(client, team.event, SCANNER.format(token)).status_code == 403
        assert client.post(undo, {"entry": entry.pk}).status_code == 403
    signed_out = Client()
    assert signed_out.get(url).status_code == 302
    assert post_scan(signed_out, team.event, SCANNER.format(token)).status_code == 302
    assert not present(entry) and not RoundLog.objects.exists()
    # The organiser's desk opens, in both languages.
    page = desk(team.organiser).get(url)
    assert page.status_code == 200 and "Scan check-in" in page.content.decode()
    page = desk(team.organiser).get(url, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "扫码签到" in page.content.decode()


def test_the_check_in_lists_toggle_is_logged_too(team):
    entry = team.event.registrations.get(union=team.unions[0])
    client = desk(team.organiser)
    toggle = reverse("manage:checkin-toggle", args=[team.event.pk, entry.pk])
    client.post(toggle)
    client.post(toggle)
    assert [(line.action, line.details["via"]) for line in scan.recent(team.event)] == [
        ("check_in_undo", "list"),
        ("check_in", "list"),
    ]


def test_a_refused_tick_on_the_list_leaves_its_row_as_it_was(team):
    """A withdrawn entry cannot be checked in: the row the list gets back still says 未签到 (it
    said 已签到, as if the refused tick had been taken)."""
    entry = team.event.registrations.get(union=team.unions[0])
    entry.withdraw(after_round=0)
    client = desk(team.organiser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    toggle = reverse("manage:checkin-toggle", args=[team.event.pk, entry.pk])
    row = client.post(toggle, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="absent"' in row and "未签到" in row
    assert not present(entry)
    assert not scan.recent(team.event)


def test_a_refused_tick_says_why_on_its_row_at_once(team):
    """The row the list gets back names the refusal (it showed only as a message on the next
    page load), and that message is not kept for the next page as well."""
    entry = team.event.registrations.get(union=team.unions[0])
    entry.withdraw(after_round=0)
    client = desk(team.organiser)
    toggle = reverse("manage:checkin-toggle", args=[team.event.pk, entry.pk])
    for language, reason in (("zh-hans", "已退赛，不能签到"), ("en", "Withdrawn")):
        response = client.post(toggle, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)
        row = re.search(
            rf'<tr id="checkin-{entry.pk}".*?</tr>', response.content.decode(), re.S
        ).group()
        refusal = re.search(
            r'<p class="errors" id="checkin-refused-\d+" role="alert">(.*?)</p>', row
        )
        assert refusal is not None and reason in refusal.group(1), row
    page = client.get(reverse("manage:checkin", args=[team.event.pk])).content.decode()
    assert "checkin-refused" not in page
    assert "不能签到" not in page and "cannot check in" not in page
    # A tick that is taken says nothing of a refusal.
    other = team.event.registrations.get(union=team.unions[1])
    toggle = reverse("manage:checkin-toggle", args=[team.event.pk, other.pk])
    assert "checkin-refused" not in client.post(toggle, HTTP_HX_REQUEST="true").content.decode()
