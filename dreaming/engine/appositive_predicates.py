"""What is said of a relative named in apposition: "My wife, Laura, is a teacher", "Anna, my sister, is a nurse".

The name alone is english_sentences.appositive_name's ("User's wife is named Laura", kept: it is the slot a new
name updates); when the sentence goes on to say something of that person, that is a memory with the name in it:
"User's wife Laura is a teacher". Only a
relative, a friend or a pet, and only when a verb follows the second comma ("My son, Leo, and I …" is not one).
"""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.english_sentences import is_a_name

_WHO = (r"(?:[\w'-]+\s+){0,2}?(?:son|daughter|kid|baby|brother|sister|husband|wife|partner|boyfriend|girlfriend|"
        r"fianc[eé]e?|mom|dad|mother|father|grandma|grandpa|grandmother|grandfather|best friend|friend|nephew|niece|"
        r"cousin|aunt|uncle|roommate|neighbou?r|boss|dog|cat|puppy|kitten)")
_NAME = r"[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)?"
# what follows the second comma: a verb first ("is a teacher", "works at Google", "just moved to Denver")
_SAID = (r"(?P<rest>(?:is|was|has|had|just|also|still|recently|will|can|used to|teaches|"
         r"(?!(?:and|as|is|was|his|has|this|always|sometimes|perhaps|unless|yes|us)\b)[a-z]{2,}(?<!s)s|[a-z]{3,}ed)\b"
         r"[^.!?]*)")
_MY_X_NAME_RE = re.compile(rf"^(?P<my>[Mm]y)\s+(?P<x>{_WHO})\s*,\s*(?P<name>{_NAME})\s*,\s*{_SAID}")
_NAME_MY_X_RE = re.compile(rf"^(?P<name>{_NAME})\s*,\s*(?P<my>[Mm]y)\s+(?P<x>{_WHO})\s*,\s*{_SAID}")


def appositive_predicate(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "My wife, Laura, is a teacher" → "User's wife Laura is a teacher", or None."""
    bare = sentence.strip()
    m = _NAME_MY_X_RE.match(bare)  # before the fillers go: they take "Anna, " for a greeting
    if not m:
        bare = en.LEAD_FILLER_RE.sub("", bare)
        m = _MY_X_NAME_RE.match(bare)
    if not m or not is_a_name(m.group("name").split()[0]):
        return None
    rest = en.cut_tail(m.group("rest")).rstrip(" ,;:-.!…")
    # what is said is the relative's: the user in it is "User", not the "they" of a sentence the user is subject of
    said = re.sub(r"\b(?:me|myself)\b", "User", re.sub(r"\b[Mm]y\b", "User's", rest))
    if len(rest.split()) < 2:
        return None  # "…, is" once the tail is cut: nothing said of them
    quote = bare[: m.start("rest")] + rest
    return quote, en.en_statement(f"My {m.group('x')} {m.group('name')} {said}")
