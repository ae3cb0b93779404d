"""Referee, captain and organiser pages: full-page and htmx-fragment paths."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Deal, DealReport, Event, Round
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from matches.standings import service as standings

from .conftest import STRING_THREE_A, SUMMARY

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}

GOOD_FORM = {
    "finish": "1,2,3,4,5,6",
    "point_3": "1",
    "idempotency_key": "form-key-1",
    "burn_rows": "1",
    "suff_rows": "1",
}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def link_url(setup, tail=""):
    return f"/ref/{setup.link.token}/{tail}"


def test_the_link_page_shows_table_seats_and_the_deal_form(setup):
    response = Client().get(link_url(setup))
    assert response.status_code == 200
    html = response.content.decode()
    for player in setup.table.seats.all():
        assert player.player.name in html
    assert 'id="deal-form"' in html and "第1局" in html.replace(" ", "")
    # The first deal of a match owes no tributes, whether or not anything was computed yet.
    assert "本局开局前无须进贡" in html


def test_a_later_deal_says_when_its_tributes_are_not_computed_yet(setup):
    deal = deal_for(setup.match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "k-1")
    confirm_report(report, Actor(user=setup.organiser), True)
    # Issue 28: the confirmation settles deal 1 and writes deal 2's tributes at once; the page
    # between a final result and its settlement (a settlement left to the task) is this one.
    Deal.objects.filter(match=setup.match, number=2).update(tributes_owed=None)
    assert not Deal.objects.filter(
        match=setup.match, number=2, tributes_owed__isnull=False
    ).exists()
    html = Client().get(link_url(setup)).content.decode()
    assert "第2局" in html.replace(" ", "") and "开局前的进贡尚未算出" in html


def test_the_page_shows_tributes_owed_once_computed(setup):
    setup.builder.final(setup.match, 1, SUMMARY["finish"], points=SUMMARY["points"])
    standings.settle_match(setup.match.pk)  # what the Celery computation does on commit
    # R38: 6th (seat 6) owes 1st (seat 1) two cards before deal 2.
    assert {"from": 6, "to": 1, "kind": "place", "cards": 2} in setup.match.deals.get(
        number=2
    ).tributes_owed
    html = Client().get(link_url(setup)).content.decode()
    assert "落贡 2" in html and "6号" in html


def test_pooled_place_tributes_show_the_pool_and_the_picking_order(setup):
    # R38 place_tribute = "pool": the ledger has entries into and out of the pool (seat None)
    Event.objects.filter(pk=setup.event.pk).update(
        game_settings={"rules": {"preset": "standard", "place_tribute": "pool"}}
    )
    setup.builder.final(setup.match, 1, SUMMARY["finish"], points=SUMMARY["points"])
    standings.settle_match(setup.match.pk)  # what the Celery computation does on commit
    owed = setup.match.deals.get(number=2).tributes_owed
    assert {"from": 6, "to": None, "kind": "place", "cards": 2, "pool": "put"} in owed
    assert any(t["to"] == 1 and t.get("pool") == "pick" for t in owed)
    html = Client().get(link_url(setup)).content.decode()
    assert "6号" in html and "贡牌池" in html and "None" not in html


def test_a_special_declaration_can_be_marked_failed(setup):
    # R34 特点: the form offers "failed" only when the event's rules allow special declarations
    assert "special_failed_1" not in Client().get(link_url(setup)).content.decode()
    Event.objects.filter(pk=setup.event.pk).update(
        game_settings={"rules": {"preset": "standard", "special_declaration": True}}
    )
    assert "special_failed_1" in Client().get(link_url(setup)).content.decode()
    form = {**GOOD_FORM, "decl_1": "special", "special_failed_1": "1"}
    html = Client().post(link_url(setup, "deals/1/check"), form, **HX).content.decode()
    assert 'id="verdict-ok"' in html
    wrong = {**GOOD_FORM, "special_failed_2": "1"}
    html = Client().post(link_url(setup, "deals/1/check"), wrong, **HX).content.decode()
    assert 'data-code="special_failed_undeclared"' in html


def test_a_revoked_or_unknown_link_is_gone(setup):
    setup.link.revoke()
    assert Client().get(link_url(setup)).status_code == 404
    assert Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM).status_code == 404
    assert Client().get("/ref/not-a-token/").status_code == 404


def test_tapping_seats_builds_the_order_in_a_fragment(setup):
    response = Client().post(
        link_url(setup, "deals/1/check"), {"finish": "3", "tap": "1", "idempotency_key": "k"}, **HX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'name="finish" value="3,1"' in html
    # The order is not complete yet: how many seats are left, in a neutral line, not R30.
    assert 'id="verdict-progress"' in html and "还需点 4 个座位" in html
    assert "R30" not in html and "与规则不符" not in html
    undo = Client().post(link_url(setup, "deals/1/check"), {"finish": "3,1", "tap": "undo"}, **HX)
    assert 'name="finish" value="3"' in undo.content.decode()


def test_an_unfinished_order_is_progress_but_a_real_refusal_beside_it_stays(setup):
    # A tick before any tap: the order is still to come, nothing to refuse.
    blank = {**GOOD_FORM, "finish": ""}
    html = Client().post(link_url(setup, "deals/1/check"), blank, **HX).content.decode()
    assert "还需点 6 个座位" in html and 'class="problems"' not in html
    # A seat burning itself is wrong whatever the order: red beside the progress.
    form = {**GOOD_FORM, "finish": "1,2", "burn_0_burner": "1", "burn_0_burned": "1"}
    html = Client().post(link_url(setup, "deals/1/check"), form, **HX).content.decode()
    assert "还需点 4 个座位" in html and 'data-code="burn_self"' in html
    assert 'data-rule="R30"' not in html
    # A seat posted twice is no start of an order: R30 says so.
    twice = {**GOOD_FORM, "finish": "1,1,2"}
    html = Client().post(link_url(setup, "deals/1/check"), twice, **HX).content.decode()
    assert 'data-rule="R30"' in html and "verdict-progress" not in html
    # Submitting an unfinished order is refused with R30, as before.
    form = {**GOOD_FORM, "finish": "1,2"}
    html = Client().post(link_url(setup, "deals/1/submit"), form, **HX).content.decode()
    assert 'data-rule="R30"' in html and "verdict-progress" not in html
    assert not DealReport.objects.exists()


def test_a_live_check_of_a_consistent_entry_shows_the_scores(setup):
    html = Client().post(link_url(setup, "deals/1/check"), GOOD_FORM, **HX).content.decode()
    assert 'id="verdict-ok"' in html and "A +2" in html


def test_a_changed_field_refreshes_only_the_verdict_partial(setup):
    form = {**GOOD_FORM, "revolution_1": "1"}
    response = Client().post(link_url(setup, "deals/1/check") + "?part=verdict", form, **HX)
    html = response.content.decode().strip()
    assert html.startswith('<div id="verdict"') and "<form" not in html
    assert 'data-rule="R29"' in html


def test_a_live_check_names_each_inconsistency_with_its_rule(setup):
    form = {**GOOD_FORM, "revolution_1": "1", "revolution_2": "1"}
    html = Client().post(link_url(setup, "deals/1/check"), form, **HX).content.decode()
    assert 'data-code="deal_void"' in html and "R29" in html
    assert not DealReport.objects.exists()


def test_the_full_page_check_works_without_javascript(setup):
    response = Client().post(link_url(setup, "deals/1/check"), GOOD_FORM)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html and 'id="verdict-ok"' in html


def test_submitting_through_the_link_stores_a_pending_report(setup):
    response = Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM)
    assert response.status_code == 302
    report = DealReport.objects.get()
    assert report.via == "referee_link" and report.referee_link == setup.link
    assert report.state == "pending" and report.summary["points"] == [3]
    # A double tap sends the same form key: still one report.
    Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM, **HX)
    assert DealReport.objects.count() == 1
    html = Client().get(link_url(setup)).content.decode()
    assert "等待确认" in html


def test_an_htmx_submit_redirects_the_client(setup):
    response = Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM, **HX)
    assert response.status_code == 200 and response["HX-Redirect"] == link_url(setup)


def test_an_inconsistent_submit_is_refused_and_shown(setup):
    form = {**GOOD_FORM, "finish": "1,2,3"}
    full = Client().post(link_url(setup, "deals/1/submit"), form)
    assert full.status_code == 422 and "R30" in full.content.decode()
    fragment = Client().post(link_url(setup, "deals/1/submit"), form, **HX)
    assert fragment.status_code == 200 and 'data-rule="R30"' in fragment.content.decode()
    assert not DealReport.objects.exists()


def test_a_stale_submit_stores_nothing(setup):
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    response = Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM)
    assert response.status_code == 409 and "round_closed" in response.content.decode()
    assert not DealReport.objects.exists()


def test_a_play_log_file_is_replayed(setup):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches.kernel.games.registry import get_game

    record = next(iter(get_game("gouji").selfplay(1, 7)))
    upload = SimpleUploadedFile("deal.json", json.dumps(record).encode(), "application/json")
    response = Client().post(
        link_url(setup, "deals/1/submit"), {"idempotency_key": "log", "play_log_file": upload}
    )
    assert response.status_code == 302
    assert DealReport.objects.get().summary["finish"] == record["claimed"]["finish"]


def test_a_bad_play_log_is_explained(setup):
    response = Client().post(link_url(setup, "deals/1/check"), {"play_log": "{oops"}, **HX)
    html = response.content.decode()
    assert 'data-code="bad_document"' in html


def test_signed_in_referee_sees_their_tables_and_enters_a_deal(setup):
    client = logged_in(setup.referee)
    home = client.get("/referee/").content.decode()
    assert f"/referee/tables/{setup.table.pk}/" in home
    assert client.get(f"/referee/tables/{setup.table.pk}/").status_code == 200
    response = client.post(f"/referee/tables/{setup.table.pk}/deals/1/submit", GOOD_FORM)
    assert response.status_code == 302
    assert DealReport.objects.get().submitted_by == setup.referee


def test_the_captain_confirms_on_their_page(setup):
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    client = logged_in(setup.captain_b)
    assert f"/referee/reports/{report.pk}/" in client.get("/referee/").content.decode()
    page = client.get(f"/referee/reports/{report.pk}/").content.decode()
    assert "确认无误" in page
    assert client.post(f"/referee/reports/{report.pk}/", {"agrees": "yes"}).status_code == 302
    report.refresh_from_db()
    assert report.state == "pending"  # union A has not agreed yet
    logged_in(setup.captain_a).post(f"/referee/reports/{report.pk}/", {"agrees": "yes"})
    report.refresh_from_db()
    assert report.state == "final"


def test_a_captain_disputes_with_a_note(setup):
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    captain = logged_in(setup.captain_b)
    # A dispute needs a reason and the "sure" tick: without them nothing changes.
    captain.post(f"/referee/reports/{report.pk}/", {"agrees": "no", "note": "3号没开点"}, **HX)
    report.refresh_from_db()
    assert report.state == "pending"
    captain.post(
        f"/referee/reports/{report.pk}/",
        {"agrees": "no", "note": "3号没开点", "reason": "points", "sure": "yes"},
        **HX,
    )
    report.refresh_from_db()
    assert report.state == "disputed"
    assert report.confirmations.get().note == "3号没开点"
    assert report.confirmations.get().reason == "points"
    html = Client().get(link_url(setup)).content.decode()
    assert "有争议" in html and 'id="deal-form"' not in html


def test_a_second_referee_link_confirms_on_the_table_page(setup):
    from matches.models import RefereeLink

    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    Client().post(link_url(setup, "deals/1/submit"), GOOD_FORM)
    report = DealReport.objects.get()
    # The submitting link is not offered a confirmation; a second link is.
    assert f"reports/{report.pk}/confirm" not in Client().get(link_url(setup)).content.decode()
    second = RefereeLink.objects.create(table=setup.table)
    page = Client().get(f"/ref/{second.token}/").content.decode()
    assert f"/ref/{second.token}/reports/{report.pk}/confirm" in page
    Client().post(f"/ref/{second.token}/reports/{report.pk}/confirm", {"agrees": "yes"})
    report.refresh_from_db()
    assert report.state == "final"


def test_organiser_sees_every_table_state_and_the_history(setup):
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    client = logged_in(setup.organiser)
    page = client.get(f"/manage/events/{setup.event.pk}/results/").content.decode()
    assert "已提交，等待确认" in page  # the one wording of a pending deal (selectors.STATE_WORDS)
    confirm_report(report, Actor(user=setup.captain_b), False, "不对")
    page = client.get(f"/manage/events/{setup.event.pk}/results/").content.decode()
    assert "有争议" in page
    detail = client.get(f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/")
    html = detail.content.decode()
    assert "referee" in html and "不对" in html and "异议" in html


def test_organiser_corrects_a_result_with_a_reason(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    submit_report(deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "")
    client = logged_in(setup.organiser)
    url = f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"
    page = client.get(url).content.decode()
    assert 'name="finish" value="1,2,3,4,5,6"' in page and 'name="reason"' in page
    form = {"finish": "1,3,5,2,4,6", "idempotency_key": "fix", "reason": "名次记错"}
    check = client.post(url + "?check=1", form, **HX).content.decode()
    assert "A +12" in check and "<html" not in check
    no_reason = client.post(url, {**form, "reason": "", "idempotency_key": "fix0"})
    assert no_reason.status_code == 422 and "reason_required" in no_reason.content.decode()
    assert client.post(url, form).status_code == 302
    final = DealReport.objects.final().get()
    assert final.kind == "correction" and final.reason == "名次记错"
    assert final.summary["finish"] == STRING_THREE_A["finish"]
    history = client.get(f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/")
    assert "名次记错" in history.content.decode() and "已被取代" in history.content.decode()


def test_organiser_makes_and_revokes_referee_links_with_qr_codes(setup):
    client = logged_in(setup.organiser)
    base = f"/manage/events/{setup.event.pk}/results"
    client.post(f"{base}/tables/{setup.table.pk}/links")
    link = setup.table.referee_links.latest("id")
    svg = client.get(f"{base}/links/{link.pk}/qr.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert b"<svg" in svg.content
    png = client.get(f"{base}/links/{link.pk}/qr.png")
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"{base}/links/{link.pk}/qr.gif").status_code == 404
    client.post(f"{base}/links/{link.pk}/revoke")
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert Client().get(f"/ref/{link.token}/").status_code == 404


def test_the_qr_code_encodes_the_link(setup):
    """Read the PNG's modules back (a plain black/white grid, 8 pixels a module, a border of
    2) and compare them with the QR code of the link's address."""
    from io import BytesIO

    import segno
    from PIL import Image

    client = logged_in(setup.organiser)
    png = client.get(f"/manage/events/{setup.event.pk}/results/links/{setup.link.pk}/qr.png")
    image = Image.open(BytesIO(png.content)).convert("1")
    code = segno.make_qr(f"http://testserver/ref/{setup.link.token}/", error="m")
    rows = [list(row) for row in code.matrix_iter(scale=8, border=2)]
    assert image.size == (len(rows[0]), len(rows))
    pixels = list(image.get_flattened_data())
    assert pixels == [0 if dark else 255 for row in rows for dark in row]


