"""What the user comes back from, as a habit: only a pastime English says one "goes" to ("went fishing", "go
dancing") keeps that form. Another gerund becomes its verb when its stem is plain to see ("Just got back from coaching
swimming" → "User coaches swimming", not "User goes coaching"); else english.habit_statement leaves the clause as
said ("User got back from making dinner")."""
from __future__ import annotations

import re

from dreaming.engine.third_person import conjugate, to_third_person_en

GO_GERUNDS = frozenset(
    """running jogging swimming hiking fishing hunting shopping camping skiing snowboarding dancing bowling sailing
    surfing skating biking cycling climbing riding walking boating kayaking canoeing golfing diving skydiving rafting
    birdwatching sightseeing clubbing partying sledding backpacking trekking tanning gambling caroling exploring
    antiquing paddleboarding snorkeling snorkelling""".split()
)
# "-ing" words that are no verb's gerund ("my morning walk").
_NOT_GERUNDS = frozenset("morning evening during nothing something anything everything thing string spring".split())


def _plain_stem(gerund: str) -> str | None:
    """The verb of a gerund whose stem cannot have lost an "e" or doubled its last letter: two different consonants
    ("coach", "work", "tend") or a vowel and y/w ("play", "show"); not "making" (make) or "running" (run)."""
    stem = gerund[:-3]
    if len(stem) < 3:
        return None
    if re.search(r"[aeiou][yw]$|(?:ch|sh|ck)$", stem):
        return stem
    last, before = stem[-1], stem[-2]
    consonants = "bcdfghjklmnpqrstvxz"
    return stem if last in consonants and before in consonants and last != before else None


def back_from_statement(gerund: str, rest: str, *, after_determiner: bool) -> str | None:
    """"User goes fishing" for a go-pastime ("a fishing trip" too), "User coaches swimming" for a plain verb, else
    None ("the building site", "my morning walk": the "-ing" word describes a noun)."""
    gerund = gerund.lower()
    if gerund in GO_GERUNDS:
        return f"User goes {gerund}"
    stem = None if after_determiner or gerund in _NOT_GERUNDS else _plain_stem(gerund)
    rest = to_third_person_en(rest.rstrip(" ,;:-.!")).strip()
    if not stem or not rest:
        return None  # "User works" alone says nothing: "User got back from working" is read instead
    return f"User {conjugate(stem)} {rest}"
