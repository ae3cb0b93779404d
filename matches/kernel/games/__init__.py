"""The game interface: what shared code asks a game and what a game's engine answers
(`adapter.py`), the one registry of games and what shared code reads of a game by name
(`registry.py`), and the deal viewer's shared parts (`viewer.py`). The games themselves live in
`matches/games/<game>/` and import this; this imports no game."""
