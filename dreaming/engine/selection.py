"""Which candidates of a session are kept: at most MAX_CANDIDATES, the most important first, and from a turn so long
it is mostly pasted or drafted text only the few that say who the user is."""
from __future__ import annotations

from collections.abc import Callable

from dreaming.protocol import ExtractedCandidate, Turn

MAX_CANDIDATES = 10
LONG_TURN_CHARS = 1500  # a turn this long is mostly pasted or drafted text, not talk
FROM_A_LONG_TURN = 3


def few_from_long_turns(candidates: list[ExtractedCandidate], turns: list[Turn], *,
                        says_who: Callable[[str], bool] = lambda quote: False) -> list[ExtractedCandidate]:
    """Of one user turn longer than LONG_TURN_CHARS, FROM_A_LONG_TURN candidates. A person telling about themself
    says a few things a turn; a pasted cover letter or forum post read sentence by sentence gives ten ("User is
    committed to staying ahead of industry trends", "User's skills remain cutting-edge"). The statements that say
    who the user is (`says_who`: work, study, home, family) come first; of the rest, the most important one only."""
    long_turns = {t.seq for t in turns if t.role == "user" and len(t.content) > LONG_TURN_CHARS}
    by_turn: dict[int, list[int]] = {}
    for i, candidate in enumerate(candidates):
        if candidate.seq in long_turns:
            by_turn.setdefault(candidate.seq, []).append(i)
    kept: set[int] = set()
    for indexes in by_turn.values():
        who = [i for i in indexes if says_who(candidates[i].quote)]
        rest = sorted(set(indexes) - set(who), key=lambda i: (-candidates[i].importance, i))
        ranked = sorted(who, key=lambda i: (-candidates[i].importance, i)) + rest[:1]
        kept.update(ranked[:FROM_A_LONG_TURN])
    return [c for i, c in enumerate(candidates) if c.seq not in long_turns or i in kept]


def most_important(candidates: list[ExtractedCandidate], *, limit: int = MAX_CANDIDATES) -> list[ExtractedCandidate]:
    """The `limit` most important candidates, in the order they were said."""
    ranked = sorted(range(len(candidates)), key=lambda i: (-candidates[i].importance, i))[:limit]
    return [candidates[i] for i in sorted(ranked)]
