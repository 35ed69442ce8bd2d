from django.urls import path
from django.views.generic.base import RedirectView

from dreaming.staff import views

app_name = "dreaming"
urlpatterns = [
    path("", RedirectView.as_view(pattern_name="dreaming:dashboard"), name="index"),
    path("dreaming/", views.dashboard, name="dashboard"),
]
