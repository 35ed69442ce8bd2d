"""Deep sleep's compare: which memories a batch of clusters is shown, and the model's answer.

A batch of clusters of one scope (persona) is compared with the memories nearest to each cluster
(pgvector, all the batch's clusters in one LATERAL query) and the memories that fill the same slot
or name the same things (dreaming.engine.slots). The answer asked before the night's transaction
(`rehearsed`, deep._night_rehearse) is used when the question inside is exactly the same; else the
model is asked there.
"""
from __future__ import annotations

import logging
from functools import lru_cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection

from dreaming.engine.compare import slot_keys
from dreaming.engine.slots import thing_keys
from dreaming.models import Memory
from dreaming.pipeline.clustering import Cluster
from dreaming.pipeline.night_writes import vector_text
from dreaming.protocol import Comparison, MemoryRef, UnusableAnswer

if TYPE_CHECKING:
    from dreaming.pipeline.deep import _Night

logger = logging.getLogger("dreaming.pipeline.deep")

_NEAREST_SQL = """
SELECT m.id FROM unnest(%s::int[], %s::text[]) AS c(idx, v)
CROSS JOIN LATERAL (
    SELECT id, embedding <=> c.v::vector AS distance FROM {table}
    WHERE user_id = %s AND {persona} AND status = %s AND embedding IS NOT NULL
    ORDER BY embedding <=> c.v::vector, id LIMIT %s
) AS m
ORDER BY c.idx, m.distance, m.id
"""
# Equally near memories (the local embedder puts "lives in Tokyo" and "lives in Shenzhen" at distance
# 0) come oldest first: without `id` their order, which the comparer follows, was the rows' physical
# order, and any change in when a night writes a row could change which memory is reinforced or superseded.
# The vectors stay in the database: the comparer reads statements (reading 512 floats per memory as
# text costs more than the query).
_UNREAD = ("embedding", "recall_key")


def memories_nearest_ids(*, user, persona_id: int | None, vectors: list) -> list[int]:
    """The ids of the DREAM_COMPARE_NEIGHBOURS active memories of the scope nearest to each vector,
    vector by vector, nearest first, each memory once (where it first comes); one statement. Only ids:
    the rows themselves are the scope's (ScopeMemories), read once a night, not once per vector."""
    if not vectors:
        return []
    sql = _NEAREST_SQL.format(table=Memory._meta.db_table,
                              persona="persona_id IS NULL" if persona_id is None else "persona_id = %s")
    params = [list(range(len(vectors))), [vector_text(v) for v in vectors], user.pk,
              *([] if persona_id is None else [persona_id]), Memory.Status.ACTIVE, settings.DREAM_COMPARE_NEIGHBOURS]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(dict.fromkeys(row[0] for row in cursor.fetchall()))


class ScopeMemories:
    """A night's active memories, scope (persona) by scope: read (and locked, with lock) once, then kept
    current as the night goes, instead of read again for every compare batch. The night's changes go
    through these very instances (a reinforcement changes its neighbour in place, a supersede marks it);
    `added` and `gone` tell it of the memories the night makes and of those superseded through another
    instance (a plan, dreaming.pipeline.plans)."""

    def __init__(self, *, user, lock: bool = True):
        self.user, self.lock = user, lock
        self._scopes: dict[int | None, dict[int, Memory]] = {}

    def _read(self, persona_id: int | None, **filters) -> list[Memory]:
        memories = Memory.objects.select_for_update() if self.lock else Memory.objects.all()
        return list(memories.filter(user=self.user, persona_id=persona_id, status=Memory.Status.ACTIVE, **filters)
                    .defer(*_UNREAD).order_by("-last_seen", "pk"))

    def _scope(self, persona_id: int | None) -> dict[int, Memory]:
        if persona_id not in self._scopes:
            self._scopes[persona_id] = {m.pk: m for m in self._read(persona_id)}
        return self._scopes[persona_id]

    def active(self, persona_id: int | None) -> list[Memory]:
        """The scope's active memories, the most recently seen first (then oldest row first)."""
        memories = sorted((m for m in self._scope(persona_id).values() if m.status == Memory.Status.ACTIVE),
                          key=lambda m: m.pk)
        return sorted(memories, key=lambda m: m.last_seen, reverse=True)

    def these(self, persona_id: int | None, ids: list[int]) -> list[Memory]:
        """The scope's memories with these ids, in that order (one written meanwhile by the user is read now)."""
        scope = self._scope(persona_id)
        missing = [pk for pk in ids if pk not in scope]
        if missing:
            scope.update((m.pk, m) for m in self._read(persona_id, pk__in=missing))
        return [scope[pk] for pk in ids if pk in scope]

    def added(self, memory: Memory) -> None:
        """A memory the night made (active)."""
        if memory.persona_id in self._scopes:
            self._scopes[memory.persona_id][memory.pk] = memory

    def gone(self, memory: Memory) -> None:
        """A memory the night superseded (through this instance or another)."""
        self._scopes.get(memory.persona_id, {}).pop(memory.pk, None)


