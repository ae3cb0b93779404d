"""Photographed score sheets: a photo kept as evidence and read into the result form
(service.py); the reading itself is pure (matches/paper/). docs/scoresheets.md."""
