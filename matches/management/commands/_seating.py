"""Shared bits of the seating commands."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from matches.models import Round


def user_named(username: str | None):
    if not username:
        return None
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist as error:
        raise CommandError(f"no user {username!r}") from error


def round_by_id(round_id: int) -> Round:
    try:
        return Round.objects.select_related("event", "stage").get(pk=round_id)
    except Round.DoesNotExist as error:
        raise CommandError(f"no round with id {round_id}") from error


def describe(round_: Round) -> str:
    q = round_.quality
    figures = ", ".join(
        f"{key}={q[key]}"
        for key in (
            "tables",
            "byes",
            "rematches",
            "score_diff_sum",
            "seat_imbalance",
            "repeat_partners",
            "repeat_opponents",
            "club_clashes",
        )
        if key in q
    )
    return (
        f"round {round_.number} (id {round_.pk}) of {round_.event}: {round_.state}, "
        f"seed {round_.seed}; {figures}"
    )
