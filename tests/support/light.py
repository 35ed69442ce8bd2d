"""Light-sleep test helpers: fake backends at the model edge, idle sessions, messages, one sweep."""
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from chat.models import Message
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.protocol import ExtractedCandidate, TriageResult
from tests.factories import ChatSessionFactory


class FakeDreamer:
    """Records every call. By default triage says normal and extract turns each user turn it is
    given into one candidate quoting the whole turn (so every quote verifies)."""

    name = "fake"

    def __init__(self, *, triage=None, extract=None, triage_error=None, extract_error=None):
        self.calls = []
        self._triage = triage or TriageResult(kind="normal", reason="fake: normal")
        self._extract = extract
        self._triage_error = triage_error
        self._extract_error = extract_error

    def triage(self, *, turns, ctx):
        self.calls.append(("triage", list(turns), ctx))
        if self._triage_error:
            raise self._triage_error
        return self._triage

    def extract(self, *, turns, ctx):
        self.calls.append(("extract", list(turns), ctx))
        error = self._extract_error(turns) if callable(self._extract_error) else self._extract_error
        if error:
            raise error
        if self._extract is not None:
            return self._extract(turns) if callable(self._extract) else list(self._extract)
        return [
            ExtractedCandidate(
                quote=t.content, statement=f"User said: {t.content}", category="fact", importance=0.6,
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

    def embed(self, texts, *, kind="document"):
        self.calls.append(list(texts))
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
