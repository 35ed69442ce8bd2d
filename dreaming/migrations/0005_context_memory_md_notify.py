"""MEMORY.md cache invalidation: the database announces every change that can alter memory_md_get.

AFTER INSERT/UPDATE/DELETE on MemoryDocument (the document itself) and on MemorySettings (memory
off hides the document) send `pg_notify('memcenter_memory_md', user_id)`; TRUNCATE (test flushes,
manual repairs) sends '*' = "forget everything". Each web process's listener thread drops that
user's cached documents (dreaming/memory/context_cache.py). Postgres delivers a NOTIFY only when the
transaction commits and de-duplicates equal payloads within it, so a render of every scope of a
user costs one notification, and a rolled-back change costs none.
"""
from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION memory_md_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('memcenter_memory_md', '*');
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('memcenter_memory_md', OLD.user_id::text);
    ELSE
        PERFORM pg_notify('memcenter_memory_md', NEW.user_id::text);
        IF TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id THEN
            PERFORM pg_notify('memcenter_memory_md', OLD.user_id::text);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER memory_document_notify AFTER INSERT OR UPDATE OR DELETE ON dreaming_memorydocument
    FOR EACH ROW EXECUTE FUNCTION memory_md_notify();
CREATE TRIGGER memory_document_notify_truncate AFTER TRUNCATE ON dreaming_memorydocument
    FOR EACH STATEMENT EXECUTE FUNCTION memory_md_notify();
CREATE TRIGGER memory_settings_notify AFTER INSERT OR UPDATE OR DELETE ON dreaming_memorysettings
    FOR EACH ROW EXECUTE FUNCTION memory_md_notify();
CREATE TRIGGER memory_settings_notify_truncate AFTER TRUNCATE ON dreaming_memorysettings
    FOR EACH STATEMENT EXECUTE FUNCTION memory_md_notify();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS memory_document_notify ON dreaming_memorydocument;
DROP TRIGGER IF EXISTS memory_document_notify_truncate ON dreaming_memorydocument;
DROP TRIGGER IF EXISTS memory_settings_notify ON dreaming_memorysettings;
DROP TRIGGER IF EXISTS memory_settings_notify_truncate ON dreaming_memorysettings;
DROP FUNCTION IF EXISTS memory_md_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("dreaming", "0004_recallspeed_coarse")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
