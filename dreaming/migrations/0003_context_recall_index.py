"""Recall's shortlist: a covering index (user, status, persona) INCLUDE (id, embedding) and the
SQL function memory_recall_shortlist that scans it.

An index-only scan of one user's rows reads the vectors from compact, contiguous index pages
instead of visiting one heap page (and its TOAST chunks) per memory. Created only when the vector
column fits in a btree tuple (≤ 640 dimensions); see dreaming.recall.recall_index_sync.
"""
from django.db import migrations


def create(apps, schema_editor):
    from dreaming.recall import recall_index_sync

    recall_index_sync(schema_editor=schema_editor)


def drop(apps, schema_editor):
    from dreaming.recall import RECALL_INDEX

    schema_editor.execute(f"DROP INDEX IF EXISTS {RECALL_INDEX}")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer)")


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0002_deep_schedules")]

    operations = [
        migrations.RunPython(create, drop),
        # Leave 10% of each heap page free so updates that touch no indexed column (recall stats,
        # scores, last_seen, confidence) can be HOT: no new 2 KB entry in the covering index.
        migrations.RunSQL(
            "ALTER TABLE dreaming_memory SET (fillfactor = 90)", "ALTER TABLE dreaming_memory RESET (fillfactor)"
        ),
    ]
