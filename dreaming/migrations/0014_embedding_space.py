"""The embedder the stored vectors were made with, recorded at migrate time (issue #17).

An install upgraded to this migration made its vectors with the embedder it is configured with
now, so that is what is recorded; `manage.py reembed` records the next one.
"""
from django.conf import settings
from django.db import migrations, models


def record_current(apps, schema_editor):
    EmbeddingSpace = apps.get_model("dreaming", "EmbeddingSpace")
    if not EmbeddingSpace.objects.exists():
        EmbeddingSpace.objects.create(backend=settings.EMBEDDING_BACKEND, model=settings.EMBEDDING_MODEL,
                                      dimensions=settings.EMBEDDING_DIM)


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0013_verbose_names")]

    operations = [
        migrations.CreateModel(
            name="EmbeddingSpace",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("backend", models.CharField(max_length=16)),
                ("model", models.CharField(max_length=200)),
                ("dimensions", models.PositiveIntegerField()),
                ("recorded_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RunPython(record_current, migrations.RunPython.noop),
    ]
