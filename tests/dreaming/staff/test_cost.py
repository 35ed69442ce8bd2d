"""Cost you can read (issue #17): prices per model for chat and embeddings, provider prefixes,
unpriced models flagged (never a silent $0), embedding tokens apart, per-user and per-task cost."""
import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from dreaming.protocol import CallContext
from dreaming.providers.accounting import embedding_cost, llm_call_record, llm_cost
from tests.factories import DreamRunFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_provider_prefix_is_understood_and_embedding_models_have_their_own_price(settings):
    settings.LLM_PRICES = {"gpt-4o-mini": [0.15, 0.60], "voyage-3.5-lite": [0.02], "text-embedding-3-large": [0.13]}
    settings.EMBEDDING_PRICE_PER_MTOK = 0.05
    direct = llm_cost(model="gpt-4o-mini", prompt_tokens=1_000_000, completion_tokens=0)
    assert llm_cost(model="openai/gpt-4o-mini", prompt_tokens=1_000_000, completion_tokens=0) == direct == Decimal("0.15")
    assert embedding_cost(model="text-embedding-3-large", tokens=1_000_000) == Decimal("0.13")
    assert embedding_cost(model="voyage-3.5-lite", tokens=1_000_000) == Decimal("0.02")
    assert embedding_cost(model="some-embedder", tokens=1_000_000) == Decimal("0.05")  # the default price


def test_the_report_splits_cost_by_user_and_task_counts_embeddings_apart_and_flags_unpriced_models(settings):
    settings.LLM_PRICES = {"gpt-4o-mini": [0.15, 0.60]}
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    run = DreamRunFactory(phase="light")
    for user, model, tokens in ((alice, "openai/gpt-4o-mini", 2_000_000), (bob, "gpt-4o-mini", 1_000_000),
                                (bob, "my-local-llama", 500)):
        llm_call_record(ctx=CallContext(user_id=user.pk, run_id=run.pk), task="extract", backend="openai", model=model,
                        prompt_tokens=tokens)
    llm_call_record(ctx=CallContext(user_id=alice.pk, run_id=run.pk), task="embed", backend="openai",
                    model="text-embedding-3-small", prompt_tokens=1000, cost_usd=Decimal("0.00002"))

    run.refresh_from_db()
    assert run.prompt_tokens == 3_000_500 and run.embedding_calls == 1 and run.llm_calls == 3  # embeddings apart

    out = StringIO()
    call_command("dream_report", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert [(u["user__username"], u["cost_usd"]) for u in report["top_users_this_month"]] == [
        ("alice", "0.300020"), ("bob", "0.150000")]
    assert {t["task"]: t["cost_usd"] for t in report["llm_by_task"]} == {"extract": "0.450000", "embed": "0.000020"}
    assert report["embedding_tokens"] == 1000
    assert report["unpriced_models"] == [{"model": "my-local-llama", "calls": 1, "tokens": 500}]

    text = StringIO()
    call_command("dream_report", stdout=text)
    assert "WARNING: model 'my-local-llama' has no LLM_PRICES entry" in text.getvalue()
    assert "Top users by cost this month: alice $0.300020" in text.getvalue()
