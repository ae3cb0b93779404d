"""Players confirm each other in an individual event (`player` mode, issue 47 finding 1): the
table's phone reports through its link, which names nobody, so a PIN is taken only from a player
of the side the result does not favour (either side on a draw), never from the player who
reported it from their own account. The phone's box offers only the seats that may confirm and
says why the others may not. Runs on SQLite and, in CI's second pass, on PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from matches.kernel.reports import ResultError
from matches.models import Confirmation, DealReport, Event, PlayerAccount, RefereeLink, Registration
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.builder import GIOG, EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db

A_WINS = {"finish": "1,3,5,2,4,6", "idempotency_key": "a-wins", "burn_rows": "1", "suff_rows": "1"}
A_WINS_SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []}
B_WINS = {"format": "gouji-outcome/1", "finish": [2, 4, 6, 1, 3, 5], "points": []}
DRAW = {"finish": "1,2,3,4,6,5", "idempotency_key": "draw", "burn_rows": "1", "suff_rows": "1"}


class Table:
    """An individual Gou Ji event of six confirmed by players, drawn, its table's phone link."""

    def __init__(self):
        self.builder = EventBuilder(
            players=6,
            deals=2,
            entry_type=Event.EntryType.INDIVIDUAL,
            confirmation=Event.Confirmation.PLAYER,
        ).register()
        self.table = self.builder.draw().tables.get()
        self.match = self.table.match
        self.link = RefereeLink.objects.create(table=self.table, label="phone")
        self.seats = {s.seat: s for s in self.table.seats.select_related("player")}
        self.phone = Client()

    def url(self, tail: str = "") -> str:
        return f"/ref/{self.link.token}/{tail}"

    def pin(self, seat: int) -> str:
        player = self.seats[seat].player
        return Registration.objects.get(event=self.builder.event, player=player).pin

    def report(self, form: dict) -> DealReport:
        assert self.phone.post(self.url("deals/1/submit"), form).status_code == 302
        return DealReport.objects.get(state=DealReport.State.PENDING)

    def confirm(self, report: DealReport, seat: int, pin: str | None = None) -> str:
        """POST the seat's PIN at the phone's player box; the page it returns to, as read."""
        response = self.phone.post(
            self.url(f"reports/{report.pk}/player-pin"),
            {"seat": str(seat), "pin": self.pin(seat) if pin is None else pin, "agrees": "yes"},
            follow=True,
        )
        assert response.status_code == 200
        return response.content.decode()


@pytest.fixture
def table():
    return Table()


def offered_seats(html: str, report: DealReport) -> list[int]:
    select = re.search(rf'<select id="player-pin-{report.pk}-seat".*?</select>', html, re.S)
    assert select is not None
    return [int(n) for n in re.findall(r'<option value="(\d+)"', select.group(0))]


def test_the_tables_sides_are_the_drawn_unions(table):
    assert {n: s.side for n, s in table.seats.items()} == dict(
        zip(range(1, 7), "ABABAB", strict=True)
    )


@pytest.mark.parametrize("seat", [1, 3, 5])
def test_a_player_of_the_side_the_result_favours_cannot_confirm_it(table, seat):
    report = table.report(A_WINS)
    assert report.score_a > report.score_b  # "A wins", reported through the link
    html = table.confirm(report, seat)
    assert "这份成绩对第 1-3-5 座有利" in html and "请第 2-4-6 座的选手输入密码" in html
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING
    assert not Confirmation.objects.exists()


def test_a_player_of_the_other_side_makes_it_final(table):
    report = table.report(A_WINS)
    table.confirm(report, 1)  # refused first: the refusal changes nothing
    table.confirm(report, 4)
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL
    answer = report.confirmations.get()
    assert answer.role == Confirmation.Role.PLAYER and answer.by_pin
    assert answer.player_id == table.seats[4].player_id


def test_the_favoured_sides_refusal_counts_no_wrong_pin(table):
    """A seat that may not confirm is refused before its PIN is read: five tries with a wrong
    PIN lock nobody (the lock is for guessing another player's PIN)."""
    report = table.report(A_WINS)
    for _try in range(6):
        html = table.confirm(report, 1, pin="0000")
    assert "有利" in html and "错误次数过多" not in html
    assert "选手密码不对" not in html


def test_the_refusal_reads_in_english(table):
    report = table.report(A_WINS)
    table.phone.cookies["django_language"] = "en"
    html = table.confirm(report, 3)
    assert "This result favours seats 1-3-5" in html
    assert "A player on one of seats 2-4-6 enters their PIN" in html


def test_on_a_draw_a_player_of_either_side_may_confirm(table):
    report = table.report(DRAW)
    assert report.score_a == report.score_b == 0
    assert offered_seats(table.phone.get(table.url()).content.decode(), report) == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    table.confirm(report, 1)
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL


