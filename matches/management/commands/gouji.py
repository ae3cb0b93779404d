"""`manage.py gouji ...`: the command lives with its game (matches/games/gouji/cli.py)."""

from matches.games.gouji.cli import Command

__all__ = ["Command"]
