"""Who may do what. Every view and API endpoint asks here, so the boundaries live in one place.

- An organiser acts only on their own events; a superuser (admin) acts everywhere.
- Referee and captain rights are per table and per match (see the result-entry service).
"""
from __future__ import annotations


def can_manage_event(user, event) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or event.organisers.filter(pk=user.pk).exists()


def events_managed_by(user):
    from matches.models import Event

    if not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(organisers=user)
