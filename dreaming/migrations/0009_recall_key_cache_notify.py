"""Recall's per-process key cache (dreaming/context_cache.py, dreaming/recall.py) follows the memory table.

AFTER INSERT/DELETE on Memory, and UPDATE of what recall's shortlist reads (owner, status, persona,
recall key), send `pg_notify('memcenter_memory_md', user_id)` — the MEMORY.md cache's channel, so
one listener per process serves both caches; TRUNCATE sends '*'. Postgres delivers a NOTIFY at
commit and de-duplicates equal payloads within a transaction, so a night's writes for one user
cost one notification; updates of other columns (scores, counters, statements) send none.
"""
from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION memory_recall_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('memcenter_memory_md', '*');
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('memcenter_memory_md', OLD.user_id::text);
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('memcenter_memory_md', NEW.user_id::text);
    ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.persona_id IS DISTINCT FROM OLD.persona_id
          OR NEW.recall_key IS DISTINCT FROM OLD.recall_key OR NEW.user_id IS DISTINCT FROM OLD.user_id THEN
        PERFORM pg_notify('memcenter_memory_md', NEW.user_id::text);
        IF NEW.user_id IS DISTINCT FROM OLD.user_id THEN
            PERFORM pg_notify('memcenter_memory_md', OLD.user_id::text);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER memory_recall_notify AFTER INSERT OR UPDATE OR DELETE ON dreaming_memory
    FOR EACH ROW EXECUTE FUNCTION memory_recall_notify();
CREATE TRIGGER memory_recall_notify_truncate AFTER TRUNCATE ON dreaming_memory
    FOR EACH STATEMENT EXECUTE FUNCTION memory_recall_notify();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS memory_recall_notify ON dreaming_memory;
DROP TRIGGER IF EXISTS memory_recall_notify_truncate ON dreaming_memory;
DROP FUNCTION IF EXISTS memory_recall_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0008_recall_inline_embeddings")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
