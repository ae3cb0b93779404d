"""Captain-PIN lockouts: per union *on that table's device*, never per address.

A captain types the union's four-digit PIN into the table's own phone (the referee link or a
referee's account at that table: `may_take_captain_pins`). Wrong PINs count against the union at
that table only. Behind a venue's NAT every phone shares one address, so an address lock made
five typos at one table stop PIN confirmation at every table for 10 minutes. A four-digit PIN
is still guarded: five wrong tries lock the union at that table, and a PIN is only ever taken
from the table's own device, so nobody can guess from elsewhere.

The organiser's results queue lists the locked unions of a round and can lift a lock (logged in
the round's log, `RoundLog.Action.PIN_UNLOCK`).
"""

from __future__ import annotations

from matches import ratelimit
from matches.models import Round, RoundLog, Table, TableSeat, Union


def pin_subject(union_id: int, table_id: int | None) -> str:
    """The lockout's key: this union, at this table."""
    return f"union:{union_id}:table:{table_id}"


def player_subject(player_id: int, table_id: int | None) -> str:
    """A player's own PIN's lockout key (individual events): this player, at this table."""
    return f"player:{player_id}:table:{table_id}"


def locked_unions(round_: Round) -> list[dict]:
    """The round's unions whose captain PIN is locked at their table: table, union and the
    minutes left. One cache round trip for the whole round."""
    seated = (
        TableSeat.objects.filter(round=round_, union__isnull=False)
        .values_list("table_id", "union_id")
        .distinct()
    )
    subjects = {pin_subject(u, t): (t, u) for t, u in seated}
    waits = ratelimit.CAPTAIN_PIN_FAILURES.locked_for_many(list(subjects))
    locked = [(subjects[s], wait) for s, wait in waits.items() if wait]
    if not locked:
        return []
    tables = Table.objects.in_bulk([t for (t, _u), _w in locked])
    unions = Union.objects.in_bulk([u for (_t, u), _w in locked])
    rows = [
        {
            "table": tables[t],
            "union": unions[u],
            "seconds": wait,
            "minutes": max(1, (wait + 59) // 60),
        }
        for (t, u), wait in locked
    ]
    return sorted(rows, key=lambda row: (row["table"].number, row["union"].name))


def lift_pin_lock(table: Table, union: Union, user) -> bool:
    """Lift the lock (and the count of wrong PINs) of `union` at `table`; logged in the round's
    log. False when nothing was locked (nothing is logged then)."""
    subject = pin_subject(union.pk, table.pk)
    was_locked = ratelimit.CAPTAIN_PIN_FAILURES.locked_for(subject) > 0
    ratelimit.CAPTAIN_PIN_FAILURES.clear(subject)
    if was_locked:
        RoundLog.objects.create(
            round_id=table.round_id,
            event_id=union.event_id,
            action=RoundLog.Action.PIN_UNLOCK,
            user=user,
            details={"table": table.number, "union": union.name, "union_id": union.pk},
        )
    return was_locked


def table_locks(table_id: int, union_ids: list[int]) -> dict[int, int]:
    """Minutes left of each locked union's PIN lock at this table (unlocked unions are absent):
    shown on the table's phone and the referee's list."""
    subjects = {pin_subject(u, table_id): u for u in union_ids}
    waits = ratelimit.CAPTAIN_PIN_FAILURES.locked_for_many(list(subjects))
    return {subjects[s]: max(1, (wait + 59) // 60) for s, wait in waits.items() if wait}
