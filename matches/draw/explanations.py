"""Why the draw is what it is, table by table (a bye's reason, a rematch, a pull-down, clubmates,
a hand edit): for the organiser before publishing, and after each hand edit."""

from __future__ import annotations

from django.utils.translation import gettext as _

from matches.kernel import punctuation
from matches.kernel.pairing import types as flags
from matches.models import Match, Round, Stage, Union


def explain_round(round_: Round) -> list[dict]:
    """Why the draw is what it is, table by table: for the organiser before publishing."""
    return explain_tables(round_, round_.matches.all())


def explain_tables(round_: Round, matches) -> list[dict]:
    names = dict(Union.objects.filter(sides__round=round_).values_list("id", "name"))
    ordered = (
        Match.objects.with_sides().filter(pk__in=[m.pk for m in matches]).select_related("table")
    )
    return [
        _explain_match(round_, match, names) for match in ordered.order_by("table__number", "id")
    ]


def _bye_reason(round_: Round, match: Match, by_hand: bool) -> str:
    """Why this union sits out: the format's rule, the draw's own reason, or the organiser."""
    if by_hand:
        return _("轮空：组织者指定")
    if match.details.get("late"):
        return _("轮空：迟到联邦补入本轮")
    by_formats: dict[str, str] = {
        Stage.Format.SINGLE_ELIMINATION: _("轮空：种子排位靠前"),
        Stage.Format.ROUND_ROBIN: _("轮空：循环赛本轮轮空"),
    }
    by_format = by_formats.get(round_.stage.format)
    if by_format:
        return by_format
    return {
        "random": _("轮空：首轮随机抽签抽中"),
        "last_seed": _("轮空：首轮种子排位最后"),
    }.get(match.details.get("bye_reason"), _("轮空：积分最低且尚未轮空"))


def _explain_match(round_: Round, match: Match, names: dict) -> dict:
    reasons = []
    d = match.details
    by_hand = flags.HAND_SWAP in match.flags
    if flags.BYE in match.flags:
        reasons.append(_bye_reason(round_, match, by_hand))
    if flags.BYE_REPEATED in match.flags:
        reasons.append(_("所有候选联邦都已轮空过，只能再次轮空"))
    if flags.PULLED_DOWN in match.flags:
        reasons.append(
            _("%(down)s（%(sd)s 分）下调，%(up)s 上调：同分组内无可配对手")
            % {
                "down": names.get(d.get("pulled_down")),
                "up": names.get(d.get("pulled_up")),
                "sd": max(d.get("score_a", 0), d.get("score_b") or 0),
            }
        )
    if flags.REMATCH_FORCED in match.flags:
        reasons.append(
            _("重复交手：由手动调整造成") if by_hand else _("重复交手：没有其他可行的配对")
        )
    if flags.SEAT_AGAINST_PREFERENCE in match.flags:
        reasons.append(_("座次失衡：双方都该坐同一侧"))
    if flags.CLUB_CLASH in match.flags:
        reasons.append(
            _("同俱乐部联邦相遇") if round_.event.is_team else _("同桌有同俱乐部选手：无法全部避开")
        )
    if d.get("moved_from"):
        reasons.append(
            _("为避开同俱乐部：对手由 %(std)s 号种子换为 %(seed)s 号种子")
            % {"std": d["moved_from"], "seed": d.get("seed_b")}
        )
    if flags.REPEAT_PARTNER in match.flags:
        reasons.append(_("有选手再次同邦"))
    if flags.REPEAT_OPPONENT in match.flags:
        reasons.append(_("有选手再次对阵"))
    if by_hand:
        reasons.append(_("组织者手动调整"))
    union_a, union_b = names.get(match.union_a_id), names.get(match.union_b_id)
    if not match.union_sides:
        # The sides are players: the table's players, in seat order.
        union_a = punctuation.listed(side.name for side in match.ordered_sides)
    return {
        "table": match.table.number if match.table else None,
        "match": match.pk,
        "union_a_id": match.union_a_id,
        "union_b_id": match.union_b_id,
        "union_a": union_a,
        "union_b": union_b,
        "flags": list(match.flags),
        "reasons": reasons,
    }
