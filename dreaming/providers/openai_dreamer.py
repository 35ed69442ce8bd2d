"""The `openai` dreamer: every model task through the openai SDK, against any OpenAI-compatible server.

Works with OpenAI, OpenRouter, vLLM, Ollama and llama.cpp's server: only LLM_BASE_URL, LLM_API_KEY and
the model names change. What the pipeline can rely on:
- Every text is passed through mask_secrets before it leaves (one choke point: `_masked`).
- Network trouble (timeouts, connection errors, 429 and 5xx after the SDK's own retries with
  backoff and retry-after) raises ProviderUnavailable: retry later.
- A refusal no retry fixes (401/403, a model not found without fallback, a 400 on a parameter)
  raises ProviderMisconfigured: stop and give the work back.
- A 400 saying the request is longer than the model's context splits the session into parts of at
  most LLM_SPLIT_TOKENS and reads each; only a 400 about the response format steps json_schema →
  json_object → plain.
- An answer that cannot be used (no JSON, wrong shape, cut off, empty) raises UnusableAnswer.
- 404 (model not found) and unusable answers are retried once with LLM_FALLBACK_MODEL when set.
- Every request, whatever its outcome, becomes one LLMCall row (and counts in its DreamRun).
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import replace
from typing import Any, Callable

import openai
from django.conf import settings

from dreaming.models import LLMCall
from dreaming.providers import parsing, prompts
from dreaming.providers.accounting import llm_call_record
from dreaming.protocol import (
    CallContext,
    Comparison,
    MemoryRef,
    NightChanges,
    ProviderUnavailable,
    MAX_CANDIDATES,
    MergeAnswer,
    NarrateAnswer,
    ProviderMisconfigured,
    SessionInfo,
    SessionReading,
    Turn,
    UnusableAnswer,
)
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.sensitive import redact_sensitive

log = logging.getLogger(__name__)

FORMAT_MODES = ("json_schema", "json_object", "plain")
TOOL_RESULT_CHARS = 4000

# (base_url, model) → the first response_format mode that server accepted. A server that rejects
# json_schema once is not asked again with it in this process.
_format_mode_cache: dict[tuple[str, str], str] = {}


def _masked(messages: list[dict]) -> list[dict]:
    return [
        {**message, "content": mask_secrets(message["content"])} if isinstance(message.get("content"), str) else message
        for message in messages
    ]


def _without_sensitive(turns: list[Turn]) -> list[Turn]:
    # Light sleep sends turns already without their sensitive clauses; taken out again here so no other
    # caller can send one (the masking above only covers secrets).
    return [replace(t, content=redact_sensitive(t.content or "", anyone=t.role != "user").text) for t in turns]


def _first_choice(response) -> tuple[Any, str | None]:
    """(message, finish_reason) of the first choice; (None, None) when the body is no chat completion
    (an HTML error page with status 200, a JSON body without choices ...)."""
    try:
        choice = response.choices[0]
        return choice.message, choice.finish_reason
    except (AttributeError, IndexError, TypeError):
        return None, None


def _content(message) -> str | None:
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else None


class _ContextTooLong(Exception):
    """The request is longer than the model's context (a 400 saying so)."""


_CONTEXT_WORDS = ("context length", "context_length", "maximum context", "context window", "too many tokens",
                  "prompt is too long", "reduce the length", "input is too long", "exceeds the context")
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "structured output", "schema", "json mode")


def _is_context_error(exc: Exception) -> bool:
    text = f"{getattr(exc, 'code', '') or ''} {exc}".lower()
    return any(word in text for word in _CONTEXT_WORDS)


def _is_format_error(exc: Exception) -> bool:
    return any(word in str(exc).lower() for word in _FORMAT_WORDS)


def _tokens_estimate(text: str | None) -> int:
    return len(text or "") // 4 + 1


def _split_turns(turns: list[Turn], *, budget: int) -> list[list[Turn]]:
    """Consecutive runs of turns of at most `budget` estimated tokens (a longer turn stands alone)."""
    parts: list[list[Turn]] = [[]]
    used = 0
    for turn in turns:
        size = _tokens_estimate(turn.content)
        if parts[-1] and used + size > budget:
            parts.append([])
            used = 0
        parts[-1].append(turn)
        used += size
    return [part for part in parts if part]


