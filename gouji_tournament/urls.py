from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from matches.views import public as public_views
from matches.views.organiser import checkin as entry_views

from . import views

urlpatterns = [
    path("", public_views.home, name="home"),
    path("events/", include("matches.urls.public")),
    path("manage/", include("matches.urls.organiser")),
    path("entry/<str:token>/", entry_views.entry_page, name="entry-page"),
    path("healthz", views.healthz, name="healthz"),
    path("lang/", views.switch_language, name="switch-language"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("matches.api.urls")),
    path("", include("matches.urls.referee")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script from this URL too (no inline script), and
    # Swagger UI from drf-spectacular-sidecar: no CDN (the page works offline and in mainland
    # China). Swagger UI sets inline styles, so this page alone allows them.
    path(
        "api/docs/",
        csp_update({"style-src": [SELF, UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
]

# Under /api/ even a URL no route matches answers in the API's JSON error shape.
handler400 = "gouji_tournament.views.bad_request"
handler404 = "gouji_tournament.views.page_not_found"
handler500 = "gouji_tournament.views.server_error"
