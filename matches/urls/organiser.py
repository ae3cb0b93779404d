"""The organiser's pages under /manage/ (namespace `manage`), grouped by their address: the
events, one event (`events/<id>/`), one round of it (`rounds/<n>/`), its results (`results/`).
One view per action: a form posts to the address of what it does."""

from django.urls import URLPattern, URLResolver, include, path

from matches.views import find
from matches.views.organiser import (
    chain,
    checkin,
    dashboard,
    entries,
    events,
    features,
    fees,
    floor,
    links,
    results,
    rounds,
    scan,
    sheet_desk,
    sheet_stack,
    signup,
    staff,
    undo,
)

app_name = "manage"

#: events/<event_id>/rounds/<number>/…: one round, its draft edits, late changes, tables, clock
round_urls: list[URLPattern | URLResolver] = [
    path("", rounds.round_page, name="round"),
    path("redraw/", dashboard.round_redraw, name="round-redraw"),
    path("publish/", dashboard.round_publish, name="round-publish"),
    path("close/", dashboard.round_end, name="round-end"),
    path("closing/", rounds.close_page, name="round-close"),
    path("delete-draft/", undo.delete_draft, name="round-delete"),
    path("reopen/", undo.reopen_round, name="round-reopen"),
    path("edit/swap/", rounds.edit_swap, name="edit-swap"),
    path("edit/move/", rounds.edit_move, name="edit-move"),
    path("edit/sides/", rounds.edit_sides, name="edit-sides"),
    path("edit/pair/", rounds.edit_pair, name="edit-pair"),
    path("edit/bye/", rounds.edit_bye, name="edit-bye"),
    path("edit/player_move/", rounds.edit_player_move, name="edit-player-move"),
    path("edit/seats/", rounds.edit_seats, name="edit-seats"),
    path("late/unpublish/", rounds.late_unpublish, name="late-unpublish"),
    path("late/arrive/", rounds.late_arrive, name="late-arrive"),
    path("late/withdraw/", rounds.late_withdraw, name="late-withdraw"),
    path("tables/<int:table>/forfeit/", rounds.table_forfeit, name="table-forfeit"),
    path("tables/<int:table>/unforfeit/", rounds.table_unforfeit, name="table-unforfeit"),
    path("tables/<int:table>/stop/", rounds.table_stop, name="table-stop"),
    path("tables/<int:table>/chase/", rounds.table_chase, name="table-chase"),
    path("clock/start/", rounds.clock_start, name="clock-start"),
    path("clock/pause/", rounds.clock_pause, name="clock-pause"),
    path("clock/resume/", rounds.clock_resume, name="clock-resume"),
    path("clock/extend/", rounds.clock_extend, name="clock-extend"),
    path("tables.pdf", dashboard.table_cards, name="table-cards"),
    path("sheets.pdf", dashboard.score_sheets, name="score-sheets"),
    path("pairings.pdf", dashboard.pairings_pdf, name="pairings-pdf"),
    # Feature tables: shown live behind a delay (docs/live-tables.md).
    path("features/", features.features_page, name="features"),
    path("features/<int:table>/remove/", features.feature_remove, name="feature-remove"),
]

#: events/<event_id>/results/…: every table's state, history, corrections, referee links
results_urls: list[URLPattern | URLResolver] = [
    path("", results.event_results, name="results"),
    path("queue/", results.queue, name="results-queue"),
    path("sheets/", sheet_desk.desk, name="results-sheets"),
    path("photos/<int:photo_id>.jpg", sheet_desk.photo, name="sheet-photo"),
    # The desk's stack: many sheets at once, worked through from the keyboard.
    path("sheets/stack/", sheet_stack.queue, name="results-stack"),
    path("sheets/stack/<int:sheet_id>/", sheet_stack.sheet_page, name="results-stack-sheet"),
    path("sheets/stack/<int:sheet_id>.jpg", sheet_stack.image, name="results-stack-photo"),
    # A row's rules said again while the desk types it (htmx).
    path(
        "sheets/stack/<int:sheet_id>/deals/<int:deal>/check",
        sheet_stack.row_check,
        name="results-stack-check",
    ),
    path("reports/<int:report_id>/decide", results.decide_report, name="results-decide"),
    path("tables/<int:table_id>/accept", results.accept_table, name="results-accept-table"),
    path(
        "tables/<int:table_id>/unions/<int:union_id>/pin-unlock",
        results.lift_pin_lock,
        name="results-pin-unlock",
    ),
    path("tables/<int:table_id>/", results.table_results, name="results-table"),
    path(
        "tables/<int:table_id>/deals/<int:number>/correct",
        results.correct_deal,
        name="results-correct",
    ),
    path(
        "tables/<int:table_id>/deals/<int:number>/recheck",
        results.recheck_deal,
        name="results-recheck",
    ),
    path(
        "tables/<int:table_id>/reports/<int:report_id>/play",
        results.deal_viewer,
        name="results-viewer",
    ),
    path("tables/<int:table_id>/links", results.create_link, name="link-create"),
    path("links/<int:link_id>/revoke", results.revoke_link, name="link-revoke"),
    path("links/<int:link_id>/qr.<str:fmt>", results.link_qr, name="link-qr"),
]

