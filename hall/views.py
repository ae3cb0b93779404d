"""The hall's state as a small fragment: the banner of a mirror's public pages polls it, so an
open page says "赛场网络中断" when the hall stops reporting and clears when it is back."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from hall.status import hall_state


@never_cache
@require_safe
def hall_status(request):
    return render(request, "hallbox/_status.html", {"state": hall_state()})
