"""The 擂台赛 ladder's pages: the organiser's season page (teams, seeding, sessions, results,
no-shows, reschedules) and the public ladder (titles, challenge history, points). The rules
and every write: `ladders/service/`."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from ladders import permissions, rules
from ladders.models import LadderChallenge, LadderLog, LadderSeason
from ladders.service.points import points_table
from ladders.service.results import record_no_show, record_result, reschedule, undo_no_show
from ladders.service.season import (
    add_teams,
    create_season,
    edit_team,
    reinstate_team,
    remove_team,
    rename_season,
    seed,
    set_published,
    withdraw_team,
)
from ladders.service.sessions import (
    cancel_session,
    cancellable,
    close_session,
    reopen_session,
    start_session,
)
from ladders.service.shared import LadderProblem, holders, open_session
from matches.draw.listing import name_key
from matches.public.front_cache import front_cacheable

RANK_NAMES = {
    rules.Rank.CHIEF: gettext_lazy("主将"),
    rules.Rank.VICE: gettext_lazy("副将"),
    rules.Rank.VANGUARD: gettext_lazy("先锋"),
}


# What each log line records, shown before its detail (the detail alone is often just a name).
LOG_ACTIONS = {
    "created": gettext_lazy("新赛季"),
    "renamed": gettext_lazy("改赛季名称"),
    "published": gettext_lazy("公开"),
    "unpublished": gettext_lazy("取消公开"),
    "teams": gettext_lazy("添加队伍"),
    "team": gettext_lazy("修改队伍"),
    "removed": gettext_lazy("删除队伍"),
    "withdrawn": gettext_lazy("退出赛季"),
    "reinstated": gettext_lazy("恢复参赛"),
    "title": gettext_lazy("擂位递补"),
    "seeded": gettext_lazy("排定擂主"),
    "session": gettext_lazy("开始新一期"),
    "session-cancelled": gettext_lazy("撤销本期抽签"),
    "result": gettext_lazy("比分"),
    "no-show": gettext_lazy("缺席"),
    "no-show-undone": gettext_lazy("撤销一次缺席"),
    "rescheduled": gettext_lazy("改期"),
    "closed": gettext_lazy("结束本期"),
    "reopened": gettext_lazy("重开"),
}


# The organiser's page, split so that a phone's first screen is the session at hand: each tab
# its own address (`?tab=`), the session first.
TABS = {
    "session": gettext_lazy("本期"),
    "titles": gettext_lazy("擂主与积分"),
    "teams": gettext_lazy("队伍"),
    "log": gettext_lazy("记录"),
}
# The tab an action is made from: a done action returns to it, a refused one shows it again.
ACTION_TABS = {
    "edit-team": "teams",
    "remove-team": "teams",
    "withdraw": "teams",
    "reinstate": "teams",
    "teams": "teams",
}
TEAM_ORDERS = {"pinyin": gettext_lazy("按拼音"), "entry": gettext_lazy("按报名顺序")}
LOG_PAGE = 20

# A title's key as the log's old lines wrote it (`vanguard-2`): worded in the page's language.
SLOT_KEY = re.compile(r"\b(?:chief|vice|vanguard)-\d\b")


def _title_rows(season: LadderSeason) -> list[dict]:
    held = holders(season)
    return [
        {"slot": slot, "rank": RANK_NAMES[slot.rank], "team": held.get(slot)}
        for slot in rules.SLOTS
    ]


def _slot_label(key: str) -> str:
    if not key:
        return _("淘汰赛")
    slot = rules.Slot.from_key(key)
    if slot.rank is rules.Rank.CHIEF:
        return str(RANK_NAMES[slot.rank])
    return f"{RANK_NAMES[slot.rank]} {slot.number}"


def _title_name(key: str) -> str:
    """A title's name in the page's language (先锋 2); a key that names none is kept as is."""
    try:
        return _slot_label(key) if key else ""
    except (ValueError, TypeError):
        return key


def _listed(names) -> str:
    return _("、").join(str(n) for n in names)


def _holders(pairs) -> str:
    return _("；").join(
        _("%(title)s：%(team)s") % {"title": _title_name(key), "team": team} for key, team in pairs
    )


def _with_title(d: dict) -> str:
    title = _title_name(d.get("slot", ""))
    return d["team"] + (f" ({title})" if title else "")


def _closed(d: dict) -> str:
    done = _("第 %(n)d 期结束") % {"n": d["n"]}
    moves = [
        _("%(title)s：%(old)s → %(new)s") % {"title": _title_name(key), "old": old, "new": new}
        for key, old, new in d["changes"]
    ]
    return _("；").join([done, *moves])


def _reopened(d: dict) -> str:
    again = _("第 %(n)d 期重新开放") % {"n": d["n"]}
    return _("；").join([again, _holders(d["titles"])]) if d["titles"] else again


# Each log action's words, from the line's values (`LadderLog.data`), in the reader's language.
LOG_WORDS: dict[str, Callable[[dict], str]] = {
    "created": lambda d: d["name"],
    "published": lambda d: d["name"],
    "unpublished": lambda d: d["name"],
    "renamed": lambda d: f"{d['old']} → {d['new']}",
    "teams": lambda d: _listed(d["teams"]),
    "team": lambda d: f"{d['before']} → {d['after']}",
    "removed": _with_title,
    "withdrawn": lambda d: d["team"],
    "reinstated": lambda d: d["team"],
    "title": lambda d: _holders([(d["slot"], d["team"])]),
    "seeded": lambda d: _holders(d["titles"]),
    "session": lambda d: _("第 %(n)d 期开始") % {"n": d["n"]},
    "session-cancelled": lambda d: _("第 %(n)d 期的抽签已撤销") % {"n": d["n"]},
    "result": lambda d: (
        _("挑战 #%(id)d %(challenger)s – %(defender)s：%(games)s")
        % {**d, "id": d["challenge"], "games": " / ".join(d["games"].split("\n"))}
    ),
    "no-show": lambda d: (
        _("挑战 #%(id)d 未到场：%(teams)s") % {"id": d["challenge"], "teams": _listed(d["teams"])}
    ),
    "no-show-undone": lambda d: (
        _("挑战 #%(id)d 撤销 %(team)s 的一次缺席") % {**d, "id": d["challenge"]}
    ),
    "rescheduled": lambda d: (
        _(
            "挑战 #%(id)d 改到 %(new)s（原定 %(old)s）；%(challenger)s 同意人：%(a)s；"
            "%(defender)s 同意人：%(b)s"
        )
        % {
            **d,
            "id": d["challenge"],
            "old": d["old"] or "—",
            "a": d["challenger_agrees"],
            "b": d["defender_agrees"],
        }
    ),
    "closed": _closed,
    "reopened": _reopened,
}


def log_text(line: LadderLog) -> str:
    """A log line in the reader's language, from its values. A line written before the values
    were kept (or one they do not fit) shows its text, with its titles' keys worded."""
    if line.data:
        try:
            return LOG_WORDS[line.action](line.data)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return SLOT_KEY.sub(lambda m: _title_name(m.group()), line.detail)


