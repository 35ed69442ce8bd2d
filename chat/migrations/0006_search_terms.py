"""Recall's excerpts: how many of a user's indexed turns hold each word (chat.SearchTerm), kept by triggers.

A turn's words are counted when its search vector is set (INSERT or UPDATE) and uncounted when it
is changed, cleared or the turn is deleted, in statement-level triggers with transition tables (one
aggregate per statement, not one per row). The owner is read from the turn's owner token
(`mcowner<id>`, dreaming/memory/excerpts.py), so the counts follow the messages whatever deletes
them (a conversation, a user, a cascade). TRUNCATE of the messages empties the counts (a DELETE: a TRUNCATE naming both tables, as a test flush does, would find the counts in use).
"""
from django.db import migrations, models

# The owner of a turn: its owner token (the last one, should the words hold another).
_OWNER = "(SELECT max(substr(w.lexeme, 8))::bigint FROM unnest(r.search) w WHERE w.lexeme ~ '^mcowner[0-9]+$')"

_COUNT = f"""
SELECT {_OWNER} AS user_id, w.lexeme, count(*)::int AS turns
FROM {{rows}} r, unnest(r.search) w
WHERE r.search IS NOT NULL{{changed}}
GROUP BY 1, 2
"""

_REMOVE = f"""
WITH gone AS ({_COUNT.format(rows="old_rows", changed="{changed}")}),
dropped AS (
    DELETE FROM chat_searchterm t USING gone
    WHERE t.user_id = gone.user_id AND t.lexeme = gone.lexeme AND t.turns <= gone.turns
)
UPDATE chat_searchterm t SET turns = t.turns - gone.turns FROM gone
WHERE t.user_id = gone.user_id AND t.lexeme = gone.lexeme AND t.turns > gone.turns;
"""
_ADD = f"""
INSERT INTO chat_searchterm (user_id, lexeme, turns)
{_COUNT.format(rows="new_rows", changed="{changed}")}
ON CONFLICT (user_id, lexeme) DO UPDATE SET turns = chat_searchterm.turns + EXCLUDED.turns;
"""
# An UPDATE trigger cannot name its columns and have transition tables: it fires for any update and
# counts only the rows whose search vector changed.
_CHANGED = {
    "old_rows": " AND EXISTS (SELECT 1 FROM new_rows n WHERE n.id = r.id AND n.search IS DISTINCT FROM r.search)",
    "new_rows": " AND EXISTS (SELECT 1 FROM old_rows o WHERE o.id = r.id AND o.search IS DISTINCT FROM r.search)",
}


def _function(name: str, body: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{body}
    RETURN NULL;
END
$$;
"""


def _functions_sql() -> str:
    return (
        _function("chat_search_terms_added", _ADD.format(changed=""))
        + _function("chat_search_terms_removed", _REMOVE.format(changed=""))
        + _function("chat_search_terms_changed", _REMOVE.format(changed=_CHANGED["old_rows"])
                    + _ADD.format(changed=_CHANGED["new_rows"]))
        + _function("chat_search_terms_truncate", "DELETE FROM chat_searchterm;")
    )


_TRIGGERS = """
CREATE TRIGGER chat_search_terms_insert AFTER INSERT ON chat_message
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_search_terms_added();
CREATE TRIGGER chat_search_terms_update AFTER UPDATE ON chat_message
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_search_terms_changed();
CREATE TRIGGER chat_search_terms_delete AFTER DELETE ON chat_message
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chat_search_terms_removed();
CREATE TRIGGER chat_search_terms_truncate AFTER TRUNCATE ON chat_message
    FOR EACH STATEMENT EXECUTE FUNCTION chat_search_terms_truncate();
"""

_BACKFILL = f"""
INSERT INTO chat_searchterm (user_id, lexeme, turns)
{_COUNT.format(rows="chat_message", changed="")}
"""

_DROP = """
DROP TRIGGER IF EXISTS chat_search_terms_insert ON chat_message;
DROP TRIGGER IF EXISTS chat_search_terms_update ON chat_message;
DROP TRIGGER IF EXISTS chat_search_terms_delete ON chat_message;
DROP TRIGGER IF EXISTS chat_search_terms_truncate ON chat_message;
DROP FUNCTION IF EXISTS chat_search_terms_added();
DROP FUNCTION IF EXISTS chat_search_terms_removed();
DROP FUNCTION IF EXISTS chat_search_terms_changed();
DROP FUNCTION IF EXISTS chat_search_terms_truncate();
"""


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0005_message_search"),
    ]

    operations = [
        migrations.CreateModel(
            name="SearchTerm",
            fields=[
                ("pk", models.CompositePrimaryKey("user_id", "lexeme", blank=True, editable=False, primary_key=True,
                                                  serialize=False)),
                ("user_id", models.BigIntegerField()),
                ("lexeme", models.TextField()),
                ("turns", models.IntegerField()),
            ],
        ),
        migrations.RunSQL(_functions_sql() + _TRIGGERS + _BACKFILL, _DROP),
    ]
