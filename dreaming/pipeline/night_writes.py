"""A deep-sleep night's writes, gathered and sent a few statements per compare batch.

Deciding a batch of clusters touches many rows: every candidate's decision, a memory per promoted
cluster, the memories' sources. Written one by one that is several statements per candidate; here
they wait in `NightWrites` and `flush` sends them as one INSERT of memories, one of sources and one
UPDATE of candidates (and one DELETE of the sources reinforcements dropped). The night flushes at
the end of each batch and before anything reads back what is waiting (a fulfilled plan's sources, a
memory reinforced twice in one batch: dreaming.pipeline.reinforce). New memories get their
ids from the sequence when they are decided (`memory_ids_reserve`), so candidates, superseded
memories and the diary can point at them before the row is written (foreign keys are checked at
commit: Django makes them DEFERRABLE INITIALLY DEFERRED on Postgres). `rows_update` writes many
rows' own values in one statement (deep sleep's candidate decisions, weekly's decay and plan fixes).
"""
from __future__ import annotations

import json
from functools import cache

import numpy as np
from django.db import connection
from django.db.models import BooleanField, CharField, FloatField, JSONField, Model, TextField
from django.utils import timezone
from pgvector.django import VectorField

from dreaming.models import Candidate, Memory, MemorySource

_CANDIDATES = Candidate._meta.db_table

_EMBEDDINGS_SQL = f"""
UPDATE {_CANDIDATES} AS c SET embedding = d.embedding::vector
FROM unnest(%s::bigint[], %s::text[]) AS d(id, embedding)
WHERE c.id = d.id
"""

_DECISION_FIELDS = ("status", "reason", "decided_at", "memory", "score", "score_breakdown")


def vector_text(vector) -> str:
    """pgvector's text for a vector ("[0.25, -1.0, …]"), made at once: numpy turns the floats into
    Python floats and the list's repr writes them in C (pgvector's own conversion goes float by float
    in Python, several times slower for 512 dimensions). A NumPy vector keeps its precision; the
    database stores float4 either way."""
    return repr(np.asarray(vector, dtype=np.float64).tolist())


def rows_insert(*, objects: list[Model]) -> None:
    """Insert many new rows of one model in one `INSERT … SELECT FROM unnest(arrays)`: one array per
    column, the SQL the same whatever the number of rows. Django's bulk_create builds a placeholder and
    compiles each value of each row (most of a light-sleep write's Python time) and pgvector writes the
    vectors float by float; here each column's values are prepared as bulk_create prepares them
    (`pre_save` fills auto_now fields), vectors as `vector_text`. The objects get their ids (a given
    id is kept; new ones come from the sequence in row order) and are marked as stored."""
    if not objects:
        return
    meta = objects[0]._meta
    with_pk = objects[0].pk is not None
    fields = [f for f in meta.concrete_fields if with_pk or not f.primary_key]
    quote = connection.ops.quote_name
    arrays, selects, params = [], [], []
    for field in fields:
        values = [field.pre_save(obj, True) for obj in objects]
        if any(hasattr(v, "resolve_expression") for v in values):
            raise ValueError(f"rows_insert: {meta.label}.{field.name} holds an SQL expression")
        array_type, cast = _column_types(field)
        if isinstance(field, VectorField):
            values = [None if v is None else vector_text(v) for v in values]
        elif isinstance(field, JSONField):
            values = [None if v is None else json.dumps(v, cls=field.encoder) for v in values]
        elif not _as_they_are(field, values):
            values = [field.get_db_prep_save(v, connection) for v in values]
        arrays.append(f"%s::{array_type}[]")
        selects.append(f"d.c{len(selects)}{cast}")
        params.append(values)
    names = ", ".join(f"c{i}" for i in range(len(fields)))
    sql = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
           f"SELECT {', '.join(selects)} FROM unnest({', '.join(arrays)}) AS d({names}) RETURNING {quote(meta.pk.column)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = sorted(row[0] for row in cursor.fetchall())  # taken from the sequence in row order
    for obj, pk in zip(objects, ids):
        if not with_pk:
            obj.pk = pk
        obj._state.adding, obj._state.db = False, connection.alias


@cache
def _column_types(field) -> tuple[str, str]:
    """(the array's element type, the cast of its values) of a column in rows_insert, once per field."""
    if isinstance(field, VectorField):
        return "text", f"::{field.db_type(connection)}"
    if isinstance(field, JSONField):
        return "text", "::jsonb"
    return field.cast_db_type(connection), ""


# Fields whose get_db_prep_save gives back a value of this exact type unchanged (or None for None): text,
# floats and booleans need no per-value conversion (most of a light-sleep insert's values).
_SAME_WHEN = {CharField: str, TextField: str, FloatField: float, BooleanField: bool}


