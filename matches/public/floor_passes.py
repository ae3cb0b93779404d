"""My page's private passes: the token of a union's or a player's own page (made on first use,
or every missing one at once for the badge sheet), the pass a token opens, and the entry a
pass may check in."""

from __future__ import annotations

import re
import secrets

from django.db import IntegrityError, transaction

from matches.models import Event, FloorPass, Registration, Union, UnionMember
from matches.models.digest import token_digest
from players.models import Player

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def pass_token(event: Event, union: Union | None = None, player: Player | None = None) -> str:
    """The token of a union's or a player's own page, made on first use."""
    existing = FloorPass.objects.filter(event=event, union=union, player=player).first()
    if existing:
        return existing.token
    try:
        with transaction.atomic():
            return FloorPass.objects.create(
                event=event, union=union, player=player, token=secrets.token_urlsafe(18)
            ).token
    except IntegrityError:  # made at the same moment by another request
        return FloorPass.objects.get(event=event, union=union, player=player).token


def ensure_passes(event: Event) -> None:
    """Make every missing pass of an event at once (the badge sheet)."""
    have_u = set(
        FloorPass.objects.filter(event=event, union__isnull=False).values_list(
            "union_id", flat=True
        )
    )
    have_p = set(
        FloorPass.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    new = []
    for union_id, player_id in event.registrations.values_list("union_id", "player_id"):
        if union_id and union_id not in have_u:
            new.append(_new_pass(event, union_id=union_id))
        if player_id and player_id not in have_p:
            new.append(_new_pass(event, player_id=player_id))
    for player_id in UnionMember.objects.filter(
        event=event, round__isnull=True, union__registrations__isnull=False
    ).values_list("player_id", flat=True):
        if player_id not in have_p:
            new.append(_new_pass(event, player_id=player_id))
    FloorPass.objects.bulk_create(new, batch_size=2000, ignore_conflicts=True)


def _new_pass(event, **owner) -> FloorPass:
    token = secrets.token_urlsafe(18)
    return FloorPass(event=event, token=token, token_digest=token_digest(token), **owner)


def pass_owner(token: str) -> FloorPass | None:
    if not token or len(token) > 64 or not _TOKEN.fullmatch(token):
        return None
    return (
        FloorPass.objects.select_related("event", "union__club", "player__club")
        .filter(token_digest=token_digest(token))
        .first()
    )


def entry_of(floor_pass: FloorPass) -> Registration | None:
    """The registration a pass may check in: the union's (team) or the player's (individual)."""
    if floor_pass.union_id:
        return Registration.objects.filter(event=floor_pass.event, union=floor_pass.union).first()
    return Registration.objects.filter(event=floor_pass.event, player=floor_pass.player).first()
