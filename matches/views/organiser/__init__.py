"""Organiser pages under /manage/, one module per page group: dashboard.py (the events list,
an event's dashboard, round actions, printing and exports), events.py (create, settings,
rules), rounds.py (one round, closing, the break, the clock), results.py (every table's state,
corrections, referee links), entries.py, checkin.py, staff.py, floor.py, undo.py. Every view
gets its event through one of the two gates of `access.py`."""
