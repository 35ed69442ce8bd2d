"""Two deep-sleep workers on the same user at the same time, on real parallel Postgres connections."""
import threading
import time
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.db import connection

from dreaming.pipeline.deep import deep_sleep_user
from dreaming.models import Candidate, DiaryEntry, DreamRun, Memory, MemorySource
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import UserFactory, candidate_said
from tests.support.deep import ScriptedDreamer

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


class SlowDreamer(ScriptedDreamer):
    """Narrating takes a while, so the first worker still holds the user's lock when the second arrives."""

    def narrate(self, *, changes, ctx):
        time.sleep(0.8)
        return super().narrate(changes=changes, ctx=ctx)


@pytest.mark.django_db(transaction=True)
def test_two_workers_on_the_same_user_never_double_write():
    user = UserFactory()
    statements = ["User has a dog named Milo", "User works as a nurse in Leeds", "User was born in Porto in 1990"]
    for hours, statement in enumerate(statements, start=2):
        candidate_said(user=user, quote=statement.replace("User", "I"), statement=statement, importance=0.8,
                       said_at=NOW - timedelta(hours=hours))
    start = threading.Barrier(2)
    runs, spans, errors = [], [], []

    def worker(name):
        try:
            start.wait()
            began = time.monotonic()
            runs.append(deep_sleep_user(user=user, now=NOW, dreamer=SlowDreamer(), embedder=LocalEmbedder(512), worker=name))
            spans.append((began, time.monotonic()))
        except Exception as exc:  # surfaced below; a thread's exception would otherwise vanish
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(f"w{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors, errors
    assert all(run.status == DreamRun.Status.OK for run in runs), [run.error for run in runs]
    # They really ran at the same time (both started before either finished) ...
    assert max(s for s, _ in spans) < min(e for _, e in spans)
    # ... and still: one memory per statement, one source each, one diary entry, one promotion each.
    assert sorted(Memory.objects.filter(user=user).values_list("statement", flat=True)) == sorted(statements)
    assert MemorySource.objects.filter(memory__user=user).count() == 3
    assert DiaryEntry.objects.filter(user=user).count() == 1
    assert sorted(run.promoted for run in runs) == [0, 3]
    assert set(Candidate.objects.filter(user=user).values_list("status", flat=True)) == {Candidate.Status.PROMOTED}
