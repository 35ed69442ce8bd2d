from django.urls import path

app_name = "dreaming"
urlpatterns: list = []
