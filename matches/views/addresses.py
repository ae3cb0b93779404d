"""The two addresses a printed link may point at (docs/hall-box.md).

- Staff links (table cards' referee QR codes, referee links, staff invitations) point at the
  server where results are written: `STAFF_BASE_URL`, the hall box's LAN address.
- Public links (badges, the projector's find-my-table QR, the poster, an entry's private link)
  point at the public site: `PUBLIC_BASE_URL`, which the hall's Wi-Fi can reach too.
Unset (a single server): the address the request came to, as before.
"""

from __future__ import annotations

from django.conf import settings


def _url(base: str, request, path: str) -> str:
    if base:
        return base + path
    return request.build_absolute_uri(path)


def staff_url(request, path: str) -> str:
    return _url(getattr(settings, "STAFF_BASE_URL", ""), request, path)


def public_url(request, path: str) -> str:
    return _url(getattr(settings, "PUBLIC_BASE_URL", ""), request, path)
