"""What "he is a …" / "she's a …" says about the one relative or pet of the user's just spoken of.

"What do you and your husband do?" … "I give music lessons. He's a detective." → "User's husband is a detective";
"What dog do you have?" … "He is a black lab named trooper" → "User's dog is a black lab named trooper". The
pronoun is read only when exactly one person of its gender (or one pet, which may be "he" or "she") was named
lately: by the user ("my husband"), or by the other side asking about the user's ("your husband", "what dog do you
have"). With two candidates, or none, the sentence says nothing a memory could keep.
"""
from __future__ import annotations

import re

from dreaming.engine.resolve import people_mentioned

_PRONOUN_IS_RE = re.compile(
    r"^(?:(?:oh|well|yes|yeah|yep|no|nope|lol|haha|ha),?\s+)*(?P<p>[Hh]e|[Ss]he)(?:'s|’s|\s+is|\s+was)\s+"
    r"(?P<rest>(?:a|an)\s+(?!(?:good|great|nice|bad|real|lot|little bit|bit|sweetheart|keeper|mess|pain|"
    r"handful)\b)[\w'’ -]{2,50}?)\s*(?=$|[,.!?;]|\s+(?:and|but|so|who|that)\b)"
)
_PETS = r"dog|cat|puppy|pup|kitten|horse|pony|rabbit|bunny|bird|parrot|snake|lizard|hamster|turtle|pig|goat|cow"
_YOUR_KIN_RE = re.compile(r"\b(?:your|ur)\s+(?:(?:older|younger|little|big|baby|twin|best)\s+)?(?P<kin>husband|wife|"
                          r"boyfriend|girlfriend|son|daughter|brother|sister|dad|father|mom|mother|mum|fianc[eé]e?|"
                          r"grandson|granddaughter)\b", re.IGNORECASE)
_FEMALE = frozenset("wife girlfriend daughter sister mom mother mum fiancee fiancée granddaughter".split())
_MY_PET_RE = re.compile(rf"\b(?:my|our)\s+(?:(?:new|little|pet|rescue)\s+)?(?P<pet>{_PETS})\b", re.IGNORECASE)
_ASKED_PET_RE = re.compile(rf"\b(?:your|ur|what|which|what kind of|what type of)\s+(?:(?:new|little|pet|rescue)\s+)?"
                           rf"(?P<pet>{_PETS})s?\b", re.IGNORECASE)


def _antecedents(*, said: str, asked: str, gender: str) -> set[str]:
    """The user's relatives of that gender and pets named in the user's words (`said`) or asked about by the other
    side (`asked`): "my husband" / "your husband", "my dog" / "what dog do you have"."""
    people = {kin for g, kin, _ in people_mentioned(said) if g == gender}
    people |= {kin for kin in (m.group("kin").lower() for m in _YOUR_KIN_RE.finditer(asked))
               if (kin in _FEMALE) == (gender == "f")}
    pets = [m.group("pet").lower() for m in [*_MY_PET_RE.finditer(said), *_ASKED_PET_RE.finditer(asked)]]
    return people | {"puppy" if pet == "pup" else pet for pet in pets}


def pronoun_subject(sentence: str, *, said: str, asked: str) -> tuple[str, str] | None:
    """(quote, statement) for "He's a detective" when one relative or pet of that gender was named lately (the
    user's words before the sentence: `said`; the other side's last turn: `asked`)."""
    text = sentence.strip()
    m = _PRONOUN_IS_RE.match(text)
    if not m:
        return None
    found = _antecedents(said=said, asked=asked, gender="f" if m.group("p").lower() == "she" else "m")
    if len(found) != 1:
        return None
    verb = "was" if re.search(r"\s+was\s+", m.group(0)) else "is"
    return text[m.start("p"): m.end("rest")], f"User's {found.pop()} {verb} {m.group('rest').strip()}"