def _challenge_rows(challenges) -> list[dict]:
    return [
        {
            "c": c,
            "label": _slot_label(c.slot),
            "games": "\n".join(" ".join(f"{a}:{b}" for a, b in game) for game in c.games),
            "score": _games_score(c),
        }
        for c in challenges
    ]


def _games_score(challenge: LadderChallenge) -> str:
    """The 局 score, challenger first (2:1)."""
    won = [0, 0]
    for game in challenge.games:
        winner = rules.game_winner([tuple(d) for d in game])
        if winner is not None:
            won[winner] += 1
    return f"{won[0]}:{won[1]}" if challenge.games else ""


@login_required
@require_http_methods(["GET", "POST"])
def season_list(request):
    """The organiser's ladder seasons, and a new one (optionally following last season)."""
    mine = permissions.seasons_run_by(request.user)
    problem = None
    if request.method == "POST":
        raw = request.POST.get("previous", "")
        previous = mine.filter(pk=raw).first() if raw.isascii() and raw.isdigit() else None
        try:
            if raw and previous is None:
                # Not one of this organiser's seasons: say so rather than start without it.
                raise LadderProblem(_("找不到所选的上赛季（只能选择自己的赛季）"))
            season = create_season(
                request.user,
                request.POST.get("name", ""),
                previous,
                copy_teams=bool(request.POST.get("copy_teams")),
            )
            return redirect("ladders-manage:season", season.pk)
        except LadderProblem as error:
            problem = str(error)
    return render(request, "ladders/list.html", {"seasons": mine, "problem": problem})


