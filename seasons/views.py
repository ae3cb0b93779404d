"""The seasons pages: public (the rating list, a player's card, series tables) and the
organisers' (series and their points tables, merging and splitting player records)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from gouji_tournament.text import id_or_404
from matches.models import Event
from players.models import Club, Player
from seasons import identity, permissions, selectors
from seasons.charts import rating_chart_svg
from seasons.forms import MergeForm, SeriesForm, describe
from seasons.models import MergeRequest, PlayerMerge, PlayerRating, Series, SeriesEvent, SeriesLog

# --- public ------------------------------------------------------------------------------------


def rating_list(request):
    query = (request.GET.get("q") or "").strip()[:60]
    club_id = id_or_404(request.GET.get("club"))
    rows = selectors.rating_list(query, club_id)
    page = Paginator(rows, selectors.PAGE).get_page(request.GET.get("page"))
    start = (page.number - 1) * selectors.PAGE
    ranked = [
        (selectors.rank_of(r) if (query or club_id) else start + k + 1, r)
        for k, r in enumerate(page.object_list)
    ]
    clubs = Club.objects.filter(players__rating__isnull=False).distinct().order_by("name")
    return render(
        request,
        "seasons/rating_list.html",
        {"page": page, "ranked": ranked, "query": query, "club_id": club_id, "clubs": clubs},
    )


def player_card(request, player_id: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    events = selectors.events_played(player)
    rating = PlayerRating.objects.filter(player=player).first()
    if not events and rating is None:
        raise Http404("a player of no public event")
    steps = selectors.history(player)
    partners, rivals = selectors.partners_and_rivals(player)
    return render(
        request,
        "seasons/player.html",
        {
            "player": player,
            "rating": rating,
            "rank": selectors.rank_of(rating) if rating else None,
            "events": events,
            "chart": rating_chart_svg(steps),
            "partners": partners,
            "rivals": rivals,
            "series_lines": selectors.series_lines_of(player),
        },
    )


def series_list(request):
    return render(
        request, "seasons/series_list.html", {"series": Series.objects.filter(published=True)}
    )


def series_page(request, series_id: int):
    series = get_object_or_404(Series, pk=series_id, published=True)
    events, lines = selectors.series_table(series)
    return render(
        request, "seasons/series.html", {"series": series, "events": events, "lines": lines}
    )


# --- organisers -----------------------------------------------------------------------------


@login_required
def manage_series_list(request):
    mine = permissions.series_managed_by(request.user)
    deleted = SeriesLog.objects.filter(action=SeriesLog.Action.DELETE, by=request.user)[:20]
    if request.method == "POST":
        name = (request.POST.get("name") or "").strip()[:200]
        if not name:
            messages.error(request, _("请填写名称"))
            return redirect("seasons-manage:series-list")
        series = Series.objects.create(name=name, place_points=[10, 8, 6, 5, 4, 3, 2, 1])
        series.organisers.add(request.user)
        _log(series, SeriesLog.Action.CREATE, request.user, describe(series))
        return redirect("seasons-manage:series", series.pk)
    return render(request, "seasons/manage_series_list.html", {"series": mine, "deleted": deleted})


@login_required
def manage_series(request, series_id: int):
    series = permissions.managed_series(request, series_id)
    form = SeriesForm(
        request.POST if request.method == "POST" else None, series=series, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        series, changes = form.save()
        if changes:
            _log(series, SeriesLog.Action.EDIT, request.user, changes)
        messages.success(request, _("系列赛已保存"))
        return redirect("seasons-manage:series", series.pk)
    return _series_page(request, series, form, status=400 if form.errors else 200)


def _series_page(request, series: Series, form: SeriesForm, *, status=200, **organisers):
    """The organiser's series page; `organisers` carries the co-organiser form's answer
    (`username` typed, `organiser_error`) when it is shown again with an error."""
    return render(
        request,
        "seasons/manage_series.html",
        {
            "series": series,
            "form": form,
            "organisers": series.organisers.order_by("username"),
            "log": series.log.select_related("by")[:50],
            **organisers,
        },
        status=status,
    )


@login_required
@require_POST
def add_series_organiser(request, series_id: int):
    """An organiser of the series adds another account, by its username, as co-organiser: it
    may then edit the series as they do."""
    series = permissions.managed_series(request, series_id)
    username = (request.POST.get("username") or "").strip()[:150]
    error = ""
    account = get_user_model().objects.filter(username=username, is_active=True).first()
    if not username:
        error = _("请填写要添加的账号的用户名")
    elif account is None:
        error = _("没有用户名为“%(name)s”的账号") % {"name": username}
    elif series.organisers.filter(pk=account.pk).exists():
        error = _("“%(name)s”已是本系列赛的组织者") % {"name": username}
    if error or account is None:
        form = SeriesForm(series=series, user=request.user)
        return _series_page(
            request, series, form, status=400, username=username, organiser_error=error
        )
    series.organisers.add(account)
    _log(
        series, SeriesLog.Action.EDIT, request.user, _("添加组织者：%(name)s") % {"name": username}
    )
    messages.success(request, _("已添加组织者“%(name)s”") % {"name": username})
    return redirect("seasons-manage:series", series.pk)


@login_required
@require_POST
def remove_series_organiser(request, series_id: int, user_id: int):
    """An organiser removes a co-organiser (or themselves); never the last one: a series
    nobody may edit could not be corrected or deleted."""
    series = permissions.managed_series(request, series_id)
    with transaction.atomic():
        # Locked, so two organisers removing each other at once cannot leave none.
        Series.objects.select_for_update().filter(pk=series.pk).first()
        account = get_object_or_404(series.organisers, pk=user_id)
        name = account.get_username()
        if series.organisers.count() <= 1:
            form = SeriesForm(series=series, user=request.user)
            error = _("不能移除“%(name)s”：系列赛至少要有一位组织者") % {"name": name}
            return _series_page(request, series, form, status=400, organiser_error=error)
        series.organisers.remove(account)
        _log(
            series, SeriesLog.Action.EDIT, request.user, _("移除组织者：%(name)s") % {"name": name}
        )
    messages.success(request, _("已移除组织者“%(name)s”") % {"name": name})
    if not permissions.can_manage_series(request.user, series):
        return redirect("seasons-manage:series-list")  # no longer theirs to see
    return redirect("seasons-manage:series", series.pk)


@login_required
def delete_series(request, series_id: int):
    """A series made by mistake goes (its events and their results stay; the log keeps what
    it held). Asked for on its own page, with the name typed again."""
    series = permissions.managed_series(request, series_id)
    error = ""
    if request.method == "POST":
        if (request.POST.get("confirm") or "").strip() == series.name:
            _log(
                series,
                SeriesLog.Action.DELETE,
                request.user,
                describe(series),
                snapshot=series_snapshot(series),
            )
            name = series.name
            series.delete()
            messages.success(request, _("系列赛“%(name)s”已删除") % {"name": name})
            return redirect("seasons-manage:series-list")
        error = _("请输入系列赛的名称以确认删除")
    return render(
        request,
        "seasons/manage_series_delete.html",
        {"series": series, "error": error},
        status=400 if error else 200,
    )


def _log(series: Series, action: str, user, detail: str, snapshot: dict | None = None) -> None:
    SeriesLog.objects.create(
        series=series,
        series_name=series.name,
        action=action,
        detail=detail,
        by=user,
        snapshot=snapshot or {},
    )


def series_snapshot(series: Series) -> dict:
    """Everything a series is, as its deletion's log keeps it: enough to make it again."""
    return {
        "name": series.name,
        "scoring": series.scoring,
        "place_points": series.place_points,
        "best_of": series.best_of,
        "published": series.published,
        "events": list(series.entries.values_list("event_id", flat=True)),
        "organisers": list(series.organisers.values_list("pk", flat=True)),
    }


