"""The free triage pre-check light sleep runs before asking a remote model.

It reuses the local rules engine's triage (code fences, stack traces, translation requests, roleplay
markers, pasted documents — and its rule that a user talking about themself keeps the session) and
only answers when the verdict is a skip; otherwise it returns None and the model decides. So the
pre-check can only save model calls on the obvious cases, never keep the model from a conversation
the rules consider personal.
"""
from __future__ import annotations

from dreaming.providers.local import LocalDreamer
from dreaming.protocol import SKIPPED_KINDS, TriageResult, Turn


def triage_precheck(*, turns: list[Turn]) -> TriageResult | None:
    # LocalDreamer calls nothing remote and records nothing, so no CallContext is needed.
    result = LocalDreamer().triage(turns=turns, ctx=None)
    if result.kind not in SKIPPED_KINDS:
        return None
    return TriageResult(kind=result.kind, reason=f"rule pre-check: {result.reason}")
