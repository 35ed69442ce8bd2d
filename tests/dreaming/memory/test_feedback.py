"""Feedback applied during deep sleep: deltas, exactly once, reject tombstones and removes from use."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.pipeline.deep import deep_sleep_all, deep_sleep_user
from dreaming.memory.feedback import feedback_apply_pending
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemoryDocument
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.tombstones import is_tombstoned
from tests.factories import MemoryFactory, candidate_said
from tests.support.deep import ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)
EMBEDDER = LocalEmbedder(dimensions=512)


def feedback(memory, verdict):
    return Feedback.objects.create(user=memory.user, memory=memory, verdict=verdict)


def night(user, now=NOW):
    return deep_sleep_user(user=user, now=now, dreamer=ScriptedDreamer(), embedder=EMBEDDER)


@pytest.mark.parametrize("verdict, expected", [("agree", 0.70), ("doubt", 0.45), ("reject", 0.25)])
def test_each_verdict_moves_confidence_by_its_delta(user, verdict, expected):
    memory = MemoryFactory(user=user, confidence=0.60)
    given = feedback(memory, verdict)

    run = night(user)

    memory.refresh_from_db(); given.refresh_from_db()
    assert memory.confidence == pytest.approx(expected)
    assert given.applied_at == NOW and run.feedback_applied == 1
    assert memory.score_breakdown["feedback_log"][-1]["verdict"] == verdict


def test_feedback_is_applied_exactly_once(user):
    memory = MemoryFactory(user=user, confidence=0.60)
    feedback(memory, "agree")

    night(user)
    second = night(user, now=NOW + timedelta(days=1))
    direct = feedback_apply_pending(user=user, now=NOW + timedelta(days=2))

    memory.refresh_from_db()
    assert memory.confidence == pytest.approx(0.70)
    assert second.feedback_applied == 0 and direct.applied == 0
    assert len(memory.score_breakdown["feedback_log"]) == 1


def test_agree_refreshes_last_seen_so_the_memory_resists_decay(user):
    long_ago = NOW - timedelta(days=200)
    memory = MemoryFactory(user=user, confidence=0.5, last_seen=long_ago, first_seen=long_ago, valid_from=long_ago)
    feedback(memory, "agree")
    night(user)
    memory.refresh_from_db()
    assert memory.last_seen == NOW and memory.first_seen == long_ago


def test_confidence_is_clipped_to_the_documented_range(user):
    high = MemoryFactory(user=user, confidence=0.95)
    low = MemoryFactory(user=user, confidence=0.10)
    feedback(high, "agree")
    feedback(low, "doubt")
    night(user)
    high.refresh_from_db(); low.refresh_from_db()
    assert (high.confidence, low.confidence) == (0.98, 0.05)


def test_reject_removes_the_memory_from_use_and_it_is_never_learned_again(user):
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", confidence=0.8)
    feedback(memory, "reject")
    dreamer = ScriptedDreamer()

    run = deep_sleep_user(user=user, now=NOW, dreamer=dreamer, embedder=EMBEDDER)

    memory.refresh_from_db()
    assert memory.status == Memory.Status.ARCHIVED
    assert is_tombstoned(user=user, statement="User has a dog named Milo")
    assert "Milo" not in MemoryDocument.objects.get(user=user, persona=None).content
    assert run.feedback_applied == 1
    [line] = DiaryEntry.objects.get(user=user).lines  # the diary names what was let go
    assert (line["kind"], line["memory_ids"]) == ("let_go", [memory.pk])

    again = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                           importance=0.9, said_at=NOW + timedelta(hours=10))
    night(user, now=NOW + timedelta(days=1))
    again.refresh_from_db()
    assert again.status == Candidate.Status.DISMISSED
    assert Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).count() == 0


def test_deep_sleep_all_visits_users_with_only_pending_feedback(user, other_user):
    memory = MemoryFactory(user=user, confidence=0.6)
    feedback(memory, "doubt")
    MemoryFactory(user=other_user)

    run = deep_sleep_all(now=NOW, dreamer=ScriptedDreamer(), embedder=EMBEDDER)

    memory.refresh_from_db()
    assert run.users_processed == 1 and run.feedback_applied == 1
    assert memory.confidence == pytest.approx(0.45)