@login_required
@require_POST
def restore_series(request, log_id: int):
    """A series deleted by mistake, made again from its deletion's log: its settings, the
    events that still exist and its organisers. For whoever deleted it or organised it."""
    log = get_object_or_404(SeriesLog, pk=log_id, action=SeriesLog.Action.DELETE)
    kept = log.snapshot
    if not permissions.can_restore_series(request.user, log):
        raise PermissionDenied("not an organiser of this series")
    if not kept:
        messages.error(request, _("这条记录早于恢复功能，没有保存系列赛的内容，无法恢复"))
        return redirect("seasons-manage:series-list")
    with transaction.atomic():
        log = SeriesLog.objects.select_for_update().get(pk=log.pk)
        if log.restored_as_id is not None:
            messages.error(request, _("这个系列赛已经恢复过了"))
            return redirect("seasons-manage:series", log.restored_as_id)
        series = Series.objects.create(
            name=kept["name"],
            scoring=kept["scoring"],
            place_points=kept["place_points"],
            best_of=kept["best_of"],
            published=kept["published"],
        )
        events = Event.objects.filter(pk__in=kept["events"]).values_list("pk", flat=True)
        SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event_id=e) for e in events)
        users = get_user_model().objects.filter(pk__in=kept["organisers"])
        series.organisers.add(*users, request.user)
        log.restored_as = series
        log.save(update_fields=["restored_as"])
        _log(series, SeriesLog.Action.CREATE, request.user, _("从删除记录恢复"))
    messages.success(request, _("系列赛“%(name)s”已恢复") % {"name": series.name})
    return redirect("seasons-manage:series", series.pk)


