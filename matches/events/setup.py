"""Creating an event and changing its settings (the wizard and the settings page call here).

Rules freeze when the first round is published (matches.receivers); after that the rule set and
Giog's place points cannot change, and neither can the game or the entry type.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from matches.models import Event, Stage


class SetupRefused(Exception):
    pass


def is_frozen(event: Event) -> bool:
    return (
        event.rules_frozen_at is not None
        or event.rounds.filter(published_at__isnull=False).exists()
    )


def started(event: Event) -> bool:
    return event.rounds.exists()


def create_event(
    user,
    *,
    details: dict,
    stages: list[dict],
    settings: dict | None = None,
    token: str | None = None,
) -> Event:
    """`details`: Event fields; `stages`: [{"format", "planned_rounds", "qualifiers", "name"}]
    in order; `settings`: the game's settings form's values. The creator becomes the event's
    organiser. `token`: the wizard's one-time token; the same token again (a double submit,
    even two at once) gives the event made the first time, not a second one."""
    if token:
        made = Event.objects.filter(creation_token=token, organisers=user).first()
        if made is not None:
            return made
    try:
        with transaction.atomic():
            event = Event(**details, **(settings or {}), creation_token=token or None)
            event.full_clean(exclude=["creation_token"])
            event.save()
            event.organisers.add(user)
            for order, stage in enumerate(stages, start=1):
                Stage.objects.create(event=event, order=order, **stage)
            return event
    except IntegrityError:
        made = (
            Event.objects.filter(creation_token=token, organisers=user).first() if token else None
        )
        if made is None:
            raise
        return made


def save_game_settings(event: Event, values: dict) -> None:
    """The game's rule settings (a game's settings form gives `values`: e.g. {"rules": …} or
    {"place_points": […]}); refused once frozen."""
    if is_frozen(event):
        raise SetupRefused(_("第 1 轮公布后规则已锁定，不能再改"))
    for field, value in values.items():
        setattr(event, field, value)
    event.full_clean()
    event.save(update_fields=list(values))


@transaction.atomic
def replace_stages(event: Event, stages: list[dict]) -> None:
    if started(event):
        raise SetupRefused(_("已编排轮次，不能再改阶段"))
    event.stages.all().delete()
    for order, stage in enumerate(stages, start=1):
        Stage.objects.create(event=event, order=order, **stage)
