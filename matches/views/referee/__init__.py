"""Referee and captain pages, one module per page group: table.py (a table on the referee's
phone: the page, the live check, a deal's submission), batch.py (the phone's queue), confirm.py
(answers to a report: a second referee, captains' and players' PINs, the referee in a captain's
place, a captain's report page), floor.py (a signed-in referee's tables, announcements, the
table's call), viewer.py (the deal viewer), union.py (a union's private page).

A referee reaches their table through a private link (`/ref/<token>/`, no account needed) or by
signing in (`/referee/`); every view of a table gets it through `at_table` in `access.py`, one
view for both routes."""
