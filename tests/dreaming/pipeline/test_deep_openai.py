"""Deep sleep through the OpenAI wire format (the fake local server): compare, accounting."""
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from dreaming.models import DiaryEntry, DreamRun, LLMCall, Memory
from dreaming.providers import get_embedder
from tests.factories import MemoryFactory, candidate_said

pytestmark = pytest.mark.django_db


def test_a_model_judged_contradiction_supersedes_and_the_calls_are_counted(user, openai_backend):
    since = timezone.now() - timedelta(days=300)
    shanghai = MemoryFactory(user=user, statement="User lives in Shanghai", category="fact",
                             valid_from=since, first_seen=since, last_seen=since)
    shanghai.embedding = get_embedder().embed([shanghai.statement])[0]
    shanghai.save(update_fields=["embedding"])
    said = timezone.now() - timedelta(hours=3)
    candidate_said(user=user, quote="I moved to Tokyo", statement="User moved to Tokyo", importance=0.8, said_at=said)
    openai_backend.queue_chat({"results": [
        {"index": 0, "relation": "contradicts", "memory_id": shanghai.pk, "reason": "moved city"}]})
    out = StringIO()

    call_command("dream", "--now", "--phase", "deep", stdout=out, stderr=StringIO())

    shanghai.refresh_from_db()
    tokyo = Memory.objects.get(user=user, status="active")
    assert (shanghai.status, shanghai.valid_to, shanghai.superseded_by) == ("superseded", said, tokyo)
    compare_request = openai_backend.chat_requests[0]
    assert "User moved to Tokyo" in compare_request.text() and f'id="{shanghai.pk}"' in compare_request.text()
    # The diary is written line by line from the night's changes (no narrate call), so forgetting
    # one memory can remove exactly its line.
    assert DiaryEntry.objects.get(user=user).narrative == (
        "1 thing changed:\n- “User lives in Shanghai” → “User moved to Tokyo”")
    run = DreamRun.objects.get(phase="deep")
    assert run.llm_calls == 1 == LLMCall.objects.filter(run=run, phase="deep").exclude(task="embed").count()
    assert run.embedding_calls == LLMCall.objects.filter(run=run, phase="deep", task="embed").count()
    assert "superseded 1" in out.getvalue() and "LLM calls 1" in out.getvalue()


def test_a_garbled_compare_answer_leaves_the_night_for_later(user, openai_backend):
    memory = MemoryFactory(user=user, statement="User lives in Shanghai")
    memory.embedding = get_embedder().embed([memory.statement])[0]
    memory.save(update_fields=["embedding"])
    candidate = candidate_said(user=user, quote="I moved to Tokyo", statement="User moved to Tokyo", importance=0.8)
    openai_backend.queue_prose()
    openai_backend.queue_prose()

    call_command("dream", "--now", "--phase", "deep", stdout=StringIO(), stderr=StringIO())

    candidate.refresh_from_db(); memory.refresh_from_db()
    assert candidate.status == "pending" and candidate.score is None
    assert memory.status == "active" and Memory.objects.filter(user=user).count() == 1
    assert not json.dumps(list(Memory.objects.values_list("statement", flat=True))).count("Tokyo")
