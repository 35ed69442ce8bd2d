"""Recall's per-process key cache (dreaming/memory/context_cache.py, dreaming/memory/recall.py) follows the memory table.

The MEMORY.md cache's notify function (migration 0005) fires on Memory too: INSERT and DELETE, and
UPDATE only when something recall's shortlist reads changed (owner, status, persona, recall key) —
scores, counters and statements send nothing; TRUNCATE sends '*'. Same channel, so one listener per
process serves both caches. Postgres delivers a NOTIFY at commit and de-duplicates equal payloads
within a transaction, so a night's writes for one user cost one notification.
"""
from django.db import migrations

FORWARD = """
CREATE TRIGGER memory_recall_notify AFTER INSERT OR DELETE ON dreaming_memory
    FOR EACH ROW EXECUTE FUNCTION memory_md_notify();
CREATE TRIGGER memory_recall_notify_update AFTER UPDATE ON dreaming_memory
    FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status OR NEW.persona_id IS DISTINCT FROM OLD.persona_id
                       OR NEW.recall_key IS DISTINCT FROM OLD.recall_key OR NEW.user_id IS DISTINCT FROM OLD.user_id)
    EXECUTE FUNCTION memory_md_notify();
CREATE TRIGGER memory_recall_notify_truncate AFTER TRUNCATE ON dreaming_memory
    FOR EACH STATEMENT EXECUTE FUNCTION memory_md_notify();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS memory_recall_notify ON dreaming_memory;
DROP TRIGGER IF EXISTS memory_recall_notify_update ON dreaming_memory;
DROP TRIGGER IF EXISTS memory_recall_notify_truncate ON dreaming_memory;
"""


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0008_recall_inline_embeddings")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
