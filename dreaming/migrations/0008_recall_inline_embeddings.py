"""Memory embeddings are stored inline (STORAGE MAIN) instead of in TOAST (see dreaming/memory/recall.py).

recall_index_sync() sets the column's storage and the table's toast_tuple_target; the UPDATE then
rewrites the existing rows so their vectors move into the row (a value Postgres already stored out
of line stays there until it is written again: `embedding = embedding` would keep the old TOAST
pointer, so the value is rebuilt through real[]). On a large install this rewrites the memory table
once; the trigger sees an unchanged embedding and leaves the recall keys alone. A row that has an
embedding but no key (possible in a database that went through a development version of 0006,
which only computed keys when it built the projection) gets its key in the same pass.
Backwards: the default storage again (rows stay where they are).
"""
from django.db import migrations


def forward(apps, schema_editor):
    from dreaming.migrations._frozen_recall_key_0009 import recall_index_sync

    recall_index_sync(schema_editor=schema_editor)
    schema_editor.execute(
        "UPDATE dreaming_memory SET embedding = embedding::real[]::vector, "
        "recall_key = coalesce(recall_key, memory_recall_key(embedding, importance, confidence, last_seen)) "
        "WHERE embedding IS NOT NULL"
    )


def backward(apps, schema_editor):
    schema_editor.execute("ALTER TABLE dreaming_memory ALTER COLUMN embedding SET STORAGE EXTENDED")
    schema_editor.execute("ALTER TABLE dreaming_memory RESET (toast_tuple_target)")


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0007_memory_document_scope_index_only")]

    operations = [migrations.RunPython(forward, backward)]
