"""Ad-hoc recall timing (not part of the suite): 10k memories for one user interleaved in a bigger table."""
import os
import statistics
import time

import numpy as np
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dreaming.context import memory_md_get, memory_md_render
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.recall import recall

TOTAL = int(os.environ.get("TIMING_TOTAL", "200000"))
TARGET = 10_000
WORDS = "dog cat Milo Lisbon jazz marathon sister Ana tea coffee garden piano Paris work nurse chess hiking book movie birthday".split()


@pytest.mark.django_db(transaction=True)
def test_timing():
    rng = np.random.default_rng(1)
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"u{i}") for i in range(1 + TOTAL // 2000)])
    target = users[0]
    owner = rng.choice([u.pk for u in users[1:]], size=TOTAL)
    owner[rng.choice(TOTAL, TARGET, replace=False)] = target.pk
    embedder = LocalEmbedder(512)
    t = time.perf_counter()
    now = timezone.now()
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            "COPY dreaming_memory (user_id, statement, category, confidence, importance, status, user_set, valid_from, first_seen, last_seen,"
            " recurrence, recall_count, half_life_days, score, score_breakdown, embedding, created_at, updated_at) FROM STDIN"
        ) as copy:
            for i in range(TOTAL):
                v = rng.normal(size=512).astype(np.float32)
                v /= np.linalg.norm(v)
                words = " ".join(rng.choice(WORDS, 5))
                age = now - timezone.timedelta(days=int(rng.integers(0, 700)))
                copy.write_row((int(owner[i]), f"User {words} number {i}", "fact", float(rng.random()), float(rng.random()), "active", False,
                                age, age, age, 1, 0, 180.0, 0.0, "{}", "[" + ",".join("%.6f" % x for x in v) + "]", now, now))
        cursor.execute("ANALYZE dreaming_memory")
        cursor.execute("SELECT pg_size_pretty(pg_total_relation_size('dreaming_memory')), pg_size_pretty(pg_relation_size('memory_recall_cover_idx'))")
        print("\nloaded", TOTAL, "rows in %.0fs" % (time.perf_counter() - t), "table+toast+indexes, cover index:", cursor.fetchone())
    memory_md_render(user=target)
    queries = ["Milo the dog", "what does the user like to drink", "sister Ana birthday", "piano lessons in Paris", "用户的狗叫什么"]
    for q in queries * 2:
        recall(user=target, query=q, embedder=embedder)
    def measure(label, fn):
        times = []
        for i in range(200):
            t = time.perf_counter()
            fn(queries[i % len(queries)])
            times.append(time.perf_counter() - t)
        times.sort()
        print("%-28s p50 %.2f ms  p95 %.2f ms  max %.2f ms" % (label, 1000 * statistics.median(times), 1000 * times[189], 1000 * times[-1]))

    measure("recall k=10 (no vacuum yet)", lambda q: recall(user=target, query=q, embedder=embedder))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE dreaming_memory")
    for q in queries * 2:
        recall(user=target, query=q, embedder=embedder)
    for label, fn in [
        ("recall k=10", lambda q: recall(user=target, query=q, embedder=embedder)),
        ("memory_md_get", lambda q: memory_md_get(user=target)),
    ]:
        measure(label, fn)
    import cProfile, pstats
    prof = cProfile.Profile()
    prof.enable()
    for i in range(50):
        recall(user=target, query=queries[i % 5], embedder=embedder)
    prof.disable()
    with CaptureQueriesContext(connection) as ctx:
        recall(user=target, query="Milo the dog", embedder=embedder)
    for q in ctx.captured_queries:
        print(q["time"], q["sql"][:100].replace("\n", " "))
    sql = next(q["sql"] for q in ctx.captured_queries if "memory_recall_shortlist" in q["sql"]).replace("FROM memory_recall_shortlist", "FROM memory_recall_shortlist")
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
        print("\n".join(r[0] for r in cursor.fetchall() if "Sort Key" not in r[0]))
        cursor.execute("SELECT prosrc, proconfig FROM pg_proc WHERE proname = 'memory_recall_shortlist'")
        body, config = cursor.fetchone()
        for name, number in (("p_user_id", 1), ("p_persona_id", 2), ("p_vector", 3), ("p_exclude", 4), ("p_limit", 5)):
            body = body.replace(name, f"${number}")
        for setting in config:
            cursor.execute("SET " + setting)
        cursor.execute(f"PREPARE shortlist(bigint, bigint, vector, bigint[], integer) AS {body}")
        vector = "[" + ",".join(map(str, embedder.embed(["Milo the dog"])[0])) + "]"
        for _ in range(3):
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) EXECUTE shortlist(%s, NULL, %s::vector, '{}', 100)", [target.pk, vector])
            plan = [r[0] for r in cursor.fetchall() if "Sort Key" not in r[0]]
        print("\n".join(plan))
        cursor.execute("DEALLOCATE shortlist")
        cursor.execute("RESET ALL")
