"""The cost of a bulk paste and an import at their limit (5,000 lines), through the pages.

    .venv/bin/python bench/paste.py [--lines 5000] [--known 3000] [--profile]

Builds, in a throwaway SQLite database (not timed): another organiser's published cup of
`--known` players in unions of three (random Chinese names, the demo's clubs, so namesakes
happen), then an organiser's empty team event. The paste names `--lines` unions of three, half
of the players known (their name and club as that cup has them), half new; a line in ten has
a club typed a little differently (a spacing variant, a new club, a near-duplicate). Then, as
an organiser's browser does:

- the paste's preview (POST the text), and its confirm (POST confirm: checked again and
  imported);
- an import of the same rows as a CSV (POST the file: the preview; POST confirm), into a second
  empty event.

Each is timed in CPU seconds of this process (the database is SQLite, in the process: its work
is counted too) and in SQL queries. `--profile` prints the top of cProfile for the preview.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import os
import pstats
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
os.environ["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)


def build_known(known: int, rng: random.Random):
    """Another organiser's published cup of `known` players (unions of three)."""
    from django.contrib.auth import get_user_model

    from matches.demo.builder import create_event, enter_field
    from matches.kernel.games.registry import adapter_named

    owner = get_user_model().objects.create_user("owner", password="pw-owner")
    plan = adapter_named("gouji").demo_plan()
    plan = plan.__class__(**{**plan.__dict__, "name": "别人的公开杯"})
    event, _stage = create_event("gouji", plan, owner)
    enter_field(event, rng, known // 3)
    return event


def paste_lines(lines: int, rng: random.Random, known: list) -> list[list[str]]:
    """`lines` unions: union, club, three players; about half the players `known` (name, club)."""
    from matches.demo.names import CLUBS, person_name

    rows = []
    for k in range(1, lines + 1):
        club = CLUBS[k % len(CLUBS)]
        if k % 10 == 3:
            club = club[:2] + " " + club[2:]  # a spacing variant: the same club
        elif k % 10 == 7:
            club = f"新俱乐部{k % 40}"  # new clubs, some near each other
        players = []
        for _ in range(3):
            if rng.random() < 0.5:
                name, known_club = rng.choice(known)
                if known_club == club:
                    players.append(name)
                    continue
            players.append(person_name(rng) + str(rng.randrange(1000)))
        if len(set(players)) < 3:
            players = [f"新人{k}-{j}" for j in range(3)]
        rows.append([f"粘贴联邦{k}", club, *players])
    return rows


def timed(label: str, call, results: dict, args=None):
    from django.db import connection

    if args is not None and args.profile == label:
        profile = cProfile.Profile()
        answer = profile.runcall(call)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        return answer

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        cpu, wall = time.process_time(), time.perf_counter()
        answer = call()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    results[label] = (cpu, wall, queries)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--known", type=int, default=3000)
    parser.add_argument(
        "--profile",
        choices=["paste preview", "paste confirm", "import preview", "import confirm"],
        help="cProfile one step",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from matches.events import pasting
    from matches.models import Event, Registration, Stage
    from players.models import Player

    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    rng = random.Random(7)
    build_known(args.known, rng)
    known_players = list(Player.objects.values_list("name", "club__name"))
    rows = paste_lines(args.lines, rng, known_players)
    organiser = get_user_model().objects.create_user("organiser", password="pw-organiser")

    def empty_event(name: str) -> Event:
        event = Event.objects.create(
            game="gouji",
            name=name,
            start_date=datetime.date(2026, 6, 1),
            game_settings={"rules": {"preset": "standard"}},
        )
        event.organisers.add(organiser)
        Stage.objects.create(event=event, order=1, name="", format=Stage.Format.SWISS)
        return event

    client = Client()
    client.force_login(organiser)
    results: dict = {}

    pasted = empty_event("粘贴杯")
    url = reverse("manage:paste", args=[pasted.pk])
    text = "\n".join("\t".join(r) for r in rows)  # as pasted from a sheet
    answer = timed("paste preview", lambda: client.post(url, {"text": text}), results, args)
    checked = pasting.check_paste(pasted, text, organiser).checked
    assert answer.status_code == 200, [(r["line"], r["errors"]) for r in checked if r["errors"]][:5]
    known = [k for r in checked for k in r["known"]]
    answer = timed("paste confirm", lambda: client.post(url, {"confirm": "1"}), results, args)
    assert answer.status_code == 302, answer.status_code
    assert Registration.objects.filter(event=pasted).count() == args.lines

    imported = empty_event("导入杯")
    url = reverse("manage:import", args=[imported.pk])
    # Another list of the same shape (the paste's own players are on record now: the same rows
    # again would find every name known twice over).
    other = paste_lines(args.lines, rng, known_players)
    sheet = "联邦,俱乐部,选手1,选手2,选手3\n" + "\n".join(",".join(r) for r in other)
    upload = SimpleUploadedFile("entries.csv", sheet.encode())
    answer = timed("import preview", lambda: client.post(url, {"file": upload}), results, args)
    assert answer.status_code == 200, answer.status_code
    answer = timed("import confirm", lambda: client.post(url, {"confirm": "1"}), results, args)
    assert answer.status_code == 302, answer.status_code
    assert Registration.objects.filter(event=imported).count() == args.lines

    print(
        f"{args.lines:,} lines ({3 * args.lines:,} names), {args.known:,} known players, "
        f"{len(known):,} names found known in the preview"
    )
    print(f"{'step':<16} {'CPU s':>7} {'wall s':>7} {'queries':>8} {'CPU ms a line':>14}")
    for label, (cpu, wall, queries) in results.items():
        print(f"{label:<16} {cpu:>7.2f} {wall:>7.2f} {queries:>8,} {cpu / args.lines * 1e3:>14.2f}")


if __name__ == "__main__":
    main()
