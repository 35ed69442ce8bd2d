"""Contention at scale: 8 worker processes over 10,000 idle sessions on the real Postgres, then deep
sleep for every user from 4 processes at once. Run with `make stress`."""
import os
import random
import time

import pytest

from chat.models import ChatSession
from tests.stress.workload import (
    assert_deep_never_double_wrote,
    assert_light_exactly_once,
    sessions_seed,
    worker_start,
    workers_wait,
)

pytestmark = [pytest.mark.stress, pytest.mark.django_db(transaction=True)]

SESSIONS = int(os.environ.get("STRESS_SESSIONS", "10000"))
WORKERS = int(os.environ.get("STRESS_WORKERS", "8"))
USERS = max(1, SESSIONS // 50)


def test_eight_processes_over_ten_thousand_sessions_process_each_exactly_once_and_deep_sleep_never_double_writes():
    began = time.monotonic()
    session_ids = sessions_seed(users=USERS, sessions=SESSIONS, prefix="stress")
    seeded = time.monotonic()
    start_at = time.time() + 4
    light = [worker_start("light", "--batch", "25", name=f"light{i}", start_at=start_at) for i in range(WORKERS)]
    reports = workers_wait(light, timeout=1500)
    swept = time.monotonic()

    measured = assert_light_exactly_once(session_ids=session_ids, reports=reports)
    assert measured["workers_that_did_work"] == WORKERS, measured

    user_ids = sorted(set(ChatSession.objects.filter(pk__in=session_ids).values_list("user_id", flat=True)))
    start_at = time.time() + 4
    deep = []
    for i in range(4):
        order = user_ids[:]
        random.Random(i).shuffle(order)
        deep.append(worker_start("deep", "--users", ",".join(map(str, order)), name=f"deep{i}", start_at=start_at))
    workers_wait(deep, timeout=1500)
    written = assert_deep_never_double_wrote(user_ids=user_ids)
    assert written["decided"] == SESSIONS, written
    done = time.monotonic()
    per_worker = sorted(r["claimed"] for r in reports)
    print(f"\nSTRESS contention: {SESSIONS} sessions / {WORKERS} processes: {measured}; "
          f"claimed per worker {per_worker}; seed {seeded - began:.1f} s, light {swept - seeded:.1f} s "
          f"({SESSIONS / (swept - seeded):.0f} sessions/s), deep x4 over {len(user_ids)} users "
          f"{done - swept:.1f} s: {written}")
