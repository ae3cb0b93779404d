"""Referee zones of the hall: define zones as table-number ranges, give referees
zones and single tables in bulk, and read a round's referee coverage. docs/floor.md.

Zones of one event never overlap: a table is one place in the hall and lies in one zone (the
zone a player is told, the zone a projector page shows). Several referees may share a zone, and
a single-table assignment may sit inside someone else's zone (a senior referee for a top table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from matches.models import Event, EventStaff, RefereeTable, RefereeZone, Round, StaffRole, Table

#: "区A 1-120", "A: 1–120", "VIP 7" (one table): a name, then a number or a range.
ZONE_LINE = re.compile(
    r"^(?P<name>.+?)[\s:：]+(?P<first>[0-9]{1,6})(?:\s*[-–~至到]\s*(?P<last>[0-9]{1,6}))?$"
)
TABLE_ITEM = re.compile(r"^(?P<first>[0-9]{1,6})(?:[-–~](?P<last>[0-9]{1,6}))?$")
#: single tables one referee may be given (ranges expanded): a zone is the tool for more
MAX_SINGLE_TABLES = 200


class ZoneError(ValueError):
    """Refused zones or assignments; `problems` holds one sentence per fault."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    first: int
    last: int


def parse_zones(text: str) -> list[ZoneSpec]:
    """One zone a line. Refused: a line that is not "name first-last", a range that runs
    backwards or starts at 0, a name used twice, two zones that share a table."""
    specs, problems = [], []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        found = ZONE_LINE.match(line)
        if found is None:
            problems.append(
                _("第 %(n)d 行看不懂：请写成“区域名 起始桌号-结束桌号”，如“A区 1-120”")
                % {"n": number}
            )
            continue
        name = found["name"].strip()[:40]
        first = int(found["first"])
        last = int(found["last"] or first)
        if first < 1 or last < first:
            problems.append(
                _("第 %(n)d 行：桌号范围 %(first)d-%(last)d 无效")
                % {"n": number, "first": first, "last": last}
            )
            continue
        specs.append(ZoneSpec(name, first, last))
    names = [s.name for s in specs]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(_("区域名“%(name)s”重复") % {"name": name})
    ordered = sorted(specs, key=lambda s: s.first)
    for before, after in zip(ordered, ordered[1:], strict=False):
        if after.first <= before.last:
            problems.append(
                _("“%(a)s”与“%(b)s”的桌号重叠（%(first)d-%(last)d）")
                % {
                    "a": before.name,
                    "b": after.name,
                    "first": after.first,
                    "last": min(before.last, after.last),
                }
            )
    if problems:
        raise ZoneError(problems)
    return specs


def zones_text(event: Event) -> str:
    return "\n".join(z.label for z in RefereeZone.objects.filter(event=event))


@transaction.atomic
def define_zones(event: Event, text: str) -> list[RefereeZone]:
    """Replace the event's zones with those in `text`. A zone keeps its referees when its name
    stays; a zone left out is deleted with its assignments."""
    specs = parse_zones(text)
    kept = {zone.name: zone for zone in RefereeZone.objects.filter(event=event).select_for_update()}
    RefereeZone.objects.filter(event=event).exclude(name__in=[s.name for s in specs]).delete()
    zones = []
    for spec in specs:
        zone = kept.get(spec.name) or RefereeZone(event=event, name=spec.name)
        zone.first_table, zone.last_table = spec.first, spec.last
        zone.save()
        zones.append(zone)
    return zones


def parse_tables(text: str) -> list[int]:
    """ "5, 17 30-32" -> [5, 17, 30, 31, 32]."""
    numbers: set[int] = set()
    for item in re.split(r"[\s,，、;；]+", (text or "").strip()):
        if not item:
            continue
        found = TABLE_ITEM.match(item)
        first = int(found["first"]) if found else 0
        last = int(found["last"] or first) if found else 0
        if found is None or first < 1 or last < first:
            raise ZoneError([_("“%(item)s”不是桌号或桌号范围") % {"item": item[:20]}])
        numbers.update(range(first, last + 1))
        if len(numbers) > MAX_SINGLE_TABLES:
            raise ZoneError([_("单独指派最多 %(n)d 张桌，更多请用区域") % {"n": MAX_SINGLE_TABLES}])
    return sorted(numbers)


