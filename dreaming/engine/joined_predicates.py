"""Two things the user says of themself joined by "and", as two statements.

"I'm a nurse and have two kids" reads "User is a nurse and has two kids": two facts, and a memory of both answers
neither "what does the user do?" nor "does the user have children?" well; when one changes the other goes stale
with it. When a statement about the user (or one of theirs: "User's dog …") goes on after "and" with a second verb
that agrees with that subject in the present ("has", "loves", "is"), the engine keeps two statements, each with its subject:
"User is a nurse" and "User has two kids".

Not split:
- a list of things, not of predicates: "User likes fast cars and new people", "User has 2 dogs and a cat";
- verbs under one infinitive or modal ("User likes to swim and walk on the beach", "User can cook and bake"): the
  second verb does not agree with the subject, so it is not read as a predicate of its own;
- a negation before the "and" ("User never smokes and drinks"): it may reach over both verbs;
- a second part that leans on the first ("User tried mediterranean food and loved it", "… and hates that", "… and
  finds a way"), or a first part that says nothing alone ("User got up and …");
- a story told in order ("User had been wanting to try yoga and took the plunge"): only a second verb in the present
  ("has", "loves", "is", "can't") is read as a predicate of its own, never a past one;
- "between … and", "both … and": one predicate over two things; a relative clause the "and" goes on with ("User has a
  dog who competes and takes agility classes": the classes may be the dog's);
- one auxiliary before two participles: "User was born and raised in Ohio", "User has lived and worked abroad" (a
  participle is no present verb).
"""
from __future__ import annotations

import re

from dreaming.engine.third_person import AND_VERBS, age_in_years, conjugate

# A second verb that agrees with a third-person subject: what the user said with its own verb ("and have two kids"
# → "and has two kids" in third_person.py), never a bare verb left under "to" or a modal.
# Light verbs whose object is often an idiom that leans on the first part ("… and finds a way", "… and makes sense",
# "… and takes time"): what follows them is no fact of its own.
_LIGHT_VERBS = frozenset("do go make take find keep stay feel".split())
_AGREEING = frozenset(
    {conjugate(v) for v in AND_VERBS - _LIGHT_VERBS}
    | {"is", "has", "doesn't", "isn't", "hasn't", "can't", "cannot", "will", "would"}
)
_ADVERB = r"(?:also|still|now|often|usually|always|sometimes|currently|recently|even|mostly|only)"
_JOINED_RE = re.compile(
    rf"^(?P<subject>User(?:'s [a-z]+)?) (?P<first>[^,;]+?) and (?:(?P<adverb>{_ADVERB}) )?(?P<verb>[a-z']+)(?P<rest>(?: [^,;]+)?)$"
)
# A second part whose object is the first part's: "loved it", "hates that", "walks him daily", "wants to see him".
_LEANING_RE = re.compile(r"^\s*(?:that|this|those|these|one|there|so|too|more|less)\b|\b(?:it|them|him|her)\b(?!')",
                         re.IGNORECASE)
_BROKEN_RE = re.compile(r"\s[-–—]+\s|--")  # a first part broken by dashes is chatter, not a predicate
_NEGATION_RE = re.compile(r"n't\b|\b(?:not|never|no|neither|nor|cannot)\b", re.IGNORECASE)
# one predicate over two things, or a relative clause the "and" may go on with ("a dog who competes and takes classes")
_ONE_PREDICATE_RE = re.compile(r"\b(?:between|both|either|who|that|which|where|whose)\b", re.IGNORECASE)
_MIN_WORDS = 2  # each part: its verb and at least one word more ("User is a nurse", "User has two kids")
# "User got up and …", "User came home and …": a verb and its particle tell a step of a story, not a fact.
_STEP_RE = re.compile(r"^[a-z']+ (?:up|out|home|back|off|down|away|over|in|on|around|there|here)$")


def joined_predicates(statement: str) -> list[str]:
    """The statement, or its two predicates joined by "and" as two statements with the same subject (see the
    module docstring)."""
    m = _JOINED_RE.match(statement.rstrip(" .!"))
    if not m or m.group("verb") not in _AGREEING:
        return [statement]
    first, rest = m.group("first").strip(), m.group("rest").strip()
    if (len(first.split()) < _MIN_WORDS or _STEP_RE.match(first) or not rest or _LEANING_RE.search(rest) or _NEGATION_RE.search(first)
            or _ONE_PREDICATE_RE.search(first) or _BROKEN_RE.search(first)):
        return [statement]
    subject, adverb = m.group("subject"), m.group("adverb")
    # "… and also has a cat": the "also" points back at the first part, which is now a statement of its own
    kept = f"{adverb} " if adverb and adverb not in ("also", "even") else ""
    return [age_in_years(f"{subject} {first}"), f"{subject} {kept}{m.group('verb')} {rest}"]