def _as_they_are(field, values: list) -> bool:
    kind = _SAME_WHEN.get(type(field))
    return kind is not None and all(v is None or type(v) is kind for v in values)


def rows_update(*, objects: list[Model], fields: tuple[str, ...] | list[str]) -> None:
    """Write `fields` of many rows of one model in one `UPDATE … FROM unnest(arrays)`, each row its
    own values (an auto_now field among them is set to now). Django's bulk_update builds a CASE per
    field and row, which costs more Python time than the row-by-row UPDATEs it would replace."""
    if not objects:
        return
    meta = objects[0]._meta
    columns = [meta.get_field(name) for name in fields]
    now = timezone.now()
    for obj in objects:
        for field in columns:
            if getattr(field, "auto_now", False):
                setattr(obj, field.attname, now)
    quote = connection.ops.quote_name
    # JSON goes as text and is cast per row: an array of jsonb from Python values is not portable.
    array_type = {field: "text" if isinstance(field, JSONField) else field.cast_db_type(connection) for field in columns}
    sets = ", ".join(f"{quote(f.column)} = d.{quote(f.column)}{'::jsonb' if isinstance(f, JSONField) else ''}"
                     for f in columns)
    arrays = ", ".join(f"%s::{array_type[f]}[]" for f in columns)
    names = ", ".join(quote(f.column) for f in columns)
    sql = (f"UPDATE {quote(meta.db_table)} AS t SET {sets} FROM unnest(%s::bigint[], {arrays}) AS d(id, {names}) "
           f"WHERE t.id = d.id")
    params = [[obj.pk for obj in objects]] + [
        [json.dumps(getattr(obj, f.attname)) if isinstance(f, JSONField) else f.get_db_prep_save(getattr(obj, f.attname),
                                                                                                  connection)
         for obj in objects]
        for f in columns
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def candidates_decisions_save(*, candidates: list[Candidate]) -> None:
    """Write the decision fields (status, reason, decided_at, memory, score, breakdown) of many
    candidates in one statement."""
    rows_update(objects=candidates, fields=_DECISION_FIELDS)


def candidates_embeddings_save(*, candidates: list[Candidate]) -> None:
    """Store the candidates' (new) embeddings in one statement."""
    if not candidates:
        return
    with connection.cursor() as cursor:
        cursor.execute(_EMBEDDINGS_SQL, [[c.pk for c in candidates], [vector_text(c.embedding) for c in candidates]])


def memory_ids_reserve(count: int) -> list[int]:
    """`count` new memory ids from the table's sequence, in order (one statement)."""
    if count <= 0:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [Memory._meta.db_table, count],
        )
        return sorted(row[0] for row in cursor.fetchall())


class NightWrites:
    """Decided candidates, new memories (ids reserved) and new sources waiting to be written."""

    def __init__(self) -> None:
        self.decided: dict[int, Candidate] = {}
        self.memories: list[Memory] = []
        self.sources: list[MemorySource] = []
        self.sources_gone: list[int] = []
        self._ids: list[int] = []

    def reserve(self, count: int) -> None:
        """Take `count` more memory ids now (one statement) for the memories a batch will make."""
        self._ids.extend(memory_ids_reserve(count))

    def memory_add(self, memory: Memory) -> Memory:
        """Give the new memory its id (a reserved one, else the sequence's next) and keep it to insert."""
        if not self._ids:
            self.reserve(1)
        memory.pk = self._ids.pop(0)
        self.memories.append(memory)
        return memory

    def holds(self, memory: Memory) -> bool:
        """The memory is one of those waiting to be inserted."""
        return any(m.pk == memory.pk for m in self.memories)

    def decide(self, candidate: Candidate) -> None:
        self.decided[candidate.pk] = candidate

    def sources_add(self, sources: list[MemorySource]) -> None:
        self.sources.extend(sources)

    def sources_drop(self, sources: list[MemorySource]) -> None:
        """Take these stored sources off their memory: deleted with the batch's writes."""
        if any(s.pk is None for s in sources):
            raise ValueError("sources_drop: a source still waiting to be written (flush first)")
        self.sources_gone.extend(s.pk for s in sources)

    def flush(self) -> None:
        if self.memories:
            rows_insert(objects=self.memories)
            self.memories = []
        if self.sources_gone:
            MemorySource.objects.filter(pk__in=self.sources_gone).delete()
            self.sources_gone = []
        if self.sources:
            rows_insert(objects=self.sources)
            self.sources = []
        if self.decided:
            candidates_decisions_save(candidates=list(self.decided.values()))
            self.decided = {}
