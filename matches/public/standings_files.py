"""The public standings page written as files for nginx to serve.

At a festival the public standings page is read by hundreds of phones a second, and each read
through Django costs milliseconds of CPU even from the one-second front cache. The page changes
only when a standings run writes a snapshot, so after every run (`standings_refreshed`, in the
Celery worker) the page is rendered here once per language from the view's own context builder
(`matches.public.standings`, through `matches.public.visibility`: only what is published), as
the view answers an anonymous reader, and written with its gzip under
`settings.STANDINGS_FILES_DIR`:

    <dir>/events/<event id>/standings/<language>.page.html(.gz)   the page, no query string
    <dir>/events/<event id>/standings/<language>.hx.html(.gz)     its live fragment (htmx poll)

deploy/nginx.conf serves them (`gzip_static`) to the anonymous GET without a query string whose
language it can tell from the `django_language` cookie or a plain Accept-Language; every other
request, and any request while a file is missing, goes to the app as before.

Files are written atomically (a temporary file renamed over the old one). They are removed when
what the public may see of the event changes (the event or a round saved or deleted:
`remove`, now and on commit) and whenever the page no longer renders (the event unpublished or
archived: a 404). A run that raced such a change removes what it wrote: the event's stamp is
read before rendering and again after the files are in place, and must not have moved.

The files outlive a deploy: after an upgrade `manage.py standings_files --rewrite` renders every
public event's files with the new templates (`--clear` removes them all; nginx then sends every
reader to the app). deploy/README.md's upgrade steps run it.
"""

from __future__ import annotations

import gzip
import logging
import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import translation

from matches.models import Event, Round, Stage
from matches.public import standings, visibility

log = logging.getLogger(__name__)

#: The variants written: the page (no HX-Request header) and the fragment htmx polls.
PARTS = {"page": False, "hx": True}


def directory() -> Path | None:
    """The files' root (`STANDINGS_FILES_DIR`), or None when writing them is off."""
    value = getattr(settings, "STANDINGS_FILES_DIR", "")
    return Path(value) if value else None


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def event_dir(root: Path, event_id: int) -> Path:
    return root / "events" / str(int(event_id)) / "standings"


def file_names() -> list[str]:
    """`<language>.<part>.html` for every language and part (the gzip adds `.gz`)."""
    return [f"{lang}.{part}.html" for lang in languages() for part in PARTS]


def remove(event_id: int | None) -> None:
    """Remove the event's files: nginx then sends its readers to the app."""
    root = directory()
    if root is None or event_id is None:
        return
    folder = event_dir(root, event_id)
    for name in file_names():
        for path in (folder / name, folder / (name + ".gz")):  # the page before its gzip
            try:
                path.unlink(missing_ok=True)
            except OSError:
                log.exception("could not remove %s", path)


def remove_now_and_on_commit(event_id: int | None) -> None:
    """What the public may see of the event is changing: no file may outlive it. Now, and
    again once the change is committed (a run in between rendered the data before it)."""
    if event_id is None or directory() is None:
        return
    remove(event_id)
    transaction.on_commit(lambda: remove(event_id))


def stamp(event_id: int) -> str | None:
    """What decides what the public may see of the event's standings, read afresh from the
    database (never from the cache): the event's row and every round and stage of it. None: no
    such event. (A newer snapshot written meanwhile is no leak: its own run writes again.)"""
    event = Event.objects.filter(pk=event_id).values().first()
    if event is None:
        return None
    rounds = list(Round.objects.filter(event_id=event_id).order_by("pk").values())
    stages = list(Stage.objects.filter(event_id=event_id).order_by("pk").values())
    return repr((event, rounds, stages))


def render(event_id: int, language: str, hx: bool) -> tuple[int, bytes]:
    """The status and body the app gives an anonymous reader of the standings in `language`
    (404: the event is not public)."""
    with translation.override(language):
        event = visibility.public_event_or_none(event_id)
        if event is None:
            return 404, b""
        return 200, standings.render_anonymous(event, hx).encode()


def _write_atomically(path: Path, data: bytes) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)  # nginx's workers are not this user
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write(event_id: int) -> int:
    """Render and write the event's standings files; returns how many pages were written
    (0: off, the page is not public, or the event changed meanwhile, and nothing is left)."""
    root = directory()
    if root is None:
        return 0
    before = stamp(event_id)
    if before is None:
        remove(event_id)
        return 0
    pages: dict[str, bytes] = {}
    for language in languages():
        for part, hx in PARTS.items():
            status, body = render(event_id, language, hx)
            if status != 200:  # not public (unpublished, archived): nothing to serve
                remove(event_id)
                return 0
            pages[f"{language}.{part}.html"] = body
    folder = event_dir(root, event_id)
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in pages.items():
        # mtime=0: the same page gives the same gzip bytes.
        _write_atomically(folder / (name + ".gz"), gzip.compress(body, 9, mtime=0))
        _write_atomically(folder / name, body)
    if stamp(event_id) != before:
        # The event or a round changed while this ran: what was rendered may show
        # what is no longer public. The change's own run writes the files again.
        remove(event_id)
        return 0
    return len(pages)


def write_safely(event_id: int) -> None:
    """`write` for a signal receiver: a failure is logged and leaves no file (the app serves)."""
    try:
        write(event_id)
    except Exception:
        log.exception("standings files of event %s", event_id)
        remove(event_id)


def event_ids_with_files() -> list[int]:
    """The events that have a folder of files."""
    root = directory()
    if root is None or not (root / "events").is_dir():
        return []
    return sorted(int(p.name) for p in (root / "events").iterdir() if p.name.isdigit())


def rewrite_all() -> tuple[int, int]:
    """Write every public event's files anew and remove those of any other event (after a
    deploy: a template changed). Returns (events written, events cleared)."""
    public = set(visibility.public_events().values_list("pk", flat=True))
    cleared = 0
    for event_id in event_ids_with_files():
        if event_id not in public:
            remove(event_id)
            cleared += 1
    written = sum(1 for event_id in sorted(public) if write(event_id))
    return written, cleared


def clear_all() -> int:
    """Remove every event's files; nginx then sends every reader to the app. Returns how many
    events had files."""
    ids = event_ids_with_files()
    for event_id in ids:
        remove(event_id)
    return len(ids)
