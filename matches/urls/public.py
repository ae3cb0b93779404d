"""The public pages of a published event (namespace `public`), grouped by their address: the
event (`<event_id>/`) and one round of it (`rounds/<number>/`)."""

from django.urls import URLPattern, URLResolver, include, path

from matches.views import find, live_features, projector, public, signup

app_name = "public"

#: <event_id>/rounds/<number>/…: one round, its tables and deals, the hall's screen and clock
round_urls: list[URLPattern | URLResolver] = [
    path("", public.round_page, name="round"),
    path("tables/<int:table>/", public.table_page, name="table"),
    path("tables/<int:table>/deals/<int:deal>/", public.deal_page, name="deal"),
    path("projector/", projector.round_projector, name="projector-round"),
    path("clock.json", projector.round_clock, name="round-clock"),
]

#: <event_id>/…: one event
event_urls: list[URLPattern | URLResolver] = [
    path("", public.event_page, name="event"),
    path("rounds/<int:number>/", include(round_urls)),
    path("standings/", public.standings_page, name="standings"),
    path("standings/projector/", projector.standings_projector, name="projector-standings"),
    path("bracket/", public.bracket_page, name="bracket"),
    path("players/<int:player_id>/", public.player_page, name="player"),
    path("unions/<int:union_id>/", public.union_page, name="union"),
    # Find my table and the entry cards (matches/views/find.py).
    path("find/", find.find_page, name="find"),
    path("card/unions/<int:union_id>/", find.union_card, name="card-union"),
    path("card/players/<int:player_id>/", find.player_card, name="card-player"),
    # Registration from the players themselves (matches/views/signup.py).
    path("signup/", signup.signup_page, name="signup"),
    # Feature tables, behind their delay (matches/views/live_features.py).
    path("live/", live_features.features_page, name="features"),
    path("live/<int:feature_id>/", live_features.feature_page, name="feature"),
]

urlpatterns = [path("<int:event_id>/", include(event_urls))]
