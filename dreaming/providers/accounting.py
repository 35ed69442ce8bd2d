"""What model calls cost: one LLMCall row per remote call, summed into the call's DreamRun.

`llm_call_record` is the single entry point. It writes the LLMCall row AND adds the call's numbers to
the DreamRun named in the CallContext (F() updates, so concurrent workers never lose counts).
Callers must therefore not add llm_calls / tokens / cost to the run themselves.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal

from django.conf import settings
from django.db.models import F

from dreaming.models import DreamRun, LLMCall
from dreaming.protocol import CallContext

ERROR_CHARS = 1000
# The LLMCall rows written inside llm_calls_survive_rollback(), to check once the block is left.
_watched: ContextVar[list | None] = ContextVar("llm_calls_watched", default=None)
_PER_MILLION = Decimal(1_000_000)
_COST_PLACES = Decimal("0.000001")


def model_price(model: str) -> list | None:
    """The model's LLM_PRICES entry: by its exact name, else without a provider prefix
    ("openai/gpt-4o-mini" → "gpt-4o-mini"). None for a model with no price (flagged in the reports)."""
    prices = settings.LLM_PRICES
    return prices.get(model) or (prices.get(model.rsplit("/", 1)[-1]) if "/" in model else None)


def llm_cost(*, model: str, prompt_tokens: int, completion_tokens: int) -> Decimal:
    """USD from settings.LLM_PRICES ({model: [prompt, completion] per million tokens}); unpriced → 0,
    and the reports list the model as unpriced (never a silent $0)."""
    price = model_price(model)
    if not price:
        return Decimal(0)
    prompt_price, completion_price = (Decimal(str(p)) for p in (list(price) + [0])[:2])
    cost = (prompt_price * prompt_tokens + completion_price * completion_tokens) / _PER_MILLION
    return cost.quantize(_COST_PLACES)


def embedding_cost(*, model: str, tokens: int) -> Decimal:
    """An embedding model's own LLM_PRICES entry ([USD per M tokens]), else EMBEDDING_PRICE_PER_MTOK."""
    price = model_price(model)
    per_million = Decimal(str(price[0])) if price else Decimal(str(settings.EMBEDDING_PRICE_PER_MTOK))
    return (per_million * tokens / _PER_MILLION).quantize(_COST_PLACES)


def llm_call_record(
    *,
    ctx: CallContext,
    task: str,
    backend: str,
    model: str,
    prompt_tokens: int = 0,
    completion_tokens: int = 0,
    latency_ms: int = 0,
    status: str = LLMCall.Status.OK,
    error: str = "",
    cost_usd: Decimal | None = None,
) -> LLMCall:
    if cost_usd is None:
        cost_usd = llm_cost(model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
    call = LLMCall.objects.create(
        user_id=ctx.user_id,
        run_id=ctx.run_id,
        phase=ctx.phase,
        task=task[:16],
        backend=backend[:16],
        model=model[:200],
        prompt_tokens=max(0, prompt_tokens),
        completion_tokens=max(0, completion_tokens),
        cost_usd=cost_usd,
        latency_ms=max(0, latency_ms),
        status=status,
        error=error[:ERROR_CHARS],
    )
    if ctx.run_id is not None:
        dream_run_add_call(run_id=ctx.run_id, call=call)
    watched = _watched.get()
    if watched is not None:
        watched.append(call)
    return call


@contextmanager
def llm_calls_survive_rollback():
    """A call paid inside a transaction that rolls back (a failing night, a dry run) was still paid:
    its LLMCall row — and its run's counters — are written again after the block, exactly once."""
    calls: list[LLMCall] = []
    token = _watched.set(calls)
    try:
        yield
    finally:
        _watched.reset(token)
        if calls:
            _rewrite_lost(calls)


def _rewrite_lost(calls: list[LLMCall]) -> None:
    still_there = set(LLMCall.objects.filter(pk__in=[c.pk for c in calls]).values_list("pk", flat=True))
    lost = [c for c in calls if c.pk not in still_there]
    for call in lost:
        call.pk = None
        call._state.adding = True
    LLMCall.objects.bulk_create(lost)
    for call in lost:
        if call.run_id is not None:
            dream_run_add_call(run_id=call.run_id, call=call)


def dream_run_add_call(*, run_id: int, call: LLMCall) -> None:
    """Add one call's numbers to its run; an embedding call counts as embedding_calls, not llm_calls."""
    counters = {"cost_usd": F("cost_usd") + call.cost_usd}
    if call.task == "embed":
        # Embedding tokens are not prompt tokens: they are counted apart (LLMCall rows, task "embed").
        counters["embedding_calls"] = F("embedding_calls") + 1
    else:
        counters |= {"llm_calls": F("llm_calls") + 1, "prompt_tokens": F("prompt_tokens") + call.prompt_tokens,
                     "completion_tokens": F("completion_tokens") + call.completion_tokens}
    DreamRun.objects.filter(pk=run_id).update(**counters)


def dream_run_add_embedding_calls(*, run_id: int | None, count: int = 1) -> None:
    """Count embedding calls that have no LLMCall row (the local embedder, or recording switched off)."""
    if run_id is not None and count:
        DreamRun.objects.filter(pk=run_id).update(embedding_calls=F("embedding_calls") + count)


def embedding_call_record(
    *,
    ctx: CallContext | None,
    backend: str,
    model: str,
    tokens: int,
    latency_ms: int,
    status: str = LLMCall.Status.OK,
    error: str = "",
) -> None:
    """Account one remote embedding request: an LLMCall(task="embed") when enabled, else just the counter."""
    if ctx is None:
        return
    if not settings.EMBEDDING_RECORD_CALLS:
        dream_run_add_embedding_calls(run_id=ctx.run_id)
        return
    llm_call_record(
        ctx=ctx, task="embed", backend=backend, model=model, prompt_tokens=tokens, latency_ms=latency_ms,
        status=status, error=error, cost_usd=embedding_cost(model=model, tokens=tokens),
    )
