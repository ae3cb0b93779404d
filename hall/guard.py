"""On a mirror, every staff route and every write answers one clear refusal: the event is run
from the hall. A page in the reader's language, or the API's JSON error shape under /api/.
Nothing behind this middleware runs for a refused request, so nothing is written.

And while the hall is cut off, a private link the mirror does not know (a badge printed in the
hall during the cut: its row is still on the box) answers a page that says so, not a 404."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.translation import gettext

from hall.roles import is_mirror
from hall.routes import PRIVATE_LINKS, mirror_serves
from hall.status import hall_state

REFUSED_STATUS = 403
REFUSED_CODE = "run_from_hall"


def refusal_message() -> str:
    return gettext(
        "本赛事由赛场现场运行：这里是公开网站，只能查看。报成绩、确认、抽签、签到和管理都在赛场的"
        "局域网上进行，请连上赛场的 Wi-Fi，使用桌卡或邀请上的地址。"
    )


def refusal(request) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"error": {"code": REFUSED_CODE, "message": refusal_message()}},
            status=REFUSED_STATUS,
        )
    body = render_to_string(
        "hallbox/refused.html",
        {"message": refusal_message(), "staff_url": settings.STAFF_BASE_URL},
        request=request,
    )
    response = HttpResponse(body, status=REFUSED_STATUS)
    response["Cache-Control"] = "no-store"
    return response


class MirrorGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_mirror():
            try:
                match = resolve(request.path_info)
            except Resolver404:
                return self.get_response(request)  # the usual 404
            if not mirror_serves(match.view_name, match.namespace, request.method):
                return refusal(request)
            response = self.get_response(request)
            if response.status_code == 404 and match.view_name in PRIVATE_LINKS:
                return not_yet(request) or response
            return response
        return self.get_response(request)


NOT_YET_RETRY_SECONDS = 60


def not_yet(request) -> HttpResponse | None:
    """A private link unknown here while the hall is cut off: 503 with a page saying it will
    open when the hall's link returns. None while the hall reports (a wrong link: the 404)."""
    state = hall_state(fresh=True)
    if not state.stale:
        return None
    body = render_to_string("hallbox/not_yet.html", {"state": state}, request=request)
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(NOT_YET_RETRY_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
