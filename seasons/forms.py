"""The organisers' forms of the seasons pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from gouji_tournament.text import IdChoiceField, IdMultipleChoiceField
from matches.models import Event
from matches.permissions import events_managed_by
from players.models import Player
from seasons import permissions
from seasons.models import Series, SeriesEvent


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("名称"), max_length=200)
    scoring = forms.ChoiceField(label=_("计分方式"), choices=Series.Scoring.choices)
    place_points = forms.CharField(
        label=_("名次积分"),
        required=False,
        help_text=_("第 1、2、3…名的积分，用空格或逗号分隔，如 10 8 6 5 4 3 2 1"),
    )
    best_of = forms.IntegerField(
        label=_("取最好几站"),
        required=False,
        min_value=1,
        max_value=99,
        help_text=_("留空则全部计入"),
        error_messages={
            "min_value": _("取最好几站须至少为 1；留空则全部计入"),
            "max_value": _("取最好几站至多为 99"),
            "invalid": _("取最好几站须为整数；留空则全部计入"),
        },
    )
    published = forms.BooleanField(label=_("公开"), required=False)
    events = IdMultipleChoiceField(
        label=_("赛事"),
        queryset=Event.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, series: Series, user, **kwargs):
        self.series = series
        super().__init__(*args, **kwargs)
        mine = events_managed_by(user)
        current = series.entries.values("event_id")
        field = self.fields["events"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = (mine | Event.objects.filter(pk__in=current)).distinct()
        if not self.is_bound:
            self.initial = {
                "name": series.name,
                "scoring": series.scoring,
                "place_points": " ".join(str(p) for p in series.place_points),
                "best_of": series.best_of,
                "published": series.published,
                "events": list(series.entries.values_list("event_id", flat=True)),
            }

    def clean_place_points(self):
        raw = (self.cleaned_data.get("place_points") or "").replace(",", " ").replace("，", " ")
        try:
            points = [int(p) for p in raw.split()]
        except ValueError:
            raise forms.ValidationError(_("名次积分须为整数")) from None
        if any(p < 0 or p > 10000 for p in points) or len(points) > 200:
            raise forms.ValidationError(_("名次积分须为 0 到 10000 的整数，至多 200 个"))
        return points

    def clean(self):
        data = super().clean()
        if data.get("scoring") == Series.Scoring.PLACING and data.get("place_points") == []:
            self.add_error("place_points", _("按名次积分须填写名次积分表"))
        best_of, events = data.get("best_of"), data.get("events")
        if best_of and events is not None and best_of > len(events):
            # "Best 5 of 3" is no rule: every event would count, and the public table would
            # say otherwise. Blank counts all until the events are there.
            self.add_error(
                "best_of",
                _("取最好 %(n)s 站，但系列赛只有 %(m)s 站赛事；留空则全部计入")
                % {"n": best_of, "m": len(events)},
            )
        return data

    def save(self) -> tuple[Series, str]:
        """Save; returns the series and what changed, for its log."""
        s = self.series
        before = _settings_of(s)
        s.name = self.cleaned_data["name"]
        s.scoring = self.cleaned_data["scoring"]
        s.place_points = self.cleaned_data["place_points"]
        s.best_of = self.cleaned_data["best_of"]
        s.published = self.cleaned_data["published"]
        s.save()
        chosen = {e.pk: e for e in self.cleaned_data["events"]}
        had = dict(s.entries.values_list("event_id", "event__name"))
        s.entries.exclude(event_id__in=chosen).delete()
        for event_id in set(chosen) - set(had):
            SeriesEvent.objects.create(series=s, event_id=event_id)
        after = _settings_of(s)
        changes = [f"{k}: {before[k]} → {after[k]}" for k in after if before[k] != after[k]]
        changes += [f"+ {chosen[e].name}" for e in sorted(set(chosen) - set(had))]
        changes += [f"− {had[e]}" for e in sorted(set(had) - set(chosen))]
        return s, "; ".join(changes)


def _settings_of(series: Series) -> dict[str, str]:
    """A series' settings as the log shows them."""
    return {
        str(_("名称")): series.name,
        str(_("计分方式")): str(series.get_scoring_display()),
        str(_("名次积分")): " ".join(str(p) for p in series.place_points) or "–",
        str(_("取最好几站")): str(series.best_of or "–"),
        str(_("公开")): str(_("是") if series.published else _("否")),
    }


def describe(series: Series) -> str:
    """Everything a series held (the log of its deletion)."""
    settings = "; ".join(f"{k}: {v}" for k, v in _settings_of(series).items())
    events = ", ".join(series.entries.values_list("event__name", flat=True)) or "–"
    return f"{settings}; {_('赛事')}: {events}"


class MergeForm(forms.Form):
    kept = IdChoiceField(
        label=_("保留的记录编号"), queryset=Player.objects.all(), widget=forms.NumberInput
    )
    merged = IdChoiceField(
        label=_("并入的记录编号"), queryset=Player.objects.all(), widget=forms.NumberInput
    )

    def __init__(self, *args, user, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)
        # Only records the organiser may see are chosen (players of their own events, of
        # public events, or of none): any other id is refused as one that does not exist, so
        # the page never shows another organiser's hidden player, nor tells that one exists.
        visible = permissions.players_seen_by(user)
        for name in ("kept", "merged"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = visible

    def clean(self):
        data = super().clean()
        kept, merged = data.get("kept"), data.get("merged")
        if kept and merged:
            if kept.pk == merged.pk:
                raise forms.ValidationError(_("不能把一名选手与自己合并"))
            if not (
                permissions.may_merge_players(self.user, kept, merged)
                or permissions.may_request_merge(self.user, kept, merged)
            ):
                raise forms.ValidationError(_("只能合并自己赛事中的选手"))
        return data
