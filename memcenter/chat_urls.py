from django.urls import path

from memcenter import chat_views

app_name = "chat"
urlpatterns = [
    path("", chat_views.chat_page, name="page"),
    path("send/", chat_views.chat_send, name="send"),
    path("sessions/<int:pk>/", chat_views.chat_session, name="session"),
]
