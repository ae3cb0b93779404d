"""The seating engine: pure Python, no Django.

- `swiss`: team Swiss pairing by cost-based matching (no rematch, then score difference, then
  seat balance).
- `robin`: Berger round-robin tables.
- `knockout`: single-elimination brackets with seeding and byes.
- `individual`: the individual draw (抽签组邦) — six players a table, two unions a table.

`matches/draw/service.py` is the one place that turns these results into database rows.
"""

from __future__ import annotations

from .types import Draw, Entrant, Pairing, SeatingError

__all__ = ["Draw", "Entrant", "Pairing", "SeatingError"]
