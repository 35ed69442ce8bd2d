"""Who a memory speaks to: one canonical third-person statement, shown in the second person to its owner.

The model reads "User has a corgi named Mochi" (MEMORY.md, recall); the memory center shows the same
row as "You have a corgi named Mochi" / "你养了一只叫 Mochi 的柯基". What a person types when adding
or editing a memory ("I became an aunt", "You have two cats", "我养猫") is stored canonical, so the
two voices never mix in one list. The reverse direction is dreaming/engine/third_person.py.
"""
from __future__ import annotations

import re

from dreaming.engine.third_person import (
    AND_VERBS,
    USER_ZH,
    conjugate,
    to_third_person_en,
    to_third_person_zh,
)

_CJK = re.compile(r"[\u3400-\u9fff]")

# third person -> second person for the verb right after "User"
_SECOND_PERSON_SPECIAL = {
    "is": "are", "was": "were", "has": "have", "does": "do", "goes": "go", "isn't": "aren't",
    "wasn't": "weren't", "hasn't": "haven't", "doesn't": "don't", "'s": "'re",
}
_NOT_A_VERB = frozenset([
    "and", "or", "but", "with", "who", "whose", "which", "that", "of", "in", "on", "at", "from", "to", "for", "by",
    "as", "than",
])
_ADVERB = r"(?:also|still|just|really|actually|usually|always|often|sometimes|never|rarely|currently|recently|now|" \
          r"already|even|mostly|mainly|probably|definitely|generally|normally|typically|occasionally|only|" \
          r"finally|originally|[a-z]+ly)"
_USER_SUBJECT = re.compile(rf"\b(?:[Tt]he )?[Uu]ser\b((?: {_ADVERB})*) ([A-Za-z'’]+)")
_USER_POSSESSIVE = re.compile(r"\b(?:[Tt]he )?[Uu]ser(?:'s|’s)")
_USER_OBJECT = re.compile(r"\b(?:[Tt]he )?[Uu]ser\b")
# "User is quiet and loves to browse": the second verb agrees with "you" too.
_AND_VERB = re.compile(rf"\b((?:and|or)(?: {_ADVERB})*) ({'|'.join(sorted(conjugate(v) for v in AND_VERBS))})\b")


def _is_chinese(text: str) -> bool:
    return len(_CJK.findall(text)) > len(text) / 4


def _verb_for_you(verb: str) -> str:
    low = verb.lower().replace("’", "'")
    if low in _SECOND_PERSON_SPECIAL:
        return _SECOND_PERSON_SPECIAL[low]
    if low in _NOT_A_VERB or not low.isalpha() or not low.endswith("s") or low.endswith("ss"):
        return verb  # a modal, a past tense, or not a verb at all
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("shes", "ches", "xes", "zes", "sses", "oes")):
        return verb[:-2]
    return verb[:-1]


def to_second_person_en(statement: str) -> str:
    """"User has a dog; their dog is Milo" → "You have a dog; your dog is Milo"."""
    if not _USER_OBJECT.search(statement):
        return statement  # not about the user as a subject we can address ("Milo is a corgi")
    text = _USER_POSSESSIVE.sub("your", statement)
    text = _USER_SUBJECT.sub(lambda m: f"you{m.group(1)} {_verb_for_you(m.group(2))}", text)
    if re.match(r"you\b", text):
        text = _AND_VERB.sub(lambda m: f"{m.group(1)} {_verb_for_you(m.group(2))}", text)
    text = _USER_OBJECT.sub("you", text)
    # The extractor writes the user's own things as "their" ("my dog" → "their dog"); "they" and
    # "them" are as often someone else ("User misses them"), so those stay.
    text = re.sub(r"\bthemself\b", "yourself", text)
    text = re.sub(r"\btheirs\b", "yours", text)
    text = re.sub(r"\btheir\b", "your", text)
    text = re.sub(r"([“\"]|[.!?] )y(ou|our)\b", lambda m: m.group(1) + "Y" + m.group(2), text)  # a quoted or new sentence
    return text[:1].upper() + text[1:]


def to_second_person_zh(statement: str) -> str:
    """"用户养了一只叫 Mochi 的柯基" → "你养了一只叫 Mochi 的柯基"."""
    return statement.replace(USER_ZH, "你")


def to_second_person(statement: str) -> str:
    """A canonical statement as its owner reads it, in the statement's own language."""
    statement = statement or ""
    if _is_chinese(statement):
        return to_second_person_zh(statement)
    return to_second_person_en(statement)


# --- what a person types -> the canonical form -------------------------------------------------

_YOU_START = re.compile(r"^(?:you|your|you're|you’re|you've|you’ve)\b", re.IGNORECASE)
_I_START = re.compile(r"^(?:i|i'm|i’m|i've|i’ve|i'll|i’ll|i'd|i’d|im|my|me)\b", re.IGNORECASE)


def _second_to_third_en(text: str) -> str:
    text = re.sub(r"^[Yy]ou(?:'|’)re\b", "User is", text)
    text = re.sub(r"^[Yy]ou(?:'|’)ve\b", "User has", text)
    text = re.sub(r"^[Yy]our\b", "User's", text)
    text = re.sub(rf"^[Yy]ou((?: {_ADVERB})*) ([A-Za-z'’]+)",
                  lambda m: f"User{m.group(1)} {'was' if m.group(2).lower() == 'were' else conjugate(m.group(2))}",
                  text)
    text = re.sub(r"\byourself\b", "themself", text)
    text = re.sub(r"\byours\b", "theirs", text)
    text = re.sub(r"\byour\b", "their", text)
    text = re.sub(r"\byou(?:'|’)re\b", "they're", text)
    return re.sub(r"\byou\b", "them", text)


def canonical_statement(text: str) -> str:
    """What a person wrote about themself, in the model's third person; anything else unchanged.

    "I became an aunt" → "User became an aunt"; "You have two cats" → "User has two cats";
    "我养猫" / "你养猫" → "用户养猫"; "User likes jazz" stays.
    """
    text = " ".join((text or "").split())
    if not text:
        return text
    if _is_chinese(text):
        if text.startswith("你"):
            return USER_ZH + text[1:].replace("你的", f"{USER_ZH}的")
        return to_third_person_zh(text) if "我" in text else text
    if _YOU_START.match(text):
        return _second_to_third_en(text)
    if _I_START.match(text):
        return to_third_person_en(text)
    return text
