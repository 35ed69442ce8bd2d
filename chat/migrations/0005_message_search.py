"""Recall's excerpts: a full-text search vector on user turns, with its GIN index, and the backfill.

The backfill indexes what light sleep would index now (dreaming/memory/excerpts.py): the user
turns of sessions it dreamed and kept, up to what it processed. The search text is built by a
FROZEN copy of excerpts.search_text below (a later change to the live function must not change
what this migration wrote; a change of the search text gets a migration of its own).
"""
import re
import unicodedata

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations

_CJK_RUN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_BATCH = 2000


def _search_text(text, user_id):
    def pieces(run):
        return [run] if len(run) <= 2 else [run[i : i + 2] for i in range(len(run) - 1)]

    def token(piece):
        return "zh" + "".join(f"{ord(ch):x}" for ch in piece)

    text = unicodedata.normalize("NFKC", text)
    text = _CJK_RUN_RE.sub(lambda m: " " + " ".join(token(p) for p in pieces(m.group())) + " ", text)
    return f"{text} mcowner{int(user_id)}"


def backfill(apps, schema_editor):
    connection = schema_editor.connection
    last_id = 0
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                """
                SELECT m.id, m.content, s.user_id FROM chat_message m JOIN chat_chatsession s ON s.id = m.session_id
                WHERE m.id > %s AND m.role = 'user' AND s.dreamed_at IS NOT NULL AND NOT s.skipped
                  AND m.seq <= s.processed_seq AND m.search IS NULL
                ORDER BY m.id LIMIT %s
                """,
                [last_id, _BATCH],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            cursor.execute(
                """
                UPDATE chat_message AS m SET search = to_tsvector('english', v.doc)
                FROM unnest(%s::bigint[], %s::text[]) AS v(id, doc) WHERE m.id = v.id
                """,
                [[r[0] for r in rows], [_search_text(r[1], r[2]) for r in rows]],
            )
            last_id = rows[-1][0]


class Migration(migrations.Migration):

    dependencies = [
        ('chat', '0004_apikey_client_required'),
    ]

    operations = [
        migrations.AddField(
            model_name='message',
            name='search',
            field=django.contrib.postgres.search.SearchVectorField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name='message',
            index=django.contrib.postgres.indexes.GinIndex(fields=['search'], name='chat_message_search_idx'),
        ),
    ]