@login_required
def manage_players(request):
    """Look records up; choose the two to merge (confirmed on the next page, `merge_confirm`);
    the log of merges, each with its split; the merge requests."""
    if not permissions.may_merge(request.user):
        raise PermissionDenied("organisers only")
    if request.method == "POST":
        # A form sent the old way (a page open from before): the confirmation still comes
        # first. Only ids travel on.
        ids = {k: request.POST.get(k, "") for k in ("kept", "merged")}
        query = "&".join(f"{k}={v}" for k, v in ids.items() if v.isascii() and v.isdigit())
        return redirect(f"{reverse('seasons-manage:merge')}?{query}")
    initial = {k: request.GET.get(k, "") for k in ("kept", "merged")}
    form = MergeForm(user=request.user, initial=initial)
    return _players_page(request, form)


def _players_page(request, form: MergeForm, *, status: int = 200):
    query = (request.GET.get("q") or "").strip()[:60]
    candidates = identity.candidates(query, request.user) if query else []
    return render(
        request,
        "seasons/manage_players.html",
        {
            "form": form,
            "query": query,
            "candidates": candidates,
            "merges": permissions.merges_visible_to(request.user)[:50],
            "incoming": identity.requests_for(request.user),
            "outgoing": identity.requests_by(request.user),
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def merge_confirm(request):
    """Both records side by side (names, clubs, the events each played, ratings) and what the
    merge makes of them. GET only shows; the merge (or the request to the other organisers)
    is made by the page's confirm button, a POST carrying what was shown."""
    if not permissions.may_merge(request.user):
        raise PermissionDenied("organisers only")
    data = request.POST if request.method == "POST" else request.GET
    if not (data.get("kept") or data.get("merged")):
        return redirect("seasons-manage:players")
    form = MergeForm(data, user=request.user)
    if not form.is_valid():
        return _players_page(request, form, status=400)
    kept, merged = form.cleaned_data["kept"], form.cleaned_data["merged"]
    shown = identity.preview(kept, merged, request.user)
    changed = False
    if request.method == "POST" and not shown.refusal:
        if data.get("seen") == shown.fingerprint and data.get("confirm") == "yes":
            try:
                if shown.needs_consent:
                    # Records of events another organiser runs: their consent first.
                    identity.request_merge(kept, merged, request.user)
                    messages.info(request, _("已向相关赛事的组织者发出合并请求，全部同意后合并"))
                else:
                    identity.merge(kept, merged, request.user)
                    messages.success(
                        request,
                        _("已合并：#%(merged)s 并入 #%(kept)s；合并有误可在下方记录中拆分")
                        % {"merged": merged.pk, "kept": kept.pk},
                    )
            except identity.MergeRefused as error:
                messages.error(request, str(error))
            return redirect("seasons-manage:players")
        changed = data.get("seen") != shown.fingerprint
    return render(
        request,
        "seasons/merge_confirm.html",
        {"shown": shown, "changed": changed},
        status=409 if changed else (400 if request.method == "POST" else 200),
    )


@login_required
@require_POST
def answer_merge_request(request, request_id: int, answer: str):
    """An organiser accepts or refuses a merge that touches their events."""
    if answer not in ("accept", "refuse"):
        raise Http404("no such answer")
    asked = get_object_or_404(MergeRequest, pk=request_id)
    if not permissions.may_answer(request.user, asked):
        raise PermissionDenied("not asked of this organiser")
    try:
        done = identity.answer_request(asked, request.user, answer == "accept")
    except identity.MergeRefused as error:
        messages.error(request, str(error))
    else:
        if done.state == MergeRequest.State.DONE:
            messages.success(request, _("已合并"))
        elif done.state == MergeRequest.State.FAILED:
            messages.error(request, done.note)
        else:
            messages.success(request, _("已答复"))
    return redirect("seasons-manage:players")


@login_required
@require_POST
def split_merge(request, merge_id: int):
    merge = get_object_or_404(PlayerMerge, pk=merge_id)
    if not permissions.may_split(request.user, merge):
        raise PermissionDenied("not this organiser's merge")
    try:
        identity.split(merge, request.user)
    except identity.MergeRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("已拆分"))
    return redirect("seasons-manage:players")
