"""Gou Ji's rule set as a form: a preset, then every flag as a labelled control with its rule id
and a short explanation, grouped like the spec's sections (gouji-rules.md §1–7, §9).

The engine (matches.games.gouji.engine.ruleset) stays the judge: the form builds the JSON the
engine reads and turns the engine's refusals into messages in the page's language.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from matches.games.gouji.engine.ruleset import CHOICES, FLAGS, PRESETS, UNSUPPORTED, RuleSet
from matches.kernel.engine_errors import BadDocument
from matches.kernel.games.adapter import mark
from matches.kernel.punctuation import listed

#: One line per preset, shown beside its name.
PRESET_DESCRIPTIONS = {
    "standard": _("标准：两篇规则文章的默认读法，不憋三，有够死级。"),
    "qingdao-hold3": _("青岛憋三：3 须留作最后一手，没有够死级，无三者买三。"),
    "six-decks": _("六副够级：六副牌，大王多者可管，多王压单王，2 不开点。"),
    "eight-players": _("八人够级：八人两邦，每邦四人坐一起，名次分 3 至 -3，串四户 24 分。"),
}
PRESET_LABELS = {
    "standard": _("标准"),
    "qingdao-hold3": _("青岛憋三"),
    "six-decks": _("六副够级"),
    "eight-players": _("八人够级"),
}

#: The spec's sections, in its order.
SECTIONS = (
    ("deck", _("牌桌与牌（§1）")),
    ("hands", _("牌型与开点（§3）")),
    ("play", _("出牌、烧牌与憋三（§4）")),
    ("scoring", _("计分（§5）")),
    ("declarations", _("明点（§6）")),
    ("tributes", _("贡牌（§7）")),
    ("eight", _("八人够级（§10）")),
    ("sixpacks", _("六副够级（§11）")),
    ("local", _("地方规则（§12）")),
)

#: flag: (section, rule id, label, explanation)
FLAG_INFO = {
    "players": (
        "eight",
        "R44",
        _("人数"),
        _("六人：两邦各三人，隔座而坐；八人：两邦各四人，同邦坐一起，对头是对面的座位。"),
    ),
    "joker_groups": (
        "sixpacks",
        "R52",
        _("多王压单王"),
        _("纯王的牌按分量比大小（小王 1、大王 2），不论张数。"),
    ),
    "point_tributes_cancel": (
        "local",
        "R55",
        _("双方点贡抵消"),
        _("对头之间互欠的点贡相抵，只进差额。"),
    ),
    "two_revolutions": (
        "local",
        "R56",
        _("两人革命"),
        _("一局可有两名选手革命，三人以上革命重新发牌。"),
    ),
    "decks": (
        "deck",
        "R3",
        _("几副牌"),
        _("四副牌 216 张，每人 36 张（八人每人 27 张）；六副牌 324 张，每人 54 张（只限六人）。"),
    ),
    "short_deck": (
        "deck",
        "R3",
        _("短牌"),
        _("只用六张 3 和八张 4，共 198 张，每人 33 张（只限四副牌）。"),
    ),
    "more_big_jokers_beat": (
        "hands",
        "R12",
        _("大王多者可管"),
        _("带大王的牌，可被大王更多的同张数牌管上。"),
    ),
    "point_sets": ("hands", "R14", _("开点牌型"), _("哪些够级牌能开点。")),
    "twos_open_point": ("hands", "R14", _("2 可开点"), _("纯 2 的牌可以开点。")),
    "next_leader": ("play", "R18", _("后续局首出"), _("上一局末科先出，或每局轮换一个座位。")),
    "burn_requires_point": ("play", "R21", _("烧牌须先开点"), _("只有已开点的选手才能烧牌。")),
    "burn_first_hand_needs_joker": (
        "play",
        "R22",
        _("烧牌首手须带王"),
        _("烧牌的第一手也必须带王。"),
    ),
    "counter_burn_tribute": ("play", "R22b", _("反烧贡数"), _("被反烧时欠几张烧贡。")),
    "false_burn": (
        "play",
        "R22d",
        _("诈烧处罚"),
        _("烧牌失误：落为末科（六人第六，八人第八），或向被烧者进贡。"),
    ),
    "false_burn_cards": ("play", "R22d", _("诈烧贡牌张数"), _("诈烧按进贡处罚时进几张。")),
    "last_hand_answer": (
        "play",
        "R25",
        _("够死级"),
        _("头科、二科（八人：头科至四科）的最后一手，对头可先管一次。"),
    ),
    "hold_three": ("play", "R26", _("憋三"), _("3 必须作为最后一手单独出。")),
    "suffocated_play_on": ("play", "R27", _("被闷后继续打"), _("被闷的选手仍可接风走科。")),
    "no_three": ("play", "R28", _("无三处理"), _("憋三时手里没有 3 的选手怎么办。")),
    "hold_four_before_point": (
        "play",
        "R28a",
        _("开点前不出 4"),
        _("开点前出 4 的选手本局不能开点。"),
    ),
    "revolution": ("play", "R29", _("革命"), _("没有 2 也没有王的选手可以革命。")),
    "revolution_contest": ("play", "R29", _("革命须比牌"), _("革命者出最大的够级牌争点。")),
    "place_points": (
        "scoring",
        "R31",
        _("名次分"),
        _("头科到末科的分数，每个名次一个整数（六人六个，八人八个），用逗号隔开。"),
    ),
    "union_score": ("scoring", "R32", _("联邦得分"), _("本方减对方，或只算本方名次分。")),
    "string_three_score": (
        "scoring",
        "R32",
        _("串三户得分"),
        _("一方包揽前三名（八人：前四名，串四户）时的得分。"),
    ),
    "first_last_same_union_draw": (
        "scoring",
        "R33",
        _("头科末科同邦算平"),
        _("头科与末科是同一联邦时本局为平局。"),
    ),
    "special_declaration": ("declarations", "R34", _("特点"), _("宣布对头整局拿不到出牌权。")),
    "declaration_tributes": ("tributes", "R35", _("点贡数额"), _("明点、暗点的点贡用哪套数额。")),
    "place_tribute": (
        "tributes",
        "R38",
        _("落贡方式"),
        _("末科进头科两张、二落进二科一张（八人：三落再进三科一张），或按贡牌进贡。"),
    ),
    "string_three_waives": (
        "tributes",
        "R39",
        _("串三户免贡范围"),
        _("串三户（八人：串四户）时免去全部贡牌，或只免落贡。"),
    ),
    "string_three_amnesty": (
        "tributes",
        "R40",
        _("连串三次免贡"),
        _("同一联邦连续三局串三户（八人：串四户），下一局不进贡。"),
    ),
    "same_union_tribute": ("tributes", "R41", _("同邦落贡"), _("同一联邦之间的落贡照进。")),
    "tribute_order": ("tributes", "R42", _("进贡顺序"), _("四种贡牌的先后，用逗号隔开。")),
    "tributes": ("tributes", "R43", _("进贡"), _("关掉则每局都不进贡。")),
}

CHOICE_LABELS = {
    ("point_sets", "zh"): _("中文规则：可贴 2"),
    ("point_sets", "en"): _("英文规则：带王也开点，10 至 A 须纯"),
    ("counter_burn_tribute", "two"): _("两张"),
    ("counter_burn_tribute", "one_each"): _("每被烧一次一张"),
    ("counter_burn_tribute", "doubling"): _("每次反烧翻倍"),
    ("false_burn", "place"): _("落为末科"),
    ("false_burn", "tribute"): _("进烧贡"),
    ("no_three", "buy"): _("买三"),
    ("no_three", "hold_four"): _("憋四"),
    ("no_three", "exempt"): _("免憋"),
    ("union_score", "difference"): _("本方减对方"),
    ("union_score", "own"): _("只算本方"),
    ("declaration_tributes", "en"): _("英文表（1/2/4，4/8）"),
    ("declaration_tributes", "zh"): _("中文表（2/3）"),
    ("place_tribute", "ranked"): _("按名次"),
    ("place_tribute", "pool"): _("按贡牌"),
    ("string_three_waives", "all"): _("全部免贡"),
    ("string_three_waives", "place"): _("只免落贡"),
    ("next_leader", "last"): _("末科先出"),
    ("next_leader", "rotate"): _("每局轮换"),
}
TRIBUTE_NAMES = {"suffocation": _("闷"), "burn": _("烧"), "point": _("点"), "place": _("落")}
#: What may be typed for a tribute kind: the Chinese character or the English name.
TRIBUTE_INPUT = {"闷": "suffocation", "烧": "burn", "点": "point", "落": "place"}


def _choice_label(flag: str, value: str):
    label = CHOICE_LABELS.get((flag, value), value)
    if (flag, value) in UNSUPPORTED:  # the engine's own list: the mark goes when it plays it
        return format_lazy("{}（{}）", label, _("尚未支持"))
    return label


def _flag_default_kind(flag: str) -> str:
    value = getattr(PRESETS["standard"], flag)
    if flag in ("place_points", "tribute_order"):
        return flag
    if isinstance(value, bool):
        return "bool"
    if flag == "decks":
        return "decks"
    if flag == "players":
        return "players"
    if isinstance(value, int):
        return "int"
    return "choice"


def show_value(flag: str, value) -> str:
    """A flag's value as the page shows it (the diff, the read-only view)."""
    from django.utils.translation import gettext

    if isinstance(value, bool):
        return gettext("是") if value else gettext("否")
    if flag == "tribute_order":
        return listed(TRIBUTE_NAMES[k] for k in value)
    if flag == "place_points":
        return ", ".join(str(v) for v in value)
    if (flag, value) in CHOICE_LABELS:
        return str(CHOICE_LABELS[(flag, value)])
    return str(value)


