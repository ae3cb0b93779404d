"""`manage.py giog ...`: the command lives with its game (matches/games/giog/cli.py)."""

from matches.games.giog.cli import Command

__all__ = ["Command"]
