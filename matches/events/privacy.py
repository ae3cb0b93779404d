"""What a registrant leaves is personal data (docs/security.md, "Registrants' contacts"): the
contact is shown whole only to the event's organisers, masked everywhere else (logs, exports to
assistants, the registrant's own page as a reminder), and erased once the event is over by the
retention the organiser set (`erase_signup_contacts`, run daily)."""

from __future__ import annotations

import datetime as dt
import logging
import unicodedata

from django.db import transaction
from django.utils import timezone

from matches.models import EntryLog, EntryRequest, Event, SignupSettings

logger = logging.getLogger("matches.signup")


def contact_key(contact: str) -> str:
    """The contact as the "at most N per contact" rule compares it: full-width folded, only its
    letters and digits, case folded (138 0000 1234 and 138-0000-1234 are one phone)."""
    text = unicodedata.normalize("NFKC", contact or "")
    return "".join(c for c in text if c.isalnum()).casefold()


def mask(contact: str) -> str:
    """138****1234, wx_****ab: the ends only, enough for the registrant to recognise."""
    text = (contact or "").strip()
    if not text:
        return ""
    keep = max(1, len(text) // 4)
    if len(text) <= 4:
        return text[0] + "*" * (len(text) - 1)
    return text[:keep] + "*" * (len(text) - 2 * keep) + text[-keep:]


def event_over_at(event: Event) -> dt.datetime:
    """When the event ended: the organiser's "end the event", else the end of its last day."""
    if event.concluded_at:
        return event.concluded_at
    last = event.end_date or event.start_date
    return timezone.make_aware(dt.datetime.combine(last + dt.timedelta(days=1), dt.time()))


def erase_after(signup: SignupSettings) -> dt.datetime:
    return event_over_at(signup.event) + dt.timedelta(days=signup.retention_days)


def due_for_erasure(now: dt.datetime | None = None) -> list[SignupSettings]:
    now = now or timezone.now()
    pending = SignupSettings.objects.filter(personal_data_erased_at__isnull=True).select_related(
        "event"
    )
    return [s for s in pending if erase_after(s) <= now]


@transaction.atomic
def erase_contacts(signup: SignupSettings, by=None) -> int:
    """Blank every contact the event's registrants left; names stay (they are on the public
    pages anyway). Returns how many requests held one."""
    erased = (
        EntryRequest.objects.filter(event_id=signup.event_id)
        .exclude(contact="", contact_key="")
        .update(contact="", contact_key="")
    )
    signup.personal_data_erased_at = timezone.now()
    # The settings may be the unsaved defaults (never opened): the first save writes the row.
    signup.save(update_fields=None if signup._state.adding else ["personal_data_erased_at"])
    EntryLog.objects.create(
        event_id=signup.event_id, action="contacts_erased", note=str(erased), by=by
    )
    logger.info("signup event=%s contacts erased: %s", signup.event_id, erased)
    return erased
