"""`python manage.py gouji <subcommand>`: the Gou Ji engine on the command line.

Each subcommand is one small `run_<name>` method plus its arguments in `add_arguments`. The
JSON verdict goes to stdout; the exit status is 0 when valid, 1 when not, 2 when the document
cannot be read (deal-record.md, "Command line and API").
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

from django.core.management.base import BaseCommand

from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.selfplay import selfplay, write_jsonl
from matches.games.gouji.engine.settle import settle
from matches.kernel.engine_errors import BadDocument, as_published

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def read_document(path: str, stdin=None) -> Any:
    """Read one JSON document from a file, or from standard input for `-`."""
    try:
        if path == "-":
            text = (stdin or sys.stdin).read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise BadDocument(f"cannot read {path}: {error}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadDocument(f"not JSON: {error}") from error


class Command(BaseCommand):
    help = (
        "Gou Ji rules engine: settle an outcome summary (gouji-outcome/1), replay a deal "
        "record (gouji-deal/1), or write self-played deal records."
    )

    def add_arguments(self, parser):
        subcommands = parser.add_subparsers(dest="subcommand", required=True)
        settle_parser = subcommands.add_parser(
            "settle", help="check a gouji-outcome/1 summary; print scores and tributes"
        )
        settle_parser.add_argument("file", help="the JSON file, or - for standard input")
        replay_parser = subcommands.add_parser(
            "replay", help="replay a gouji-deal/1 record; print the verdict"
        )
        replay_parser.add_argument("file", help="the JSON file, or - for standard input")
        selfplay_parser = subcommands.add_parser(
            "selfplay", help="write self-played deal records, one JSON document a line"
        )
        selfplay_parser.add_argument("--deals", type=int, default=10)
        selfplay_parser.add_argument("--seed", type=int, default=0)
        selfplay_parser.add_argument("--rules", default="standard", help="a preset name")
        selfplay_parser.add_argument("--out", default="-", help="the .jsonl file, or - for stdout")

    def handle(self, *args, subcommand: str, **options):
        status = getattr(self, f"run_{subcommand}")(**options)
        if status != EXIT_VALID:
            raise SystemExit(status)

    def run_settle(self, file: str, **options) -> int:
        return self.check_document(file, settle)

    def run_replay(self, file: str, **options) -> int:
        return self.check_document(file, replay)

    def run_selfplay(self, deals: int, seed: int, rules: str, out: str, **options) -> int:
        try:
            records = selfplay(deals, seed, rules)
            if out == "-":
                write_jsonl(records, self.stdout)
            else:
                with open(out, "w", encoding="utf-8", newline="\n") as handle:
                    write_jsonl(records, handle)
        except BadDocument as error:
            self.stderr.write(f"bad --rules: {error.message}")
            return EXIT_UNREADABLE
        return EXIT_VALID

    def check_document(self, path: str, check: Callable[[Any], dict]) -> int:
        """Read, check and print one document; the verdict decides the exit status."""
        try:
            verdict = check(read_document(path))
        except BadDocument as error:
            self.print_json({"valid": False, "error": error.as_dict()})
            return EXIT_UNREADABLE
        self.print_json(as_published(verdict))
        accepted = verdict["valid"] and not verdict.get("mismatches")
        return EXIT_VALID if accepted else EXIT_INVALID

    def print_json(self, value: dict) -> None:
        self.stdout.write(json.dumps(value, ensure_ascii=False, indent=2))