def event_referees(event: Event):
    """The event's active referees (the staff page invites them), by account name."""
    return (
        EventStaff.objects.filter(event=event, role=StaffRole.REFEREE, revoked_at__isnull=True)
        .select_related("user", "invitation")
        .order_by("user__username")
    )


@transaction.atomic
def assign(event: Event, plan: dict[int, tuple[list[int], list[int]]]) -> None:
    """Give each referee (by user id) exactly these zones (ids) and single table numbers,
    replacing what they had. Only the event's active referees and its own zones count."""
    referees = {s.user_id: s.user for s in event_referees(event)}
    unknown = set(plan) - set(referees)
    if unknown:
        raise ZoneError([_("只能给本赛事的裁判指派牌桌")])
    zones = {zone.pk: zone for zone in RefereeZone.objects.filter(event=event).all()}
    for user_id, (zone_ids, numbers) in plan.items():
        if set(zone_ids) - set(zones):
            raise ZoneError([_("区域不属于本赛事")])
        user = referees[user_id]
        for zone in zones.values():
            if zone.pk in zone_ids:
                zone.referees.add(user)
            else:
                zone.referees.remove(user)
        RefereeTable.objects.filter(event=event, referee=user).exclude(number__in=numbers).delete()
        RefereeTable.objects.bulk_create(
            [RefereeTable(event=event, referee=user, number=n) for n in numbers],
            ignore_conflicts=True,
        )


def current_round(event: Event) -> Round | None:
    """The round being played: the newest published one."""
    return event.rounds.filter(state=Round.State.PUBLISHED).order_by("-number").first()


def covered_numbers(event: Event) -> tuple[list[tuple[int, int]], set[int]]:
    """The table numbers some active referee looks after: zone ranges and single numbers."""
    active = EventStaff.objects.filter(
        event=event, role=StaffRole.REFEREE, revoked_at__isnull=True
    ).values_list("user_id", flat=True)
    ranges = list(
        RefereeZone.objects.filter(event=event)
        .filter(referees__in=active)
        .distinct()
        .values_list("first_table", "last_table")
    )
    singles = set(
        RefereeTable.objects.filter(event=event, referee_id__in=active).values_list(
            "number", flat=True
        )
    )
    return ranges, singles


def coverage(round_: Round) -> dict:
    """Which tables of the round have a referee: {"total", "covered", "uncovered" (numbers),
    "uncovered_ranges" ("1-3, 9")}."""
    ranges, singles = covered_numbers(round_.event)
    admin_given = set(
        Table.referees.through.objects.filter(table__round=round_).values_list(
            "table__number", flat=True
        )
    )
    numbers = list(round_.tables.order_by("number").values_list("number", flat=True))
    uncovered = [
        n
        for n in numbers
        if n not in singles
        and n not in admin_given
        and not any(first <= n <= last for first, last in ranges)
    ]
    return {
        "round": round_,
        "total": len(numbers),
        "covered": len(numbers) - len(uncovered),
        "uncovered": uncovered,
        "uncovered_ranges": compress(uncovered),
    }


def compress(numbers: list[int]) -> str:
    """[1, 2, 3, 9] -> "1-3, 9"."""
    parts: list[str] = []
    start: int | None = None
    previous = 0
    for n in sorted(numbers):
        if start is None:
            start = previous = n
        elif n == previous + 1:
            previous = n
        else:
            parts.append(f"{start}-{previous}" if previous != start else str(start))
            start = previous = n
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else str(start))
    return ", ".join(parts)
