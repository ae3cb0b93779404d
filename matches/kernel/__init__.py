"""The seam between the games and the shared tournament code: what both import, below the
games and above the row store (`matches.store`) and the models.

- `games/`: the game interface (`adapter.py`: `GameAdapter`, the engine's `Game`, the settings
  forms' `mark`), the one registry of games (`registry.py`: `adapter_for(event)`, a game's
  engine, settings form, title and column note) and the deal viewer's shared parts
  (`viewer.py`);
- what a game hands the shared code: the values (`engine_types`: verdicts, tallies, places,
  table shapes, settings) and the engines' errors (`engine_errors`); what a game's check of a
  report answers (`reports`);
- the rows every game writes the same way: a match's result from its deals (`match_result`),
  its deal tallies (`tallies`, the one writer of `DealTally`), a round drawn as tables of
  players and flagged again after a hand swap (`draw_rows`);
- what games and services both use to read and word things: JSON text read with the API's
  guards (`json_text`), punctuation in the page's language (`punctuation`);
- `pairing/`: the pure seating engine (Swiss, round robin, knockout, the individual draw),
  no Django.

It imports no service, view or task; the games and the services both import it
(docs/architecture.md, "The layers")."""