def test_the_phones_box_offers_only_the_seats_that_may_confirm_and_says_why(table):
    report = table.report(A_WINS)
    html = table.phone.get(table.url()).content.decode()
    assert offered_seats(html, report) == [2, 4, 6]
    assert "成绩对第 1-3-5 座有利，这些座位的选手不能确认。" in html
    next_line = re.search(r'class="next-confirmer"><strong>(.*?)</strong>', html, re.S)
    assert next_line is not None and "第2座" in next_line.group(1)  # deal 1: seat 2's turn
    table.phone.cookies["django_language"] = "en"
    english = table.phone.get(table.url()).content.decode()
    assert "The result favours seats 1-3-5: their players cannot confirm it." in english


def test_the_player_who_reported_from_their_account_cannot_confirm(table):
    """A player of the table who is also its referee reports from their own account: their seat
    is refused (and not offered) even on the side the result does not favour."""
    reporter = make_user("seat4")
    PlayerAccount.objects.create(user=reporter, player=table.seats[4].player)
    table.table.referees.add(reporter)
    report, _created = submit_report(
        deal_for(table.match, 1), A_WINS_SUMMARY, None, Actor(user=reporter), "by-seat-4"
    )
    assert report.state == DealReport.State.PENDING and report.score_a > report.score_b
    html = table.phone.get(table.url()).content.decode()
    assert offered_seats(html, report) == [2, 6]
    assert "第 4 座的选手自己报了这份成绩，不能再确认。" in html
    assert "成绩对第 1-3-5 座有利" in html
    refused = table.confirm(report, 4)
    assert "第 4 座的选手自己报了这份成绩，不能再确认：请第 2-6 座的选手输入密码。" in refused
    assert "这份成绩对第 1-3-5 座有利" in table.confirm(report, 1)
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING
    table.confirm(report, 6)
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL


def test_a_reporter_on_the_favoured_side_is_refused_as_one_of_it(table):
    reporter = make_user("seat4")
    PlayerAccount.objects.create(user=reporter, player=table.seats[4].player)
    table.table.referees.add(reporter)
    report, _created = submit_report(
        deal_for(table.match, 1), B_WINS, None, Actor(user=reporter), "by-seat-4"
    )
    assert report.score_b > report.score_a
    assert "这份成绩对第 2-4-6 座有利" in table.confirm(report, 4)
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING


def test_the_service_itself_refuses_a_favoured_players_pin(table):
    """Whatever the page does, `confirm_report` gives a favoured player no right."""
    report = table.report(A_WINS)
    with pytest.raises(ResultError) as refused:
        confirm_report(report, Actor(link=table.link), True, pin_player=table.seats[1].player)
    assert refused.value.code == "permission_denied"
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING
    final = confirm_report(report, Actor(link=table.link), True, pin_player=table.seats[6].player)
    assert final.state == DealReport.State.FINAL


def test_in_giog_the_hands_first_place_cannot_confirm_it():
    built = EventBuilder(GIOG, players=3, deals=1, confirmation=Event.Confirmation.PLAYER)
    built.register()
    table = built.draw().tables.get()
    link = RefereeLink.objects.create(table=table, label="phone")
    phone = Client()
    form = {"won_1": "15", "won_2": "9", "won_3": "6", "idempotency_key": "hand-1"}
    assert phone.post(f"/ref/{link.token}/deals/1/submit", form).status_code == 302
    report = DealReport.objects.get()
    assert offered_seats(phone.get(f"/ref/{link.token}/").content.decode(), report) == [2, 3]
    first = table.seats.get(seat=1).player
    pin = Registration.objects.get(event=built.event, player=first).pin
    with translation.override("zh-hans"):
        html = phone.post(
            f"/ref/{link.token}/reports/{report.pk}/player-pin",
            {"seat": "1", "pin": pin, "agrees": "yes"},
            follow=True,
        ).content.decode()
    assert "这份成绩对第 1 座有利" in html
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING


def test_a_players_own_account_makes_nothing_final_alone_through_the_api(table):
    """On the API a player answers from their account only as their drawn union's captain, and
    the result is final there only when both unions' captains agree: never one side alone."""
    report = table.report(A_WINS)
    clients = {}
    for seat in (1, 3, 2):
        user = make_user(f"player{seat}")
        PlayerAccount.objects.create(user=user, player=table.seats[seat].player)
        clients[seat] = Client()
        clients[seat].force_login(user)

    def answer(seat: int):
        return clients[seat].post(
            f"/api/v1/reports/{report.pk}/confirm",
            {"agrees": True},
            content_type="application/json",
        )

    assert answer(1).json()["report"]["state"] == "pending"  # union A's captain: A agrees
    assert answer(3).status_code == 403  # a player of A who is not its captain
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING
    assert answer(2).json()["report"]["state"] == "final"  # union B's captain: both agreed
