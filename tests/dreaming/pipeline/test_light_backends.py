"""Light sleep end to end with the real backends: the local rules engine (EN + ZH) and the OpenAI
dreamer/embedder against the fake OpenAI server (nothing leaves the machine).

Assertions about the local engine stay robust to rule tuning: they ask for "at least one verified
candidate about Milo", never for an exact list.
"""
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import ChatSession
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, LLMCall
from dreaming.engine.quotes import quote_in_text
from tests.support.light import messages_add, idle_session

EN = [
    ("user", "Hi! I just adopted a dog named Milo, he is a beagle."),
    ("assistant", "That sounds lovely. How old is he?"),
    ("user", "He is two years old. I live in Lisbon with my partner Sara and I work as a teacher."),
    ("assistant", "What do you like to do on weekends?"),
    ("user", "I love hiking in the mountains, and I hate crowded beaches."),
]
ZH = [
    ("user", "我上个月养了一只猫，叫米洛。"),
    ("assistant", "好可爱！它是什么品种？"),
    ("user", "是一只橘猫。我住在杭州，平时喜欢爬山。"),
    ("assistant", "周末一般做什么？"),
    ("user", "我喜欢爬山，不喜欢人多的海滩。"),
]


@pytest.fixture
def local_backends(settings):
    settings.LLM_BACKEND = "local"
    settings.EMBEDDING_BACKEND = "local"


def _assert_every_pending_candidate_is_a_verified_user_quote(session):
    pending = list(Candidate.objects.filter(session=session, status=Candidate.Status.PENDING).select_related("message"))
    for candidate in pending:
        assert candidate.verified and candidate.message.role == "user"
        assert quote_in_text(quote=candidate.quote, text=candidate.message.content)
        assert candidate.said_at == candidate.message.created_at
        assert candidate.embedding is not None
    return pending


def test_an_english_session_dreams_with_the_local_engine(user, local_backends):
    session = idle_session(user)
    messages_add(session, *EN)

    run = light_sleep_sweep(worker="local-en")

    pending = _assert_every_pending_candidate_is_a_verified_user_quote(session)
    assert any("Milo" in c.quote and "Milo" in c.statement for c in pending)
    assert not Candidate.objects.filter(session=session, status=Candidate.Status.REJECTED_UNVERIFIED).exists()
    session.refresh_from_db()
    assert (session.triage_kind, session.skipped, session.processed_seq) == ("normal", False, 5)
    assert run.candidates_created == len(pending) >= 1 and run.embedding_calls == 1
    assert run.llm_calls == 0 and not LLMCall.objects.exists()  # the local engine costs nothing


def test_a_chinese_session_dreams_with_the_local_engine(user, local_backends):
    session = idle_session(user)
    messages_add(session, *ZH)

    light_sleep_sweep(worker="local-zh")

    pending = _assert_every_pending_candidate_is_a_verified_user_quote(session)
    assert any("猫" in c.quote for c in pending)
    assert all("用户" in c.statement for c in pending)  # statements stay in the user's language


def test_the_local_engine_keeps_sensitive_turns_out_in_both_languages(user, local_backends):
    session = idle_session(user)
    messages_add(session, ("user", "I have a dog named Milo."), ("user", "I was diagnosed with diabetes in May."),
         ("user", "我最近确诊了抑郁症，在吃药。"), ("user", "My password is correcthorse99."),
         ("user", "I go to church every Sunday with my mum."))

    run = light_sleep_sweep()

    texts = " ".join(Candidate.objects.values_list("quote", flat=True)) + " ".join(
        Candidate.objects.values_list("statement", flat=True))
    for word in ("diabetes", "抑郁", "correcthorse", "password", "church"):
        assert word not in texts
    assert "Milo" in texts
    assert run.sensitive_dropped == 4


def test_the_local_engine_skips_a_coding_session(user, local_backends):
    session = idle_session(user)
    messages_add(session, ("user", "Fix this:\n```python\nfor i in range(10)\n    print(i)\n```\nSyntaxError: invalid syntax"),
         ("assistant", "Add a colon:\n```python\nfor i in range(10):\n    print(i)\n```"))
    run = light_sleep_sweep()
    session.refresh_from_db()
    assert (session.triage_kind, session.skipped) == ("coding", True) and session.triage_reason
    assert run.skipped_by_kind == {"coding": 1} and not Candidate.objects.exists()