def _field_value(flag: str, value):
    """A rule-set value as the form's initial value."""
    if flag == "place_points":
        return ", ".join(str(v) for v in value)
    if flag == "tribute_order":
        return ", ".join(str(TRIBUTE_NAMES[k]) for k in value)
    if flag in ("decks", "players"):
        return str(value)
    return value


def rules_of(value) -> RuleSet:
    """The event's stored rules as a RuleSet (standard when unreadable)."""
    try:
        return RuleSet.from_json(value)
    except BadDocument:
        return PRESETS["standard"]


def rules_line(rules: RuleSet) -> str:
    """The rule set in one line: seats (R1/R44), decks (R3, short or not), the string's score
    (R32/R47), and hold-three when played (R26): what a table must know before the first deal."""
    parts = [
        _("八人够级") if rules.players == 8 else _("六人够级"),
        (_("六副牌") if rules.decks == 6 else _("四副牌"))
        + (str(_("（短牌）")) if rules.short_deck else ""),
        (_("串四户 %(score)s") if rules.union_size == 4 else _("串三户 %(score)s"))
        % {"score": rules.string_three_score},
    ]
    if rules.hold_three:
        parts.append(_("憋三"))
    return " · ".join(str(part) for part in parts)


class RulesForm(forms.Form):
    """Preset plus every flag. `frozen`: read-only (after round 1 is published)."""

    game = "gouji"
    diff_title = _("与预设不同的项")
    no_changes = _("没有改动：与预设完全相同。")

    preset = forms.ChoiceField(label=_("预设"), widget=forms.RadioSelect)

    def __init__(self, *args, rules=None, frozen: bool = False, **kwargs):
        self.current = rules_of(rules) if rules is not None else PRESETS["standard"]
        self.frozen = frozen
        if "initial" not in kwargs:
            kwargs["initial"] = self.initial_for(self.current)
        super().__init__(*args, **kwargs)
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)  # the class attribute above
        preset_field.choices = [
            (name, f"{PRESET_LABELS.get(name, name)} — {PRESET_DESCRIPTIONS.get(name, '')}")
            for name in PRESETS
        ]
        for flag in FLAGS:
            self.fields[flag] = self._field(flag)
        if frozen:
            for field in self.fields.values():
                field.disabled = True

    @staticmethod
    def initial_for(rules: RuleSet) -> dict:
        initial = {"preset": rules.preset}
        for flag in FLAGS:
            initial[flag] = _field_value(flag, getattr(rules, flag))
        return initial

    def _field(self, flag: str) -> forms.Field:
        section, rule, label, help_text = FLAG_INFO[flag]
        kind = _flag_default_kind(flag)
        common: dict[str, Any] = {"label": label, "help_text": help_text, "required": False}
        field: forms.Field
        if kind == "bool":
            if (flag, True) in UNSUPPORTED:
                common["help_text"] = format_lazy("{}（{}）", help_text, _("尚未支持"))
            field = forms.BooleanField(**common)
        elif kind == "decks":
            field = forms.TypedChoiceField(
                choices=[("4", _("四副")), ("6", _("六副"))],
                coerce=int,
                **{**common, "required": True},
            )
        elif kind == "players":
            field = forms.TypedChoiceField(
                choices=[("6", _("六人")), ("8", _("八人"))],
                coerce=int,
                **{**common, "required": True},
            )
        elif kind == "int":
            field = forms.IntegerField(
                min_value=1 if flag == "false_burn_cards" else -99,
                max_value=99,
                **{**common, "required": True},
            )
        elif kind == "choice":
            field = forms.ChoiceField(
                choices=[(v, _choice_label(flag, v)) for v in CHOICES[flag]],
                **{**common, "required": True},
            )
        else:
            field = forms.CharField(max_length=80, **{**common, "required": True})
        return mark(field, rule_id=rule, section=section, flag=flag)

    # --- reading the form -------------------------------------------------------------------

    def clean_place_points(self):
        raw = self.cleaned_data.get("place_points", "")
        if isinstance(raw, (list, tuple)):
            return tuple(raw)
        parts = [p for p in str(raw).replace("，", ",").replace(" ", ",").split(",") if p]
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            values = ()
        if len(values) not in (6, 8):
            raise forms.ValidationError(_("R31：名次分须是六个整数，如 2, 1, 0, 0, -1, -2"))
        return values

    def clean_tribute_order(self):
        raw = self.cleaned_data.get("tribute_order", "")
        if isinstance(raw, (list, tuple)):
            return tuple(raw)
        parts = [
            p.strip()
            for p in str(raw).replace("，", ",").replace("、", ",").split(",")
            if p.strip()
        ]
        kinds = tuple(TRIBUTE_INPUT.get(p, p.lower()) for p in parts)
        if sorted(kinds) != sorted(TRIBUTE_NAMES):
            raise forms.ValidationError(_("R42：须把闷、烧、点、落各列一次，如 闷, 烧, 点, 落"))
        return kinds

    def clean(self):
        data = super().clean()
        for flag in FLAGS:
            if flag not in data:
                continue  # refused by its own field already
            reason = UNSUPPORTED.get((flag, data.get(flag)))
            if reason:
                self.add_error(
                    flag, _("%(rule)s：这个选项尚未支持，请选其他值") % {"rule": FLAG_INFO[flag][1]}
                )
        self._check_seats(data)
        if not self.errors and data.get("preset") in PRESETS:
            # The engine judges the combination; its refusal is named by its rule id here.
            try:
                RuleSet.from_json(self._json(data))
            except BadDocument as error:
                rule = re.search(r"\b(R\d+[a-z]?)\b", str(error))
                if data.get("short_deck") and data.get("decks") == 6:
                    self.add_error("short_deck", _("R3：短牌只能用于四副牌"))
                else:
                    self.add_error(
                        None,
                        _("%(rule)s：引擎不接受这组规则")
                        % {"rule": rule.group(1) if rule else "D14"},
                    )
        return data

    def _check_seats(self, data) -> None:
        """R46/D18 and R47/D28, named on the fields at fault (the engine would refuse the
        whole rule set)."""
        players = data.get("players")
        if players == 8:
            if data.get("decks") == 6:
                self.add_error("decks", _("R46：八人够级只用四副牌（每人 27 张）"))
            if data.get("short_deck"):
                self.add_error("short_deck", _("R46：八人够级不用短牌"))
        points = data.get("place_points")
        if players in (6, 8) and isinstance(points, tuple) and len(points) != players:
            if players == 8:
                message = _("R47/D28：八人够级的名次分须是八个整数，如 3, 2, 1, 0, 0, -1, -2, -3")
            else:
                message = _("R31：名次分须是六个整数，如 2, 1, 0, 0, -1, -2")
            self.add_error("place_points", message)

    @staticmethod
    def _json(data) -> dict:
        preset = PRESETS[data["preset"]]
        value: dict[str, Any] = {"preset": preset.preset}
        for flag in FLAGS:
            chosen = data.get(flag)
            if chosen is not None and chosen != getattr(preset, flag):
                value[flag] = list(chosen) if isinstance(chosen, tuple) else chosen
        return value

    def rule_set(self) -> RuleSet:
        data = self.cleaned_data
        preset = PRESETS[data["preset"]]
        return dataclasses.replace(preset, **{flag: data[flag] for flag in FLAGS})

    def to_json(self) -> dict:
        """What the event stores: {"preset": name, flag: value for each change}."""
        value = self.rule_set().to_json()
        value = {"preset": value} if isinstance(value, str) else value
        RuleSet.from_json(value)  # the engine has the last word
        return value

    # --- showing it ------------------------------------------------------------------------

    def groups(self) -> list[dict]:
        by_section: dict[str, list[Any]] = {key: [] for key, _title in SECTIONS}
        for flag in FLAGS:
            by_section[FLAG_INFO[flag][0]].append(self[flag])
        return [{"key": key, "title": title, "fields": by_section[key]} for key, title in SECTIONS]

    def diff(self) -> list[dict]:
        """Each flag that differs from the preset: label, rule id, preset value, chosen value."""
        rules = self.rule_set() if self.is_bound and self.is_valid() else self.current
        base = PRESETS[rules.preset]
        rows = []
        for flag in FLAGS:
            chosen, default = getattr(rules, flag), getattr(base, flag)
            if chosen != default:
                rows.append(
                    {
                        "flag": flag,
                        "rule": FLAG_INFO[flag][1],
                        "label": FLAG_INFO[flag][2],
                        "preset": show_value(flag, default),
                        "chosen": show_value(flag, chosen),
                    }
                )
        return rows

    def preset_rows(self) -> list[dict]:
        return [
            {
                "name": name,
                "label": PRESET_LABELS.get(name, name),
                "description": PRESET_DESCRIPTIONS.get(name, ""),
            }
            for name in PRESETS
        ]

    @classmethod
    def from_values(cls, values: dict | None, data=None, frozen: bool = False):
        """The form over stored values ({"rules": …} as `values()` gives them)."""
        return cls(data, rules=(values or {}).get("rules"), frozen=frozen)

    @classmethod
    def for_event(cls, event, data=None, frozen: bool = False):
        return cls(data, rules=event.game_rules.rules_json, frozen=frozen)

    @classmethod
    def preset_values(cls, preset: str | None) -> dict:
        """The stored values of a named preset, unchanged (an unknown name: the standard)."""
        return {"rules": {"preset": preset if preset in PRESETS else "standard"}}

    @classmethod
    def from_preset(cls, preset: str | None):
        """The form refilled from a named preset (the organiser picked another one)."""
        return cls.from_values(cls.preset_values(preset))

    def values(self) -> dict:
        """The event fields this form sets."""
        return {"rules": self.to_json()}