def _error_text(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    return f"{type(exc).__name__}{f' {status}' if status else ''}: {exc}"


class OpenAIDreamer:
    name = "openai"
    calls_network = True
    paid = True
    reads_memory_md = True

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        model: str,
        task_models: dict[str, str] | None = None,
        fallback_model: str = "",
        timeout: float = 60.0,
        max_retries: int = 2,
        json_schema: bool = True,
        reply_tool_rounds: int = 3,
        max_tokens: dict[str, int] | None = None,
        temperature: float | None = 0.0,
        split_tokens: int = 8000,
    ):
        self.base_url = base_url
        self.model = model
        self.task_models = {task: name for task, name in (task_models or {}).items() if name}
        self.fallback_model = fallback_model
        self.json_schema = json_schema
        self.reply_tool_rounds = reply_tool_rounds
        self.max_tokens = {task: n for task, n in (max_tokens or {}).items() if n}
        self.temperature = temperature
        self.split_tokens = split_tokens
        # Local servers (Ollama, llama.cpp) need no key, but the SDK insists on one.
        self.client = openai.OpenAI(
            base_url=base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=max_retries
        )

    @classmethod
    def from_settings(cls) -> "OpenAIDreamer":
        return cls(
            base_url=settings.LLM_BASE_URL,
            api_key=settings.LLM_API_KEY,
            model=settings.LLM_MODEL,
            task_models=settings.LLM_TASK_MODELS,
            fallback_model=settings.LLM_FALLBACK_MODEL,
            timeout=settings.LLM_TIMEOUT,
            max_retries=settings.LLM_MAX_RETRIES,
            json_schema=settings.LLM_JSON_SCHEMA,
            reply_tool_rounds=settings.LLM_REPLY_TOOL_ROUNDS,
            max_tokens=settings.LLM_MAX_TOKENS,
            temperature=settings.LLM_TEMPERATURE,
            split_tokens=settings.LLM_SPLIT_TOKENS,
        )

    def model_for(self, task: str) -> str:
        return self.task_models.get(task) or self.model

    def _models_for(self, task: str) -> list[str]:
        primary = self.model_for(task)
        return [primary] + ([self.fallback_model] if self.fallback_model and self.fallback_model != primary else [])

    # --- the dreaming tasks -------------------------------------------------------------------

    def read_session(self, *, turns: list[Turn], ctx: CallContext, info: SessionInfo = SessionInfo()) -> SessionReading:
        turns = _without_sensitive(turns)
        if not any(t.role == "user" and t.seq > info.new_from_seq and (t.content or "").strip() for t in turns):
            return SessionReading(reason="nothing new from the user")  # no call, no cost
        try:
            return self._ask_json(
                task="extract",
                messages=prompts.extract_messages(turns, info=info),
                parse=lambda text: parsing.session_reading_parse(text, turns=turns),
                ctx=ctx,
            )
        except _ContextTooLong as exc:
            return self._read_in_parts(turns=turns, ctx=ctx, info=info, error=exc)

    def _read_in_parts(self, *, turns: list[Turn], ctx: CallContext, info: SessionInfo, error: Exception) -> SessionReading:
        """The server said the session is longer than its context: read it in parts of at most
        `split_tokens` (halving again for a part still too long), then join the readings."""
        size = sum(_tokens_estimate(t.content) for t in turns)
        budget = min(self.split_tokens, max(size // 2, 1))
        parts = _split_turns(turns, budget=budget)
        if len(parts) < 2:
            raise UnusableAnswer(f"one turn is longer than the model's context: {error}")
        log.info("extract: session too long for the model's context (%s); reading it in %d parts", error, len(parts))
        readings = [self.read_session(turns=part, ctx=ctx, info=info) for part in parts]
        kept = [r for r in readings if r.kind == "normal"]
        # Skipping is the costly mistake: one part that reads as a normal conversation keeps the session.
        kind = "normal" if kept or not readings else readings[0].kind
        candidates = sorted((c for r in kept for c in r.candidates), key=lambda c: -c.importance)
        return SessionReading(kind=kind, reason=f"read in {len(parts)} parts; " + (readings[0].reason if readings else ""),
                              candidates=candidates[:MAX_CANDIDATES])

    def compare(self, *, statements: list[str], memories: list[MemoryRef], ctx: CallContext,
                said_at: list | None = None) -> list[Comparison]:
        if not statements:
            return []
        if not memories:
            return [Comparison(index=i, relation="new", reason="no existing memories") for i in range(len(statements))]
        return self._ask_json(
            task="compare",
            messages=prompts.compare_messages(statements, memories, said_at=said_at),
            parse=lambda text: parsing.compare_parse(text, statements=statements, memories=memories),
            ctx=ctx,
        )

    def merge(self, *, statements: list[str], ctx: CallContext) -> str:
        if len(statements) == 1:
            return statements[0]
        return self._ask_json(
            task="merge",
            messages=prompts.merge_messages(statements),
            parse=lambda text: parsing.answer_parse(MergeAnswer, text).statement,
            ctx=ctx,
        )

    def narrate(self, *, changes: NightChanges, ctx: CallContext) -> str:
        return self._ask_json(
            task="narrate",
            messages=prompts.narrate_messages(changes),
            parse=lambda text: parsing.answer_parse(NarrateAnswer, text).narrative,
            ctx=ctx,
        )

    def reply(
        self, *, turns: list[Turn], memory_md: str, recall: Callable[[str], list[dict]], ctx: CallContext
    ) -> str:
        models = self._models_for("reply")
        for position, model in enumerate(models):
            try:
                return self._reply_with(model=model, turns=turns, memory_md=memory_md, recall=recall, ctx=ctx)
            except (openai.NotFoundError, UnusableAnswer) as exc:
                if position == len(models) - 1:
                    if isinstance(exc, UnusableAnswer):
                        raise
                    raise ProviderUnavailable(_error_text(exc)) from exc
                log.warning("reply with %s failed (%s); trying fallback %s", model, exc, models[position + 1])
        raise AssertionError("unreachable")

    # --- plumbing -----------------------------------------------------------------------------

    def _reply_with(self, *, model, turns, memory_md, recall, ctx) -> str:
        """Chat with the recall_memory tool: run the model's tool calls, feed results back, bounded rounds."""
        messages = prompts.reply_messages(turns, memory_md)
        for round_number in range(self.reply_tool_rounds + 1):
            last_round = round_number == self.reply_tool_rounds
            # The last round keeps the tool declared (history contains tool calls) but forbids using it.
            extra: dict[str, Any] = {"tools": [prompts.RECALL_TOOL]}
            if last_round:
                extra["tool_choice"] = "none"
            try:
                response, latency_ms = self._create(task="reply", model=model, messages=messages, ctx=ctx, extra=extra)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                raise UnusableAnswer(_error_text(exc)) from exc
            message, _ = _first_choice(response)
            if getattr(message, "tool_calls", None) and not last_round:
                self._record(ctx=ctx, task="reply", model=model, response=response, latency_ms=latency_ms)
                messages.append({
                    "role": "assistant",
                    "content": _content(message) or "",
                    "tool_calls": [
                        {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
                        for c in message.tool_calls
                    ],
                })
                for call in message.tool_calls:
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": self._run_tool(call, recall)})
                continue
            text = (_content(message) or "").strip()
            if not text:
                self._record(ctx=ctx, task="reply", model=model, response=response, latency_ms=latency_ms,
                             status=LLMCall.Status.UNUSABLE, error="empty reply")
                raise UnusableAnswer("empty reply")
            self._record(ctx=ctx, task="reply", model=model, response=response, latency_ms=latency_ms)
            return text
        raise AssertionError("unreachable")

    @staticmethod
    def _run_tool(call, recall: Callable[[str], list[dict]]) -> str:
        if call.function.name != "recall_memory":
            return json.dumps({"error": f"unknown tool {call.function.name}"})
        try:
            arguments = json.loads(call.function.arguments or "{}")
            query = arguments.get("query", "") if isinstance(arguments, dict) else str(arguments)
        except ValueError:
            query = call.function.arguments or ""
        try:
            results = recall(str(query)[:500])
        except Exception as exc:  # a failing recall must not lose the reply
            log.exception("recall_memory tool failed")
            return json.dumps({"error": f"recall failed: {type(exc).__name__}"})
        return json.dumps({"results": results}, ensure_ascii=False, default=str)[:TOOL_RESULT_CHARS]

    def _ask_json(self, *, task: str, messages: list[dict], parse: Callable[[str | None], Any], ctx: CallContext):
        """Ask for a JSON answer and parse it; fall back to the fallback model on 404 / unusable."""
        models = self._models_for(task)
        for position, model in enumerate(models):
            has_fallback = position < len(models) - 1
            try:
                response, latency_ms = self._create_json(task=task, model=model, messages=messages, ctx=ctx)
            except openai.NotFoundError as exc:
                if has_fallback:
                    log.warning("%s: model %s not found; trying fallback %s", task, model, models[position + 1])
                    continue
                raise ProviderMisconfigured(f"model not found, no fallback: {_error_text(exc)}") from exc
            message, finish_reason = _first_choice(response)
            try:
                result = parse(_content(message))
                if finish_reason == "length" and not result:
                    raise UnusableAnswer("answer was cut off by the token limit")
            except UnusableAnswer as exc:
                self._record(ctx=ctx, task=task, model=model, response=response, latency_ms=latency_ms,
                             status=LLMCall.Status.UNUSABLE, error=str(exc))
                if has_fallback:
                    log.warning("%s: unusable answer from %s (%s); trying fallback", task, model, exc)
                    continue
                raise
            self._record(ctx=ctx, task=task, model=model, response=response, latency_ms=latency_ms)
            return result
        raise AssertionError("unreachable")

    def _create_json(self, *, task: str, model: str, messages: list[dict], ctx: CallContext):
        """One JSON request, stepping down json_schema → json_object → plain when the server rejects a format."""
        cache_key = (self.base_url, model)
        modes = list(FORMAT_MODES if self.json_schema else FORMAT_MODES[1:])
        cached = _format_mode_cache.get(cache_key)
        if cached in modes:
            modes = modes[modes.index(cached):]
        for position, mode in enumerate(modes):
            try:
                answer = self._create(task=task, model=model, messages=messages, ctx=ctx,
                                      extra=self._format_params(task, mode))
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if _is_context_error(exc):
                    raise _ContextTooLong(_error_text(exc)) from exc
                if _is_format_error(exc) and position < len(modes) - 1:
                    log.info("%s: server rejected response_format %s (%s); trying %s", task, mode, exc, modes[position + 1])
                    continue
                # Any other 400 (a parameter, the model name, the key's scope): every request would fail alike.
                raise ProviderMisconfigured(f"the server rejects the request: {_error_text(exc)}") from exc
            if position > 0:
                _format_mode_cache[cache_key] = mode
            return answer
        raise AssertionError("unreachable")

    @staticmethod
    def _format_params(task: str, mode: str) -> dict:
        if mode == "json_schema":
            return {"response_format": {
                "type": "json_schema",
                "json_schema": {"name": task, "schema": prompts.SCHEMAS[task], "strict": True},
            }}
        if mode == "json_object":
            return {"response_format": {"type": "json_object"}}
        return {}

    def _create(self, *, task: str, model: str, messages: list[dict], ctx: CallContext, extra: dict):
        """One SDK call (the SDK retries 429/5xx/timeouts itself). Failures are recorded here;
        successes are recorded by the caller once it knows whether the answer was usable."""
        started = time.monotonic()
        try:
            response = self.client.chat.completions.create(
                model=model, messages=_masked(messages), **self._sampling(task), **extra
            )
        except openai.APIStatusError as exc:
            self._record(ctx=ctx, task=task, model=model, started=started, status=LLMCall.Status.ERROR,
                         error=_error_text(exc))
            if isinstance(exc, (openai.BadRequestError, openai.NotFoundError)) or exc.status_code == 422:
                raise  # the caller decides: another format, the fallback model, a split, or misconfigured
            if exc.status_code in (401, 403):
                raise ProviderMisconfigured(f"the server refuses the credentials: {_error_text(exc)}") from exc
            raise ProviderUnavailable(_error_text(exc)) from exc
        except openai.APIError as exc:  # timeouts, connection errors, undecodable responses
            self._record(ctx=ctx, task=task, model=model, started=started, status=LLMCall.Status.ERROR,
                         error=_error_text(exc))
            if isinstance(exc, openai.APIResponseValidationError):
                raise UnusableAnswer(_error_text(exc)) from exc
            raise ProviderUnavailable(_error_text(exc)) from exc
        return response, int((time.monotonic() - started) * 1000)

    def _sampling(self, task: str) -> dict:
        params: dict[str, Any] = {}
        if task in self.max_tokens:
            params["max_tokens"] = self.max_tokens[task]
        if self.temperature is not None:
            params["temperature"] = self.temperature
        return params

    def _record(self, *, ctx: CallContext, task: str, model: str, response=None, latency_ms: int = 0,
                started: float | None = None, status: str = LLMCall.Status.OK, error: str = "") -> None:
        usage = getattr(response, "usage", None)
        if started is not None:
            latency_ms = int((time.monotonic() - started) * 1000)
        llm_call_record(
            ctx=ctx,
            task=task,
            backend=self.name,
            model=model,
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            latency_ms=latency_ms,
            status=status,
            error=error,
        )
