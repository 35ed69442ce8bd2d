"""Helpers for engine tests: what the local engine reads from a short conversation."""
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def conversation_statements(*turns: str | tuple[str, str]) -> dict[str, str]:
    """{statement: quote} for a conversation (plain strings are the user's, ("assistant", text) the other side's);
    every quote is checked to be in its turn's words."""
    built = []
    for seq, turn in enumerate(turns):
        role, text = turn if isinstance(turn, tuple) else ("user", turn)
        built.append(Turn(seq=seq, role=role, content=text))
    found = LocalDreamer().extract(turns=built, ctx=CallContext())
    for candidate in found:
        assert candidate.quote in built[candidate.seq].content, candidate.quote
    return {c.statement: c.quote for c in found}
