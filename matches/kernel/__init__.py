"""The kernel every room builds on, besides the models: the game interface and its registry
(`games/`: adapter, registry, engines, titles, settings forms, the deal viewer's shared parts),
the values a game hands the shared code (`engine_types`: verdicts, tallies, places) and the
engines' errors (`engine_errors`), what a game's check of a report answers (`reports`), the
shared writing of a match's result from its deals (`match_result`) and of its deal tallies
(`tallies`), JSON text read safely (`json_text`), the rows of a drawn round (`draw_rows`). It
imports no service, view or task; the games and the services both import it
(docs/architecture.md, "The layers")."""
