"""`manage.py standings_files --rewrite|--clear`: the public standings files nginx serves
(matches/public/standings_files.py) outlive a deploy; a template fix reaches a finished event's
file only when it is written again. Run `--rewrite` in every upgrade (deploy/README.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.public import standings_files


class Command(BaseCommand):
    help = (
        "Write every public event's standings files anew (--rewrite) or remove them all (--clear)."
    )

    def add_arguments(self, parser):
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument(
            "--rewrite", action="store_true", help="render every public event's files"
        )
        group.add_argument("--clear", action="store_true", help="remove every event's files")

    def handle(self, *args, clear: bool = False, **options):
        if standings_files.directory() is None:
            raise CommandError("STANDINGS_FILES_DIR is not set: no files to write or remove")
        if clear:
            count = standings_files.clear_all()
            self.stdout.write(f"removed the standings files of {count} event(s)")
            return
        written, cleared = standings_files.rewrite_all()
        self.stdout.write(
            f"wrote the standings files of {written} event(s); removed those of {cleared} other(s)"
        )
