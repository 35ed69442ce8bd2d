from django.contrib import admin

from dreaming import models

for model in (models.Memory, models.Candidate, models.Feedback, models.DreamRun, models.DiaryEntry,
              models.MemoryDocument, models.Tombstone, models.LLMCall, models.MemorySettings, models.MemorySource):
    admin.site.register(model)
