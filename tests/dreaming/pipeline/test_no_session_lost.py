"""No session is lost (issue #17), against the fake OpenAI server: a context-length error splits the
session, configuration errors stop the sweep without burning attempts, a streak of unusable answers
trips a circuit breaker, sessions given up on can be re-queued — and every paid request is one LLMCall row."""
from datetime import datetime, timedelta, timezone as dt_timezone
from io import StringIO

import pytest
from django.core.management import call_command

from chat.models import ChatSession
from dreaming.models import Candidate, LLMCall
from dreaming.pipeline.light import light_sleep_sweep
from tests.support.fake_openai import _task_of, default_chat_answer
from tests.support.night import chat

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 10, tzinfo=dt_timezone.utc)
LATER = START + timedelta(hours=5)
CONTEXT_ERROR = {"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages "
                                      "resulted in 9000 tokens.", "code": "context_length_exceeded"}}


def _one_row_per_request(fake):
    assert LLMCall.objects.exclude(task="embed").count() == len(fake.chat_requests)


def _sessions(user, count):
    return [chat(user, START, f"I have a dog named Milo {i} and I live in Lisbon.") for i in range(count)]


def _faithful(request):
    """Extract: one candidate per user turn in the transcript (its quote verbatim)."""
    if _task_of(request.body) != "extract":
        return default_chat_answer(request.body)
    text = request.messages[-1]["content"]
    lines = [line for line in text.splitlines() if "] user: " in line and " context]" not in line]
    candidates = []
    for line in lines:
        seq = int(line.split("seq=")[1].split()[0].rstrip("]"))
        quote = line.split("] user: ", 1)[1]
        candidates.append({"seq": seq, "quote": quote, "statement": f"User: {quote}", "category": "fact",
                           "importance": 0.5, "user_initiated": True})
    return {"kind": "normal", "reason": "personal", "candidates": candidates}


def test_a_session_longer_than_the_context_is_read_in_parts(user, openai_backend, settings):
    settings.LLM_SPLIT_TOKENS = 200
    turns = []
    for i in range(8):
        turns += [f"My friend number {i} is called Person{i} and lives in town {i}. " * 6, ("assistant", "Nice.")]
    session = chat(user, START, *turns)
    openai_backend.queue_error(400, body=CONTEXT_ERROR)
    openai_backend.set_chat_responder(_faithful)

    run = light_sleep_sweep(now=LATER)

    session.refresh_from_db()
    assert run.status == "ok" and session.dreamed_at is not None and session.last_error == ""
    parts = len(openai_backend.chat_requests) - 1
    assert parts >= 2  # split, not given up
    assert "read in" in session.triage_reason
    assert Candidate.objects.filter(session=session, status="pending").count() == 8
    _one_row_per_request(openai_backend)
    assert LLMCall.objects.filter(status="error").count() == 1


@pytest.mark.parametrize("status,body", [
    (400, {"error": {"message": "Unrecognized request argument supplied: temperature", "code": "invalid_request"}}),
    (401, {"error": {"message": "Incorrect API key provided"}}),
    (404, {"error": {"message": "The model `nope` does not exist", "code": "model_not_found"}}),
])
def test_a_configuration_error_stops_the_sweep_and_gives_every_claim_back(user, openai_backend, status, body):
    sessions = _sessions(user, 3)
    openai_backend.queue_error(status, body=body, times=5)

    run = light_sleep_sweep(now=LATER)

    assert run.status == "failed" and "misconfigured" in run.error
    assert len(openai_backend.chat_requests) == 1  # stopped at the first refusal, no format step-down
    for session in sessions:
        session.refresh_from_db()
        assert (session.dreamed_at, session.claimed_at, session.attempts) == (None, None, 0)
        assert session.last_error.startswith("provider misconfigured")
    _one_row_per_request(openai_backend)

    openai_backend.reset()  # fixed: the next sweep dreams them all
    assert light_sleep_sweep(now=LATER).sessions_done == 3


