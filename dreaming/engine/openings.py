"""Statements whose opening leans on what they do not say.

The engine writes a statement by turning the user's "I" / "my" into "User" / "User's". When the
sentence was about something else, the rewrite keeps that something's pointer at the front:
"They're my biggest motivation" → "They're User's biggest motivation", "Here's a picture of him
that I cherish" → "Here's a picture of him that User cherishes", "John, I get it" → "John, User gets
it", "Glad I could help" → "Glad User could help". Read later, in MEMORY.md, none of them says who or
what: they were replies in a conversation, not facts about the user.

`opening_reason` says why such a statement does not stand on its own, or None. Deep sleep's
vagueness rule (dreaming.engine.vagueness.vague_reason) keeps these below the pending threshold, with
the reason in the score's breakdown. Each rule is a shape of the opening, not a topic:

- a subject pronoun with nothing before it to stand for ("They", "It", "This is", "He's");
- a demonstrative or bare definite thing as the subject ("That picture …", "The necklace is …"):
  which one was shown or said before, the statement does not say;
- "Here's …": showing a photo;
- a name said to the other side, first ("John, User gets it");
- a reply's opener with its own subject left out ("Glad …", "Wish …", "Gotta …", "Check …", "Plus …");
- a plan said with its subject left out whose object is "it" ("Gonna continue doing it - …").

What still stands: a named or plain thing as the subject ("Clay brings User so much joy", "Dancing
helps User de-stress", "Coconut milk ice cream is at the top of User's list"), a time or place that
opens the sentence ("Recently, User moved to Tokyo"), "It's User's birthday on 3 May", and a statement with a later
clause of the user's own ("That is cool, User would have a lot of pets if they had the time").
"""
from __future__ import annotations

import re

# Subject pronouns at the very start: what they stand for was said before, by someone.
# ("We didn't have much winter", "His name is Max": the engine writes the user as "User", so a "we" left at the front
# is a group the statement does not name, "his" someone it does not say.)
_PRONOUN_SUBJECT_RE = re.compile(
    r"^(?P<p>they|he|she|it|this|that|these|those|we|his|hers)(?:'re|'s|'ve|'ll|'d)?\s+(?P<next>[\w']+)", re.IGNORECASE
)
# "It's User's birthday", "It's been two years since User moved": a date or a span, not a thing.
_IT_OF_TIME_RE = re.compile(
    r"^it(?:'s| is| was| will be)\s+(?:been\s+)?(?:user's\s+(?:birthday|anniversary|wedding day|first day|last day)|"
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|many)\s+(?:days?|weeks?|months?|years?)\b)",
    re.IGNORECASE,
)
# A demonstrative thing as the subject ("That picture reminds User …", "Those shoes are User's favorite").
_DEMONSTRATIVE_SUBJECT_RE = re.compile(r"^(?P<p>(?:this|that|these|those)\s+[a-z][\w'-]*)\s", re.IGNORECASE)
# "The necklace is super special to User", "The picture reminds User of …": one plain noun, then the verb.
_BARE_DEFINITE_RE = re.compile(
    r"^(?P<p>(?i:the)\s+(?!user\b)[a-z][\w'-]*)\s+(?:is|are|was|were|has|have|had|means|meant|reminds?|reminded|makes?|made|"
    r"helps?|helped|gives?|gave|brings?|brought|keeps?|kept)\b"
)
_HERE_RE = re.compile(r"^(?P<p>here(?:'s| is| are)|there(?:'s| is) this)\b", re.IGNORECASE)
# A name and a comma, then the user or a reply: said to the other side.
_ADDRESS_FIRST_RE = re.compile(
    r"^(?P<p>[A-Z][a-z]+),\s+(?:User\b|glad\b|thanks\b|thank you\b|so glad\b|good\b|great\b|congrat)"
)
# "This week User started …", "These days …": a time, not a thing.
_TIME_WORDS = frozenset(
    """day days week weeks weekend weekends month months year years morning mornings evening evenings night nights
    time times summer winter spring autumn fall past season semester term""".split()
)
# Words that open a sentence with a comma and are no name ("Recently, User …").
_NOT_A_NAME = frozenset(
    """also plus anyway well so oh yes yeah yep no nope ok okay honestly recently lately yesterday today tonight
    tomorrow now then still besides otherwise meanwhile sometimes usually actually finally however luckily
    sadly hopefully last next later earlier again""".split()
)
# A reply whose own subject was left out: its "User" is the object of someone's reaction.
_REPLY_OPENER_RE = re.compile(
    r"^(?P<p>glad|so glad|wish|gotta|check(?: out)?|plus|rock on|(?:it's )?been a pleasure)\b", re.IGNORECASE
)
# A plan or a habit said with its "I" left out ("Gonna continue doing it - …", "Can't wait to see it"): what "it"
# is, the statement does not say. With a thing named ("Going to ride User's arabian horse") it stands.
_DROPPED_SUBJECT_RE = re.compile(
    r"^(?P<p>gonna|wanna|going to|been|can't wait(?: to)?|hoping to|trying to|planning to|thinking of|"
    r"looking forward to)\b(?P<clause>[^,;:–-]*)", re.IGNORECASE
)


