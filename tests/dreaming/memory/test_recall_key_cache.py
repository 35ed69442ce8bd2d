"""Recall's shortlist keys held by the process: the same shortlist as the index scan, two queries
per warm recall, and never a deleted or archived memory — the memory table's notifications
(migration 0009) drop a user's keys, and the exact stage re-checks every shortlisted row.

Real commits (transaction=True): NOTIFY is delivered only at commit."""
import numpy as np
import pytest

from dreaming.memory import context_cache
from dreaming.memory.context import memory_md_render
from dreaming.models import Memory
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.recall import recall, recall_candidates
from dreaming.memory.recall_key import COARSE_CANDIDATES
from tests.factories import MemoryFactory, PersonaFactory, UserFactory
from tests.support.cache import eventually, settle

pytestmark = pytest.mark.django_db(transaction=True)
EMBEDDER = LocalEmbedder(dimensions=512)
TOPICS = ["hiking in the Alps", "sourdough bread", "a cat named Miso", "learning Japanese", "jazz piano",
          "running a marathon", "her sister Lena", "working as a nurse", "growing tomatoes", "chess openings"]


def memories_for(user, count, *, persona=None, start=0):
    made = []
    for i in range(start, start + count):
        statement = f"User talks about {TOPICS[i % len(TOPICS)]} (note {i})"
        made.append(MemoryFactory(user=user, statement=statement, persona=persona if i % 3 == 0 else None,
                                  importance=(i % 10) / 10, embedding=EMBEDDER.embed([statement])[0]))
    return made


def vector(text):
    return EMBEDDER.embed([text], kind="query")[0]


def test_the_cached_shortlist_is_the_index_scan_s_shortlist(live_cache):
    user, persona = UserFactory(), PersonaFactory()
    memories = memories_for(user, 260, persona=persona)
    Memory.objects.filter(pk__in=[m.pk for m in memories[::7]]).update(status=Memory.Status.ARCHIVED)
    MemoryFactory(user=user, statement="User has no vector yet", embedding=None)
    memories_for(UserFactory(), 30)  # someone else's
    exclude = [m.pk for m in memories[1:40:5]]
    for query in ("cat", "marathon training plan", "piano lessons with her sister"):
        for scope in (None, persona.pk):
            index = recall_candidates(user_id=user.pk, persona_id=scope, vector=vector(query), exclude_ids=exclude, cached=False)
            held = recall_candidates(user_id=user.pk, persona_id=scope, vector=vector(query), exclude_ids=exclude, cached=True)
            eligible = Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).exclude(pk__in=exclude)
            eligible = eligible.filter(persona__isnull=True) | eligible.filter(persona_id=scope)
            assert len(held) == len(index) == min(COARSE_CANDIDATES, eligible.count())
            assert sorted(held) == sorted(index)  # same rows, same exact distances


def test_a_warm_recall_is_three_queries_exact_stage_search_and_sources(live_cache, django_assert_num_queries):
    user = UserFactory()
    memories_for(user, 150)
    memory_md_render(user=user)
    settle()
    # MEMORY.md (then cached) + the user's keys + exact stage + excerpts' full-text search (no turn found) + sources
    with django_assert_num_queries(5):
        first = recall(user=user, query="sourdough", k=5)
    with django_assert_num_queries(3):  # exact stage + full-text search + sources: no scan of the user's rows
        second = recall(user=user, query="sourdough", k=5, record=False)
    assert [r.id for r in first] == [r.id for r in second] and "sourdough" in first[0].statement


def test_a_memory_learned_after_the_keys_were_read_is_recalled_once_notified(live_cache):
    user = UserFactory()
    memories_for(user, 40)
    assert all("Kilimanjaro" not in r.statement for r in recall(user=user, query="Kilimanjaro climb", k=5))
    fresh = MemoryFactory(user=user, statement="User climbed Kilimanjaro in June", embedding=EMBEDDER.embed(["User climbed Kilimanjaro in June"])[0])
    assert eventually(lambda: fresh.pk in [r.id for r in recall(user=user, query="Kilimanjaro climb", k=5, record=False)])


def test_a_deleted_or_archived_memory_is_never_returned_even_from_stale_keys(live_cache, monkeypatch):
    user = UserFactory()
    memories = memories_for(user, 40)
    cats = [m for m in memories if "Miso" in m.statement]
    assert {m.pk for m in cats} <= {r.id for r in recall(user=user, query="cat named Miso", k=10)}
    # The notifications have not arrived yet: the process still holds the old keys.
    monkeypatch.setattr(context_cache._recall_cache, "invalidate_user", lambda user_id: None)
    cats[0].delete()
    Memory.objects.filter(pk=cats[1].pk).update(status=Memory.Status.ARCHIVED)
    found = {r.id for r in recall(user=user, query="cat named Miso", k=10, record=False)}
    assert cats[0].pk not in found and cats[1].pk not in found
    assert {m.pk for m in cats[2:]} <= found


def test_only_changes_recall_reads_notify(live_cache):
    user = UserFactory()
    memory = memories_for(user, 1)[0]
    settle()
    cache = context_cache._recall_cache
    before = cache.invalidated.get(user.pk, -1)
    Memory.objects.filter(pk=memory.pk).update(score=0.9, statement="User talks about hiking in the Alps a lot")
    settle()  # notifications arrive in commit order: anything sent by the update is in by now
    assert cache.invalidated.get(user.pk, -1) == before
    Memory.objects.filter(pk=memory.pk).update(importance=0.95)  # changes the key
    settle()
    assert cache.invalidated.get(user.pk, -1) > before


def test_the_process_keeps_keys_for_at_most_recall_key_cache_size_users(live_cache, settings):
    settings.RECALL_KEY_CACHE_SIZE = 2
    users = [UserFactory() for _ in range(3)]
    for user in users:
        memories_for(user, 3)
    settle()
    for user in users:
        recall(user=user, query="piano", k=3, record=False)
    held = {key[0] for key in context_cache._recall_cache.entries}
    assert held == {users[1].pk, users[2].pk}
    block = context_cache._recall_cache.entries[(users[2].pk, None)]
    assert block.keys.dtype == np.float32 and block.keys.shape == (3, 64)