def test_a_format_error_still_steps_down_the_response_format(user, openai_backend):
    chat(user, START, "I have a dog named Milo and I live in Lisbon.")
    openai_backend.queue_error(400, body={"error": {"message": "response_format json_schema is not supported"}})

    run = light_sleep_sweep(now=LATER)

    formats = [r.body.get("response_format", {}).get("type") for r in openai_backend.chat_requests]
    assert run.status == "ok" and formats == ["json_schema", "json_object"]
    _one_row_per_request(openai_backend)


def test_unusable_answers_in_a_row_trip_the_circuit_breaker(user, openai_backend, settings):
    settings.DREAM_UNUSABLE_STREAK = 3
    sessions = _sessions(user, 4)
    openai_backend.set_chat_responder(lambda request: "Sure! The user seems lovely.")

    run = light_sleep_sweep(now=LATER)

    assert run.status == "failed" and "circuit breaker: 3 unusable answers in a row" in run.error
    assert len(openai_backend.chat_requests) == 3  # the fourth session was not tried
    for session in sessions:
        session.refresh_from_db()
        assert (session.dreamed_at, session.claimed_at, session.attempts) == (None, None, 0)
    _one_row_per_request(openai_backend)
    assert LLMCall.objects.filter(status="unusable").count() == 3


def test_one_unusable_answer_is_retried_later_not_stamped_empty(user, openai_backend):
    bad, good = _sessions(user, 2)
    openai_backend.queue_prose()
    openai_backend.set_chat_responder(_faithful)

    run = light_sleep_sweep(now=LATER)

    bad.refresh_from_db()
    good.refresh_from_db()
    assert good.dreamed_at is not None and bad.dreamed_at is None
    assert bad.attempts == 1 and "UnusableAnswer" in bad.last_error and run.status == "failed"
    ChatSession.objects.filter(pk=bad.pk).update(claimed_at=None)  # its claim went stale
    light_sleep_sweep(now=LATER)
    bad.refresh_from_db()
    assert bad.dreamed_at is not None and Candidate.objects.filter(session=bad).count() == 1


def test_a_session_given_up_on_is_requeued_by_retry_failed(user, openai_backend, settings):
    settings.DREAM_MAX_ATTEMPTS = 1
    settings.DREAM_UNUSABLE_STREAK = 5
    [session] = _sessions(user, 1)
    openai_backend.queue_prose()
    light_sleep_sweep(now=LATER)
    session.refresh_from_db()
    assert session.last_error.startswith("gave up after 1 attempts (from seq 0)") and session.dreamed_at is not None

    out = StringIO()
    call_command("dream", "--retry-failed", "--user", user.username, stdout=out)
    assert out.getvalue().startswith("1 session(s) re-queued")
    openai_backend.set_chat_responder(_faithful)
    light_sleep_sweep(now=LATER)

    session.refresh_from_db()
    assert session.last_error == "" and Candidate.objects.filter(session=session, status="pending").count() == 1


def test_an_embedding_failure_after_extract_is_not_paid_twice_and_deep_sleep_embeds_later(user, openai_backend, settings):
    from dreaming.pipeline.deep import deep_sleep_all

    settings.EMBEDDING_MAX_RETRIES = 0
    [session] = _sessions(user, 1)
    openai_backend.set_chat_responder(_faithful)
    openai_backend.queue_error(500, endpoint="embeddings")

    light_sleep_sweep(now=LATER)

    session.refresh_from_db()
    candidate = Candidate.objects.get(session=session)
    assert session.dreamed_at is not None and candidate.embedding is None and candidate.status == "pending"
    assert LLMCall.objects.filter(task="extract").count() == 1
    assert LLMCall.objects.count() == len(openai_backend.chat_requests) + len(openai_backend.embedding_requests)

    deep_sleep_all(now=LATER + timedelta(hours=12))

    candidate.refresh_from_db()
    assert candidate.embedding is not None and LLMCall.objects.filter(task="extract").count() == 1
