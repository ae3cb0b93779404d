"""`python manage.py giog replay|settle|selfplay`: the Giog rules engine on the command line.

- `giog replay FILE|-` prints the verdict of a `giog-hand/1` record;
- `giog settle FILE|-` checks a referee's `giog-outcome/1` summary;
- `giog selfplay --hands N --seed S [--players 4] --out FILE.jsonl` writes random complete
  hands, one record a line; the same seed writes the same file.

Exit status: 0 valid (and for replay, no mismatches), 1 not, 2 the document is unreadable
(then the output is `{"valid": false, "error": {"code": "bad_document", "message": ...}}`).
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from matches.games.giog.engine import game
from matches.games.giog.engine.record import TIE_ORDERS
from matches.kernel.engine_errors import BadDocument, as_published


class Command(BaseCommand):
    help = "Replay Giog hand records, check hand summaries, or self-play random hands."
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        operations = parser.add_subparsers(dest="operation", required=True)
        replay = operations.add_parser("replay", help="replay a giog-hand/1 record")
        replay.add_argument("file", help="the record, or - for standard input")
        settle = operations.add_parser("settle", help="check a giog-outcome/1 summary")
        settle.add_argument("file", help="the summary, or - for standard input")
        selfplay = operations.add_parser("selfplay", help="write random complete hands")
        selfplay.add_argument("--hands", type=int, required=True)
        selfplay.add_argument("--seed", type=int, required=True)
        selfplay.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        selfplay.add_argument(
            "--must-compete", action="store_true", help="play with the must_compete variant (G8)"
        )
        selfplay.add_argument(
            "--tie-order",
            choices=TIE_ORDERS,
            default="seat",
            help="tie-break between followers (G9)",
        )
        selfplay.add_argument("--out", required=True, help="JSON-lines file, or - for stdout")

    def handle(self, *args, **options):
        operation = options["operation"]
        if operation == "selfplay":
            return self._selfplay(options)
        check = game.replay if operation == "replay" else game.check_summary
        try:
            document = self._read(options["file"], options.get("stdin") or sys.stdin)
            verdict = check(document)
        except BadDocument as bad:
            self._print({"valid": False, "error": bad.as_dict()})
            raise SystemExit(2)
        self._print(as_published(verdict))
        if not verdict["valid"] or verdict.get("mismatches"):
            raise SystemExit(1)

    def _read(self, name: str, stdin) -> object:
        try:
            if name == "-":
                text = stdin.read()
            else:
                with open(name, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise BadDocument(f"cannot read {name}: {e}")
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise BadDocument(f"not JSON: {e}")

    def _print(self, obj: dict) -> None:
        self.stdout.write(json.dumps(obj, ensure_ascii=False))

    def _selfplay(self, options) -> None:
        if options["hands"] < 0:
            raise CommandError("--hands must be 0 or more")
        rules = {}
        if options["must_compete"]:
            rules["must_compete"] = True
        if options["tie_order"] != "seat":
            rules["tie_order"] = options["tie_order"]
        records = game.selfplay(
            options["hands"], options["seed"], players=options["players"], rules=rules
        )
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        if options["out"] == "-":
            self.stdout.write(lines, ending="")
        else:
            with open(options["out"], "w", encoding="utf-8") as f:
                f.write(lines)
