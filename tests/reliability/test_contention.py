"""Contention: several OS processes run the real light sweep (then deep sleep) against one Postgres.

The heavy version (8 processes × 10,000 sessions) is tests/stress/test_stress_contention.py; this is
the same attack, small enough for every `make test`.
"""
import random
import time

import pytest

from tests.stress.workload import (
    assert_deep_never_double_wrote,
    assert_light_exactly_once,
    sessions_seed,
    worker_start,
    workers_wait,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_worker_processes_process_every_session_exactly_once_and_deep_sleep_never_double_writes():
    session_ids = sessions_seed(users=15, sessions=300)
    start_at = time.time() + 2.0  # every worker has loaded Django before the first claim
    light = [worker_start("light", "--batch", "10", name=f"light{i}", start_at=start_at) for i in range(4)]
    reports = workers_wait(light, timeout=120)

    measured = assert_light_exactly_once(session_ids=session_ids, reports=reports)
    # They really contended: more than one process got work.
    assert measured["workers_that_did_work"] >= 2, measured

    from chat.models import ChatSession

    user_ids = sorted(set(ChatSession.objects.filter(pk__in=session_ids).values_list("user_id", flat=True)))
    start_at = time.time() + 2.5
    deep = []
    for i in range(3):  # three processes dream the same 15 users, each in its own order
        order = user_ids[:]
        random.Random(i).shuffle(order)
        deep.append(worker_start("deep", "--users", ",".join(map(str, order)), name=f"deep{i}", start_at=start_at))
    workers_wait(deep, timeout=120)
    written = assert_deep_never_double_wrote(user_ids=user_ids)
    # Something was actually written (the check above is not vacuous) and every candidate was decided.
    assert written["memories"] > 0 and written["decided"] == len(session_ids), written
    print(f"\ncontention (fast): {measured} deep: {written}")
