"""Recall's memories held by the process: the exact score of every memory, two round trips per warm
recall in one pipeline (the excerpt search sent before the ranking, then the re-read with the sources;
one more when the stats are written with them), and never a deleted or archived memory — the memory table's notifications (migration 0009)
drop a user's memories, and the rows ranked first are re-read and re-checked.

Real commits (transaction=True): NOTIFY is delivered only at commit."""
from datetime import timedelta

import numpy as np
import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chat.models import Message
from dreaming.memory import context_cache, recall_held
from dreaming.memory.context import memory_md_render
from dreaming.memory.excerpts import excerpts_index
from dreaming.memory.recall import _memories_ranked, query_keywords, recall, recall_candidates, recall_score
from dreaming.memory.recall_key import COARSE_CANDIDATES
from dreaming.memory.services import memory_forget
from dreaming.models import Memory
from dreaming.providers.embedding_space import embedding_space_check_cached
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, PersonaFactory, UserFactory
from tests.dreaming.memory.conftest import statements_sent
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


def exact_scores(user, *, query, persona_id, exclude, now) -> dict[int, float]:
    """Every active memory of the scope scored by recall's formula, in Python: the reference."""
    keywords = query_keywords(query)
    q = np.asarray(vector(query), dtype=np.float64)
    scored = []
    for m in Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).exclude(pk__in=exclude):
        if m.persona_id not in (None, persona_id):
            continue
        e = None if m.embedding is None else np.asarray(m.embedding, dtype=np.float64)
        similarity = 0.0 if e is None else float(np.clip(e @ q / np.linalg.norm(e) / np.linalg.norm(q), 0, 1))
        total = sum(w for _, w in keywords)
        parts = {"similarity": similarity,
                 "text_match": sum(w for k, w in keywords if k in m.statement.lower()) / total if keywords else None,
                 "recency": float(np.exp(-max(0.0, (now - m.last_seen).total_seconds()) / (settings.RECALL_TAU_WEEKS * 7 * 86400))),
                 "importance": m.importance, "confidence": m.confidence}
        scored.append((m.pk, recall_score(parts)))
    return dict(scored)


@pytest.mark.parametrize("rescore_rows", [1000, 60])  # every memory scored exactly; the basis estimate first
def test_the_held_ranking_is_the_exact_score_of_every_memory(live_cache, monkeypatch, rescore_rows):
    monkeypatch.setattr(recall_held, "RESCORE_ROWS", rescore_rows)
    monkeypatch.setattr(recall_held, "BASIS_DIM", 16)
    user, persona = UserFactory(), PersonaFactory()
    memories = memories_for(user, 260, persona=persona)
    Memory.objects.filter(pk__in=[m.pk for m in memories[::7]]).update(status=Memory.Status.ARCHIVED)
    MemoryFactory(user=user, statement="User has no vector yet, but a cat", embedding=None)
    memories_for(UserFactory(), 30)  # someone else's
    exclude = [m.pk for m in memories[1:40:5]]
    now = timezone.now()
    for query in ("cat", "marathon training plan", "piano lessons with her sister Lena"):
        for scope in (None, persona.pk):
            ranked = _memories_ranked(user_id=user.pk, persona_id=scope, query=query, vector=vector(query),
                                      exclude_ids=exclude, now=now, wanted=20)
            exact = exact_scores(user, query=query, persona_id=scope, exclude=exclude, now=now)
            best = sorted(exact.values(), reverse=True)[:20]
            # The same top 20 up to ties (pgvector computes the distance in float4).
            assert len(ranked) == 20 and [exact[r.id] for r in ranked] == pytest.approx(best, abs=1e-6)
            index = recall_candidates(user_id=user.pk, persona_id=scope, vector=vector(query), exclude_ids=exclude, cached=False)
            assert len(index) == min(COARSE_CANDIDATES, len(exact))


def test_the_word_index_finds_a_keyword_wherever_a_substring_match_would():
    statements = ["User likes the Category theory", "用户喜欢喝乌龙茶", "User's cat-sitter is Ana", "İstanbul trip", ""]
    words = recall_held.WordIndex.build(statements)
    for keyword in ("cat", "categ", "乌龙", "喝乌", "ana", "istanbul", "i̇stanbul", "user", "trip", "zzz", "sitter"):
        expected = [row for row, s in enumerate(statements) if keyword in s.lower()]
        assert list(np.flatnonzero(words.holding(keyword))) == expected, keyword


def test_the_process_drops_the_least_recently_used_users_beyond_its_byte_budget():
    class Held:
        def __init__(self, nbytes):
            self.nbytes = nbytes

    cache = context_cache.MemoryMdCache(live=True)
    for user_id in (1, 2, 3):
        _, _, ticket = cache.lookup((user_id, None))
        assert cache.store((user_id, None), Held(400), ticket, max_entries=10, max_bytes=1000)
    assert list(cache.entries) == [(2, None), (3, None)]
    _, _, ticket = cache.lookup((4, None))
    assert cache.store((4, None), Held(5000), ticket, max_entries=10, max_bytes=1000)  # the newest always stays
    assert list(cache.entries) == [(4, None)] and cache.sizes == {(4, None): 5000}
    assert cache.held_bytes == 5000
    cache.invalidate_user(4)
    assert cache.entries == {} and cache.held_bytes == 0


