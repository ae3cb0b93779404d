"""Tells a shared front cache (nginx, deploy/nginx.conf) that it may keep an answer a second.

At a festival thousands of readers ask for the same public pages, and Django costs about 25 ms
of CPU a page: nginx answering from a one-second cache turns them into one rendering a second per
page. `X-Accel-Expires` is read by nginx only (it never reaches the browser) and overrides
`Cache-Control` there, so browsers keep `public, max-age=0, must-revalidate` and the ETag.
"""

from __future__ import annotations

import functools

FRONT_CACHE_SECONDS = 1


def front_cacheable(view):
    """Mark the view's anonymous, cookie-free 200 answers to GET and HEAD as shareable.

    A signed-in user's page shows their name and a CSRF token, and an answer setting a cookie
    belongs to one visitor: those never get the header (nginx also bypasses the cache for
    session cookies and refuses to store answers with Set-Cookie)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        # Asked before the view runs: DRF's API views replace request.user by their own
        # (anonymous) user while they answer.
        anonymous = not request.user.is_authenticated
        response = view(request, *args, **kwargs)
        if (
            anonymous
            and request.method in ("GET", "HEAD")
            and response.status_code == 200
            and not response.cookies
        ):
            response["X-Accel-Expires"] = str(FRONT_CACHE_SECONDS)
        return response

    wrapper.front_cacheable = True  # checked against deploy/nginx.conf's cached locations
    return wrapper
