from __future__ import annotations

from django.core.management.base import BaseCommand

from matches.draw import explanations

from ._seating import describe, round_by_id


class Command(BaseCommand):
    help = "Print a round's draw table by table with the reasons behind it (before publishing)."

    def add_arguments(self, parser):
        parser.add_argument("round_id", type=int)

    def handle(self, round_id, **options):
        round_ = round_by_id(round_id)
        self.stdout.write(describe(round_))
        for line in explanations.explain_round(round_):
            where = f"table {line['table']}" if line["table"] else "bye"
            versus = (
                f"{line['union_a']} – {line['union_b']}" if line["union_b"] else line["union_a"]
            )
            reasons = "; ".join(line["reasons"])
            self.stdout.write(f"  {where}: {versus}" + (f"  ({reasons})" if reasons else ""))