def test_a_warm_recall_sends_the_search_before_ranking_then_the_re_read_with_sources(live_cache, monkeypatch):
    user = UserFactory()
    memories_for(user, 150)
    memory_md_render(user=user)
    embedding_space_check_cached()  # once per process, whichever test comes first
    settle()
    with CaptureQueriesContext(connection) as cold:
        first = recall(user=user, query="sourdough", k=5)
    # MEMORY.md (then cached), the user's memories; the connection's statements prepared in the pipeline
    assert [statements[0] for statements in statements_sent(cold)[:3]] == ["SELECT", "SELECT", "DEALLOCATE"]
    recall(user=user, query="bread", k=5, record=False)  # prepares the sources' statement (read with the stats above)
    ranked_after = []
    ranking = recall_held.held_ranking
    monkeypatch.setattr("dreaming.memory.recall.held_ranking",
                        lambda *a, **kw: ranked_after.append(statements_sent(warm)) or ranking(*a, **kw))
    with CaptureQueriesContext(connection) as warm:
        second = recall(user=user, query="sourdough", k=5, record=False)
    # the search goes out before the ranking (the server runs it meanwhile); no scan of the user's rows
    assert ranked_after == [[("SET", "EXECUTE recall_excerpt_search")]]
    assert statements_sent(warm) == [("SET", "EXECUTE recall_excerpt_search"),
                                     ("SET", "EXECUTE recall_held_read", "EXECUTE recall_sources_read")]
    assert [r.id for r in first] == [r.id for r in second] and "sourdough" in first[0].statement


def test_with_the_stats_noted_a_warm_recall_is_one_pipeline_and_keeps_its_sources(live_cache, settings):
    from dreaming.memory.recall_stats import recall_stats_stop
    from dreaming.models import MemoryRecall

    settings.RECALL_STATS_FLUSH_SECONDS = 30  # written when the test stops the flusher
    user = UserFactory()
    memories_for(user, 150)
    turn = Message.objects.create(session=ChatSessionFactory(user=user), seq=1, role="user", external_id="clint-1",
                                  content="My sourdough starter is called Clint.", created_at=timezone.now())
    memory = MemoryFactory(user=user, statement="User keeps a sourdough starter called Clint",
                           embedding=EMBEDDER.embed(["User keeps a sourdough starter called Clint"])[0])
    MemorySourceFactory(memory=memory, message=turn, quote="sourdough starter is called Clint")
    memory_md_render(user=user)
    embedding_space_check_cached()
    settle()
    recall(user=user, query="sourdough", k=5, record=False)  # reads the user's memories once

    with CaptureQueriesContext(connection) as warm:  # one pipeline, no statement of its own for the stats
        found = recall(user=user, query="the sourdough starter Clint", k=5, exclude_ids=[])
    recall_stats_stop()
    assert statements_sent(warm) == [("SET", "EXECUTE recall_excerpt_search"),
                                     ("SET", "EXECUTE recall_held_read", "EXECUTE recall_sources_read")]

    (clint,) = [r for r in found if r.id == memory.pk]
    assert [s["message_external_id"] for s in clint.sources] == ["clint-1"]
    assert all(r.sources == [] for r in found if r.id != memory.pk)
    recalled = [r.id for r in found if r.kind == "memory"]
    assert dict(MemoryRecall.objects.values_list("memory_id", "count")) == {i: 1 for i in recalled}


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
    # The notifications have not arrived yet: the process still holds the old memories.
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


def test_the_process_holds_memories_of_at_most_recall_key_cache_size_users(live_cache, settings):
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
    assert block.vectors.dtype == np.float32 and block.vectors.shape == (3, settings.EMBEDDING_DIM)
    assert block.keys is None  # 3 memories: all scored exactly, no basis needed


def test_products_in_blocks_equal_the_whole_product():
    rng = np.random.default_rng(3)
    for rows, columns in ((3000, 64), (1000, 512), (5, 512)):
        matrix, vector = rng.standard_normal((rows, columns), dtype=np.float32), rng.standard_normal(columns, dtype=np.float32)
        assert np.allclose(recall_held._product(matrix, vector), matrix @ vector, atol=1e-4)


def _kept_turns(user, *texts):
    at = timezone.now() - timedelta(days=3)
    session = ChatSessionFactory(user=user, started_at=at, last_active_at=at, dreamed_at=timezone.now(),
                                 processed_seq=len(texts), triage_kind="normal")
    turns = [Message.objects.create(session=session, seq=i, role="user", content=text, created_at=at,
                                    external_id=f"{session.external_id}-m{i}") for i, text in enumerate(texts, 1)]
    excerpts_index(user_id=user.pk, messages=turns)
    return turns


def test_the_excerpt_search_rides_in_the_pipeline_and_forgetting_holds(live_cache):
    user = UserFactory()
    memories_for(user, 150)  # more than MEMORY.md shows: some are left to re-read
    boat, job = _kept_turns(user, "We named the sailboat Perpetua.", "I secretly applied for a job at the Lisbon aquarium.")
    memory = MemoryFactory(user=user, statement="User applied for a job at the Lisbon aquarium",
                           embedding=EMBEDDER.embed(["User applied for a job at the Lisbon aquarium"])[0])
    MemorySourceFactory(memory=memory, message=job, quote="applied for a job at the Lisbon aquarium")
    memory_md_render(user=user)
    embedding_space_check_cached()
    settle()
    recall(user=user, query="sailboat", k=5, record=False)  # reads the user's memories once

    with CaptureQueriesContext(connection) as sent:  # the pipeline, then the sources with the stats upsert
        found = recall(user=user, query="sailboat Perpetua", k=5)
    assert statements_sent(sent) == [("SET", "EXECUTE recall_excerpt_search"), ("SET", "EXECUTE recall_held_read"), ("WITH",)]
    assert [r.id for r in found if r.kind == "excerpt"] == [boat.pk]

    memory_forget(memory=memory, by=user)
    assert eventually(lambda: all(r.kind != "excerpt" and "Lisbon" not in r.statement
                                  for r in recall(user=user, query="Lisbon aquarium job", k=5, record=False)))
