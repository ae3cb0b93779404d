"""Organiser pages: permissions, round actions, registration, import, PDFs and exports."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from matches.models import Registration, Round, Union
from matches.standings import service as standings

A_BY_TWO = [1, 2, 3, 4, 5, 6]


def urls(event_id):
    return [
        ("get", reverse("manage:dashboard", args=[event_id])),
        ("get", reverse("manage:progress", args=[event_id])),
        ("get", reverse("manage:checkin", args=[event_id])),
        ("get", reverse("manage:register", args=[event_id])),
        ("get", reverse("manage:import", args=[event_id])),
        ("get", reverse("manage:table-cards", args=[event_id, 1])),
        ("get", reverse("manage:score-sheets", args=[event_id, 1])),
        ("get", reverse("manage:pairings-pdf", args=[event_id, 1])),
        ("get", reverse("manage:export", args=[event_id, "standings", "csv"])),
        ("post", reverse("manage:draw", args=[event_id])),
        ("post", reverse("manage:round-end", args=[event_id, 1])),
        ("post", reverse("manage:toggle-published", args=[event_id])),
        ("post", reverse("manage:recompute", args=[event_id])),
    ]


def test_only_the_events_organisers_get_in(client, build):
    b = build(unions=2, deals=1)
    b.round([(0, 1)])
    for method, url in urls(b.event.pk):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    client.force_login(b.people.other_organiser)
    for method, url in urls(b.event.pk):
        assert getattr(client, method)(url).status_code == 403, url
    assert client.get(reverse("manage:dashboard", args=[999999])).status_code == 404
    assert b.event.name not in client.get(reverse("manage:events")).content.decode()
    client.force_login(b.organiser)
    assert b.event.name in client.get(reverse("manage:events")).content.decode()
    assert client.get(reverse("manage:dashboard", args=[b.event.pk])).status_code == 200


def test_draw_publish_and_close_through_the_dashboard(client, build):
    b = build(unions=4, deals=1)
    client.force_login(b.organiser)
    e = b.event.pk
    client.post(reverse("manage:draw", args=[e]))
    round_ = Round.objects.get(event=b.event, number=1)
    assert round_.state == "draft" and round_.matches.count() == 2
    client.post(reverse("manage:round-redraw", args=[e, 1]))
    client.post(reverse("manage:round-publish", args=[e, 1]))
    round_.refresh_from_db()
    assert round_.state == "published"
    # Closing with results missing is refused, and the organiser is told why.
    response = client.post(reverse("manage:round-end", args=[e, 1]), follow=True)
    assert "以下牌桌尚无最终成绩：第 1 桌、第 2 桌" in response.content.decode()
    for match in round_.matches.all():
        b.final(match, 1, A_BY_TWO)
        standings.settle_match(match.pk)
    page = client.get(reverse("manage:progress", args=[e])).content.decode()
    assert re.search(r'data-count="confirmed">2<', page)
    client.post(reverse("manage:round-end", args=[e, 1]))
    round_.refresh_from_db()
    assert round_.state == "closed"


def test_progress_counts_waiting_reported_and_disputed(client, build):
    from tests.builder import outcome

    b = build(unions=6, deals=2)
    client.force_login(b.organiser)
    r1 = b.round([(0, 1), (2, 3), (4, 5)])
    b.report(b.match(r1, 1), 1, outcome(A_BY_TWO))  # waits for a captain's confirmation
    b.confirm(b.report(b.match(r1, 2), 1, outcome(A_BY_TWO)), agrees=False)  # disputed
    page = client.get(reverse("manage:progress", args=[b.event.pk])).content.decode()
    for state, n in (("waiting", 1), ("reported", 1), ("confirmed", 0), ("disputed", 1)):
        assert re.search(rf'data-count="{state}">{n}<', page), state
    assert f"/manage/events/{b.event.pk}/results/" in page  # the disputes queue links on


def test_register_by_hand_and_check_in(client, build):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    e = b.event.pk
    response = client.post(
        reverse("manage:register", args=[e]),
        {
            "union": "崂山一队",
            "club": "崂山够级俱乐部",
            "player1": "王伟",
            "player2": "李娜",
            "player3": "张强",
            "seed": "1",
        },
    )
    assert response.status_code == 302
    union = Union.objects.get(event=b.event, name="崂山一队")
    assert [p.name for p in union.players_in_order()] == ["王伟", "李娜", "张强"]
    again = client.post(
        reverse("manage:register", args=[e]),
        {"union": "崂山一队", "player1": "a", "player2": "b", "player3": "c"},
    )
    assert "已报名" in again.content.decode()
    registration = Registration.objects.get(event=b.event)
    assert registration.status == "registered"
    client.post(reverse("manage:checkin-toggle", args=[e, registration.pk]), HTTP_HX_REQUEST="true")
    registration.refresh_from_db()
    assert registration.status == "checked_in"


def sheet_csv(lines):
    return SimpleUploadedFile("entries.csv", "\n".join(lines).encode("utf-8"), "text/csv")


def test_import_previews_and_imports_nothing_when_a_row_is_bad(client, build):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    bad = client.post(
        url,
        {
            "file": sheet_csv(
                [
                    "联邦,俱乐部,选手1,选手2,选手3,种子",
                    "一队,崂山,甲,乙,丙,1",
                    "二队,崂山,丁,戊,,2",
                    "一队,崂山,己,庚,辛,x",
                ]
            )
        },
    )
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "联邦须有 3 名选手" in text and "在文件中重复" in text and "种子须为正整数" in text
    assert "confirm-import" not in text
    assert not Union.objects.filter(event=b.event).exists()
    # A forged confirm without a clean preview imports nothing either.
    client.post(url, {"confirm": "1"})
    assert not Union.objects.filter(event=b.event).exists()


def test_import_an_excel_sheet(client, build):
    from openpyxl import Workbook

    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    book = Workbook()
    sheet = book.active
    sheet.append(["union", "club", "player1", "player2", "player3", "seed"])
    sheet.append(["Team A", "Laoshan", "Wang", "Li", "Zhang", 1])
    sheet.append(["Team B", "", "Zhao", "Qian", "Sun", 2])
    data = io.BytesIO()
    book.save(data)
    url = reverse("manage:import", args=[b.event.pk])
    preview = client.post(url, {"file": SimpleUploadedFile("e.xlsx", data.getvalue())})
    assert preview.status_code == 200 and "confirm-import" in preview.content.decode()
    assert not Union.objects.filter(event=b.event).exists()  # a preview imports nothing
    client.post(url, {"confirm": "1"})
    assert sorted(Union.objects.filter(event=b.event).values_list("name", flat=True)) == [
        "Team A",
        "Team B",
    ]
    assert sorted(Registration.objects.filter(event=b.event).values_list("seed", flat=True)) == [
        1,
        2,
    ]


def pdf_text(data: bytes) -> str:
    """Text drawn in a PDF, read by poppler's `pdftotext` (the embedded TrueType subsets map
    their glyphs back to Unicode through the font's ToUnicode table)."""
    return subprocess.run(
        ["pdftotext", "-q", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode("utf-8")


def pdf_fonts(data: bytes) -> list[dict]:
    """`pdffonts` of a PDF: one dict per font (name, type, emb)."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        out = subprocess.run(
            ["pdffonts", handle.name], capture_output=True, check=True, text=True
        ).stdout
    fonts = []
    for line in out.splitlines()[2:]:
        parts = line.split()
        # name, type (one or two words), encoding, emb, sub, uni, object, generation
        fonts.append({"name": parts[0], "emb": parts[-5], "line": line})
    return fonts


def test_table_cards_pdf_has_a_page_per_table_with_names_and_a_referee_link(client, build):
    from matches.models import RefereeLink

    b = build(unions=6, deals=3)
    for union in b.unions:
        for k, player in enumerate(union.players_in_order()):
            player.name = f"P{union.pk}x{k}"
            player.save()
    client.force_login(b.organiser)
    b.round([(0, 1), (2, 3), (4, 5)])
    response = client.get(reverse("manage:table-cards", args=[b.event.pk, 1]))
    assert response["Content-Type"] == "application/pdf"
    data = response.content
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    # A table card and a page of two captain's cards (their PINs) per table.
    assert len(re.findall(rb"/Type /Page\b(?!s)", data)) == 6
    text = pdf_text(data)
    for union in b.unions:
        assert all(p.name in text for p in union.players_in_order())
        union.refresh_from_db()
        assert union.captain_pin in text
    # The CJK font travels inside the PDF (a printer without an Asian font pack prints it).
    fonts = pdf_fonts(data)
    cjk = [f for f in fonts if "WenQuanYiMicroHei" in f["name"]]
    assert cjk and all(f["emb"] == "yes" for f in cjk), fonts
    assert not any("STSong" in f["name"] for f in fonts)
    links = RefereeLink.objects.filter(table__round__event=b.event)
    assert links.count() == 3
    assert f"/ref/{links.first().token}/" in text
    # Printing again reuses the links.
    client.get(reverse("manage:table-cards", args=[b.event.pk, 1]))
    assert RefereeLink.objects.filter(table__round__event=b.event).count() == 3


def test_pairings_pdf_spans_pages_for_a_big_round(client, build):
    b = build(unions=60, deals=1)
    client.force_login(b.organiser)
    b.round([(k, k + 1) for k in range(0, 60, 2)])
    data = client.get(reverse("manage:pairings-pdf", args=[b.event.pk, 1])).content
    assert data.startswith(b"%PDF-")
    # 30 tables at 12 mm a row on A4 need two pages.
    assert len(re.findall(rb"/Type /Page\b(?!s)", data)) == 2
    text = pdf_text(data)
    assert "联邦1" in text and "联邦60" in text


def test_exports_in_csv_and_excel(client, build):
    from openpyxl import load_workbook

    b = build(unions=2, deals=1)
    client.force_login(b.organiser)
    r1 = b.round([(0, 1)])
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    csv_text = client.get(
        reverse("manage:export", args=[b.event.pk, "standings", "csv"])
    ).content.decode("utf-8-sig")
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("名次,联邦,场分") and lines[1].startswith("1,联邦1,3")
    players = client.get(
        reverse("manage:export", args=[b.event.pk, "standings", "csv"]) + "?kind=players"
    )
    assert "standings-players" in players["Content-Disposition"]
    player_lines = players.content.decode("utf-8-sig").strip().splitlines()
    assert player_lines[0].startswith("名次,选手,名次分") and len(player_lines) == 1 + 6
    xlsx = client.get(reverse("manage:export", args=[b.event.pk, "results", "xlsx"])).content
    rows = list(load_workbook(io.BytesIO(xlsx)).active.iter_rows(values_only=True))
    assert rows[1][:7] == (1, 1, 1, "联邦1", "联邦2", 2, -2)
    assert rows[2][2] == "合计" and rows[2][9:] == (3, 0)


def test_an_unreadable_upload_is_refused_as_a_whole(client, build):
    b = build(unions=0, deals=1)
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    wrong = client.post(url, {"file": SimpleUploadedFile("e.txt", b"hello")})
    assert wrong.status_code == 400 and "只支持 .csv 或 .xlsx 文件" in wrong.content.decode()
    broken = client.post(url, {"file": SimpleUploadedFile("e.xlsx", b"not a zip")})
    assert broken.status_code == 400 and "无法读取 Excel 文件" in broken.content.decode()
    headless = client.post(url, {"file": sheet_csv(["王伟,李娜"])})
    assert headless.status_code == 400 and "表头" in headless.content.decode()


def test_register_players_of_an_individual_event(client, build):
    b = build(unions=0, deals=1)
    b.event.entry_type = "individual"
    b.event.save()
    client.force_login(b.organiser)
    url = reverse("manage:import", args=[b.event.pk])
    client.post(url, {"file": sheet_csv(["选手,俱乐部,种子", "王伟,崂山,1", "李娜,,2"])})
    client.post(url, {"confirm": "1"})
    names = sorted(
        Registration.objects.filter(event=b.event).values_list("player__name", flat=True)
    )
    assert names == ["李娜", "王伟"]


def test_the_dashboard_shows_pending_and_failed_computations(
    client, build, django_capture_on_commit_callbacks
):
    from matches.models import ComputationRun

    b = build(unions=2, deals=1)
    client.force_login(b.organiser)
    ComputationRun.objects.create(
        event=b.event,
        task="settle_deal",
        key="match:1",
        state="failed",
        attempts=4,
        error="OperationalError: database is locked",
    )
    ComputationRun.objects.create(
        event=b.event, task="update_standings", key="standings", state="queued"
    )
    page = client.get(reverse("manage:progress", args=[b.event.pk])).content.decode()
    assert "database is locked" in page and "(4×)" in page
    assert re.search(r'data-count="pending">1<', page)
    # "Recompute everything" queues the full recomputation, which runs (eagerly here).
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("manage:recompute", args=[b.event.pk]))
    assert ComputationRun.objects.get(event=b.event, task="recompute_event").state == "done"
