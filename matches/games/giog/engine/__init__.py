"""Giog (G1-G12 of the spec `giog.md`): a trick-taking game for 2 to 4 players with the 32
xiangqi pieces.

Terms, as the article uses them:
- a *hand* is one game: pieces dealt, played out trick by trick;
- a *trick* starts with a lead (a combination, G5-G7); every other player plays as many pieces;
- a follower's play *competes* when it forms a combination of the lead's kind, otherwise it is a
  *discard* (G8); the strongest competing play or the lead takes the trick (G9);
- a player who plays a General in the first or last trick is *beheaded* (G12) and loses.

Modules: `pieces` (notation), `combinations`, `play` (the trick rules), `record`
(`giog-hand/1`), `replay` (the verdict), `outcome` (places, `giog-outcome/1`, points),
`selfplay` (seeded deal and bots), `game` (the `Game` interface).
"""

from __future__ import annotations

from .game import GiogGame, game

__all__ = ["GiogGame", "game"]