# A later clause of the user's own: "That is cool, User would have a lot of pets", "It is a hard world, now User
# volunteers", "They are five and User's wife …". Whether the statement stands is then that clause's to say.
# ("It is so User's favorite": "so" after a form of "be" says how much, it opens no clause.)
_OWN_CLAUSE_LATER_RE = re.compile(
    r"(?:[,;:\-–]|\b(?:and|but|(?<!\bis )(?<!\bwas )(?<!\bare )(?<!\bwere )(?<!'s )so|now|because|cause|where|when))"
    r"\s+(?:even\s+)?(?P<clause>User(?:'s)?\b.*)$"
)


def _about_the_user_first(text: str) -> bool:
    return bool(re.match(r"(?i)(?:the )?user\b|用户", text))


def later_own_clause(statement: str) -> str | None:
    """The later clause of the user's own in a statement that opens with something else, or None: "That is cool,
    User would have a lot of pets" → "User would have a lot of pets"."""
    text = statement.strip()
    if _about_the_user_first(text):
        return None
    m = _OWN_CLAUSE_LATER_RE.search(text)
    return m.group("clause") if m else None


def opening_reason(statement: str) -> str | None:
    """Why `statement`'s opening leans on something it does not say (module docstring), or None. A pointer
    opening followed by a clause of the user's own is left to that clause (`later_own_clause`)."""
    text = statement.strip()
    if not text or _about_the_user_first(text):
        return None
    if m := _HERE_RE.match(text):
        return f"'{m.group('p')}' shows something the memory does not have"
    if m := _REPLY_OPENER_RE.match(text):
        return f"a reply ('{m.group('p')} …'), not something about the user"
    if (m := _ADDRESS_FIRST_RE.match(text)) and m.group("p").lower() not in _NOT_A_NAME and not m.group("p").endswith("ly"):
        return f"starts with '{m.group('p')}', said to someone, not about the user"
    if (m := _DROPPED_SUBJECT_RE.match(text)) and (it := re.search(r"(?i)\b(?:it|them)\b", m.group("clause"))):
        return f"'{m.group('p')} …' leaves out who, and '{it.group(0)}' what"
    if later_own_clause(text):
        return None
    if (m := _DEMONSTRATIVE_SUBJECT_RE.match(text)) and m.group("p").split()[1].lower() not in ("is", "was", *_TIME_WORDS):
        return f"depends on '{m.group('p')}', which it does not name"
    if (m := _PRONOUN_SUBJECT_RE.match(text)) and m.group("next").lower() not in _TIME_WORDS:
        if m.group("p").lower() != "it" or not _IT_OF_TIME_RE.match(text):
            return f"depends on '{m.group('p')}', which it does not name"
    if m := _BARE_DEFINITE_RE.match(text):
        return f"depends on '{m.group('p')}', which it does not name"
    return None
