"""Facts of the user's said in passing, in shapes no clause reading takes: the subject of the sentence is not "I".

- a favourite pointed at ("Have you ever seen dog agility? It is my favorite sport!", "Listening to insane clown
  posse right now. They are my favorite"): the thing is the one named just before the "it" / "they", by the
  user's own question or their own words; `favourite` (english_clause.py) words it as "X is my favorite" is;
- a greeting from a place ("Hello from manhattan!", "Good evening from alabama!"): where the user is;
- a place in a relative clause ("He keeps sending random guys to the gas station where I work", "the nascar races
  that I attend"): where the user works, lives or goes.

extract.py reads them with the other whole-sentence readings (`_sentence_readings`); a quote is always a piece of
the user's turn (the favourite's runs from the thing named to the "my favorite").
"""
from __future__ import annotations

import re

from dreaming.engine.english_clause import favourite

_POINTER_RE = re.compile(
    r"\b(?:it|that|they|this)(?:'s|’s| is| are)\s+(?:(?:so|really|definitely|totally|probably|also|easily|still)\s+)?"
    r"(?P<one>one of\s+)?my\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)s?(?:\s+(?P<kind>[a-z]{3,15}))?\b",
    re.IGNORECASE,
)
_NOT_A_KIND = frozenset("though too lol haha ever now thing things one ones and but also because since so".split())
# The thing named just before the pointer: asked about by the user ("Do you like twitter?"), or being done now.
_NAMED_BEFORE_RES = (
    re.compile(r"\b(?:have|has) you (?:ever )?(?:seen|heard of|tried|played|watched|read|been to|listened to|used)\s+"
               r"(?P<x>[^?.!,;]+?)\s*[?.!,;]*\s*$", re.IGNORECASE),
    re.compile(r"\b(?:do|did) you (?:like|love|know|watch|play|listen to|read|enjoy|follow|use)\s+"
               r"(?P<x>[^?.!,;]+?)\s*[?.!,;]*\s*$", re.IGNORECASE),
    re.compile(r"(?:^|[.!?]\s+)\W*(?:(?:I'm|I’m|I am)\s+)?(?:just\s+)?(?:listening to|watching|playing|reading)\s+"
               r"(?P<x>[^?.!,;]+?)(?:\s+(?:right now|now|today|tonight|again|lately))?\s*[.!,;]*\s*$", re.IGNORECASE),
)
_TOO_VAGUE_RE = re.compile(r"^(?:it|that|this|them|those|these|one|any|some|anything|something|a lot|music|tv|"
                           r"the (?:news|radio|tv|game))\b|\b(?:you|your|he|she|they|it)$", re.IGNORECASE)


def pointed_favourite(sentence: str, *, head: str) -> tuple[str, str] | None:
    """(quote, statement) for "It is my favorite <kind>" whose "it" is the thing the user just named."""
    m = _POINTER_RE.search(sentence)
    if not m:
        return None
    said = f"{head}{sentence[: m.start()]}"
    named = next(filter(None, (r.search(said[-200:]) for r in _NAMED_BEFORE_RES)), None)
    if not named:
        return None
    x = named.group("x").strip()
    if _TOO_VAGUE_RE.search(x) or len(x.split()) > 6:
        return None
    kind = m.group("kind") if m.group("kind") and m.group("kind").lower() not in _NOT_A_KIND else ""
    read = favourite(f"{x} is {'one of ' if m.group('one') else ''}my favorite{'s' if m.group('one') and not kind else ''}"
                     f"{' ' + kind if kind else ''}")
    if not read:
        return None
    text = f"{head}{sentence}"
    start = len(said) - len(said[-200:]) + named.start("x")
    return text[start : len(head) + m.end()], read[1]


_GREETING_FROM_RE = re.compile(
    r"^\W*(?:hello|hi|hey|greetings|howdy|good (?:morning|afternoon|evening|day))(?:\s+(?:there|friend|all|everyone))?"
    r",?\s+from\s+(?P<x>(?:the\s+)?(?:sunny\s+|beautiful\s+|rainy\s+|snowy\s+)?[A-Za-z][\w'.-]*(?:\s+[A-Za-z][\w'.-]*){0,3}?)"
    r"\s*(?:[!.,?]|$)",
    re.IGNORECASE,
)
_NOT_A_PLACE_RE = re.compile(r"^(?:the\s+)?(?:my|your|our|work|home|bed|the office|office|school|here|there|me|us|"
                             r"the other side|across|down|over|up|far|afar|a|an|another)\b", re.IGNORECASE)


def greeting_place(sentence: str) -> tuple[str, str] | None:
    """"Good evening from alabama!" → "User is in alabama"."""
    m = _GREETING_FROM_RE.match(sentence)
    if not m or _NOT_A_PLACE_RE.match(m.group("x")):
        return None
    return m.group(0).rstrip(" !.,?"), f"User is in {m.group('x')}"


_RELATIVE_PLACE_RE = re.compile(
    r"\b(?P<np>(?:the|a|an)\s+(?:[A-Za-z'-]+\s+){0,3}?[A-Za-z'-]+)\s+(?:(?P<where>where)\s+|that\s+|which\s+)?"
    r"(?:I|i)\s+(?:(?:also|still|currently|now|usually|often)\s+)?(?P<verb>work|live|attend|teach|study|volunteer|go to)"
    r"(?P<prep>\s+(?:at|in)\b)?\s*(?=[.!,?;]|$)",
)
_VERBS = {"work": "works at", "teach": "teaches at", "study": "studies at", "volunteer": "volunteers at",
          "live": "lives in", "attend": "attends", "go to": "goes to"}
_VAGUE_HEAD_RE = re.compile(r"^(?:the|a|an)\s+(?:same\s+|other\s+)?(?:place|one|job|company|area|way|time|day|days|"
                            r"reason|thing|things|town|city|building|office|house|home|hours|stuff)$", re.IGNORECASE)


def relative_place(sentence: str) -> tuple[str, str] | None:
    """"… the gas station where I work" → "User works at the gas station"."""
    m = _RELATIVE_PLACE_RE.search(sentence)
    if not m or _VAGUE_HEAD_RE.match(m.group("np")):
        return None
    verb = m.group("verb")
    if verb in ("attend", "go to") and m.group("where"):
        return None  # "the school where I go to" reads oddly either way; "the church I attend" is the shape
    if verb not in ("attend", "go to") and not m.group("where") and not m.group("prep"):
        return None  # "the way that I live", "a course I teach": no place said
    np = m.group("np")
    return m.group(0), f"User {_VERBS[verb]} {np[0].lower() + np[1:] if np[:2] in ('Th', 'A ', 'An') else np}"
