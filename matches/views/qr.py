"""A QR code as inline SVG (segno: no image library, no file), for the printed sheets (private
links; badges; staff invitations) and the projector's find-my-table panel. No width or
height of its own: it scales with its box. A room of its own so the organiser's pages need not
import the public ones."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    import segno

    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=2, dark="#000", light="#fff", omitsize=True
    )
    return mark_safe(svg)  # noqa: S308 (segno's own SVG of our own address)
