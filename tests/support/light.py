"""Light-sleep test helpers: fake backends at the model edge, idle sessions, messages, one sweep."""
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from chat.models import Message
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.protocol import ExtractedCandidate, SessionInfo, SessionReading, TriageResult
from dreaming.providers.accounting import dream_run_add_embedding_calls
from tests.factories import ChatSessionFactory


class FakeDreamer:
    """Records every call. By default the session reads as normal and each new user turn becomes one
    candidate quoting the whole turn (so every quote verifies)."""

    name = "fake"
    paid = True
    reads_memory_md = True

    def __init__(self, *, triage=None, extract=None, triage_error=None, extract_error=None):
        self.calls = []
        self._triage = triage or TriageResult(kind="normal", reason="fake: normal")
        self._extract = extract
        self._triage_error = triage_error
        self._extract_error = extract_error

    def read_session(self, *, turns, ctx, info=SessionInfo()):
        self.calls.append(("extract", list(turns), ctx))
        if self._triage_error:
            raise self._triage_error
        if self._triage.kind != "normal":
            return SessionReading(kind=self._triage.kind, reason=self._triage.reason)
        new = [t for t in turns if t.seq > info.new_from_seq]
        return SessionReading(reason=self._triage.reason, candidates=self.extract(turns=new, ctx=ctx))

    def extract(self, *, turns, ctx):
        """The candidates part of the reading (tests override it)."""
        error = self._extract_error(turns) if callable(self._extract_error) else self._extract_error
        if error:
            raise error
        if self._extract is not None:
            return self._extract(turns) if callable(self._extract) else list(self._extract)
        return [
            ExtractedCandidate(
                quote=t.content, statement=f"User: {t.content}", category="fact", importance=0.6,
                user_initiated=True, seq=t.seq,
            )
            for t in turns
            if t.role == "user"
        ]

    def tasks(self, name):
        return [call for call in self.calls if call[0] == name]

    def sent_text(self):
        return "\n".join(turn.content for _, turns, _ in self.calls for turn in turns)


class FakeEmbedder:
    name = "fake"

    def __init__(self):
        self.dimensions = settings.EMBEDDING_DIM
        self.calls = []

    def embed(self, texts, *, kind="document", ctx=None):
        self.calls.append(list(texts))
        if ctx is not None:
            dream_run_add_embedding_calls(run_id=ctx.run_id)
        return [[1.0] + [0.0] * (self.dimensions - 1) for _ in texts]


def messages_add(session, *turns, start_seq=1, minutes_apart=1):
    """Write (role, content) turns as messages; returns them."""
    messages = []
    for i, (role, content) in enumerate(turns):
        messages.append(
            Message.objects.create(
                session=session, seq=start_seq + i, role=role, content=content,
                created_at=session.started_at + timedelta(minutes=(start_seq + i) * minutes_apart),
            )
        )
    return messages


def idle_session(user, **kwargs):
    now = timezone.now()
    kwargs.setdefault("started_at", now - timedelta(hours=3))
    kwargs.setdefault("last_active_at", now - timedelta(hours=2))
    return ChatSessionFactory(user=user, **kwargs)


def sweep(**kwargs):
    kwargs.setdefault("dreamer", FakeDreamer())
    kwargs.setdefault("embedder", FakeEmbedder())
    return light_sleep_sweep(**kwargs)
