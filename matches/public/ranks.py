"""How a rank is shown: no rank before an entry's first result, and a shared rank
marked "=" so a tie is visible.

The standings rows are the snapshots' JSON (`matches.standings`, each game's own player rows).
An entry has a result once any of its counters of played things is above zero: a union's
matches played, byes or forfeits, a player's deals, tables or hands. Entries still equal on
every criterion share a rank and are listed in a fixed order: unions by seed, then name (then
id); players by name (then id) (`matches.standings.ranking`, each game's `rank`). docs/public.md.
"""

from __future__ import annotations

from collections import Counter

#: Counters of played things in the standings rows, any game: above zero, the entry has a result.
RESULT_COUNTERS = ("played", "byes", "forfeits", "deals", "tables", "hands")


def has_result(row: dict) -> bool:
    return any((row.get(key) or 0) for key in RESULT_COUNTERS)


def shared(rows: list[dict]) -> set:
    """The ranks two or more entries with a result hold."""
    counts = Counter(row.get("rank") for row in rows if has_result(row))
    return {rank for rank, n in counts.items() if n > 1}


def label(row: dict, shared_ranks: set) -> str:
    """ "3", "=3" (shared), or "" (no result yet: no rank)."""
    if not has_result(row):
        return ""
    rank = row.get("rank")
    return f"={rank}" if rank in shared_ranks else str(rank)


def labelled(rows: list[dict], shared_ranks: set) -> list[dict]:
    """The rows with `rank_shown` (copies: the snapshot's own rows are left as they are)."""
    return [{**row, "rank_shown": label(row, shared_ranks)} for row in rows]
