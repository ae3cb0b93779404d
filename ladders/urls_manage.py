from django.urls import path

from ladders import views

app_name = "ladders-manage"

urlpatterns = [
    path("", views.season_list, name="seasons"),
    path("<int:season_id>/", views.season_page, name="season"),
]
