"""`hall` in every template: the mirror's staleness banner, the box's view of the mirror.
Both are read only when a template asks (the lag is a query on the box's dashboard only)."""

from __future__ import annotations

from functools import cached_property

from hall import roles, status


class HallContext:
    @property
    def mirror(self) -> bool:
        return roles.is_mirror()

    @property
    def box(self) -> bool:
        return roles.is_box()

    @cached_property
    def state(self) -> status.HallState:
        return status.hall_state()

    @cached_property
    def lag(self) -> status.MirrorLag:
        return status.mirror_lag()


def hall(request) -> dict:
    return {"hall": HallContext()}
