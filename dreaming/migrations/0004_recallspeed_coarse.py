"""Coarse-to-fine recall: a 64-dim coarse vector per memory, kept in sync by the database.

1. Add `embedding_coarse` (the model declares it so the ORM and makemigrations know it; only the
   database writes it).
2. Create memory_embedding_coarse(vector) and fill the column for existing rows (before the
   trigger exists, so each row is projected once).
3. recall_index_sync(): the trigger that keeps the column in sync on every INSERT/UPDATE/COPY, the
   covering index of the coarse vectors (replacing 0003's index of the full vectors, if any) and
   the shortlist function. See dreaming/memory/recall.py and docs/context.md.
"""
import pgvector.django.vector
from django.db import migrations


def forward(apps, schema_editor):
    # The coarse vector was replaced by the shortlist key of 0006_recall_key, which drops this
    # column, its trigger, function and index on databases that have them. A database migrated from
    # scratch skips building them: the code that built them (and its projection) is gone.
    pass


def backward(apps, schema_editor):
    schema_editor.execute("DROP TRIGGER IF EXISTS memory_embedding_coarse_sync ON dreaming_memory")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_embedding_coarse_sync()")
    schema_editor.execute("DROP INDEX IF EXISTS memory_recall_cover_idx")
    schema_editor.execute(
        "DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer, timestamptz, double precision)"
    )
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_embedding_coarse(vector)")


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0003_context_recall_index")]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="embedding_coarse",
            field=pgvector.django.vector.VectorField(blank=True, dimensions=64, editable=False, null=True),
        ),
        migrations.RunPython(forward, backward),
    ]
