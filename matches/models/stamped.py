"""`changed_at`: the natural stamp of a row the public pages show.

The public pages' version (`matches.public.stamps`) hashes each shown row's `changed_at`
instead of a hand-picked list of its columns, so a field added later and shown on a page moves
the ETag without anyone remembering to add it to the list.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class ChangedAt(models.Model):
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        # `auto_now` writes the field only when the save writes it: a save that names its
        # fields (`update_fields`), or of a row read with `.only()` (Django then writes the
        # loaded fields), would leave the stamp behind. So every save names it and sets it.
        # An empty `update_fields` saves nothing (Django's rule) and stays so.
        update_fields = kwargs.get("update_fields")
        if update_fields:
            kwargs["update_fields"] = {*update_fields, "changed_at"}
        self.changed_at = timezone.now()
        super().save(*args, **kwargs)
