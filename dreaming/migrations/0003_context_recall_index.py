"""Recall's shortlist index, first version (a covering index of the full embeddings).

Superseded by 0004_recallspeed_coarse, which indexes a 64-dim coarse vector instead: a database
migrated before 0004 existed gets its old index replaced there, a new database never builds it
(building a 20 MB-per-10k-memories index only to drop it one migration later is pure waste).
What stays here is the table's fillfactor.
"""
from django.db import migrations


def drop(apps, schema_editor):
    schema_editor.execute("DROP INDEX IF EXISTS memory_recall_cover_idx")
    schema_editor.execute("DROP FUNCTION IF EXISTS memory_recall_shortlist(bigint, bigint, vector, bigint[], integer)")


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0002_deep_schedules")]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, drop),
        # Leave 10% of each heap page free so updates that touch no indexed column (recall stats,
        # scores, last_seen, confidence) can be HOT: no new entry in the covering index.
        migrations.RunSQL(
            "ALTER TABLE dreaming_memory SET (fillfactor = 90)", "ALTER TABLE dreaming_memory RESET (fillfactor)"
        ),
    ]
