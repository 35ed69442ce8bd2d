"""Recall's excerpts: each lexeme of a turn's search vector carries its owner (`<user id>_<lexeme>`).

Before, a turn's vector held its plain lexemes plus an owner token (`mcowner<id>`), and the search
asked the GIN index for `owner & (word | word …)`: the index intersected the owner token's posting
list with EVERY user's postings of each word, so a search cost grew with the table, not with the
user (issue #18: 15.8 ms of a 28 ms statement in 5M messages). With each lexeme prefixed by its
owner, a user's posting lists hold only that user's turns, and the search asks for `7_word | 7_word`.

`chat_owned_search(owner, vector)` makes the prefixed vector (positions kept) and is what light
sleep's indexing (dreaming/memory/excerpts.py), this rewrite and the bench's generated rows call.
The word-count triggers (migration 0006) now read a lexeme's owner from its prefix and count it
under its plain lexeme: chat.SearchTerm keeps its meaning and its rows, so the rewrite runs with the
update trigger off (the counts do not change).
"""
from django.db import migrations

_OWNED_SEARCH = r"""
CREATE OR REPLACE FUNCTION chat_owned_search(owner bigint, doc tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT coalesce(string_agg(
    '''' || replace(replace(owner::text || '_' || w.lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || ''''
    || coalesce(':' || array_to_string(w.positions, ','), ''), ' '), '')::tsvector
FROM unnest(doc) AS w
$$;
"""

# The counts: a lexeme's owner from its prefix, counted under its plain lexeme.
_COUNT = """
SELECT split_part(w.lexeme, '_', 1)::bigint AS user_id, substr(w.lexeme, strpos(w.lexeme, '_') + 1) AS lexeme,
       count(*)::int AS turns
FROM {rows} r, unnest(r.search) w
WHERE r.search IS NOT NULL AND w.lexeme ~ '^[0-9]+_'{changed}
GROUP BY 1, 2
"""
# Until this migration: the owner from the turn's owner token (migration 0006), for the way back.
_COUNT_0006 = """
SELECT (SELECT max(substr(o.lexeme, 8))::bigint FROM unnest(r.search) o WHERE o.lexeme ~ '^mcowner[0-9]+$') AS user_id,
       w.lexeme, count(*)::int AS turns
FROM {rows} r, unnest(r.search) w
WHERE r.search IS NOT NULL{changed}
GROUP BY 1, 2
"""
_REMOVE = """
WITH gone AS ({count}),
dropped AS (
    DELETE FROM chat_searchterm t USING gone
    WHERE t.user_id = gone.user_id AND t.lexeme = gone.lexeme AND t.turns <= gone.turns
)
UPDATE chat_searchterm t SET turns = t.turns - gone.turns FROM gone
WHERE t.user_id = gone.user_id AND t.lexeme = gone.lexeme AND t.turns > gone.turns;
"""
_ADD = """
INSERT INTO chat_searchterm (user_id, lexeme, turns)
{count}
ON CONFLICT (user_id, lexeme) DO UPDATE SET turns = chat_searchterm.turns + EXCLUDED.turns;
"""
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


def _count_functions(count: str) -> str:
    removed = _REMOVE.format(count=count.format(rows="old_rows", changed=""))
    changed = (_REMOVE.format(count=count.format(rows="old_rows", changed=_CHANGED["old_rows"]))
               + _ADD.format(count=count.format(rows="new_rows", changed=_CHANGED["new_rows"])))
    return (_function("chat_search_terms_added", _ADD.format(count=count.format(rows="new_rows", changed="")))
            + _function("chat_search_terms_removed", removed)
            + _function("chat_search_terms_changed", changed))


# Each turn's vector rewritten by its session's owner (the old owner token is kept as a lexeme: it
# counts the user's turns, now as `<id>_mcowner<id>`).
_FORWARD = f"""
{_OWNED_SEARCH}
ALTER TABLE chat_message DISABLE TRIGGER chat_search_terms_update;
UPDATE chat_message m SET search = chat_owned_search(s.user_id, m.search)
FROM chat_chatsession s WHERE s.id = m.session_id AND m.search IS NOT NULL;
ALTER TABLE chat_message ENABLE TRIGGER chat_search_terms_update;
{_count_functions(_COUNT)}
"""

_BACKWARD = f"""
ALTER TABLE chat_message DISABLE TRIGGER chat_search_terms_update;
UPDATE chat_message m SET search = (
    SELECT coalesce(string_agg(
        '''' || replace(replace(substr(w.lexeme, strpos(w.lexeme, '_') + 1), chr(92), chr(92) || chr(92)), '''', '''''')
        || '''' || coalesce(':' || array_to_string(w.positions, ','), ''), ' '), '')::tsvector
    FROM unnest(m.search) AS w)
WHERE m.search IS NOT NULL;
ALTER TABLE chat_message ENABLE TRIGGER chat_search_terms_update;
{_count_functions(_COUNT_0006)}
DROP FUNCTION IF EXISTS chat_owned_search(bigint, tsvector);
"""


class Migration(migrations.Migration):

    dependencies = [
        ("chat", "0008_message_forget_digests"),
    ]

    operations = [
        migrations.RunSQL(_FORWARD, _BACKWARD),
    ]
