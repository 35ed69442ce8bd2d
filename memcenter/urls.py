from django.contrib import admin
from django.urls import include, path

from memcenter.api import api
from memcenter.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("chat/", include("memcenter.chat_urls")),
    path("staff/", include("dreaming.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("memcenter.center_urls")),
]
