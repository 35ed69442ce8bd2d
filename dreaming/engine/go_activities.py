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


# "Just got back from my salsa dance lessons", "got home from a bike ride", "came back from a long walk with my dog": an
# outing of a kind one has regularly, said as the news of the day. A month later the memory worth having is the habit.
_OUTING_RE = re.compile(
    r"^(?:(?:I|i)\s+)?(?:(?:just|finally)\s+)?(?:got|came)\s+(?:back|home|in)\s+from\s+(?:(?:a|an|the|my|our)\s+)?"
    r"(?P<mods>(?:(?!with\b)[a-z]+\s+){0,2}?)(?P<noun>lessons?|class(?:es)?|ride|run|jog|walk|hike|workout)\b"
    r"(?P<company>\s+with\s+(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?)?",
    re.IGNORECASE,
)
_BACK_FROM = r"\b(?:got|came)\s+(?:back|home|in)\s+from\s+(?:(?:a|an|the|my|our)\s+)?(?:[a-z]+\s+){0,2}?"
# The words of the habit the outing only implies, with what in the quote licenses each (the truth guard, quotes.py).
OUTING_WORDS: dict[str, re.Pattern] = {
    "tak": re.compile(_BACK_FROM + r"(?:lessons|classes|lesson|class)\b", re.IGNORECASE),
    "go": re.compile(_BACK_FROM + r"walk\b", re.IGNORECASE),
    "work": re.compile(_BACK_FROM + r"workout\b", re.IGNORECASE),
}
_WALKS = frozenset("morning evening night long daily early".split())
_RIDDEN = frozenset("bike motorcycle motorbike horse bicycle".split())
# in the user's own word where it is a verb ("a run" → "User runs"); "User walks" alone reads as a gait
_OUTINGS = {"run": "runs", "jog": "jogs", "walk": "goes for walks", "hike": "hikes", "workout": "works out"}


def outing_habit(quote: str) -> str | None:
    """"User takes salsa dance lessons" / "User rides a motorcycle" / "User goes for walks with their dog" for an
    outing the user is back from (see _OUTING_RE); None for anything else ("got back from the store")."""
    m = _OUTING_RE.match(quote.strip())
    if not m:
        return None
    mods, noun = m.group("mods").strip().lower(), m.group("noun").lower()
    company = to_third_person_en(m.group("company") or "").rstrip()
    if noun.startswith(("lesson", "class")):
        if not mods or mods.split()[0] in ("first", "last", "final", "next"):
            return None  # "my class" names nothing; "my last class" is over
        said = f"{mods} {noun}" if noun in ("lessons", "classes") else f"{'an' if mods[0] in 'aeiou' else 'a'} {mods} {noun}"
        return f"User takes {said}{company}"
    if noun == "ride":
        ridden = mods.split()[-1] if mods else ""
        return f"User rides a {ridden}{company}" if ridden in _RIDDEN else None
    if noun == "walk" and mods in _WALKS:
        return f"User goes for {mods} walks{company}"  # "my morning walk": "User goes for morning walks"
    return f"User {_OUTINGS[noun]}{company}"
