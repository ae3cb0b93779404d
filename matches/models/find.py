"""Find my table: the search terms of an event's unions and players, and the private
passes that open each one's own page ("my page", from the QR code on a badge).

A search is one indexed prefix lookup on `SearchTerm(event, term)`: the terms of a union or a
player are written when it is saved or registered (`matches.public.find_terms`), never at query time.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from matches.models.digest import token_digest, with_digest


class SearchTerm(models.Model):
    """One way to find a union or a player of an event: its name, a suffix of it, its pinyin in
    full or by initials, its club's, its entry number. Lower case, no spaces."""

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    term = models.CharField(max_length=64)
    union = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Lower is better: an exact name before a suffix or a club's name.
    weight = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [
            # `term LIKE 'q%'` on PostgreSQL needs the pattern operator class.
            models.Index(
                fields=["event", "term"],
                name="searchterm_prefix",
                opclasses=["", "varchar_pattern_ops"],
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(union__isnull=False) | Q(player__isnull=False),
                name="searchterm_is_a_union_or_a_player",
            ),
        ]


class FloorPass(models.Model):
    """The unguessable token of a union's or a player's own page in one event."""

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    union = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    token = models.CharField(max_length=64, unique=True)
    # What the page is found by: the mirror gets this, never the token (models/digest.py).
    token_digest = models.CharField(max_length=64, unique=True, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("个人页通行码")
        verbose_name_plural = _("个人页通行码")
        constraints = [
            models.CheckConstraint(
                condition=(Q(union__isnull=False) & Q(player__isnull=True))
                | (Q(union__isnull=True) & Q(player__isnull=False)),
                name="floorpass_is_a_union_or_a_player",
            ),
            models.UniqueConstraint(
                fields=["event", "union"], condition=Q(union__isnull=False), name="floorpass_union"
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="floorpass_player",
            ),
        ]

    def save(self, *args, **kwargs):
        fields = kwargs.get("update_fields")
        if fields is None or "token" in fields:
            self.token_digest = token_digest(self.token)
            kwargs["update_fields"] = with_digest(fields, "token", "token_digest")
        super().save(*args, **kwargs)
