from django.urls import path

from matches.views import find, organiser_results
from matches.views import organiser as manage
from matches.views.organiser import chain, checkin, entries, events, floor, rounds, staff, undo

app_name = "manage"

urlpatterns = [
    path("", manage.event_list, name="events"),
    path("new/", events.new_event, name="new-event"),
    path("join/", staff.join, name="join-code"),
    path("join/<str:token>/", staff.join, name="join"),
    path("events/<int:event_id>/", manage.dashboard, name="dashboard"),
    path("events/<int:event_id>/settings/", events.event_settings, name="settings"),
    path("events/<int:event_id>/rules/", events.rules, name="rules"),
    path("events/<int:event_id>/progress/", manage.progress, name="progress"),
    path("events/<int:event_id>/publish/", manage.toggle_published, name="toggle-published"),
    path("events/<int:event_id>/recompute/", manage.recompute, name="recompute"),
    path("events/<int:event_id>/chain/", chain.chain_page, name="chain"),
    path("events/<int:event_id>/rounds/draw/", manage.draw_round, name="draw"),
    path("events/<int:event_id>/rounds/<int:number>/", rounds.round_page, name="round"),
    path(
        "events/<int:event_id>/rounds/<int:number>/edit/<str:edit>/",
        rounds.round_edit,
        name="round-edit",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/late/<str:change>/",
        rounds.round_late,
        name="round-late",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/closing/", rounds.close_page, name="round-close"
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/<str:action>/",
        rounds.table_action,
        name="table-action",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/clock/<str:do>/",
        rounds.round_clock,
        name="round-clock",
    ),
    path("events/<int:event_id>/withdraw/", rounds.withdraw, name="withdraw"),
    path("events/<int:event_id>/break/", rounds.break_page, name="break"),
    path("events/<int:event_id>/bracket/", rounds.bracket_page, name="bracket"),
    # Undo (issue 25): before the round-action pattern, which would take these names.
    path(
        "events/<int:event_id>/rounds/<int:number>/delete-draft/",
        undo.delete_draft,
        name="round-delete",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/reopen/", undo.reopen_round, name="round-reopen"
    ),
    path("events/<int:event_id>/archive/", undo.archive_event, name="archive"),
    path("events/<int:event_id>/delete/", undo.delete_event, name="delete"),
    path("events/<int:event_id>/copy/", undo.copy_event, name="copy"),
    path("events/<int:event_id>/round-settings/", rounds.round_settings, name="round-settings"),
    path(
        "events/<int:event_id>/rounds/<int:number>/<str:action>/",
        manage.round_action,
        name="round-action",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables.pdf",
        manage.table_cards,
        name="table-cards",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/pairings.pdf",
        manage.pairings_pdf,
        name="pairings-pdf",
    ),
    path("events/<int:event_id>/poster.pdf", manage.poster, name="poster"),
    path("events/<int:event_id>/checkin/", checkin.checkin, name="checkin"),
    path("events/<int:event_id>/checkin/<int:entry_id>/", checkin.toggle, name="checkin-toggle"),
    path("events/<int:event_id>/checkin/many/", checkin.check_in_many, name="checkin-many"),
    path("events/<int:event_id>/checkin/undo/", checkin.undo_many, name="checkin-undo"),
    path(
        "events/<int:event_id>/checkin/carry-over/", checkin.carry_over, name="checkin-carry-over"
    ),
    path("events/<int:event_id>/entries/", entries.entries, name="entries"),
    # The old address of the entry form.
    path("events/<int:event_id>/register/", entries.entries, name="register"),
    path("events/<int:event_id>/entries/<int:entry_id>/", entries.edit_entry, name="entry"),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/withdraw/",
        entries.withdraw_entry,
        name="entry-withdraw",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/reinstate/",
        entries.reinstate_entry,
        name="entry-reinstate",
    ),
    path(
        "events/<int:event_id>/entries/<int:entry_id>/link/", checkin.entry_link, name="entry-link"
    ),
    path("events/<int:event_id>/import/", entries.import_entries, name="import"),
    path(
        "events/<int:event_id>/import/template.<str:fmt>",
        entries.import_template,
        name="import-template",
    ),
    path("events/<int:event_id>/staff/", staff.staff, name="staff"),
    path(
        "events/<int:event_id>/staff/<int:staff_id>/revoke/",
        staff.revoke_staff,
        name="staff-revoke",
    ),
    path(
        "events/<int:event_id>/staff/invitations/<int:invitation_id>/revoke/",
        staff.revoke_invitation,
        name="invitation-revoke",
    ),
    # The hall's floor: referee zones and coverage, answering a table's call (docs/floor.md).
    path("events/<int:event_id>/zones/", floor.zones_page, name="zones"),
    path("events/<int:event_id>/badges/", find.badges, name="badges"),
    path(
        "events/<int:event_id>/calls/<int:call_id>/acknowledge",
        floor.acknowledge_call,
        name="call-acknowledge",
    ),
    path("events/<int:event_id>/export/<str:what>.<str:fmt>", manage.export, name="export"),
    # Results: every table's state, history, corrections, referee links.
    path("events/<int:event_id>/results/", organiser_results.event_results, name="results"),
    path("events/<int:event_id>/results/queue/", organiser_results.queue, name="results-queue"),
    path(
        "events/<int:event_id>/results/reports/<int:report_id>/decide",
        organiser_results.decide_report,
        name="results-decide",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/unions/<int:union_id>/pin-unlock",
        organiser_results.lift_pin_lock,
        name="results-pin-unlock",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/",
        organiser_results.table_results,
        name="results-table",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/deals/<int:number>/correct",
        organiser_results.correct_deal,
        name="results-correct",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/deals/<int:number>/recheck",
        organiser_results.recheck_deal,
        name="results-recheck",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/reports/<int:report_id>/play",
        organiser_results.deal_viewer,
        name="results-viewer",
    ),
    path(
        "events/<int:event_id>/results/tables/<int:table_id>/links",
        organiser_results.create_link,
        name="link-create",
    ),
    path(
        "events/<int:event_id>/results/links/<int:link_id>/revoke",
        organiser_results.revoke_link,
        name="link-revoke",
    ),
    path(
        "events/<int:event_id>/results/links/<int:link_id>/qr.<str:fmt>",
        organiser_results.link_qr,
        name="link-qr",
    ),
    path(
        "events/<int:event_id>/unions/<int:union_id>/pin",
        organiser_results.reset_union_pin,
        name="union-pin-reset",
    ),
]
