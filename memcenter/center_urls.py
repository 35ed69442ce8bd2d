from django.urls import path

from memcenter import views

app_name = "memcenter"
urlpatterns = [
    path("", views.memories, name="memories"),
    path("memories/add/", views.memory_add, name="memory_add"),
    path("memories/<int:pk>/", views.memory_detail, name="memory_detail"),
    path("memories/<int:pk>/feedback/", views.memory_feedback, name="memory_feedback"),
    path("memories/<int:pk>/edit/", views.memory_edit, name="memory_edit"),
    path("memories/<int:pk>/delete/", views.memory_delete, name="memory_delete"),
    path("forget-all/", views.forget_all, name="forget_all"),
    path("pending/", views.pending, name="pending"),
    path("pending/<int:pk>/confirm/", views.candidate_confirm, name="candidate_confirm"),
    path("pending/<int:pk>/dismiss/", views.candidate_dismiss, name="candidate_dismiss"),
    path("diary/", views.diary, name="diary"),
    path("diary/DREAMS.md", views.diary_download, name="diary_download"),
    path("memory-md/", views.memory_md, name="memory_md"),
    path("conversations/", views.conversations, name="conversations"),
    path("conversations/<int:pk>/", views.conversation_detail, name="conversation"),
    path("conversations/<int:pk>/delete/", views.conversation_delete, name="conversation_delete"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/export/", views.export_download, name="export"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/link/<str:token>/", views.login_link, name="login_link"),
]
