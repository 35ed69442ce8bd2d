"""Deep sleep's reinforcements, read once per compare batch (dreaming.pipeline.reinforce), and a scope's
active memories, read once per night (deep_compare.ScopeMemories)."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dreaming.models import Candidate, Memory
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.deep_compare import ScopeMemories
from tests.factories import MemoryFactory, MemorySourceFactory, candidate_said
from tests.support.deep import EMBEDDER, ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


def test_two_clusters_of_one_batch_reinforcing_one_memory_keep_the_first_and_newest_sources(user):
    start = NOW - timedelta(days=30)
    milo = MemoryFactory(user=user, statement="User has a dog named Milo", recurrence=4, confidence=0.6,
                         first_seen=start, last_seen=start, valid_from=start)
    milo.embedding = EMBEDDER.embed([milo.statement])[0]
    milo.save(update_fields=["embedding"])
    for day in range(4):
        MemorySourceFactory(memory=milo, quote=f"old {day}", said_at=start + timedelta(days=day))
    # Two categories: two clusters in the same compare batch, both saying what Milo's memory says.
    for hours in (9, 8):
        candidate_said(user=user, quote=f"fact {hours}", statement="User has a dog called Milo",
                       said_at=NOW - timedelta(hours=hours))
    for hours in (5, 4, 3):
        candidate_said(user=user, quote=f"liking {hours}", statement="User loves their dog Milo",
                       category="preference", said_at=NOW - timedelta(hours=hours))
    dreamer = ScriptedDreamer({"User has a dog called Milo": ("reinforces", "User has a dog named Milo"),
                               "User loves their dog Milo": ("reinforces", "User has a dog named Milo")})

    run = deep_sleep_user(user=user, now=NOW, dreamer=dreamer, embedder=EMBEDDER)

    milo.refresh_from_db()
    assert run.reinforced == 2 and run.promoted == 0, run.error
    assert len(dreamer.compared) == 1  # one batch
    quotes = list(milo.sources.order_by("said_at", "pk").values_list("quote", flat=True))
    assert quotes == ["old 0", "fact 8", "liking 5", "liking 4", "liking 3"]
    # Five new sessions (the old sources' four still count: the first reinforcement read them before
    # dropping any; the second counts the first's candidates).
    assert milo.recurrence == 9 and milo.last_seen == NOW - timedelta(hours=3)
    assert Candidate.objects.filter(user=user, status=Candidate.Status.MERGED, memory=milo).count() == 5


def test_a_scope_is_read_once_and_kept_current_as_the_night_makes_and_supersedes_memories(user):
    tokyo = MemoryFactory(user=user, statement="User lives in Tokyo")
    memories = ScopeMemories(user=user, lock=False)
    assert [m.pk for m in memories.active(None)] == [tokyo.pk]

    made = Memory(user=user, persona_id=None, statement="User lives in Osaka", last_seen=tokyo.last_seen, pk=10**9)
    with CaptureQueriesContext(connection) as captured:
        memories.added(made)
        memories.gone(tokyo)
        active = memories.active(None)
    assert [m.pk for m in active] == [made.pk] and len(captured) == 0

    meanwhile = MemoryFactory(user=user, statement="User lives in Kyoto")  # written by the user mid-night
    assert [m.pk for m in memories.these(None, [meanwhile.pk, made.pk])] == [meanwhile.pk, made.pk]
