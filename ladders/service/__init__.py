"""The ladder's service: moves a season between its rows and the pure rules
(`ladders/rules.py`). Every change is one transaction and one `LadderLog` line.

season.py: a season and its teams, the seeding of the titles · sessions.py: a session opened,
cancelled, closed and reopened, the titles passing · draw.py: what a session's results have
earned, drawn · results.py: scores, no-shows and new dates of a challenge · points.py: the
season's points table · shared.py: what they all use (LadderProblem, the log line)."""
