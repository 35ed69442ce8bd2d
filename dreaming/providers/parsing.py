"""Tolerant reading of model answers.

Servers differ: some honour a JSON schema, some only "JSON mode", small local models wrap JSON in
prose or a ```json fence, and any of them can be cut off by a token limit. `json_from_answer` tries
strict JSON, then a fenced block, then the first balanced {...} object; anything else is an
UnusableAnswer. The task parsers then validate item by item, so one malformed candidate does not sink
the others.
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Any

from dreaming.protocol import (
    CATEGORIES,
    TRIAGE_KINDS,
    Comparison,
    ExtractedCandidate,
    MemoryRef,
    Turn,
    UnusableAnswer,
)
from dreaming.engine.quotes import quote_in_text

MAX_CANDIDATES = 10
_FENCE_RE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_CATEGORY_ALIASES = {
    "preferences": "preference", "like": "preference", "likes": "preference", "dislike": "preference",
    "events": "event", "plan": "event", "emotions": "emotion", "feeling": "emotion", "mood": "emotion",
    "relations": "relation", "relationship": "relation", "relationships": "relation", "family": "relation",
    "facts": "fact",
}
_RELATIONS = ("new", "reinforces", "contradicts")
_RELATION_ALIASES = {"reinforce": "reinforces", "same": "reinforces", "duplicate": "reinforces",
                     "contradict": "contradicts", "conflicts": "contradicts", "update": "contradicts"}


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


def _items(data: dict, *keys: str) -> list:
    for key in (*keys, "items", "results", "data"):
        value = data.get(key)
        if isinstance(value, list):
            return value
    raise UnusableAnswer(f"expected a list under {keys[0]!r}, got keys {sorted(data)[:8]}")


def _text(value: Any, *, limit: int = 2000) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _bool(value: Any, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0"):
        return False
    return default


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def category_normalize(value: Any) -> str:
    name = value.strip().lower() if isinstance(value, str) else ""
    name = _CATEGORY_ALIASES.get(name, name)
    return name if name in CATEGORIES else "fact"


def importance_clamp(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.5
    if number != number:  # NaN
        return 0.5
    if number > 1 and number <= 10:  # a 0-10 scale slipped through
        number = number / 10
    return min(1.0, max(0.0, number))


def triage_parse(text: str | None) -> tuple[str, str]:
    data = json_from_answer(text)
    kind = _text(data.get("kind") or data.get("type") or data.get("category")).lower()
    if not kind:
        raise UnusableAnswer("triage answer has no kind")
    # An unknown kind is treated as normal: skipping is the costly mistake (a personal chat lost).
    return (kind if kind in TRIAGE_KINDS else "normal"), _text(data.get("reason"), limit=500)


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


def extract_parse(text: str | None, *, turns: list[Turn]) -> list[ExtractedCandidate]:
    data = json_from_answer(text)
    candidates: list[ExtractedCandidate] = []
    for item in _items(data, "candidates", "memories", "facts"):
        if not isinstance(item, dict):
            continue
        quote = _text(item.get("quote"))
        statement = _text(item.get("statement"))
        if not quote or not statement:
            continue
        candidates.append(
            ExtractedCandidate(
                quote=quote,
                statement=statement,
                category=category_normalize(item.get("category")),
                importance=importance_clamp(item.get("importance")),
                user_initiated=_bool(item.get("user_initiated"), True),
                seq=_seq_for_quote(quote, _int(item.get("seq")), turns),
            )
        )
        if len(candidates) == MAX_CANDIDATES:
            break
    return candidates


def compare_parse(text: str | None, *, statements: list[str], memories: list[MemoryRef]) -> list[Comparison]:
    """One Comparison per statement; what the model left out or got wrong counts as "new"."""
    data = json_from_answer(text)
    memory_ids = {m.id for m in memories}
    verdicts: dict[int, Comparison] = {}
    for item in _items(data, "results", "comparisons"):
        if not isinstance(item, dict):
            continue
        index = _int(item.get("index"))
        if index is None or not 0 <= index < len(statements) or index in verdicts:
            continue
        relation = _text(item.get("relation")).lower()
        relation = _RELATION_ALIASES.get(relation, relation)
        memory_id = _int(item.get("memory_id"))
        reason = _text(item.get("reason"), limit=500)
        if relation not in _RELATIONS:
            continue
        if relation != "new" and memory_id not in memory_ids:
            # A link to a memory we never showed cannot reinforce or supersede anything.
            relation, memory_id, reason = "new", None, f"unknown memory id ({reason})".strip()
        verdicts[index] = Comparison(index=index, relation=relation,
                                     memory_id=memory_id if relation != "new" else None, reason=reason)
    return [verdicts.get(i) or Comparison(index=i, relation="new", reason="no verdict from the model")
            for i in range(len(statements))]


def statement_parse(text: str | None, *, key: str) -> str:
    data = json_from_answer(text)
    value = _text(data.get(key), limit=4000)
    if not value:
        raise UnusableAnswer(f"answer has no {key!r}")
    return value
