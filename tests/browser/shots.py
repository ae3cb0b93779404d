"""Screenshots for a person to look at: taken only when SHOTS_DIR names a folder.

CI sets none, so a fresh clone's run writes nothing outside its own tree and spends no time on
pictures nobody opens."""

from __future__ import annotations

import os
from pathlib import Path


def photograph(page, name: str, *, full_page: bool = True) -> None:
    folder = os.environ.get("SHOTS_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)
