"""A bare "yes" or "no" opening the user's turn, read with the other side's yes-no question.

"Are you married?" → "No. Not yet." → "User is not married"; "Do you have any kids?" → "Nope!"; a "yes" with how
long it has been true keeps it: "Yes, for 7 years" → "User has been married for 7 years".
"""
from __future__ import annotations

import re

from dreaming.engine.answers import ASKED_TAIL_RE, BARE_NEGATIVE_RE, you_to_them, resolve_answer
from dreaming.engine.sensitive import sensitive_category

# "Are you married?" → "No. Not yet." → "User is not married"; "Do you have any kids?" → "Nope!"
_BARE_ANSWER_RE = re.compile(
    # "Sadly yeah I did": how the user feels about the answer, said before it
    r"^\W*(?:(?:sadly|unfortunately|luckily|fortunately|actually|honestly|well|oh|haha+|lol)\W+)?"
    r"(?P<word>yes|yeah|yep|yup|of course|definitely|absolutely|no|nope|nah|not yet|not really|never)\b"
    r"(?:[\s,.!]+(?P<more>not yet|not really|never|i (?:do|am|have|did)(?: not|n't)?)\b)?[\s,.!…]*",
    re.IGNORECASE,
)
_HEDGED_RE = re.compile(r"(?:usually|always|often|mostly|sometimes|normally|generally)\b", re.IGNORECASE)
_SHORT_FORM = {"do": "I do", "did": "I did", "are": "I am", "were": "I was", "have": "I have"}


def bare_answer(text: str, question: tuple[str, str] | None, *, positive: bool = True) -> tuple[str, str] | None:
    """(quote, statement) for a bare "Yes!" / "No, not yet." opening the user's turn, read with the other
    side's yes-no question (resolve_answer), or None. With positive=False only a "no" is read."""
    m = _BARE_ANSWER_RE.match(text)
    if not m or question is None or (question[0] == "were"):
        return None
    negative = bool(BARE_NEGATIVE_RE.search(m.group(0)))
    if negative and _HEDGED_RE.match(text, m.end()):
        return None  # "No usually.", "No, sometimes": a "not usually", a "sometimes" — not a plain no
    if not negative and not positive:
        return None
    statement = resolve_answer(_SHORT_FORM[question[0]] + (" not" if negative else ""), question)
    if not statement or sensitive_category(statement):
        return None
    if not negative:
        statement = re.sub(r"\bany\s+", "", statement)  # "Do you have any hobbies?" → "Yeah" → "User has hobbies"
        # "Did you learn anything on the trip?" → "Yeah" → "User did learn something on the trip"
        statement = re.sub(r"\bany(thing|one|body|where)\b", r"some\1", statement)
        lasting = _LASTING_RE.match(text, m.end())
        lasted = lasting and _lasted(statement, question, lasting.group("d"))
        if lasted:
            return text[m.start() : lasting.end()].strip(" ,"), lasted
    return m.group(0).strip(" ,"), statement


def _lasted(statement: str, question: tuple[str, str], how_long: str) -> str | None:
    """"Are you married?" → "Yes, for 7 years" → "User has been married for 7 years"; "Do you play guitar?" →
    "Yes, since 2010" → "User has played guitar since 2010"."""
    how_long = how_long if re.match(r"(?:for|since) ", how_long, re.I) else f"for {how_long}"
    said = re.match(r"User (is|has) (.+)$", statement)
    if said:
        return f"User {'has been' if said.group(1) == 'is' else 'has had'} {said.group(2)} {how_long}"
    verb, _, thing = question[1].partition(" ")
    if question[0] != "do" or not thing or not re.fullmatch(r"[a-z]+", verb):
        return None
    return f"User has {_participle(verb)} {ASKED_TAIL_RE.sub('', you_to_them(thing))} {how_long}"


_PARTICIPLES = {"do": "done", "go": "gone", "speak": "spoken", "ride": "ridden", "drive": "driven", "teach": "taught",
                "write": "written", "read": "read", "run": "run", "swim": "swum", "sing": "sung", "eat": "eaten",
                "drink": "drunk", "know": "known", "make": "made", "have": "had", "take": "taken", "see": "seen",
                "keep": "kept", "build": "built", "buy": "bought", "fly": "flown", "draw": "drawn", "grow": "grown",
                "wear": "worn", "sell": "sold", "win": "won", "lead": "led", "fight": "fought", "own": "owned"}


def _participle(verb: str) -> str:
    if verb in _PARTICIPLES:
        return _PARTICIPLES[verb]
    if verb.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ied"
    return verb + ("ed" if not re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", verb) else verb[-1] + "ed")


# How long a "yes" has been true, said right after it: "for 7 years", "since 2015", "about ten years now".
_LASTING_RE = re.compile(
    r"(?P<d>(?:for |since )?(?:(?:about|almost|over|nearly|around|like|more than) )?(?:\d{1,3}|a|an|one|two|three|four|five|"
    r"six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a few|several|many) (?:years?|months?|weeks?|"
    r"decades?)|since (?:19|20)\d\d)(?: now| already)?(?=\s*[.!…]*\s*$|\s*[.!…,;]\s)", re.IGNORECASE,
)


def is_bare_answer(quote: str) -> bool:
    """"No.", "Yes!", "Nope, not yet": a bare answer (bare_answer's quote), nothing more."""
    m = _BARE_ANSWER_RE.match(quote)
    return bool(m) and not quote[m.end():].strip()
