"""Two django-q2 clusters share one database and run the same schedules: the nightly deep-sleep
schedule fires once, its units are planned once, and every user's night is applied once."""
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_q.models import Schedule, Task

from dreaming.models import DiaryEntry, DreamRun, NightUnit
from dreaming.pipeline import schedules
from tests.factories import UserFactory, candidate_said
from tests.stress.workload import ROOT, worker_env

USERS = 6


def _cluster_start(name: str) -> subprocess.Popen:
    env = worker_env(Q_WORKERS="1", RELIABILITY_WORKER=name)
    return subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_clusters_running_the_schedule_plan_the_night_once_and_apply_each_user_once():
    users = [UserFactory() for _ in range(USERS)]
    for i, user in enumerate(users):
        candidate_said(user=user, quote=f"I have a dog named Rex{i}", statement=f"User has a dog named Rex{i}",
                       importance=0.8)
    schedules.schedules_ensure(schedule_model=Schedule, reset=True)
    later = timezone.now() + timedelta(days=1)
    Schedule.objects.filter(name__in=(schedules.LIGHT, schedules.WEEKLY)).update(next_run=later)
    Schedule.objects.filter(name=schedules.DEEP).update(next_run=timezone.now() - timedelta(seconds=1))

    clusters = [_cluster_start("cluster-a"), _cluster_start("cluster-b")]
    try:
        deadline = time.monotonic() + 150  # django-q2's scheduler looks every ~30 s
        while NightUnit.objects.filter(phase="deep", status="done").count() < USERS:
            for cluster in clusters:
                assert cluster.poll() is None, cluster.stderr.read()[-3000:]
            assert time.monotonic() < deadline, "the clusters did not finish the night"
            time.sleep(0.5)
        time.sleep(35)  # one more scheduler pass on both clusters: the schedule must not fire again
    finally:
        for cluster in clusters:
            cluster.terminate()
        for cluster in clusters:
            try:
                cluster.wait(timeout=30)
            except subprocess.TimeoutExpired:
                cluster.kill()

    fired = Task.objects.filter(func="dreaming.tasks.deep_sleep_task")
    assert fired.count() == 1, list(fired.values_list("name", "started"))
    assert Schedule.objects.get(name=schedules.DEEP).next_run > timezone.now()
    assert NightUnit.objects.filter(phase="deep").count() == USERS  # planned once: one unit per user
    for user in users:
        assert DreamRun.objects.filter(phase="deep", user=user).count() == 1
        assert DiaryEntry.objects.filter(user=user).count() == 1
    connection.close()
