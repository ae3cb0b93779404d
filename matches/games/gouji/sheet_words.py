"""Gou Ji's score sheet in words: the event strip's headings, a box and a line of the strip
named for a person ("finish.5" -> 第6名, "s_seat.0" -> 闷第1行的被闷者). The printed sheet
(`sheet.py`) and the desk's typing of it (`sheet_desk.py`) both say them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: each event column's heading, above its first line
EVENT_HEADINGS = {
    "s": gettext_lazy("闷：局号 · 闷人者→被闷者"),
    "r": gettext_lazy("革命：局号 · 座位"),
    "d": gettext_lazy("宣点：局号 · 座位 · 1明 2暗 3特"),
}
#: a GJS3 sheet's 宣点 heading: a fourth kind, a 特点 that failed (R34)
DECLARATION_HEADING = gettext_lazy("宣点：局号 · 座位 · 1明 2暗 3特 4特失败")
#: a GJS3 sheet's key to its burn outcome boxes, in the referee form's words (blank: 烧成)
OUTCOME_KEY = gettext_lazy("结果：空/1 烧成 · 2 反烧 · 3 被中断 · 4 烧失败")


def heading(kind: str):
    """An event column's heading on a GJS3 sheet."""
    return DECLARATION_HEADING if kind == "d" else EVENT_HEADINGS[kind]


#: an event line's kind and the parts of its boxes, in words ("s_by.0": 闷第1行的闷人者)
EVENT_KINDS = {"s": gettext_lazy("闷"), "r": gettext_lazy("革命"), "d": gettext_lazy("宣点")}
EVENT_PARTS = {
    "tens": gettext_lazy("局号十位"),
    "units": gettext_lazy("局号个位"),
    "by": gettext_lazy("闷人者"),
    "seat": gettext_lazy("座位"),
    "kind": gettext_lazy("类别"),
}


def box_label(name: str) -> str:
    """A box of a deal's row, or of the event strip, in words."""
    field, index_text = name.split(".")
    index = int(index_text)
    kind, _sep, part = field.partition("_")
    if part in EVENT_PARTS and kind in EVENT_KINDS:
        said = _("被闷者") if (kind, part) == ("s", "seat") else EVENT_PARTS[part]
        words = {"kind": EVENT_KINDS[kind], "n": index + 1, "part": said}
        return _("%(kind)s第%(n)s行的%(part)s") % words
    if field == "finish":
        return _("第%(n)s名") % {"n": index + 1}
    if field == "point":
        return _("开点第%(n)s格") % {"n": index + 1}
    if field == "outcome":
        return _("第%(n)s次烧牌的结果") % {"n": index + 1}
    if field == "burner":
        return _("第%(n)s次烧牌的烧牌者") % {"n": index + 1}
    return _("第%(n)s次烧牌的被烧者") % {"n": index + 1}


def line_label(kind: str, line: int) -> str:
    """An event line in words (the desk's refusal of a line)."""
    return _("%(kind)s第%(n)s行") % {"kind": EVENT_KINDS[kind], "n": line + 1}
