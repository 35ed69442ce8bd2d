from django.urls import path

from memcenter import views

app_name = "memcenter"
urlpatterns = [
    path("", views.memories, name="memories"),
]
