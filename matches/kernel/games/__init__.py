"""The game interface: what shared code asks a game (`adapter.py`), the one registry of games
(`registry.py`, each adapter naming its engine) and what every game shares besides (engines,
titles, settings forms, form fields, the deal viewer's parts). The games themselves live in
`matches/games/<game>/` and import this; this imports no game."""
