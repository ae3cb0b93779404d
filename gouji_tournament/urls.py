from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from hall import views as hallbox_views
from matches.views import find as find_views
from matches.views import signup as signup_views
from matches.views.organiser import checkin as entry_views

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("events/ladders/", include("ladders.urls")),
    path("events/", include("matches.urls.public")),
    path("manage/ladders/", include("ladders.urls_manage")),
    path("manage/", include("matches.urls.organiser")),
    path("live/", include("matches.urls.live")),
    path("season/", include("seasons.urls")),
    path("manage/season/", include("seasons.urls_manage")),
    path("entry/<str:token>/", entry_views.entry_page, name="entry-page"),
    # A player's or a union's own page, from the QR code of their badge.
    path("me/<str:token>/", find_views.my_page, name="my-page"),
    # A registrant's own page: the request's status, fee, edit and withdraw.
    path("signup/<str:token>/", signup_views.signup_private, name="signup-page"),
    path("signup/<str:token>/edit/", signup_views.signup_edit, name="signup-edit"),
    path("signup/<str:token>/withdraw/", signup_views.signup_withdraw, name="signup-withdraw"),
    path("healthz", views.healthz, name="healthz"),
    path("hall/status/", hallbox_views.hall_status, name="hall-status"),
    path("lang/", views.switch_language, name="switch-language"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("matches.api.urls")),
    path("", include("matches.urls.referee")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script from this URL too (no inline script), and
    # Swagger UI from drf-spectacular-sidecar: no CDN (the page works offline and in mainland
    # China). Its page is ours, without drf-spectacular's inline <style>: the site's strict
    # Content-Security-Policy holds here too (Swagger UI's React sets styles through the CSSOM,
    # which a policy does not block). tests/hostile/test_deploy.py, tests/browser/test_csp.py.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
]

# Under /api/ even a URL no route matches answers in the API's JSON error shape.
handler400 = "gouji_tournament.views.bad_request"
handler404 = "gouji_tournament.views.page_not_found"
handler500 = "gouji_tournament.views.server_error"
