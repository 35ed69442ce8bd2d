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


def _memory_with_vector(user, statement, *, since):
    memory = MemoryFactory(user=user, statement=statement, category="relation", valid_from=since, first_seen=since,
                           last_seen=since)
    memory.embedding = get_embedder().embed([statement])[0]
    memory.save(update_fields=["embedding"])
    return memory


def test_adds_detail_rewords_the_memory_and_keeps_its_sources_and_the_compare_sees_dates(user, openai_backend):
    since = timezone.now() - timedelta(days=30)
    dog = _memory_with_vector(user, "User has a dog", since=since)
    said = timezone.now() - timedelta(hours=3)
    candidate = candidate_said(user=user, quote="my dog is called Milo", statement="User's dog is called Milo",
                               importance=0.8, said_at=said)
    openai_backend.queue_chat({"results": [{"index": 0, "relation": "adds_detail", "memory_id": dog.pk,
                                            "statement": "User has a dog named Milo", "reason": "adds the name"}]})

    call_command("dream", "--now", "--phase", "deep", stdout=StringIO(), stderr=StringIO())

    dog.refresh_from_db()
    candidate.refresh_from_db()
    assert dog.statement == "User has a dog named Milo" and dog.status == "active"
    assert Memory.objects.filter(user=user).count() == 1  # no second memory
    assert candidate.memory == dog and candidate.status == "merged"
    assert dog.sources.filter(quote="my dog is called Milo").exists()
    sent = openai_backend.chat_requests[0].text()
    assert f'said="{since:%Y-%m-%d}"' in sent and f'said="{said:%Y-%m-%d}"' in sent


def test_a_missing_verdict_waits_instead_of_creating_a_duplicate(user, openai_backend):
    since = timezone.now() - timedelta(days=30)
    _memory_with_vector(user, "User has a dog named Milo", since=since)
    candidate = candidate_said(user=user, quote="I have a dog named Milo", statement="User has a dog named Milo",
                               importance=0.9, said_at=timezone.now() - timedelta(hours=3))
    openai_backend.queue_chat({"results": []})  # the model forgot the verdict

    call_command("dream", "--now", "--phase", "deep", stdout=StringIO(), stderr=StringIO())

    candidate.refresh_from_db()
    assert Memory.objects.filter(user=user).count() == 1
    assert candidate.status == "pending" and candidate.score is None  # asked again next night


def _night_with_a_compare(user):
    since = timezone.now() - timedelta(days=300)
    _memory_with_vector(user, "User lives in Shanghai", since=since)
    candidate_said(user=user, quote="I moved to Tokyo last week", statement="User moved to Tokyo", importance=0.9,
                   said_at=timezone.now() - timedelta(hours=3))


def test_the_diary_costs_no_model_call_and_each_paid_call_is_one_row(user, openai_backend, settings):
    # The diary is written line by line from the night's decisions (so forgetting one memory removes
    # exactly its line): no narrate call that could fail and undo a night, nothing paid for it.
    settings.LLM_MAX_RETRIES = 0
    _night_with_a_compare(user)
    openai_backend.queue_chat({"results": [{"index": 0, "relation": "new", "memory_id": None, "reason": "r"}]})
    openai_backend.queue_prose()  # would be the narrate answer, if one were asked for

    call_command("dream", "--now", "--phase", "deep", stdout=StringIO(), stderr=StringIO())

    assert Memory.objects.filter(user=user, statement="User moved to Tokyo", status="active").exists()
    assert DiaryEntry.objects.filter(user=user).count() == 1
    assert LLMCall.objects.exclude(task="embed").count() == len(openai_backend.chat_requests) == 1
    run = DreamRun.objects.get(phase="deep")
    assert run.status == "ok" and run.llm_calls == 1 and run.promoted == 1


def test_a_compare_outage_rolls_the_night_back_but_keeps_the_paid_calls(user, openai_backend, settings):
    settings.LLM_MAX_RETRIES = 0
    _night_with_a_compare(user)
    openai_backend.queue_error(503)

    from dreaming.pipeline.deep import deep_sleep_all

    run = deep_sleep_all()

    assert run.status == "failed" and not Memory.objects.filter(user=user, statement="User moved to Tokyo").exists()
    assert LLMCall.objects.exclude(task="embed").count() == len(openai_backend.chat_requests) == 1
    run.refresh_from_db()
    assert run.llm_calls == 1