#: events/<event_id>/…: one event
event_urls: list[URLPattern | URLResolver] = [
    path("", dashboard.dashboard, name="dashboard"),
    path("settings/", events.event_settings, name="settings"),
    path("rules/", events.rules, name="rules"),
    path("progress/", dashboard.progress, name="progress"),
    path("publish/", dashboard.toggle_published, name="toggle-published"),
    path("recompute/", dashboard.recompute, name="recompute"),
    path("chain/", chain.chain_page, name="chain"),
    path("chain/derived/", chain.derived_check, name="chain-derived"),
    path("rounds/draw/", dashboard.draw_round, name="draw"),
    path("rounds/<int:number>/", include(round_urls)),
    path("round-settings/", rounds.round_settings, name="round-settings"),
    path("withdraw/", rounds.withdraw, name="withdraw"),
    path("break/", rounds.break_page, name="break"),
    path("bracket/", rounds.bracket_page, name="bracket"),
    path("archive/", undo.archive_event, name="archive"),
    path("delete/", undo.delete_event, name="delete"),
    path("copy/", undo.copy_event, name="copy"),
    path("poster.pdf", dashboard.poster, name="poster"),
    path("export/<str:what>.<str:fmt>", dashboard.export, name="export"),
    path("checkin/", checkin.checkin, name="checkin"),
    path("checkin/<int:entry_id>/", checkin.toggle, name="checkin-toggle"),
    path("checkin/many/", checkin.check_in_many, name="checkin-many"),
    path("checkin/undo/", checkin.undo_many, name="checkin-undo"),
    path("checkin/carry-over/", checkin.carry_over, name="checkin-carry-over"),
    # The check-in desk: a badge scanned (camera, USB scanner) or its desk code typed.
    path("checkin/scan/", scan.desk, name="checkin-scan"),
    path("checkin/scan/undo/", scan.undo, name="checkin-scan-undo"),
    path("entries/", entries.entries, name="entries"),
    # The old address of the entry form.
    path("register/", entries.entries, name="register"),
    path("entries/<int:entry_id>/", entries.edit_entry, name="entry"),
    path("entries/<int:entry_id>/withdraw/", entries.withdraw_entry, name="entry-withdraw"),
    path("entries/<int:entry_id>/reinstate/", entries.reinstate_entry, name="entry-reinstate"),
    path("entries/<int:entry_id>/link/", checkin.entry_link, name="entry-link"),
    # Every entry's private link at once: a spreadsheet and a printed sheet.
    path("entries/links.<str:fmt>", links.entry_links_export, name="entry-links-export"),
    path("entries/links/print/", links.entry_links_sheet, name="entry-links-sheet"),
    path("entries/paste/", entries.paste_entries, name="paste"),
    path("import/", entries.import_entries, name="import"),
    path("import/template.<str:fmt>", entries.import_template, name="import-template"),
    # Registration from the players (docs/registration.md): settings, review, the waiting list.
    path("signup/", signup.signup_settings, name="signup-settings"),
    path("signup/erase/", signup.signup_erase, name="signup-erase"),
    path("signup/queue/", signup.signup_queue, name="signup-queue"),
    path("signup/accept-many/", signup.signup_accept_many, name="signup-accept-many"),
    path("signup/promote/", signup.signup_promote, name="signup-promote"),
    path("signup/requests.<str:fmt>", signup.signup_export, name="signup-export"),
    path("signup/<int:request_id>/accept/", signup.signup_accept, name="signup-accept"),
    path("signup/<int:request_id>/decline/", signup.signup_decline, name="signup-decline"),
    path("signup/<int:request_id>/waitlist/", signup.signup_waitlist, name="signup-waitlist"),
    path(
        "signup/<int:request_id>/withdraw/", signup.signup_withdraw_for, name="signup-withdraw-for"
    ),
    # Entry fees: the treasurer's page, one entry's payments, the exports.
    path("fees/", fees.treasurer, name="fees"),
    path("fees/<int:entry_id>/", fees.fee_entry, name="fee-entry"),
    path("fees/<int:entry_id>/pay/", fees.fee_pay, name="fee-pay"),
    path("fees/<int:entry_id>/owed/", fees.fee_owed, name="fee-owed"),
    path("fees/<str:what>.<str:fmt>", fees.fees_export, name="fees-export"),
    path("staff/", staff.staff, name="staff"),
    path("staff/<int:staff_id>/revoke/", staff.revoke_staff, name="staff-revoke"),
    path(
        "staff/invitations/<int:invitation_id>/revoke/",
        staff.revoke_invitation,
        name="invitation-revoke",
    ),
    path(
        "staff/invitations/<int:invitation_id>/",
        staff.edit_invitation,
        name="invitation-edit",
    ),
    path("staff/invitations/print/", staff.invitation_sheet, name="invitation-sheet"),
    path("staff/invitations/links.<str:fmt>", staff.invitation_export, name="invitation-export"),
    # The hall's floor: referee zones and coverage, answering a table's call (docs/floor.md).
    path("zones/", floor.zones_page, name="zones"),
    path("badges/", find.badges, name="badges"),
    path("calls/<int:call_id>/acknowledge", floor.acknowledge_call, name="call-acknowledge"),
    path("announcements/", floor.announcements_page, name="announcements"),
    path(
        "announcements/<int:announcement_id>/withdraw",
        floor.withdraw_announcement,
        name="announcement-withdraw",
    ),
    path("results/", include(results_urls)),
    path("unions/<int:union_id>/pin", results.reset_union_pin, name="union-pin-reset"),
]

urlpatterns = [
    path("", dashboard.event_list, name="events"),
    path("new/", events.new_event, name="new-event"),
    path("join/", staff.join, name="join-code"),
    path("join/<str:token>/", staff.join, name="join"),
    path("events/<int:event_id>/", include(event_urls)),
]
