"""The hall's clock and the projector for big events: the organiser starts, pauses,
resumes and extends a round's timer (logged); the projector, the table's phone and the clock
JSON show the time left; at zero the close page names the tables still playing. Projector pages
go dense, one per zone, with the find-my-table QR code."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.draw import clock
from matches.draw.refusals import SeatingRefused
from matches.models import RefereeLink, RefereeZone, RoundClock, RoundLog
from matches.views.qr import qr_svg
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    b = EventBuilder(unions=12, deals=1).register()
    b.draw()
    return b


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def clock_url(b, do):
    return reverse(f"manage:clock-{do}", args=[b.event.pk, b.latest.number])


def test_start_pause_resume_extend_and_the_log(hall):
    b, round_ = hall, hall.latest
    client = signed_in(b.organiser)
    assert client.post(clock_url(b, "start"), {"minutes": "90"}).status_code == 302
    running = RoundClock.objects.get(round=round_)
    assert running.minutes == 90 and 89 * 60 < running.seconds_left() <= 90 * 60
    client.post(clock_url(b, "pause"))
    paused = RoundClock.objects.get(round=round_)
    assert paused.paused and paused.deadline is None
    left = paused.seconds_left()
    # Paused, the time left does not move.
    assert clock.state(paused, now=timezone.now() + timedelta(hours=1))["seconds_left"] == left
    client.post(clock_url(b, "extend"), {"minutes": "5"})
    assert RoundClock.objects.get(round=round_).paused_left == left + 300
    client.post(clock_url(b, "resume"))
    resumed = RoundClock.objects.get(round=round_)
    assert not resumed.paused and left + 290 < resumed.seconds_left() <= left + 300
    actions = list(
        RoundLog.objects.filter(round=round_, action__startswith="clock_")
        .order_by("id")
        .values_list("action", "user", "details")
    )
    assert actions == [
        ("clock_start", b.organiser.pk, {"minutes": 90}),
        ("clock_pause", b.organiser.pk, {"seconds_left": left}),
        ("clock_extend", b.organiser.pk, {"minutes": 5}),
        ("clock_resume", b.organiser.pk, {"seconds_left": left + 300}),
    ]
    page = client.get(reverse("manage:round", args=[b.event.pk, round_.number])).content.decode()
    assert 'id="clock-pause"' in page and "data-clock" in page and "开始计时" in page


@pytest.mark.parametrize(
    "do,data,message",
    [
        ("start", {"minutes": "abc"}, "请填写分钟数"),
        ("start", {"minutes": "0"}, "分钟数须在 1 到 600 之间"),
        ("start", {"minutes": "601"}, "分钟数须在 1 到 600 之间"),
        ("pause", {}, "本轮还没有开始计时"),
        ("extend", {"minutes": "5"}, "本轮还没有开始计时"),
    ],
)
def test_bad_clock_input_is_a_message_not_a_500(hall, do, data, message):
    response = signed_in(hall.organiser).post(clock_url(hall, do), data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not RoundClock.objects.exists()


def test_an_unknown_clock_step_is_not_found(hall):
    url = f"/manage/events/{hall.event.pk}/rounds/{hall.latest.number}/clock/explode/"
    assert signed_in(hall.organiser).post(url).status_code == 404
    assert not RoundClock.objects.exists()


def test_the_clock_runs_only_on_a_published_round_and_twice_paused_is_refused(hall):
    round_ = hall.latest
    clock.start(round_, 30)
    clock.pause(round_)
    with pytest.raises(SeatingRefused):
        clock.pause(round_)
    clock.resume(round_)
    with pytest.raises(SeatingRefused):
        clock.resume(round_)
    hall.report_all().settle().close()
    round_.refresh_from_db()
    with pytest.raises(SeatingRefused):
        clock.start(round_, 30)


def test_only_the_events_staff_work_the_clock(hall):
    other = EventBuilder(unions=2, deals=1).register()
    stranger = make_user("clock-stranger")
    for client in (Client(), signed_in(stranger), signed_in(other.organiser)):
        response = client.post(clock_url(hall, "start"), {"minutes": "30"})
        assert response.status_code in (302, 403)
        if response.status_code == 302:  # signed out: to the sign-in page
            assert "/accounts/login/" in response["Location"]
    assert not RoundClock.objects.exists()
    # GET changes nothing.
    assert signed_in(hall.organiser).get(clock_url(hall, "start")).status_code == 405


def test_the_projector_the_table_phone_and_the_json_show_the_time_left(hall):
    b, round_ = hall, hall.latest
    public = Client()
    json_url = reverse("public:round-clock", args=[b.event.pk, round_.number])
    assert public.get(json_url).json() == {"state": "off", "seconds_left": None, "minutes": None}
    projector = reverse("public:projector-round", args=[b.event.pk, round_.number])
    assert "data-clock" not in public.get(projector).content.decode()
    clock.start(round_, 45, user=b.organiser)
    data = public.get(json_url).json()
    assert data["state"] == "running" and 44 * 60 < data["seconds_left"] <= 45 * 60
    page = public.get(projector).content.decode()
    assert 'data-state="running"' in page and "js/clock.js" in page
    assert re.search(r'data-left="(\d+)"', page)
    link = RefereeLink.objects.create(table=round_.tables.get(number=1), created_by=b.organiser)
    phone = public.get(f"/ref/{link.token}/").content.decode()
    assert 'data-state="running"' in phone and ("45:00" in phone or "44:5" in phone)
    clock.pause(round_)
    assert public.get(json_url).json()["state"] == "paused"
    # The standings projector shows the current round's clock too.
    standings = public.get(reverse("public:projector-standings", args=[b.event.pk]))
    assert 'data-state="paused"' in standings.content.decode()


def test_the_clock_json_follows_the_draw_release():
    b = EventBuilder(unions=4, deals=1).register()
    round_ = b.draw(publish=False)
    url = reverse("public:round-clock", args=[b.event.pk, round_.number])
    assert Client().get(url).status_code == 404


def test_at_zero_the_close_page_names_the_tables_still_playing(hall):
    b, round_ = hall, hall.latest
    first = b.matches(round_)[0]
    b.final(first, 1, [1, 2, 3, 4, 5, 6], points=[1])
    b.settle(round_)
    clock.start(round_, 10)
    close = reverse("manage:round-close", args=[b.event.pk, round_.number])
    client = signed_in(b.organiser)
    assert 'id="time-up"' not in client.get(close).content.decode()
    RoundClock.objects.filter(round=round_).update(deadline=timezone.now() - timedelta(seconds=1))
    page = client.get(close).content.decode()
    assert 'id="time-up"' in page and 'data-state="over"' in page
    line = re.search(r'id="time-up">(.*?)</p>', page, re.S).group(1)
    still = [int(n) for n in re.findall(r'href="#table-(\d+)"', line)]
    assert still == [2, 3, 4, 5, 6]  # table 1 has its final result


def test_projector_dense_one_page_per_zone_with_the_find_qr(hall):
    b, round_ = hall, hall.latest
    north = RefereeZone.objects.create(event=b.event, name="北区", first_table=1, last_table=3)
    RefereeZone.objects.create(event=b.event, name="南区", first_table=4, last_table=6)
    url = reverse("public:projector-round", args=[b.event.pk, round_.number])
    page = Client().get(url).content.decode()
    assert page.count("data-row") == 12 and "p-dense" not in page
    assert f"/events/{b.event.pk}/find/" in page and 'class="segno"' in page
    # The QR code is the printed sheets' own (matches/views/qr.py): the same code, scaled
    # with its box (no width or height of its own).
    assert qr_svg(f"http://testserver/events/{b.event.pk}/find/") in page
    zoned = Client().get(url + f"?zone={north.pk}&dense=1").content.decode()
    tables = {int(n) for n in re.findall(r'class="num p-table-no">(\d+)<', zoned)}
    assert tables == {1, 2, 3} and zoned.count("data-row") == 6
    assert "北区" in zoned and "p-dense" in zoned
    assert Client().get(url + "?zone=999999").status_code == 404
    assert Client().get(url + "?zone=x").status_code == 404
    # Another event's zone is not this event's page.
    other = EventBuilder(unions=2, deals=1).register()
    foreign = RefereeZone.objects.create(event=other.event, name="X", first_table=1, last_table=9)
    assert Client().get(url + f"?zone={foreign.pk}").status_code == 404
    # The round page links a projector per zone.
    manage = signed_in(b.organiser).get(reverse("manage:round", args=[b.event.pk, 1]))
    assert f"?zone={north.pk}" in manage.content.decode()


def test_a_big_event_goes_dense_by_itself():
    b = EventBuilder(unions=64, deals=1).register()
    b.draw()
    url = reverse("public:projector-round", args=[b.event.pk, 1])
    assert "p-dense" in Client().get(url).content.decode()
    assert "p-dense" not in Client().get(url + "?dense=0").content.decode()


def test_the_poster_carries_the_event_address_and_its_qr_code_in_an_embedded_font(hall):
    from tests.standings.test_manage import pdf_fonts, pdf_text

    response = signed_in(hall.organiser).get(reverse("manage:poster", args=[hall.event.pk]))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert f"http://testserver/events/{hall.event.pk}/" in text
    assert f"http://testserver/events/{hall.event.pk}/find/" in text
    assert hall.event.name in text and "扫码查看对阵、成绩和排名" in text
    fonts = pdf_fonts(response.content)
    cjk = [f for f in fonts if "WenQuanYiMicroHei" in f["name"]]
    assert cjk and all(f["emb"] == "yes" for f in cjk), fonts
