"""Organiser round pages: one round's page with draw control on a draft, late
changes, forfeits and time stops on a published round, closing a round, withdrawals, the break
into a knockout, and the event's round settings (clubs, byes, forfeits, release).

Views stay thin: every action is a service call (`matches.draw.control`, `.late`, `.breaks`,
`matches.results.forfeits`), a refusal becomes a message on the page, never a 500.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.http import require_POST

from matches.draw import bracket, clock, control, explanations, hand_swaps, late, refusals
from matches.draw import entrants as draw_entrants
from matches.draw import service as draw
from matches.kernel import punctuation
from matches.models import Event, Match, RefereeLink, Registration, Round, TableSeat, Union
from matches.permissions import can_manage_event
from matches.results import forfeits
from matches.standings import breaks
from matches.views.addresses import staff_url
from matches.views.organiser.access import organised_event, running_event
from matches.views.organiser.dashboard import table_progress
from players.models import Player

#: What the organiser's page says about each flag (the same words as the explanations).
FLAG_LABELS = {
    "rematch_forced": gettext_lazy("重复交手"),
    "club_clash": gettext_lazy("同俱乐部"),
    "seat_against_preference": gettext_lazy("座次失衡"),
    "pulled_down": gettext_lazy("跨分组"),
    "bye": gettext_lazy("轮空"),
    "bye_repeated": gettext_lazy("再次轮空"),
    "hand_swap": gettext_lazy("手动调整"),
}


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("stage", "event"), event=event, number=number
    )


def _to_round(event: Event, number: int, anchor: str = ""):
    return redirect(reverse("manage:round", args=[event.pk, number]) + anchor)


def _union(event: Event, value) -> Union:
    try:
        return Union.objects.get(pk=int(value), event=event, round__isnull=True)
    except (TypeError, ValueError, Union.DoesNotExist):
        raise refusals.SeatingRefused(_("请选择联邦"))


def _int(value, message: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise refusals.SeatingRefused(message)


def _explained_message(lines: list[dict]) -> str:
    """The changed tables and their reasons, in one sentence per table."""
    parts = []
    for line in lines:
        where = (_("第 %(n)s 桌") % {"n": line["table"]}) if line["table"] else _("轮空")
        who = " — ".join(n for n in (line["union_a"], line["union_b"]) if n)
        reasons = punctuation.clauses(line["reasons"])
        parts.append(
            punctuation.labelled(where, who)
            + (punctuation.parenthesised(reasons) if reasons else "")
        )
    return " · ".join(parts)


# --- the round page -------------------------------------------------------------------------------


@login_required
def round_page(request, event_id: int, number: int):
    event = running_event(request, event_id)
    round_ = _round(event, number)
    explain = explanations.explain_round(round_)
    by_match = {line["match"]: line for line in explain}
    progress = {row["match"].pk: row for row in table_progress(round_)}
    tables = []
    for match in (
        round_.matches.with_sides().select_related("table").order_by("table__number", "id")
    ):
        line = by_match.get(match.pk, {})
        tables.append(
            {
                "match": match,
                "reasons": line.get("reasons", []),
                "flags": [
                    FLAG_LABELS[f]
                    for f in match.flags
                    if f in FLAG_LABELS and f not in ("bye", "pulled_down")
                ]
                + ([FLAG_LABELS["pulled_down"]] if "pulled_down" in match.flags else []),
                "problem": any(
                    f in match.flags for f in ("rematch_forced", "club_clash", "bye_repeated")
                ),
                "progress": progress.get(match.pk),
            }
        )
    seated = list(
        TableSeat.objects.filter(round=round_)
        .select_related("player", "union", "table")
        .order_by("table__number", "seat")
    )
    by_table: dict[int, list[TableSeat]] = {}
    for seat in seated:
        by_table.setdefault(seat.table_id, []).append(seat)
    for row in tables:  # an individual event's tables are their players
        row["seats"] = by_table.get(row["match"].table_id, [])
    placed = set(round_.sides.filter(union__isnull=False).values_list("union_id", flat=True))
    registered = list(
        Registration.objects.filter(event=event, union__isnull=False)
        .select_related("union")
        .order_by("union__name")
    )
    context = {
        "event": event,
        "round": round_,
        "tables": tables,
        "quality": round_.quality,
        "in_round": [r.union for r in registered if r.union_id in placed],
        "not_in_round": [
            r
            for r in registered
            if r.union_id not in placed and r.status != Registration.Status.WITHDRAWN
        ],
        "active": [r for r in registered if r.status != Registration.Status.WITHDRAWN],
        "withdrawn": [r for r in registered if r.status == Registration.Status.WITHDRAWN],
        "has_bye": any(t["match"].is_bye for t in tables),
        "table_numbers": [t["match"].table.number for t in tables if not t["match"].is_bye],
        "unfinished": draw.unfinished_tables(round_) if round_.state == "published" else [],
        "can_unpublish": round_.state == "published" and not late.round_has_results(round_),
        "log": round_.log.select_related("user").order_by("-at", "-id")[:30],
        "missing_from_draft": draw_entrants.missing_from_draft(round_),
        "can_reopen": round_.state == Round.State.CLOSED
        and can_manage_event(request.user, event)
        and not event.rounds.filter(number__gt=round_.number).exists(),
        "deals": range(1, event.deals_per_match + 1),
        "seated": seated,
        # An individual draft: who sits out, to swap in (hand_swaps.swap_players).
        "sitting_out": Player.objects.filter(
            pk__in=round_.quality.get("sitting_out", []) if isinstance(round_.quality, dict) else []
        ).order_by("name"),
        "seat_numbers": sorted({s.seat for s in seated}),
        "clock": clock.state(clock.clock_of(round_)),
        "zones": list(event.zones.order_by("first_table", "id")),
    }
    return render(request, "manage/round.html", context)


def _draft_edit(request, event_id: int, number: int, edit) -> HttpResponse:
    """What every draft edit shares: the round, the edit (`edit(event, round_, post, user)`
    returns the changed tables' lines), its message, back to the round's tables."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    try:
        lines = edit(event, round_, request.POST, request.user)
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
        return _to_round(event, number, "#edit")
    messages.success(request, _("已调整：") + _explained_message(lines))
    return _to_round(event, number, "#tables")


@login_required
@require_POST
def edit_swap(request, event_id: int, number: int):
    """Two unions of a draft exchange their places."""

    def edit(event, round_, post, user):
        first, second = _union(event, post.get("first")), _union(event, post.get("second"))
        return hand_swaps.swap_unions(round_, first, second, user=user)

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_move(request, event_id: int, number: int):
    """A union moves to a table's side."""

    def edit(event, round_, post, user):
        union, table = _union(event, post.get("union")), _int(post.get("table"), _("请选择桌号"))
        return control.move_union(round_, union, table, post.get("side", "A"), user=user)

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_sides(request, event_id: int, number: int):
    """A table's two unions exchange sides."""

    def edit(event, round_, post, user):
        return control.swap_sides(round_, _int(post.get("table"), _("请选择桌号")), user=user)

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_pair(request, event_id: int, number: int):
    """Two unions paired by hand at a table."""

    def edit(event, round_, post, user):
        table = _int(post.get("table"), _("请选择桌号"))
        first, second = _union(event, post.get("union_a")), _union(event, post.get("union_b"))
        return control.pair_by_hand(round_, table, first, second, user=user)

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_bye(request, event_id: int, number: int):
    """A union is given the round's bye."""

    def edit(event, round_, post, user):
        return control.give_bye(round_, _union(event, post.get("union")), user=user)

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_player_move(request, event_id: int, number: int):
    """An individual draft: a player moves to a table's seat."""

    def edit(event, round_, post, user):
        return control.move_player(
            round_,
            _int(post.get("player"), _("请选择选手")),
            _int(post.get("table"), _("请选择桌号")),
            _int(post.get("seat"), _("请选择座位")),
            user=user,
        )

    return _draft_edit(request, event_id, number, edit)


@login_required
@require_POST
def edit_seats(request, event_id: int, number: int):
    """An individual draft: two players exchange their seats."""

    def edit(event, round_, post, user):
        first = _int(post.get("first"), _("请选择选手"))
        return hand_swaps.swap_players(
            round_, first, _int(post.get("second"), _("请选择选手")), user=user
        )

    return _draft_edit(request, event_id, number, edit)


def _late_change(request, event_id: int, number: int, change) -> HttpResponse:
    """What every change after publishing shares: `change(event, round_, post, user)` makes it
    and says what it did; a refusal is shown; back to the round's late changes."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    try:
        messages.success(request, change(event, round_, request.POST, request.user))
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
    return _to_round(event, number, "#late")


@login_required
@require_POST
def late_unpublish(request, event_id: int, number: int):
    """The round back to a draft."""

    def change(event, round_, post, user):
        late.unpublish_round(round_, user=user)
        return _("已撤回公布，本轮回到草稿")

    return _late_change(request, event_id, number, change)


@login_required
@require_POST
def late_arrive(request, event_id: int, number: int):
    """A union arrives after publishing: one table changes, or it has the bye."""

    def change(event, round_, post, user):
        union = _union(event, post.get("union"))
        done = late.late_add(round_, union, user=user)
        if done.get("tables"):
            return _("%(name)s 已补入：只变动第 %(n)s 桌") % {
                "name": union.name,
                "n": done["tables"][0],
            }
        return _("%(name)s 已补入，本轮轮空；没有牌桌变动") % {"name": union.name}

    return _late_change(request, event_id, number, change)


@login_required
@require_POST
def late_withdraw(request, event_id: int, number: int):
    """A union withdraws after publishing."""

    def change(event, round_, post, user):
        union = _union(event, post.get("union"))
        done = late.late_withdraw(round_, union, user=user)
        tables = punctuation.listed(done["tables"])
        if tables:
            return _("%(name)s 已退出本轮：变动的牌桌 %(t)s") % {"name": union.name, "t": tables}
        return _("%(name)s 已退出本轮；没有牌桌变动") % {"name": union.name}

    return _late_change(request, event_id, number, change)


def _table_step(request, event_id: int, number: int, table: int, step) -> HttpResponse:
    """What every step on one table of a published round shares: `step(match, post, user)`
    takes it and says what it did (and whether to go back to the closing page); back to the
    table on the round page, or on the closing page the form came from."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    match = get_object_or_404(Match, round=round_, table__number=table)
    back = request.POST.get("back") == "close"
    try:
        said, to_close = step(match, request.POST, request.user)
        messages.success(request, said)
        back = back or to_close
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
    if back:
        return redirect(reverse("manage:round-close", args=[event.pk, number]) + f"#table-{table}")
    return _to_round(event, number, f"#table-{table}")


@login_required
@require_POST
def table_forfeit(request, event_id: int, number: int, table: int):
    """A forfeit awarded at the table (a side, or both)."""

    def step(match, post, user):
        forfeits.award_forfeit(match, post.get("side", ""), user=user)
        return _("第 %(n)s 桌已判弃权") % {"n": table}, False

    return _table_step(request, event_id, number, table, step)


@login_required
@require_POST
def table_unforfeit(request, event_id: int, number: int, table: int):
    """The table's forfeit cleared."""

    def step(match, post, user):
        forfeits.clear_forfeit(match, user=user)
        return _("第 %(n)s 桌已取消弃权") % {"n": table}, False

    return _table_step(request, event_id, number, table, step)


@login_required
@require_POST
def table_stop(request, event_id: int, number: int, table: int):
    """The table stopped by time: its first deals count."""

    def step(match, post, user):
        after = _int(post.get("after"), _("请填写已打局数"))
        forfeits.stop_by_time(match, after, user=user)
        return _("第 %(n)s 桌超时中止：按前 %(k)s 局计分") % {"n": table, "k": after}, False

    return _table_step(request, event_id, number, table, step)


@login_required
@require_POST
def table_chase(request, event_id: int, number: int, table: int):
    """A new referee link for a table the closing round waits for."""

    def step(match, post, user):
        assert match.table is not None  # found by its table's number
        RefereeLink.objects.create(
            table=match.table, created_by=user, label=gettext_noop("结束本轮时催报")
        )
        return _("已为第 %(n)s 桌生成新的裁判链接") % {"n": table}, True

    return _table_step(request, event_id, number, table, step)


# --- the hall's clock ---------------------------------------------------------------------------


def _clock_step(request, event_id: int, number: int, step) -> HttpResponse:
    """What every step of the round's clock shares (each is logged by the clock)."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    try:
        messages.success(request, step(round_, request.POST, request.user))
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
    return _to_round(event, number, "#clock")


@login_required
@require_POST
def clock_start(request, event_id: int, number: int):
    """The clock starts (or starts again) for the minutes given."""

    def step(round_, post, user):
        done = clock.start(round_, post.get("minutes"), user=user)
        return _("计时开始：%(m)s 分钟") % {"m": done.minutes}

    return _clock_step(request, event_id, number, step)


@login_required
@require_POST
def clock_pause(request, event_id: int, number: int):
    def step(round_, post, user):
        clock.pause(round_, user=user)
        return _("计时已暂停")

    return _clock_step(request, event_id, number, step)


@login_required
@require_POST
def clock_resume(request, event_id: int, number: int):
    def step(round_, post, user):
        clock.resume(round_, user=user)
        return _("计时继续")

    return _clock_step(request, event_id, number, step)


@login_required
@require_POST
def clock_extend(request, event_id: int, number: int):
    def step(round_, post, user):
        minutes = post.get("minutes")
        clock.extend(round_, minutes, user=user)
        return _("已延长 %(m)s 分钟") % {"m": minutes}

    return _clock_step(request, event_id, number, step)


# --- closing the round ------------------------------------------------------------------------


@login_required
def close_page(request, event_id: int, number: int):
    """Close the round, or see first which tables have no final result and, per table: wait,
    chase the referee (the table's link and QR again), or award a forfeit."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    if request.method == "POST":
        try:
            draw.close_round(round_, user=request.user)
        except refusals.SeatingRefused as error:
            messages.error(request, str(error))
            return redirect("manage:round-close", event.pk, number)
        messages.success(request, _("第 %(n)s 轮已结束") % {"n": number})
        return _to_round(event, number)
    missing = draw.unfinished_tables(round_) if round_.state == "published" else []
    progress = {row["match"].table.number: row for row in table_progress(round_)}
    rows = []
    for table_number in missing:
        match = round_.matches.with_sides().select_related("table").get(table__number=table_number)
        links = [
            {
                "link": link,
                "url": staff_url(request, reverse("referee:link-table", args=[link.token])),
            }
            for link in match.table.referee_links.filter(revoked_at__isnull=True).order_by(
                "-created_at", "-id"
            )[:1]
        ]
        rows.append({"match": match, "links": links, "progress": progress.get(table_number)})
    clock_state = clock.state(clock.clock_of(round_))
    return render(
        request,
        "manage/round_close.html",
        {
            "event": event,
            "round": round_,
            "rows": rows,
            "missing": missing,
            # At zero: the tables still playing, named at the top of the page.
            "time_up": clock_state["state"] == "over",
        },
    )


# --- withdrawals, the break, settings ------------------------------------------------------------


@login_required
@require_POST
def withdraw(request, event_id: int):
    """A union withdraws between rounds: out of later draws, its played matches stand."""
    event = running_event(request, event_id)
    number = request.POST.get("round")
    try:
        union = _union(event, request.POST.get("union"))
        after = late.withdraw_union(event, union, user=request.user)
        messages.success(
            request,
            _("%(name)s 已退赛：第 %(n)s 轮后不再编排，已赛成绩保留")
            % {"name": union.name, "n": after},
        )
        if event.rounds.filter(state=Round.State.DRAFT).exists():
            messages.warning(request, _("有草稿轮次：请重新编排"))
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
    if number and number.isascii() and number.isdigit():  # "²" is a digit int() refuses
        return _to_round(event, int(number), "#withdraw")
    return redirect("manage:dashboard", event.pk)


@login_required
def break_page(request, event_id: int):
    """Top N after round K go on to the event's knockout stage (the wizard's, of its size unless
    the organiser changes it): shown first, with the tie at the cut explained, then confirmed."""
    event = running_event(request, event_id)
    default = breaks.default_size(event)
    size = request.POST.get("size") or request.GET.get("size") or str(default or 4)
    after = request.POST.get("after") or request.GET.get("after") or ""
    proposal, error = None, None
    try:
        size_n = _int(size, _("请填写晋级名额"))
        after_n = int(after) if after.isascii() and after.isdigit() else None
        if request.method == "POST":
            confirmed = breaks.confirm_break(event, size_n, after_n, user=request.user)
            messages.success(
                request,
                _("晋级名单已确认：%(stage)s，共 %(n)s 个联邦")
                % {"stage": confirmed.label, "n": size_n},
            )
            return redirect("manage:dashboard", event.pk)
        proposal = breaks.propose_break(event, size_n, after_n)
    except (refusals.SeatingRefused, breaks.BreakRefused) as refused:
        error = str(refused)
    closed = list(event.rounds.filter(state=Round.State.CLOSED).values_list("number", flat=True))
    stage = breaks.break_stage(event)
    return render(
        request,
        "manage/break.html",
        {
            "event": event,
            "proposal": proposal,
            "error": error,
            "size": size,
            "after": after,
            "closed": closed,
            "stage": stage,
            "wizard_size": default,
            "criteria": [
                breaks.CRITERION_LABELS[c]
                for c in ["match_points"] + [t for t in event.tie_breaks if t != "match_points"]
                if c in breaks.CRITERION_LABELS
            ],
        },
        status=400 if error and request.method == "POST" else 200,
    )


@login_required
def bracket_page(request, event_id: int):
    """The knockout bracket (对阵图) with every round, drawn or not; before the first knockout
    round is drawn, the pairings the confirmed break will give."""
    event = running_event(request, event_id)
    stage = breaks.knockout_stage(event)
    columns = []
    if stage is not None:
        rounds = list(stage.rounds.all())
        columns = bracket.build(stage, rounds, lambda round_: True, project_first_round=True)
    return render(
        request,
        "manage/bracket.html",
        {"event": event, "stage": stage, "columns": columns},
    )


class RoundSettingsForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "club_policy",
            "points_bye",
            "bye_score",
            "forfeit_score",
            "score_stopped_matches",
            "release_draw",
            "release_results",
            "release_standings",
        ]


@login_required
def round_settings(request, event_id: int):
    """The event's round settings: clubs kept apart, bye and forfeit scores, time stops, and
    when the public sees the draw, the results and the standings, and ending the event (which
    releases everything held until the end): the organiser's only, never an assistant's, since
    they decide what the public sees."""
    event = organised_event(request, event_id)
    form = RoundSettingsForm(request.POST or None, instance=event)
    if request.method == "POST":
        if request.POST.get("conclude") is not None:
            event.concluded_at = None if event.concluded_at else timezone.now()
            event.save(update_fields=["concluded_at"])
            messages.success(
                request,
                _("赛事已结束：全部成绩与排名公开") if event.concluded_at else _("已恢复为进行中"),
            )
            return redirect("manage:round-settings", event.pk)
        if form.is_valid():
            form.save()
            messages.success(request, _("设置已保存"))
            return redirect("manage:round-settings", event.pk)
    return render(
        request,
        "manage/round_settings.html",
        {"event": event, "form": form},
        status=400 if form.errors else 200,
    )
