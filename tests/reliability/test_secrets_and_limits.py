"""Secrets never leave or stick; API rate limits are per key and reset."""
import json
import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DiaryEntry, LLMCall, Memory, MemoryDocument, MemorySource
from tests.factories import UserFactory, api_key_create, client_user
from tests.support.fake_openai import default_chat_answer

SECRETS = [
    "sk-proj-Zq8vR2mT5xW9yB4nK7pL3sD6fG1hJ0aE",
    "hunter2-Sup3r-S3cret!",
    "4111 1111 1111 1111",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ",
]
TURNS = [
    ("user", "I have a dog named Milo and I live in Lisbon."),
    ("assistant", "Nice! Anything else?"),
    ("user", f"My OpenAI key is {SECRETS[0]} and my password is {SECRETS[1]}, keep them for me."),
    ("assistant", f"I should not keep {SECRETS[0]}; please rotate it."),
    ("user", f"Pay with my card {SECRETS[2]}. Also my AWS key {SECRETS[3]} and token {SECRETS[4]}."),
    ("user", f"I love hiking. By the way the wifi password is {SECRETS[1]}"),
]


def _greedy_model(recorded):
    """A model that tries to keep everything, including the secrets it should never have seen."""
    body = recorded.body
    task = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
    if task == "extract" or "TASK: extract" in recorded.text():
        return json.dumps({"candidates": [
            {"seq": 3, "quote": f"My OpenAI key is {SECRETS[0]}", "statement": f"User's OpenAI key is {SECRETS[0]}",
             "category": "fact", "importance": 0.9},
            {"seq": 5, "quote": f"Pay with my card {SECRETS[2]}", "statement": f"User's card is {SECRETS[2]}",
             "category": "fact", "importance": 0.9},
            {"seq": 1, "quote": "I have a dog named Milo", "statement": "User has a dog named Milo",
             "category": "fact", "importance": 0.9},
        ]})
    return default_chat_answer(body)


@pytest.mark.django_db
def test_credentials_in_a_chat_never_reach_the_model_a_candidate_a_memory_a_log_or_the_diary(openai_backend, caplog):
    caplog.set_level(logging.DEBUG)
    openai_backend.set_chat_responder(_greedy_model)
    user = UserFactory()
    quiet = timezone.now() - timedelta(hours=3)
    session = ChatSession.objects.create(user=user, started_at=quiet, last_active_at=quiet)
    for seq, (role, content) in enumerate(TURNS, start=1):
        Message.objects.create(session=session, seq=seq, role=role, content=content, created_at=quiet)

    light = light_sleep_sweep(worker="secrets")
    deep = deep_sleep_user(user=user, now=timezone.now())

    assert light.status == "ok" and deep.status == "ok", (light.error, deep.error)
    assert openai_backend.requests, "the model was never asked: the checks below would prove nothing"
    assert Memory.objects.filter(user=user, statement__icontains="Milo").exists()  # real memories still made
    stored = " ".join(
        [c.quote + c.statement + c.reason for c in Candidate.objects.all()]
        + [m.statement for m in Memory.objects.all()]
        + [s.quote for s in MemorySource.objects.all()]
        + [d.narrative for d in DiaryEntry.objects.all()]
        + [d.content for d in MemoryDocument.objects.all()]
        + [c.error for c in LLMCall.objects.all()]
        + [session.__class__.objects.get(pk=session.pk).last_error]
    )
    sent = "\n".join(json.dumps(r.body) if not isinstance(r.body, str) else r.body for r in openai_backend.requests)
    logs = caplog.text
    for secret in SECRETS:
        for fragment in {secret, secret.replace(" ", "")}:
            assert fragment not in sent, f"{fragment} was sent to the model"
            assert fragment not in stored, f"{fragment} was stored on the memory side"
            assert fragment not in logs, f"{fragment} was logged"
    print(f"\nsecrets: {len(SECRETS)} credentials, {len(openai_backend.requests)} model requests checked, 0 leaks")


@pytest.mark.django_db
def test_rate_limits_are_per_key_and_reset_with_the_window(client, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    key, first = api_key_create("client-a")
    second = api_key_create("client-b", client=key.client)[1]  # a second key of the same client
    client_user(key.client, "alice")

    def hit(secret):
        return client.get("/api/v1/users/alice/sessions", HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert [hit(first).status_code for _ in range(3)] == [200, 200, 200]
    refused = hit(first)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert "detail" in refused.json()
    # The other key is untouched by the first one's flood, and has its own full budget.
    assert [hit(second).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert hit(first).status_code == 429
    # The window passes (moved back in the database, no sleeping): the first key is served again.
    from chat.models import ApiKey

    ApiKey.objects.update(rate_window_start=timezone.now() - timedelta(seconds=61))
    assert hit(first).status_code == 200 and hit(second).status_code == 200
