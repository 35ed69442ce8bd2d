"""Tolerant reading of model answers.

Servers differ: some honour a JSON schema, some only "JSON mode", small local models wrap JSON in
prose or a ```json fence, and any of them can be cut off by a token limit. `json_from_answer` tries
strict JSON, then a fenced block, then the first balanced {...} object; anything else is an
UnusableAnswer. The answer is then validated as its pydantic model (dreaming.protocol), item by item,
so one malformed candidate does not sink the others.
"""
from __future__ import annotations

import itertools
import json
import re

from pydantic import BaseModel, ValidationError

from dreaming.protocol import (
    CompareAnswer,
    Comparison,
    MemoryRef,
    SKIPPED_KINDS,
    SessionReading,
    Turn,
    UnusableAnswer,
)
from dreaming.engine.quotes import quote_in_text

_FENCE_RE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
def _balanced_objects(text: str, *, limit: int = 20):
    """Each {...} whose braces balance, in order (braces inside JSON strings do not count)."""
    start = text.find("{")
    while start != -1 and limit > 0:
        depth, in_string, escaped = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    yield text[start : i + 1]
                    limit -= 1
                    break
        start = text.find("{", start + 1)


def json_from_answer(text: str | None) -> dict:
    """The JSON object in a model answer, or UnusableAnswer."""
    if not text or not text.strip():
        raise UnusableAnswer("empty answer")
    attempts = [text.strip()]
    attempts += [block.strip() for block in _FENCE_RE.findall(text)]
    for attempt in itertools.chain(attempts, _balanced_objects(text)):
        try:
            value = json.loads(attempt)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
        if isinstance(value, list):  # a bare list of items: wrap it so the task parser can find it
            return {"items": value}
    raise UnusableAnswer(f"no JSON object in the answer: {text[:120]!r}")


def answer_parse(model: type[BaseModel], text: str | None):
    """The answer read as `model` (tolerant: see the validators in dreaming.protocol), or UnusableAnswer."""
    try:
        return model.model_validate(json_from_answer(text))
    except ValidationError as exc:
        raise UnusableAnswer(f"{model.__name__}: {exc.errors()[0].get('msg', exc)}"[:300]) from None


def _seq_for_quote(quote: str, seq: int | None, turns: list[Turn]) -> int | None:
    """Keep the model's seq when the quote is there; otherwise the user turn that does contain it."""
    user_turns = [t for t in turns if t.role == "user"]
    by_seq = {t.seq: t for t in user_turns}
    if seq in by_seq and quote_in_text(quote=quote, text=by_seq[seq].content):
        return seq
    for turn in user_turns:
        if quote_in_text(quote=quote, text=turn.content):
            return turn.seq
    return seq if seq in by_seq else None


def session_reading_parse(text: str | None, *, turns: list[Turn]) -> SessionReading:
    data = json_from_answer(text)
    if not data.get("kind") and not any(isinstance(data.get(k), list) for k in ("candidates", "memories", "facts", "items")):
        raise UnusableAnswer(f"expected a kind or a list of candidates, got keys {sorted(data)[:8]}")
    try:
        reading = SessionReading.model_validate(data)
    except ValidationError as exc:
        raise UnusableAnswer(f"SessionReading: {exc.errors()[0].get('msg', exc)}"[:300]) from None
    if reading.kind in SKIPPED_KINDS:
        return reading.model_copy(update={"candidates": []})
    return reading.model_copy(update={"candidates": [
        c.model_copy(update={"seq": _seq_for_quote(c.quote, c.seq, turns)}) for c in reading.candidates
    ]})


def compare_parse(text: str | None, *, statements: list[str], memories: list[MemoryRef]) -> list[Comparison]:
    """One Comparison per statement. What the model left out waits for another night (never "new":
    an obvious duplicate must not become a second memory because a verdict went missing)."""
    answer = answer_parse(CompareAnswer, text)
    memory_ids = {m.id for m in memories}
    verdicts: dict[int, Comparison] = {}
    for item in answer.results:
        if not 0 <= item.index < len(statements) or item.index in verdicts or item.relation == "wait":
            continue
        if item.relation != "new" and item.memory_id not in memory_ids:
            # A link to a memory we never showed cannot reinforce or supersede anything.
            item = item.model_copy(update={"relation": "wait", "memory_id": None,
                                           "reason": f"unknown memory id ({item.reason})".strip()})
        elif item.relation == "adds_detail" and not item.statement:
            item = item.model_copy(update={"relation": "reinforces"})
        verdicts[item.index] = item
    return [verdicts.get(i) or Comparison(index=i, relation="wait", reason="no verdict from the model")
            for i in range(len(statements))]