def test_the_referee_page_speaks_english_too(setup, settings):
    client = Client(headers={"Accept-Language": "en"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(link_url(setup)).content.decode()
    assert "Table 1" in html and "Finishing order: tap the seats" in html


def test_organiser_rechecks_a_flagged_deal(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    for number in (1, 2):
        submit_report(
            deal_for(setup.match, number),
            STRING_THREE_A,
            None,
            Actor(user=setup.referee),
            "",
        )
    client = logged_in(setup.organiser)
    base = f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}"
    client.post(
        f"{base}/deals/1/correct",
        {"finish": "1,2,3,4,5,6", "reason": "记错", "idempotency_key": "c"},
    )
    page = client.get(f"{base}/").content.decode()
    assert "deals/2/recheck" in page and "需复核" in page
    assert client.post(f"{base}/deals/2/recheck").status_code == 302
    assert "deals/2/recheck" not in client.get(f"{base}/").content.decode()


def test_a_table_gone_after_a_redraw_is_explained(setup):
    client = logged_in(setup.referee)
    table_id = setup.table.pk
    # What a re-draw does to a table (a published round cannot be re-drawn by the service).
    DealReport.objects.all().delete()
    setup.table.delete()
    response = client.post(f"/referee/tables/{table_id}/deals/1/submit", GOOD_FORM)
    assert response.status_code == 404 and "重新编排" in response.content.decode()
    assert not DealReport.objects.exists()


def test_admin_lists_reports_read_only_and_links_accounts(setup, admin_client):
    from django.contrib import admin as django_admin

    from matches import admin_results  # noqa: F401  (registers; matches/admin.py imports it)

    submit_report(deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "")
    assert django_admin.site.is_registered(DealReport)
    model_admin = django_admin.site._registry[DealReport]
    request = type("Request", (), {"user": setup.admin})()
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    from matches.models import PlayerAccount, RefereeLink

    assert django_admin.site.is_registered(PlayerAccount)
    link_admin = django_admin.site._registry[RefereeLink]
    link_admin.revoke(None, RefereeLink.objects.filter(pk=setup.link.pk))
    setup.link.refresh_from_db()
    assert setup.link.revoked_at is not None


def test_the_correction_form_refreshes_its_verdict_partial(setup):
    client = logged_in(setup.organiser)
    url = (
        f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"
        "?check=1&part=verdict"
    )
    html = client.post(url, {"finish": "1,2,1", "reason": "x"}, **HX).content.decode().strip()
    assert html.startswith('<div id="verdict"') and 'data-rule="R30"' in html
    # An order being tapped again is progress there too, not a refusal.
    html = client.post(url, {"finish": "1,2,3", "reason": "x"}, **HX).content.decode().strip()
    assert "还需点 3 个座位" in html and "R30" not in html


def test_one_card_is_singular_in_english(setup, settings):
    """'1 cards' no more: the tributes owed use a plural form (issue 16)."""
    deal = deal_for(setup.match, 1)
    deal.tributes_owed = [
        {"from": 6, "to": 1, "kind": "place", "cards": 1},
        {"from": 4, "to": 3, "kind": "place", "cards": 2},
    ]
    deal.save()
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(link_url(setup)).content.decode()
    assert "1 card<" in html and "2 cards<" in html and "1 cards" not in html
