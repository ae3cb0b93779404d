"""API token authentication with a brute-force lockout (matches/ratelimit.py).

Kept apart from the views: DRF's settings import this module while `rest_framework.views` is
being set up.
"""

from __future__ import annotations

import re

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from matches import ratelimit

TOKEN_KEY = re.compile(r"[A-Za-z0-9]{1,40}")


def throttled(wait: int, what: str) -> exceptions.Throttled:
    return exceptions.Throttled(
        wait=wait, detail=f"too many {what} from this address; try again in {wait} seconds"
    )


class LimitedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`; wrong keys from one IP lock that IP's wrong keys out for a
    while."""

    def authenticate(self, request):
        if not self.get_header_present(request):
            return None
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # Only wrong keys are locked out (a valid one always works: 160 bits, no guessing).
            ip = ratelimit.client_ip(request)
            wait = ratelimit.API_TOKEN_FAILURES.locked_for(ip)
            if wait:
                raise throttled(wait, "wrong API tokens")
            ratelimit.API_TOKEN_FAILURES.fail(ip)
            raise

    def authenticate_credentials(self, key):
        # DRF keys are 40 hex digits; anything else is refused without a query (a NUL in the
        # key would make PostgreSQL fail the query itself).
        if not TOKEN_KEY.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)

    def get_header_present(self, request) -> bool:
        from rest_framework.authentication import get_authorization_header

        parts = get_authorization_header(request).split()
        return bool(parts) and parts[0].lower() == self.keyword.lower().encode()
