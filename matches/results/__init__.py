"""Deal results: the only code that moves results between the database and the rules engine.

- `submit.py`: a referee (private link, signed-in account or API token) reports a deal; the
  engine checks it, and an inconsistent report is not stored at all.
- `confirm.py`: the other union's captain, or a second referee, agrees (final) or disagrees
  (disputed, for the organiser); captains' and players' PINs.
- `correct.py`: an organiser replaces a result (a new row, never an edit), upholds an open
  report, or settles a flagged deal again.
- `deals.py`: a match's deals, created on first use, and what the pages read of them.
- `common.py`: what the three writers share (the deal's lock, the guards, idempotency, the
  notice after commit).
- `forfeits.py`, `lockouts.py`, `messages.py`: results not played out, captain-PIN lockouts, the
  refusals in the request's language.
"""
