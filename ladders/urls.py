from django.urls import path

from ladders import views

app_name = "ladders"

urlpatterns = [
    path("<int:season_id>/", views.public_ladder, name="season"),
]