def test_the_local_engine_reprocesses_only_the_new_part(user, local_backends):
    session = idle_session(user)
    messages_add(session, *EN[:2])
    light_sleep_sweep()
    before = set(Candidate.objects.values_list("quote", flat=True))
    assert any("Milo" in q for q in before)

    messages_add(session, *EN[2:], start_seq=3)
    ChatSession.objects.filter(pk=session.pk).update(last_active_at=timezone.now() - timedelta(hours=1))
    light_sleep_sweep()

    after = list(Candidate.objects.values_list("quote", flat=True))
    assert len(after) == len(set(after))  # nothing from the first part learned twice
    assert any("Lisbon" in q for q in set(after) - before)
    session.refresh_from_db()
    assert session.processed_seq == 5


# --- the remote backend, against the fake OpenAI server -------------------------------------------


def test_remote_calls_are_accounted_on_the_run_and_secrets_never_leave(user, openai_backend):
    fake = openai_backend
    session = idle_session(user)
    key = "sk-live-AbCdEfGhIjKlMnOpQrStUvWx"
    messages_add(session, ("user", "I adopted a dog named Milo."), ("assistant", f"Noted. Also, your key {key} leaked."),
         ("user", "Thanks! Milo is a beagle."))
    fake.queue_chat({"kind": "normal", "reason": "personal chat", "candidates": [
        {"seq": 1, "quote": "I adopted a dog named Milo", "statement": "User adopted a dog named Milo.",
         "category": "relation", "importance": 0.8, "user_initiated": True},
        {"seq": 3, "quote": "Milo is a golden retriever", "statement": "User's dog is a golden retriever.",
         "category": "fact", "importance": 0.5, "user_initiated": True},
    ]})

    run = light_sleep_sweep(worker="remote")

    assert all(key not in r.text() for r in fake.chat_requests)
    assert run.llm_calls == 1 and LLMCall.objects.filter(run=run, phase="light").exclude(task="embed").count() == 1
    assert run.embedding_calls == 1 and len(fake.embedding_requests) == 1
    kept = Candidate.objects.get(status=Candidate.Status.PENDING)
    assert kept.quote == "I adopted a dog named Milo" and kept.category == "relation"
    assert Candidate.objects.get(status=Candidate.Status.REJECTED_UNVERIFIED).statement.endswith("golden retriever.")
    session.refresh_from_db()
    assert session.dreamed_at is not None


def test_a_remote_precheck_skips_obvious_sessions_without_calling_the_server(user, openai_backend):
    session = idle_session(user)
    messages_add(session, ("user", "Translate this into German: The meeting is moved to Thursday at ten."))
    run = light_sleep_sweep()
    assert openai_backend.chat_requests == [] and run.llm_calls == 0
    session.refresh_from_db()
    assert session.triage_kind == "translation" and session.triage_reason.startswith("rule pre-check")


def test_a_remote_outage_leaves_the_session_for_the_next_sweep(user, openai_backend):
    session = idle_session(user)
    messages_add(session, ("user", "I adopted a dog named Milo."))
    openai_backend.queue_error(503, times=10)

    run = light_sleep_sweep()

    session.refresh_from_db()
    assert run.status == "failed" and session.dreamed_at is None and session.claimed_at is None
    assert session.last_error.startswith("provider unavailable")
    openai_backend.reset()  # the server is back: default answers (normal, no candidates)
    retry = light_sleep_sweep()
    session.refresh_from_db()
    assert retry.status == "ok" and session.dreamed_at is not None


def test_a_prose_answer_from_the_remote_model_is_retried_not_stamped_empty(user, openai_backend):
    session = idle_session(user)
    messages_add(session, ("user", "I adopted a dog named Milo."))
    for _ in range(4):  # the dreamer may retry or fall back; every answer is prose
        openai_backend.queue_prose()
    run = light_sleep_sweep()
    session.refresh_from_db()
    assert session.dreamed_at is None and session.attempts == 1 and run.sessions_failed == 1
    assert not Candidate.objects.exists()
