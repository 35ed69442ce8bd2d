"""Recall stats written in batches by the process's flusher (dreaming/memory/recall_stats.py)."""
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from dreaming.memory import recall_stats
from dreaming.memory.recall import recall
from dreaming.memory.recall_stats import (
    recall_stats_flush,
    recall_stats_note,
    recall_stats_stop,
)
from dreaming.models import Memory, MemoryRecall
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import MemoryFactory
from tests.support.cache import eventually

EMBEDDER = LocalEmbedder(dimensions=512)


def remember(user, statement):
    return MemoryFactory(user=user, statement=statement, embedding=EMBEDDER.embed([statement])[0])


def stats(memory):
    row = MemoryRecall.objects.filter(memory=memory).values_list("count", "last_recalled_at").first()
    return row or (0, None)


@pytest.fixture
def deferred(settings):
    settings.RECALL_STATS_FLUSH_SECONDS = 30  # the flusher waits: the test flushes when it wants to
    yield settings
    recall_stats_stop()


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_recall_only_notes_its_stats_and_one_flush_writes_them_all(user, deferred):
    dog = remember(user, "User has a dog named Milo")
    sail = remember(user, "User likes sailing")
    first, second = timezone.now() - timedelta(minutes=5), timezone.now()

    recall(user=user, query="Milo the dog", k=1, embedder=EMBEDDER, exclude_ids=[], now=first)
    recall(user=user, query="Milo the dog", k=1, embedder=EMBEDDER, exclude_ids=[], now=second)

    assert not connection.in_atomic_block
    assert stats(dog) == (0, None)  # nothing written on the recall's path
    assert recall_stats_flush() == 1
    assert stats(dog) == (2, second) and stats(sail) == (0, None)
    assert recall_stats_flush() == 0  # nothing left


@pytest.mark.django_db(transaction=True)
def test_the_flusher_writes_the_counts_by_itself(user, deferred):
    deferred.RECALL_STATS_FLUSH_SECONDS = 0.05
    dog = remember(user, "User has a dog named Milo")

    recall(user=user, query="Milo the dog", k=1, embedder=EMBEDDER, exclude_ids=[])

    assert eventually(lambda: stats(dog)[0] == 1)
    assert eventually(lambda: not recall_stats._pending)


@pytest.mark.django_db(transaction=True)
def test_a_memory_deleted_before_the_flush_leaves_the_others_counted(user, deferred):
    kept = remember(user, "User plays the cello")
    gone = remember(user, "User plays the oboe")
    recall_stats_note(ids=[kept.pk, gone.pk], now=timezone.now())
    Memory.objects.filter(pk=gone.pk).delete()

    assert recall_stats_flush() == 1
    assert stats(kept)[0] == 1 and not MemoryRecall.objects.filter(memory_id=gone.pk).exists()


def test_inside_a_transaction_the_stats_are_written_with_the_recall(user, deferred):
    dog = remember(user, "User has a dog named Milo")

    recall(user=user, query="Milo the dog", k=1, embedder=EMBEDDER, exclude_ids=[])

    assert connection.in_atomic_block
    assert stats(dog)[0] == 1 and not recall_stats._pending


@pytest.mark.django_db(transaction=True)
def test_counts_that_could_not_be_written_wait_for_the_next_round(user, deferred, monkeypatch):
    from django.db import OperationalError

    dog = remember(user, "User has a dog named Milo")
    recall_stats_note(ids=[dog.pk], now=timezone.now())
    monkeypatch.setattr(recall_stats, "_write", lambda params: (_ for _ in ()).throw(OperationalError("gone")))
    assert recall_stats_flush() == 0
    monkeypatch.undo()
    recall_stats_note(ids=[dog.pk], now=timezone.now())

    assert recall_stats_flush() == 1
    assert stats(dog)[0] == 2
