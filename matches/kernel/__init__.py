"""The kernel every room builds on, besides the models and the adapter interface
(`matches/games/adapter.py`): what a game's check of a report answers (`reports`), the shared
writing of a match's result from its deals (`match_result`), JSON text read safely
(`json_text`), the rows of a drawn round (`draw_rows`). It imports no service, view or task;
the games and the services both import it (docs/architecture.md, "The layers")."""