# A scope's memories are matched again for every compare batch of the night (and every night): their
# keys are pure functions of the statement, so each statement's are worked out once per process.
@lru_cache(maxsize=8192)
def _slot_keys(statement: str) -> frozenset:
    return frozenset(slot_keys(statement))


@lru_cache(maxsize=8192)
def _thing_keys(statement: str) -> frozenset:
    return frozenset(thing_keys(statement))


def memory_slot_mates(*, scope: list[Memory], clusters: list[Cluster]) -> list[Memory]:
    """Memories of the scope (active, the most recently seen first) that fill the same slot of the same
    subject as a cluster ("User lives in Shanghai" for "User moved to Tokyo"). A contradiction is rarely
    similar in wording, and a weak embedder puts it far from the top neighbours; the slot key finds it
    whatever the embedder."""
    wanted, things = set(), set()
    for cluster in clusters:
        for candidate in cluster.candidates:
            wanted |= _slot_keys(candidate.statement)
            things |= _thing_keys(candidate.statement)  # the same things in any language (engine.slots)
    if not wanted and not things:
        return []
    mates = [memory for memory in scope if _slot_keys(memory.statement) & wanted]
    # The same things in another language ("燕麦拿铁" for "oat latte"), the most recent few: a common
    # thing ("friends") would otherwise bring half the memories into one compare prompt.
    taken = {memory.pk for memory in mates}
    same_things = [memory for memory in scope if memory.pk not in taken and _thing_keys(memory.statement) & things]
    return mates + same_things[: settings.DREAM_COMPARE_NEIGHBOURS]


def batch_neighbours(*, memories: ScopeMemories, clusters: list[Cluster]) -> dict[int, Memory]:
    """The memories a batch of clusters (one scope) is compared with, by id, in prompt order."""
    persona_id = clusters[0].persona_id
    scope = memories.active(persona_id)  # read (and locked) before the nearest query, at the first batch
    nearest = memories_nearest_ids(user=memories.user, persona_id=persona_id, vectors=[c.centroid for c in clusters])
    neighbours: dict[int, Memory] = {m.pk: m for m in memories.these(persona_id, nearest)}
    for memory in memory_slot_mates(scope=scope, clusters=clusters):
        neighbours.setdefault(memory.pk, memory)
    return neighbours


def compare_key(clusters: list[Cluster], neighbours: dict[int, Memory]) -> tuple:
    """The exact question: the clusters' statements and the memories shown, as the model sees them."""
    refs = _refs(neighbours)
    return tuple(c.best.statement for c in clusters), tuple((r.id, r.statement, r.category, r.said_at) for r in refs)


def _refs(neighbours: dict[int, Memory]) -> list[MemoryRef]:
    return [MemoryRef(id=m.pk, statement=m.statement, category=m.category, said_at=m.last_seen)
            for m in neighbours.values()]


def scope_compare(night: _Night, clusters: list[Cluster], neighbours: dict[int, Memory]) -> list[Comparison] | None:
    """The compare answer for these clusters and memories: the one asked before the transaction when
    the question is still exactly the same (the common case), else asked now. None when unusable."""
    rehearsed = night.rehearsed.get(compare_key(clusters, neighbours))
    if rehearsed is not None:
        return rehearsed
    try:
        return night.dreamer.compare(statements=[c.best.statement for c in clusters], memories=_refs(neighbours),
                                     ctx=night.ctx, said_at=[c.last_said_at for c in clusters])
    except UnusableAnswer:
        logger.warning("compare gave an unusable answer for user %s; clusters wait", night.user.pk)
        return None