def _open_session(season: LadderSeason):
    current = open_session(season)
    if current is None:
        raise LadderProblem(_("没有进行中的一期"))
    return current


def _id(request, field: str) -> int:
    raw = request.POST.get(field, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else 0


def _post(request, season: LadderSeason) -> str:
    """One organiser action; returns the message for a done one, raises LadderProblem."""
    action = request.POST.get("action")
    challenge_id = _id(request, "challenge")
    team_id = _id(request, "team")
    if (
        action in ("result", "no-show", "undo-no-show", "reschedule")
        and not season.sessions.filter(challenges__pk=challenge_id).exists()
    ):
        raise LadderProblem(_("找不到这场挑战"))
    if action == "rename-season":
        rename_season(season, request.user, request.POST.get("name", ""))
        return _("赛季名称已保存")
    if action == "edit-team":
        edit_team(
            season,
            request.user,
            team_id,
            request.POST.get("name", ""),
            request.POST.get("club", ""),
            request.POST.get("members", ""),
        )
        return _("队伍已保存")
    if action == "remove-team":
        remove_team(season, request.user, team_id)
        return _("队伍已删除")
    if action == "withdraw":
        withdraw_team(season, request.user, team_id)
        return _("已记录退出")
    if action == "reinstate":
        reinstate_team(season, request.user, team_id)
        return _("已恢复参赛")
    if action == "undo-no-show":
        undo_no_show(challenge_id, request.user, request.POST.get("side", ""))
        return _("已撤销一次缺席")
    if action == "cancel-session":
        cancel_session(_open_session(season).pk, request.user)
        return _("本期抽签已撤销")
    if action == "reopen":
        if open_session(season) is not None:
            raise LadderProblem(_("有进行中的一期：先结束它或撤销它的抽签，才能重开上一期"))
        last = season.sessions.order_by("-number").first()
        if last is None:
            raise LadderProblem(_("还没有结束的一期"))
        reopen_session(last.pk, request.user)
        return _("本期已重新开放，擂主已恢复")
    if action == "teams":
        added = add_teams(season, request.user, request.POST.get("teams", ""))
        return _("已添加 %(n)d 支队伍") % {"n": len(added)}
    if action == "seed":
        if request.POST.get("from_previous"):
            seed(season, request.user)
        else:
            ranking = [int(v) for v in request.POST.getlist("rank") if v.isascii() and v.isdigit()]
            seed(season, request.user, ranking)
        return _("擂主已排定")
    if action == "start":
        session = start_session(season, request.user)
        return _("第 %(n)d 期开始") % {"n": session.number}
    if action == "result":
        record_result(challenge_id, request.user, request.POST.get("games", ""))
        return _("比分已保存")
    if action == "no-show":
        record_no_show(challenge_id, request.user, request.POST.get("side", ""))
        return _("缺席已记录")
    if action == "reschedule":
        try:
            day = datetime.date.fromisoformat(request.POST.get("day", ""))
        except ValueError:
            raise LadderProblem(_("请填写新的日期"))
        reschedule(
            challenge_id,
            request.user,
            day,
            request.POST.get("challenger_agrees", ""),
            request.POST.get("defender_agrees", ""),
        )
        return _("已改期")
    if action == "close":
        close_session(_open_session(season).pk, request.user)
        return _("本期结束，擂主已更新")
    if action == "publish":
        set_published(season, request.user, not season.published)
        return _("已公开") if season.published else _("已取消公开")
    raise ValueError(action)


@login_required
@require_http_methods(["GET", "POST"])
def season_page(request, season_id: int):
    """The organiser's season, one tab at a time (`TABS`): the session at hand, the titles and
    points, the teams, the log."""
    season = permissions.run_season(request, season_id)
    tab = request.GET.get("tab", "session")
    if tab not in TABS:
        tab = "session"
    problem = None
    if request.method == "POST":
        tab = ACTION_TABS.get(request.POST.get("action", ""), "session")
        try:
            messages.success(request, _post(request, season))
            target = reverse("ladders-manage:season", args=[season.pk])
            return redirect(target if tab == "session" else f"{target}?tab={tab}")
        except LadderProblem as error:
            problem = str(error)
        except ValueError:
            return HttpResponseBadRequest(_("未知的操作"))
    context = {
        "season": season,
        "tab": tab,
        "tabs": list(TABS.items()),
        "problem": problem,
        **_TAB_CONTEXT[tab](request, season),
    }
    return render(request, "ladders/season.html", context, status=400 if problem else 200)


def _session_tab(request, season: LadderSeason) -> dict:
    current = open_session(season)
    challenges = (
        list(current.challenges.select_related("challenger", "defender")) if current else []
    )
    titles = _title_rows(season)
    teams = sorted(season.teams.all(), key=lambda t: name_key(t.name))
    last = season.sessions.order_by("-number").first()
    seeded_at = {t.title: t.pk for t in teams if t.title}
    return {
        "teams": teams,
        "titles": titles,
        "seeded": all(row["team"] for row in titles),
        "current": current,
        "ever_drawn": last is not None,
        "open_rows": _challenge_rows(c for c in challenges if not c.decided),
        "done_rows": _challenge_rows(c for c in challenges if c.decided),
        # The seeding form shows the titles as they stand, so redoing it is one change.
        "seats": [(n, seeded_at.get(slot.key)) for n, slot in enumerate(rules.SLOTS, 1)],
        "reopenable": last if last and last.closed_at and not current else None,
        "cancellable": current is not None and cancellable(current),
    }


def _titles_tab(request, season: LadderSeason) -> dict:
    return {"titles": _title_rows(season), "points": points_table(season)}


def _teams_tab(request, season: LadderSeason) -> dict:
    order = request.GET.get("order", "pinyin")
    if order not in TEAM_ORDERS:
        order = "pinyin"
    teams = list(season.teams.order_by("pk"))  # the order they were entered in
    if order == "pinyin":
        teams.sort(key=lambda t: name_key(t.name))
    return {"teams": teams, "order": order, "orders": list(TEAM_ORDERS.items())}


def _log_tab(request, season: LadderSeason) -> dict:
    page = Paginator(season.log.select_related("by"), LOG_PAGE).get_page(request.GET.get("page"))
    return {
        "page": page,
        "log": [(line, LOG_ACTIONS.get(line.action, _("其他")), log_text(line)) for line in page],
    }


_TAB_CONTEXT = {
    "session": _session_tab,
    "titles": _titles_tab,
    "teams": _teams_tab,
    "log": _log_tab,
}


@front_cacheable
@require_GET
def public_ladder(request, season_id: int):
    """Who holds each title, the points table and the challenge history; published seasons only."""
    season = get_object_or_404(LadderSeason, pk=season_id)
    if not season.published:
        raise Http404
    history = LadderChallenge.objects.filter(session__season=season).select_related(
        "challenger", "defender", "winner", "session"
    )
    decided = [c for c in history if c.decided]
    decided.sort(
        key=lambda c: (-c.session.number, -(c.decided_at or c.session.opened_at).timestamp())
    )
    return render(
        request,
        "ladders/public.html",
        {
            "season": season,
            "titles": _title_rows(season),
            "points": points_table(season),
            "history": _challenge_rows(decided),
        },
    )
