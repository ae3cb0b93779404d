from django.urls import path

from matches.views import find, projector, public

app_name = "public"

urlpatterns = [
    path("<int:event_id>/", public.event_page, name="event"),
    path("<int:event_id>/rounds/<int:number>/", public.round_page, name="round"),
    path("<int:event_id>/rounds/<int:number>/tables/<int:table>/", public.table_page, name="table"),
    path(
        "<int:event_id>/rounds/<int:number>/tables/<int:table>/deals/<int:deal>/",
        public.deal_page,
        name="deal",
    ),
    path("<int:event_id>/standings/", public.standings_page, name="standings"),
    path("<int:event_id>/bracket/", public.bracket_page, name="bracket"),
    path(
        "<int:event_id>/rounds/<int:number>/projector/",
        projector.round_projector,
        name="projector-round",
    ),
    path(
        "<int:event_id>/rounds/<int:number>/clock.json",
        projector.round_clock,
        name="round-clock",
    ),
    path(
        "<int:event_id>/standings/projector/",
        projector.standings_projector,
        name="projector-standings",
    ),
    path("<int:event_id>/players/<int:player_id>/", public.player_page, name="player"),
    path("<int:event_id>/unions/<int:union_id>/", public.union_page, name="union"),
    # Find my table and the entry cards (issue 26, matches/views/find.py).
    path("<int:event_id>/find/", find.find_page, name="find"),
    path("<int:event_id>/card/unions/<int:union_id>/", find.union_card, name="card-union"),
    path("<int:event_id>/card/players/<int:player_id>/", find.player_card, name="card-player"),
]
