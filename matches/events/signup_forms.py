"""The forms of registration: the organiser's settings, the public registration form (and the
registrant's edit of it), a decision of the review queue, and a payment. Each bad field gets its
message at the field, and everything typed comes back with it."""

from __future__ import annotations

from django import forms
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from matches.events import fees
from matches.events.forms import no_control_characters
from matches.events.importing import why_alike
from matches.events.registration import union_size
from matches.models import Event, PaymentWay, SignupSettings
from players import clubs

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class YuanField(forms.CharField):
    """Money typed in yuan ("60", "60.50"), cleaned to integer fen."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 12)
        super().__init__(*args, **kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def clean(self, value):
        text = super().clean(value)
        if text in ("", None):
            return 0 if not self.required else None
        try:
            return fees.parse_yuan(text)
        except fees.FeeRefused as error:
            raise forms.ValidationError(str(error), code="amount") from error


class SignupSettingsForm(forms.ModelForm):
    fee = YuanField(label=_("报名费（元）"), required=False, help_text=_("0 或空：免费"))
    payment_ways = forms.MultipleChoiceField(
        label=_("收款方式"),
        choices=PaymentWay.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    class Meta:
        model = SignupSettings
        fields = [
            "is_open",
            "opens_at",
            "closes_at",
            "capacity",
            "waitlist_limit",
            "review",
            "fee_per",
            "ask_club",
            "ask_reach",
            "ask_member_number",
            "note",
            "hold_unpaid",
            "max_per_registrant",
            "retention_days",
        ]
        widgets = {"opens_at": DATETIME, "closes_at": DATETIME, "note": forms.Textarea({"rows": 3})}
        help_texts = {
            "capacity": _("联邦数（个人赛为人数）；空：不限"),
            "waitlist_limit": _("空：不限；0：不设候补"),
            "review": _("不审核：有名额即接受"),
            "hold_unpaid": _("未缴清报名费的报名不参加编排（总览页列出名单）"),
            "retention_days": _("赛事结束后多少天删除报名人的联系方式"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opens_at"].input_formats = ["%Y-%m-%dT%H:%M"]
        self.fields["closes_at"].input_formats = ["%Y-%m-%dT%H:%M"]
        if self.instance.pk:
            self.initial.setdefault("fee", fees.yuan(self.instance.fee_fen))
            self.initial.setdefault("payment_ways", self.instance.payment_ways)

    def clean(self):
        data = super().clean()
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", _("截止时间须晚于开始时间"))
        if (data.get("fee") or 0) > 0 and not data.get("payment_ways"):
            self.add_error("payment_ways", _("收报名费时请至少选一种收款方式"))
        if data.get("ask_reach") == SignupSettings.Ask.HIDDEN:
            self.add_error("ask_reach", _("须留下队长的联系方式，以便组织者联系"))
        return data

    def save(self, commit=True):
        signup = super().save(commit=False)
        signup.fee_fen = self.cleaned_data.get("fee") or 0
        signup.payment_ways = self.cleaned_data.get("payment_ways") or []
        if commit:
            signup.save()
        return signup


class SignupForm(forms.Form):
    """The public registration form (and the registrant's edit): a union of `union_size`
    players with a captain, or one player; the fields the organiser asks."""

    union_name = forms.CharField(
        label=_("联邦名称"), max_length=60, validators=[no_control_characters], required=False
    )
    club = forms.CharField(
        label=_("俱乐部"), max_length=60, validators=[no_control_characters], required=False
    )
    new_club = forms.BooleanField(label=_("确认这是一个新的俱乐部"), required=False)
    contact = forms.CharField(
        label=_("队长联系方式（手机或微信号）"),
        max_length=60,
        validators=[no_control_characters],
        required=False,
        help_text=_("只有组织者能看到"),
    )
    captain = forms.TypedChoiceField(label=_("队长"), coerce=int, initial=1, required=False)

    def __init__(self, *args, event: Event, signup: SignupSettings, **kwargs):
        super().__init__(*args, **kwargs)
        self.event, self.signup = event, signup
        self.members = union_size(event)
        name_fields = []
        for k in range(1, self.members + 1):
            label = _("选手%(n)s") % {"n": k} if event.is_team else _("姓名")
            self.fields[f"player{k}"] = forms.CharField(
                label=label, max_length=40, validators=[no_control_characters]
            )
            name_fields.append(f"player{k}")
            if signup.ask_member_number != SignupSettings.Ask.HIDDEN:
                self.fields[f"member{k}"] = forms.CharField(
                    label=_("选手%(n)s会员号") % {"n": k} if event.is_team else _("会员号"),
                    max_length=40,
                    validators=[no_control_characters],
                    required=signup.ask_member_number == SignupSettings.Ask.REQUIRED,
                )
                name_fields.append(f"member{k}")
        captain = self.fields["captain"]
        assert isinstance(captain, forms.ChoiceField)
        captain.choices = [(k, _("选手%(n)s") % {"n": k}) for k in range(1, self.members + 1)]
        if event.is_team:
            self.fields["union_name"].required = True
        else:
            del self.fields["union_name"], self.fields["captain"]
            self.fields["contact"].label = _("联系方式（手机或微信号）")
        if signup.ask_club == SignupSettings.Ask.HIDDEN:
            del self.fields["club"], self.fields["new_club"]
        else:
            self.fields["club"].required = signup.ask_club == SignupSettings.Ask.REQUIRED
            self.fields["club"].widget.attrs.update({"list": "club-choices", "autocomplete": "off"})
        self.fields["contact"].required = signup.ask_reach == SignupSettings.Ask.REQUIRED
        self.fields["contact"].widget.attrs.update({"autocomplete": "tel", "inputmode": "tel"})
        order = ["union_name", *name_fields, "captain", "club", "new_club", "contact"]
        self.order_fields([f for f in order if f in self.fields])
        self.club_near: list[str] = []
        self.club_notes: list[str] = []

    @cached_property
    def club_choices(self) -> list[str]:
        """The known clubs (read when the page draws them or a typed club is checked)."""
        return clubs.all_names()

    def layout(self) -> str:
        """What the empty form's fields depend on (views/signup.py keeps them drawn)."""
        signup = self.signup
        return "-".join(
            str(part)
            for part in (
                self.members,
                int(self.event.is_team),
                signup.ask_club,
                signup.ask_reach,
                signup.ask_member_number,
            )
        )

    def clean(self):
        data = super().clean()
        names = [
            (data.get(f"player{k}") or "").strip()
            for k in range(1, self.members + 1)
            if data.get(f"player{k}")
        ]
        if len(set(names)) < len(names):
            self.add_error(f"player{self.members}", _("同一联邦中选手重名"))
        club = (data.get("club") or "").strip()
        if club and not data.get("new_club") and clubs.same_club(club) is None:
            self.club_near = clubs.near_duplicates(club, self.club_choices)
            if self.club_near:
                self.club_notes = why_alike(club, self.club_near)
                self.add_error(
                    "club",
                    _(
                        "与已有的俱乐部“%(near)s”相近：请选用已有的，或勾选“确认这是一个新的俱乐部”。"
                    )
                    % {"near": "、".join(self.club_near)},
                )
        contact = (data.get("contact") or "").strip()
        if contact and sum(c.isalnum() for c in contact) < 5:
            self.add_error("contact", _("请填写完整的手机号或微信号"))
        return data

    def entry(self) -> dict:
        """The cleaned form as `signup.submit` and `signup.edit` take it."""
        data = self.cleaned_data
        club = (data.get("club") or "").strip()
        known = clubs.same_club(club) if club else None
        return {
            "union_name": (data.get("union_name") or "").strip(),
            "club_name": known.name if known else club,
            "players": [
                {
                    "name": data[f"player{k}"].strip(),
                    "member_number": (data.get(f"member{k}") or "").strip(),
                }
                for k in range(1, self.members + 1)
            ],
            "captain": data.get("captain") or 1,
            "contact": (data.get("contact") or "").strip(),
        }

    @classmethod
    def initial_from(cls, request) -> dict:
        """A request's own values, to edit them."""
        initial = {
            "union_name": request.union_name,
            "club": request.club_name,
            "contact": request.contact,
            "captain": request.captain,
        }
        for k, player in enumerate(request.players, start=1):
            initial[f"player{k}"] = player.get("name", "")
            initial[f"member{k}"] = player.get("member_number", "")
        return initial


class DeclineForm(forms.Form):
    reason = forms.CharField(label=_("原因"), max_length=300, validators=[no_control_characters])


class PaymentForm(forms.Form):
    amount = YuanField(label=_("金额（元）"), required=True)
    way = forms.ChoiceField(label=_("方式"), choices=PaymentWay.choices)
    reference = forms.CharField(
        label=_("交易单号或备注"),
        max_length=120,
        required=False,
        validators=[no_control_characters],
    )
    refund = forms.BooleanField(label=_("这是退款"), required=False)

    def __init__(self, *args, ways: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if ways:
            way = self.fields["way"]
            assert isinstance(way, forms.ChoiceField)
            way.choices = [(k, v) for k, v in PaymentWay.choices if k in ways]


class OwedForm(forms.Form):
    owed = YuanField(label=_("应缴（元）"), required=True)
    note = forms.CharField(
        label=_("备注"), max_length=120, required=False, validators=[no_control_characters]
    )
