"""Recall's shortlist key replaces the 64-dim coarse vector of 0004 (see dreaming/memory/recall.py).

1. Drop 0004's trigger, functions and covering index (if this database has them), then its column.
2. Add `recall_key` (64 dims; the model declares it so the ORM knows it; only the database
   writes it).
3. recall_index_sync(): the projection table for the embedding column's size, memory_recall_key(),
   the trigger that keeps the key in sync on every INSERT/UPDATE/COPY, the covering index and the
   shortlist function; keys of existing memories are computed here.
4. Recall stats move from Memory's columns to MemoryRecall (recall writes them on every call; in
   the memory rows those writes cleared the all-visible bits that the index-only scan needs).
5. Autovacuum visits the memory table after 1% of its rows changed instead of 20%, so nightly
   updates do not leave the index-only scan fetching heap pages for long.
Backwards: the key and its objects are dropped; 0004's coarse vector is not rebuilt (recall then has
no shortlist index until migrated forward again).
"""
import django.db.models.deletion
import pgvector.django.vector
from django.db import migrations, models


def forward(apps, schema_editor):
    from dreaming.migrations._frozen_recall_key_0009 import recall_index_sync

    recall_index_sync(schema_editor=schema_editor)


def backward(apps, schema_editor):
    schema_editor.execute("DROP TRIGGER IF EXISTS memory_recall_key_sync ON dreaming_memory")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_recall_key_sync()")
    schema_editor.execute("DROP INDEX IF EXISTS memory_recall_key_idx")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, integer)")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_recall_key(vector, double precision, double precision, timestamptz)")
    schema_editor.execute("DROP TABLE IF EXISTS memory_recall_projection")


LEGACY = """
DROP TRIGGER IF EXISTS memory_embedding_coarse_sync ON dreaming_memory;
DROP FUNCTION IF EXISTS memory_embedding_coarse_sync();
DROP INDEX IF EXISTS memory_recall_cover_idx;
DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer, timestamptz, double precision);
DROP FUNCTION IF EXISTS memory_embedding_coarse(vector);
"""


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0005_context_memory_md_notify")]

    operations = [
        migrations.RunSQL(LEGACY, migrations.RunSQL.noop),
        migrations.RemoveField(model_name="memory", name="embedding_coarse"),
        migrations.AddField(
            model_name="memory",
            name="recall_key",
            field=pgvector.django.vector.VectorField(blank=True, dimensions=64, editable=False, null=True),
        ),
        migrations.RunPython(forward, backward),
        migrations.CreateModel(
            name="MemoryRecall",
            fields=[
                ("memory", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True,
                                                related_name="recall_stat", serialize=False, to="dreaming.memory")),
                ("count", models.PositiveIntegerField(default=0)),
                ("last_recalled_at", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.RunSQL(
            "INSERT INTO dreaming_memoryrecall (memory_id, count, last_recalled_at) "
            "SELECT id, recall_count, last_recalled_at FROM dreaming_memory WHERE recall_count > 0",
            "UPDATE dreaming_memory m SET recall_count = r.count, last_recalled_at = r.last_recalled_at "
            "FROM dreaming_memoryrecall r WHERE r.memory_id = m.id",
        ),
        migrations.RemoveField(model_name="memory", name="recall_count"),
        migrations.RemoveField(model_name="memory", name="last_recalled_at"),
        migrations.RunSQL(
            "ALTER TABLE dreaming_memory SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01)",
            "ALTER TABLE dreaming_memory RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor)",
        ),
    ]
