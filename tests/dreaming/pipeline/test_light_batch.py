"""Light sleep's batch (dreaming/pipeline/light_batch.py): read once, written together, one bad session isolated."""
import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.test.utils import CaptureQueriesContext

from chat.models import ChatSession
from dreaming.memory.tombstones import tombstone_add
from dreaming.models import Candidate
from dreaming.pipeline import light
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.protocol import ExtractedCandidate
from tests.support.light import FakeDreamer, FakeEmbedder, idle_session, messages_add, sweep


@pytest.fixture
def one_write(monkeypatch):
    """The whole batch in one write however slow the machine (light sleep writes at least once a second)."""
    monkeypatch.setattr(light, "FLUSH_SECONDS", 3600)


def _statements(queries, prefix: str, table: str) -> int:
    return sum(1 for q in queries if q["sql"].lstrip().upper().startswith(prefix) and table in q["sql"])


def test_a_batch_is_read_and_written_in_a_fixed_number_of_statements(user, other_user, one_write):
    sessions = [idle_session(owner) for owner in (user, other_user) * 3]
    for i, session in enumerate(sessions):
        messages_add(session, ("user", f"I live in city number {i}."), ("assistant", "Nice!"))
    tombstone_add(user=user, statement="User: I play the cello.")
    embedder = FakeEmbedder()

    with CaptureQueriesContext(connection) as captured:
        run = sweep(embedder=embedder)

    assert (run.sessions_claimed, run.sessions_done, run.candidates_created) == (6, 6, 6)
    queries = captured.captured_queries
    # Six sessions, yet one read of their messages and tombstones, one stamp, one insert, one excerpt index.
    assert _statements(queries, "SELECT", '"chat_message"') == 1
    assert _statements(queries, "SELECT", '"dreaming_tombstone"') == 1
    assert _statements(queries, "SELECT", '"dreaming_memorysettings"') == 1
    assert _statements(queries, "UPDATE", "chat_chatsession") == 1
    assert _statements(queries, "INSERT", '"dreaming_candidate"') == 1
    assert _statements(queries, "UPDATE", "chat_message") == 1
    assert _statements(queries, "SELECT", '"auth_user"') == 0
    assert len(embedder.calls) == 2  # one call per user of the batch, each with that user's 3 statements
    assert sorted(len(texts) for texts in embedder.calls) == [3, 3]
    assert ChatSession.objects.filter(dreamed_at__isnull=False, claimed_at__isnull=True).count() == 6
    assert Candidate.objects.filter(embedding__isnull=False).count() == 6


def test_a_session_that_breaks_the_batch_write_fails_alone_and_the_others_are_stored(user, other_user, one_write):
    before, poison, after = idle_session(user), idle_session(other_user), idle_session(user)
    for session, city in ((before, "Lisbon"), (poison, "Porto"), (after, "Faro")):
        messages_add(session, ("user", f"I live in {city}."))

    def extract(turns):
        # Postgres refuses a NUL character in text: the Porto candidate makes the batch's INSERT fail.
        said = turns[-1].content.rstrip(".")
        nul = "\x00" if "Porto" in said else ""
        return [ExtractedCandidate(quote=said, statement=said.replace("I live", "The user lives") + nul,
                                   category="fact", importance=0.6, user_initiated=True, seq=turns[-1].seq)]

    run = sweep(dreamer=FakeDreamer(extract=extract))

    for session in (before, poison, after):
        session.refresh_from_db()
    assert (run.status, run.sessions_claimed, run.sessions_done, run.sessions_failed) == ("failed", 3, 2, 1)
    assert run.candidates_created == 2 and run.error.startswith(f"session {poison.pk}: ")
    assert before.dreamed_at is not None and after.dreamed_at is not None and before.claimed_at is None
    # The poison session is not stamped: its error is on it and its claim is left to go stale (retried later).
    assert poison.dreamed_at is None and poison.claimed_at is not None and poison.last_error
    assert "NUL" in poison.last_error or "0x00" in poison.last_error
    assert set(Candidate.objects.values_list("session_id", flat=True)) == {before.pk, after.pk}
    assert Candidate.objects.count() == 2


def test_a_batch_write_stores_only_sessions_still_claimed_and_of_users_with_memory_on(user, other_user):
    from dreaming.models import MemorySettings

    switched_off, kept, taken_over = idle_session(user), idle_session(other_user), idle_session(other_user)
    for session in (switched_off, kept, taken_over):
        messages_add(session, ("user", "I live in Lisbon."))

    class MeanwhileDreamer(FakeDreamer):
        def extract(self, *, turns, ctx):
            if len(self.calls) == 1:  # while the model reads the first session, elsewhere:
                MemorySettings.objects.update_or_create(user=user, defaults={"enabled": False})
                ChatSession.objects.filter(pk=taken_over.pk).update(claimed_by="other", claimed_at=timezone.now())
            return super().extract(turns=turns, ctx=ctx)

    run = sweep(dreamer=MeanwhileDreamer(), worker="w1")

    for session in (switched_off, kept, taken_over):
        session.refresh_from_db()
    assert (run.sessions_claimed, run.sessions_done, run.sessions_failed) == (3, 1, 1)  # the lost claim failed
    assert kept.dreamed_at is not None and kept.claimed_at is None
    # Memory off: left as it was, claim given back, its attempt not counted.
    assert (switched_off.dreamed_at, switched_off.claimed_at, switched_off.attempts) == (None, None, 0)
    # Taken over: the other worker's claim stands and nothing of ours was written.
    assert taken_over.dreamed_at is None and taken_over.claimed_by == "other"
    assert list(Candidate.objects.values_list("session_id", flat=True)) == [kept.pk]
    assert run.candidates_created == 1


class CountingLocalEmbedder(LocalEmbedder):
    def __init__(self):
        super().__init__(dimensions=settings.EMBEDDING_DIM)
        self.calls = []

    def embed(self, texts, **kwargs):
        self.calls.append(list(texts))
        return super().embed(texts, **kwargs)


def test_an_offline_embedder_gets_every_user_s_statements_in_one_call(user, other_user, one_write):
    for i, owner in enumerate((user, other_user, user)):
        messages_add(idle_session(owner), ("user", f"I live in city number {i}."))
    embedder = CountingLocalEmbedder()

    run = sweep(embedder=embedder)

    assert len(embedder.calls) == 1 and len(embedder.calls[0]) == 3 and run.embedding_calls == 1
    for candidate in Candidate.objects.all():  # each vector went to its own statement
        assert list(candidate.embedding) == pytest.approx(list(embedder.embed_one(candidate.statement)))
