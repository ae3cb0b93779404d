"""Giog's settings as a form: the points for each place of a hand (G11), read-only once the
first round is published. Giog has no presets: the default table is its one 'preset'."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.games.giog.settings import DEFAULT_PLACE_POINTS, SettingsError, check_place_points
from matches.kernel.games.adapter import mark

PLACES = (1, 2, 3, 4)
PLACE_LABELS = {1: _("第 1 名得分"), 2: _("第 2 名得分"), 3: _("第 3 名得分"), 4: _("第 4 名得分")}


class GiogSettingsForm(forms.Form):
    game = "giog"
    diff_title = _("与默认值不同的项")
    no_changes = _("没有改动：与默认值完全相同。")

    def __init__(self, *args, place_points=None, frozen: bool = False, **kwargs):
        self.current = list(place_points or DEFAULT_PLACE_POINTS)
        self.frozen = frozen
        if "initial" not in kwargs:
            kwargs["initial"] = {f"place_{k}": v for k, v in zip(PLACES, self.current)}
        super().__init__(*args, **kwargs)
        for k in PLACES:
            field = forms.IntegerField(label=PLACE_LABELS[k], min_value=0, max_value=1000)
            field.disabled = frozen
            self.fields[f"place_{k}"] = mark(
                field, rule_id="G11", section="places", flag=f"place_{k}"
            )

    @classmethod
    def from_values(cls, values: dict | None, data=None, frozen: bool = False):
        return cls(data, place_points=(values or {}).get("place_points"), frozen=frozen)

    @classmethod
    def for_event(cls, event, data=None, frozen: bool = False):
        return cls(data, place_points=list(event.game_rules.place_points), frozen=frozen)

    @classmethod
    def preset_values(cls, preset: str | None) -> dict:
        """Giog has no presets: its one 'preset' is the default table."""
        return {}

    @classmethod
    def from_preset(cls, preset: str | None):
        return cls.from_values(cls.preset_values(preset))

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        points = [data[f"place_{k}"] for k in PLACES]
        try:
            check_place_points(points)
        except SettingsError:
            raise forms.ValidationError(
                _("G11：名次分须从第 1 名到第 4 名不递增，如 3, 2, 1, 0")
            ) from None
        data["place_points"] = points
        return data

    def values(self) -> dict:
        return {"place_points": self.cleaned_data["place_points"]}

    def groups(self) -> list[dict]:
        return [
            {
                "key": "places",
                "title": _("名次分（G11）"),
                "description": _("每手按名次得分；不足四人的桌用前几项；并列名次平分。"),
                "fields": [self[f"place_{k}"] for k in PLACES],
            }
        ]

    def preset_rows(self) -> list[dict]:
        return []

    def diff(self) -> list[dict]:
        points = (
            self.cleaned_data["place_points"] if self.is_bound and self.is_valid() else self.current
        )
        return [
            {
                "flag": f"place_{k}",
                "rule": "G11",
                "label": PLACE_LABELS[k],
                "preset": str(default),
                "chosen": str(chosen),
            }
            for k, default, chosen in zip(PLACES, DEFAULT_PLACE_POINTS, points)
            if default != chosen
        ]
