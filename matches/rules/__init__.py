"""The rules engines: pure Python, never imports Django.

Each game (Gou Ji in `gouji/`, Giog in `giog/`) implements the small `Game` interface of
`base.py`. The service layer in `matches/services/` is the only code that moves data between the
database and an engine.
"""
