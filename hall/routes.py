"""What a mirror serves: the public side of the site, by URL name. Everything else (the
organiser's pages, the referee's and the table phone's, the results API, sign-in, the admin)
is staff work and is refused there (hall/guard.py). A list of what is allowed, not of what
is refused: a route added later is refused on a mirror until someone decides it is public.
"""

from __future__ import annotations

# Every URL name in these namespaces is a public read.
PUBLIC_NAMESPACES = frozenset({"public", "seasons", "ladders"})

# Public reads outside those namespaces (GET and HEAD only).
PUBLIC_NAMES = frozenset(
    {
        "home",
        "healthz",
        "switch-language",
        "hall-status",
        # An entry's and a player's own pages, found by their token's digest on a mirror.
        "entry-page",
        "my-page",
        "signup-page",
        "live:event",
        "live:table",
        "live:player",
        "live:features",
        "live:feature",
        "api:public-feature",
        "api:public-events",
        "api:public-event",
        "api:public-rounds",
        "api:public-pairings",
        "api:public-standings",
        "api:find",
        "api-schema",
        "api-docs",
    }
)

# The private links (badges' QR codes, an entry's link): found by their token's digest. One made
# in the hall while the uplink is down is not on the mirror yet (hall/guard.py says so).
PRIVATE_LINKS = frozenset({"entry-page", "my-page"})

# Posts that compute and write nothing: the rules checks answer a verdict, like the command line.
PURE_POSTS = frozenset(
    {"api:rules-replay", "api:rules-settle", "api:rules-game-replay", "api:rules-game-settle"}
)

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def mirror_serves(view_name: str, namespace: str, method: str) -> bool:
    """True when a mirror answers this route with this method; False: refused."""
    if view_name in PURE_POSTS:
        return True
    if method not in READ_METHODS:
        return False
    return view_name in PUBLIC_NAMES or namespace in PUBLIC_NAMESPACES
