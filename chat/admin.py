from django.contrib import admin

from chat import models

for model in (models.Persona, models.ChatSession, models.Message, models.ApiKey):
    admin.site.register(model)
