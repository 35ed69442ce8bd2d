"""The fake OpenAI server (tests/fake_openai.py) scripted to answer like a sensible model.

It is a real local HTTP server speaking the OpenAI wire format, so the remote dreamer's whole path
runs — prompts, masking, the openai SDK, parsing, LLMCall accounting. Its answers come from the
local rules engine applied to the transcript it was sent: the kind is what the rules say, and it
returns the rules' candidates (with their verbatim quotes and seqs), in one answer as the prompt asks. Its token counts are the fake's
estimate (about 4 characters per token), not a real tokenizer's.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

from django.test import override_settings

from dreaming.providers.local import LocalDreamer
from dreaming.protocol import SessionInfo, Turn

_LINE = re.compile(r"^\[seq=(\d+)(?: \d\d:\d\d)?(?P<context> context)?\] (user|assistant|system): ?(.*)$")


def transcript_turns(text: str) -> tuple[list[Turn], int]:
    """Turns back from the prompt's <transcript> block (continuation lines belong to the turn above),
    and the last seq marked "context" (processed before, not quotable)."""
    body = text.split("<transcript>", 1)[-1].split("</transcript>", 1)[0]
    turns: list[list] = []
    context_until = 0
    for line in body.splitlines():
        match = _LINE.match(line)
        if line.startswith("(said on "):
            continue  # the day the next turns were said
        if match:
            turns.append([int(match.group(1)), match.group(3), match.group(4)])
            if match.group("context"):
                context_until = int(match.group(1))
        elif turns:
            turns[-1][2] += "\n" + line
    return [Turn(seq=seq, role=role, content=content) for seq, role, content in turns], context_until


def _responder(recorded):
    from tests.support.fake_openai import _task_of, default_chat_answer

    task = _task_of(recorded.body)
    prompt = "\n".join(m.get("content") or "" for m in recorded.messages if m.get("role") == "user")
    engine = LocalDreamer()
    if task == "extract":
        turns, context_until = transcript_turns(prompt)
        return engine.read_session(turns=turns, info=SessionInfo(new_from_seq=context_until)).model_dump()
    return default_chat_answer(recorded.body)


@contextmanager
def fake_openai_backend():
    """Run the fake server in this process and point the dreamer (not the embedder) at it."""
    from tests.support.fake_openai import FakeOpenAI

    fake = FakeOpenAI().start()
    fake.set_chat_responder(_responder)
    try:
        with override_settings(
            LLM_BACKEND="openai", LLM_BASE_URL=fake.url, LLM_API_KEY="sk-bench-fake", LLM_MODEL="gpt-4o-mini",
            LLM_TIMEOUT=30.0, LLM_MAX_RETRIES=0, LLM_FALLBACK_MODEL="",
        ):
            yield fake
    finally:
        fake.stop()


@contextmanager
def fake_openai_embedder():
    """The OpenAI embedder pointed at the fake server: a remote embedder without network latency.

    The fake answers with the local embedder's vectors at the requested dimensions, so they match
    the stored ones. Embedding calls are not recorded as LLMCall rows (one less write per call, so
    the baseline this feeds is, if anything, flattered).
    """
    from tests.support.fake_openai import FakeOpenAI

    fake = FakeOpenAI().start()
    try:
        with override_settings(
            EMBEDDING_BACKEND="openai", EMBEDDING_BASE_URL=fake.url, EMBEDDING_API_KEY="sk-bench-fake",
            EMBEDDING_MODEL="text-embedding-3-small", EMBEDDING_TIMEOUT=30.0, EMBEDDING_MAX_RETRIES=0,
            EMBEDDING_RECORD_CALLS=False,
        ):
            from dreaming.providers import get_embedder

            yield get_embedder()
    finally:
        fake.stop()
