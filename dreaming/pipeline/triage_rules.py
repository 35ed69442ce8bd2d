"""The free triage pre-check light sleep runs before asking a remote model.

It reuses the local rules engine's hand rules (code fences, stack traces, translation requests,
roleplay markers, pasted documents — and the rule that a user talking about themself keeps the
session), not its learned model (a remote model triages better than word statistics), and only
answers when the verdict is a skip; otherwise it returns None and the model decides. So the
pre-check can only save model calls on the obvious cases, never keep the model from a conversation
the rules consider personal.
"""
from __future__ import annotations

from dreaming.protocol import SKIPPED_KINDS, TriageResult, Turn
from dreaming.providers.local import triage_by_rules


def triage_precheck(*, turns: list[Turn]) -> TriageResult | None:
    result = triage_by_rules(turns)
    if result.kind not in SKIPPED_KINDS:
        return None
    return TriageResult(kind=result.kind, reason=f"rule pre-check: {result.reason}")
