"""Organiser forms: the create-event wizard's steps, the event's settings, entries, staff and
check-in. Django forms, so every message comes in the page's language."""

from __future__ import annotations

import unicodedata

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from matches.events.importing import why_alike
from matches.kernel.games.registry import adapter_named, game_choices
from matches.kernel.punctuation import listed
from matches.models import Event, RefereeZone, StaffRole, Stage
from players import clubs

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def no_control_characters(value: str) -> None:
    """Names are printed on table cards and exported: no tab, vertical tab, escape, …"""
    if any(unicodedata.category(c) == "Cc" for c in value or ""):
        raise forms.ValidationError(_("不能包含控制字符"), code="control_character")


class AsciiIntegerField(forms.IntegerField):
    """Digits 0-9 only: Python's int() also reads "٣" and other scripts' digits, and Django's
    IntegerField "3.0"."""

    def to_python(self, value):
        text = str(value).strip() if value not in self.empty_values else ""
        if text and not (text.isascii() and text.isdigit()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class BasicsForm(forms.Form):
    """Wizard step 1: which game, what, when, where, and how entrants enter."""

    game = forms.ChoiceField(label=_("游戏"), choices=game_choices, widget=forms.RadioSelect)
    name = forms.CharField(label=_("赛事名称"), max_length=200)
    start_date = forms.DateField(label=_("开始日期"), widget=DATE)
    end_date = forms.DateField(label=_("结束日期"), widget=DATE, required=False)
    venue = forms.CharField(label=_("地点"), max_length=200, required=False)
    entry_type = forms.ChoiceField(
        label=_("报名方式"), choices=Event.EntryType.choices, widget=forms.RadioSelect
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        import json

        # Which entry types each game allows: choosing a game that has no team entry moves the
        # choice to one it has (static/js/site.js), before the step is sent.
        allowed = {name: list(adapter_named(name).entry_types) for name, _label in game_choices()}
        self.fields["game"].widget.attrs["data-entry-types"] = json.dumps(allowed)

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("结束日期不能早于开始日期"))
        if data.get("game") and data.get("entry_type"):
            # The game says which entry types it allows (its adapter, not a name compared here).
            probe = Event(game=data["game"], entry_type=data["entry_type"])
            for field, message in adapter_named(data["game"]).validate_event(probe).items():
                if field in self.fields:
                    self.add_error(field, message)
        return data


STAGE_FORMATS = [("", _("（无）"))] + list(Stage.Format.choices)


def stage_format_choices(entry_type: str | None) -> list:
    """The stage formats an event can run. Round robin and knockout pair registered unions
    (the break, `matches/standings/breaks.py`, refuses any other field); an event of individual
    entries is drawn anew each round by its standings (the individual draw, a Swiss system),
    whatever its stage says. So it is offered Swiss alone: a knockout would end its Swiss rounds
    at a break it can never confirm, and a round robin would silently draw as Swiss."""
    if entry_type in (None, Event.EntryType.TEAM):
        return list(Stage.Format.choices)
    return [(value, label) for value, label in Stage.Format.choices if value == Stage.Format.SWISS]


def confirmation_choices(adapter, entry_type: str | None = None) -> list:
    """The confirmation modes a game offers: captains confirm only where sides have captains;
    another player of the table only in individual events (players hold their own PINs), where
    it comes first (the default)."""
    offered = [
        (value, label)
        for value, label in Event.Confirmation.choices
        if (value != Event.Confirmation.CAPTAIN or adapter.sides_have_captains)
        and (value != Event.Confirmation.PLAYER or entry_type == Event.EntryType.INDIVIDUAL)
    ]
    return sorted(offered, key=lambda choice: choice[0] != Event.Confirmation.PLAYER)


class FormatForm(forms.Form):
    """Wizard step 2: the stages (up to two, e.g. Swiss then a top-8 knockout), deals per match,
    extra deals on a tie, and how results are confirmed."""

    stage1_format = forms.ChoiceField(label=_("第一阶段赛制"), choices=Stage.Format.choices)
    stage1_rounds = forms.IntegerField(
        label=_("第一阶段轮数"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("瑞士制必填；循环赛与淘汰赛可留空，按人数算。"),
    )
    stage2_format = forms.ChoiceField(
        label=_("第二阶段赛制"), choices=STAGE_FORMATS, required=False
    )
    stage2_qualifiers = forms.IntegerField(
        label=_("晋级第二阶段的名额"),
        min_value=2,
        max_value=4096,
        required=False,
        help_text=_("如前 8 名进入淘汰赛。"),
    )
    stage2_rounds = forms.IntegerField(
        label=_("第二阶段轮数"), min_value=1, max_value=99, required=False
    )
    deals_per_match = forms.IntegerField(label=_("每场局数"), min_value=1, max_value=99, initial=6)
    tie_break_deals = forms.IntegerField(
        label=_("平局加赛局数"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("淘汰赛打平时加赛几局；留空则一直加赛到分出胜负。"),
    )
    result_confirmation = forms.ChoiceField(
        label=_("成绩确认方式"), choices=Event.Confirmation.choices, widget=forms.RadioSelect
    )

    def __init__(self, *args, game: str | None = None, entry_type: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        formats = stage_format_choices(entry_type)
        for name, choices in (
            ("stage1_format", formats),
            ("stage2_format", [STAGE_FORMATS[0], *formats]),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)  # the class attributes above
            field.choices = choices
        if game is not None and "result_confirmation" in self.fields:
            offered = confirmation_choices(adapter_named(game), entry_type)
            confirmation = self.fields["result_confirmation"]
            assert isinstance(confirmation, forms.ChoiceField)  # the class attribute above
            confirmation.choices = offered
            if self.initial.get("result_confirmation") not in dict(offered):
                self.initial = {**self.initial, "result_confirmation": offered[0][0]}

    def clean(self):
        data = super().clean()
        if data.get("stage1_format") == Stage.Format.SWISS and not data.get("stage1_rounds"):
            self.add_error("stage1_rounds", _("瑞士制须填写轮数"))
        if data.get("stage2_format"):
            if data.get("stage2_format") == Stage.Format.SWISS and not data.get("stage2_rounds"):
                self.add_error("stage2_rounds", _("瑞士制须填写轮数"))
            if not data.get("stage2_qualifiers"):
                self.add_error("stage2_qualifiers", _("请填写晋级名额"))
        return data

    def stages(self) -> list[dict]:
        data = self.cleaned_data
        stages = [
            {
                "format": data["stage1_format"],
                "planned_rounds": data.get("stage1_rounds"),
                "name": "",
            }
        ]
        if data.get("stage2_format"):
            stages.append(
                {
                    "format": data["stage2_format"],
                    "planned_rounds": data.get("stage2_rounds"),
                    "qualifiers": data.get("stage2_qualifiers"),
                    "name": "",
                }
            )
        return stages

    def details(self) -> dict:
        data = self.cleaned_data
        return {
            "deals_per_match": data["deals_per_match"],
            "tie_break_deals": data.get("tie_break_deals"),
            "result_confirmation": data["result_confirmation"],
        }


class StagesForm(FormatForm):
    """The settings page's stages: as in the wizard, until the first round is drawn."""

    STAGE_FIELDS = (
        "stage1_format",
        "stage1_rounds",
        "stage2_format",
        "stage2_qualifiers",
        "stage2_rounds",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in self.STAGE_FIELDS:
                del self.fields[name]

    @classmethod
    def initial_for(cls, stages) -> dict:
        initial = {}
        for k, stage in enumerate(list(stages)[:2], start=1):
            initial[f"stage{k}_format"] = stage.format
            initial[f"stage{k}_rounds"] = stage.planned_rounds
            if k == 2:
                initial["stage2_qualifiers"] = stage.qualifiers
        return initial


class EventSettingsForm(forms.ModelForm):
    """The settings page: what may still change. `locked` lists the fields that cannot change
    after round 1 is published (shown, disabled, with that reason)."""

    LOCKED_AFTER_ROUND_1 = (
        "deals_per_match",
        "tie_break_deals",
        "points_win",
        "points_draw",
        "points_loss",
        "result_confirmation",
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "venue",
            "start_date",
            "end_date",
            "deals_per_match",
            "tie_break_deals",
            "points_win",
            "points_draw",
            "points_loss",
            "result_confirmation",
            "check_in_required",
            "self_check_in",
            "rated",
        ]
        widgets = {"start_date": DATE, "end_date": DATE, "result_confirmation": forms.RadioSelect}
        help_texts = {
            "self_check_in": _("队长打开联邦的私人链接即可签到。"),
            "rated": _("本赛事已结束的轮次计入公开等级分榜。"),
            "tie_break_deals": _("留空则一直加赛到分出胜负。"),
        }

    def __init__(self, *args, frozen: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.frozen = frozen
        offered = confirmation_choices(self.instance.adapter, self.instance.entry_type)
        confirmation = self.fields["result_confirmation"]
        assert isinstance(confirmation, forms.ChoiceField)  # the model field has choices
        confirmation.choices = offered
        # An event of a game without captains set to captain confirmation (before the form
        # stopped offering it) shows, and keeps on saving, the mode it works by.
        self.initial["result_confirmation"] = self.instance.confirmation
        if not self.instance.is_team:
            # Individual entries check themselves in: there is no captain and no union.
            self.fields["self_check_in"].label = _("选手可自助签到")
            self.fields["self_check_in"].help_text = _("选手打开自己的私人链接即可签到。")
        for name in self.LOCKED_AFTER_ROUND_1:
            # Read by templates/manage/_field.html; Django's Field has no such attribute.
            self.fields[name].locked = frozen  # type: ignore[attr-defined]
            if frozen:
                self.fields[name].disabled = True

    def clean(self):
        data = super().clean()
        win, draw, loss = data.get("points_win"), data.get("points_draw"), data.get("points_loss")
        if None not in (win, draw, loss) and not win >= draw >= loss:
            self.add_error("points_draw", _("场分须满足 胜 ≥ 平 ≥ 负"))
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("结束日期不能早于开始日期"))
        return data


class EntryForm(forms.Form):
    """One entry: a union with a captain (team events; `members` players, three at a six-seat
    table, four at eight) or one player."""

    union = forms.CharField(
        label=_("联邦名称"), max_length=120, validators=[no_control_characters], required=False
    )
    player1 = forms.CharField(label=_("选手1"), max_length=120, validators=[no_control_characters])
    player2 = forms.CharField(
        label=_("选手2"), max_length=120, validators=[no_control_characters], required=False
    )
    player3 = forms.CharField(
        label=_("选手3"), max_length=120, validators=[no_control_characters], required=False
    )
    captain = forms.TypedChoiceField(
        label=_("队长"),
        coerce=int,
        initial=1,
        choices=[(1, _("选手1")), (2, _("选手2")), (3, _("选手3"))],
        required=False,
    )
    club = forms.CharField(
        label=_("俱乐部"), max_length=120, validators=[no_control_characters], required=False
    )
    seed = AsciiIntegerField(label=_("种子序号"), min_value=1, max_value=100000, required=False)
    # Shown only after a warning: the typed club is close to an existing one, and is new anyway.
    new_club = forms.BooleanField(label=_("确认这是一个新的俱乐部"), required=False)

    def __init__(self, *args, team: bool = True, members: int = 3, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        self.members = members if team else 1
        if team:
            for k in range(4, members + 1):
                self.fields[f"player{k}"] = forms.CharField(
                    label=_("选手%(n)s") % {"n": k},
                    max_length=120,
                    validators=[no_control_characters],
                )
            captain = self.fields["captain"]
            assert isinstance(captain, forms.ChoiceField)
            captain.choices = [(k, _("选手%(n)s") % {"n": k}) for k in range(1, members + 1)]
            self.order_fields(
                ["union"] + [f"player{k}" for k in range(1, members + 1)] + ["captain"]
            )
        # The club picker: existing clubs offered as the organiser types (a <datalist>).
        self.club_choices = clubs.all_names()
        self.club_near: list[str] = []
        self.fields["club"].widget.attrs.update({"list": "club-choices", "autocomplete": "off"})
        if team:
            for name in ("union", "player2", "player3"):
                self.fields[name].required = True
        else:
            self.fields["player1"].label = _("选手")
            for name in ("union", "player2", "player3", "captain"):
                del self.fields[name]

    def clean(self):
        data = super().clean()
        if self.team and not self.errors:
            names = [data[f"player{k}"].strip() for k in range(1, self.members + 1)]
            if len(set(names)) < len(names):
                raise forms.ValidationError(_("同一联邦中选手重名"))
        club = (data.get("club") or "").strip()
        if club and not data.get("new_club") and clubs.same_club(club) is None:
            self.club_near = clubs.near_duplicates(club, self.club_choices)
            if self.club_near:
                self.add_error(
                    "club",
                    _(
                        "与已有的俱乐部“%(near)s”相近：请选用已有的，或勾选“确认这是一个新的俱乐部”。"
                    )
                    % {"near": listed(self.club_near)},
                )
                for note in why_alike(club, self.club_near):
                    self.add_error("club", note)
        return data

    def entry_kwargs(self) -> dict:
        data = self.cleaned_data
        players = [data[f"player{k}"] for k in range(1, self.members + 1)]
        return {
            "players": players,
            "name": data.get("union", ""),
            "club": data.get("club", ""),
            "seed": data.get("seed"),
            "captain": data.get("captain") or 1,
        }

    @classmethod
    def initial_for(cls, entry) -> dict:
        initial = {"seed": entry.seed}
        if entry.union_id:
            members = sorted(entry.union.members.all(), key=lambda m: m.order)
            initial.update(
                {
                    "union": entry.union.name,
                    "club": entry.union.club.name if entry.union.club else "",
                    "captain": next((m.order for m in members if m.is_captain), 1),
                }
            )
            for member in members:
                initial[f"player{member.order}"] = member.player.name
        else:
            initial.update(
                {
                    "player1": entry.player.name,
                    "club": entry.player.club.name if entry.player.club else "",
                }
            )
        return initial


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(label=_("从第几轮起退赛"), min_value=1, max_value=999)

    def __init__(self, *args, first: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.first = first
        from_round = self.fields["from_round"]
        assert isinstance(from_round, forms.IntegerField)  # the class attribute above
        from_round.initial = first
        from_round.min_value = first
        from_round.widget.attrs["min"] = first

    def clean_from_round(self):
        value = self.cleaned_data["from_round"]
        if value < self.first:
            raise forms.ValidationError(
                _("第 %(n)s 轮已编排：最早从第 %(first)s 轮起退赛")
                % {"n": value, "first": self.first}
            )
        return value


class ZoneChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return obj.label


class InvitationForm(forms.Form):
    """An invitation's note and, for a referee, where they land: a zone of the event and/or
    single tables. Zones may not exist yet: the tables box is always there, and the invitation
    can be edited once the zones are set."""

    note = forms.CharField(
        label=_("备注（如姓名）"),
        max_length=120,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("如：王老师 东区")}),
    )
    zone = ZoneChoiceField(
        label=_("区域（裁判）"),
        queryset=RefereeZone.objects.none(),
        required=False,
        empty_label=_("不指定"),
    )
    tables = forms.CharField(
        label=_("单独指派的桌号（裁判）"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "5, 17, 30-32", "inputmode": "numeric"}),
    )

    def __init__(self, event: Event, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["zone"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = RefereeZone.objects.filter(event=event)
        if not field.queryset.exists():
            del self.fields["zone"]  # no zones yet: tables, or edit the invitation later


class InviteForm(InvitationForm):
    role = forms.ChoiceField(
        label=_("角色"),
        choices=StaffRole.choices,
        widget=forms.RadioSelect,
        initial=StaffRole.REFEREE,
    )
    field_order = ["role", "note", "zone", "tables"]


class CodeForm(forms.Form):
    code = forms.CharField(label=_("邀请码"), max_length=20)


class SignUpForm(UserCreationForm):
    """An invited referee or assistant makes an account on the spot (no e-mail needed)."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class CarryOverForm(forms.Form):
    carry_over = forms.TypedChoiceField(
        label=_("上一轮的签到本轮是否有效"),
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
        choices=[("yes", _("沿用：已签到的不必再签")), ("no", _("重新签到：每个联邦本轮都要再签"))],
    )
