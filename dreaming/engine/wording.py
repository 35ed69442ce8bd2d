"""The last touches to an English statement, so that it reads right to the user months later.

- a closed-class word the user typed with a capital in mid-sentence: "… for About eight years" → "for about";
- a comma left between a liking verb and its object by a spoken "like,": "User likes, Frida Kahlo";
- "like" before a number, said for "about": "User drinks like 4 cups a day" → "about 4 cups a day";
- a spoken tag at the end: "User cooks usually, yeah" → "User cooks usually";
- the "do" of emphasis, which stresses a word the memory does not need: "User does like fruit" → "User likes fruit".
"""
from __future__ import annotations

import re

from dreaming.engine.third_person import conjugate

_MID_CAPITAL_RE = re.compile(
    r"\b(?P<before>[\w'’]+,? )(?P<word>About|Around|Almost|Nearly|Over|Under|Maybe|Probably|Like|Just|Only|Since|For|With|And|But|The|"
    r"A|An|Of|To|In|On|At|Every|Each|Some|Most|Many|Few|Last|Next|This|That|These|Those)\b(?= [a-z0-9])"
)
_LIKING_COMMA_RE = re.compile(r"^(User (?:\w+ )?(?:likes|loves|enjoys|prefers|hates|adores)),\s+")
_NUMBER_WORD = r"(?:\d|a (?:couple|few|dozen|hundred|thousand)\b|(?:one|two|three|four|five|six|seven|eight|nine|ten|" \
               r"twenty|thirty|forty|fifty|a hundred|half)\b)"
# the verb "like" ("User would like 2 tickets", "User's kids like 3 shows") is after a subject or a modal
_LIKE_NUMBER_RE = re.compile(
    rf"(?<!\bUser )(?<!\bwould )(?<!\bto )(?<!n't )(?<!\bdo )(?<!\bdoes )(?<!\bdid )(?<!\bthey )(?<!\bwe )\blike,?\s+(?={_NUMBER_WORD})"
)
# Only verbs that are not also nouns after "does" ("User does volunteer work", "does farm work" keep their "does").
_EMPHATIC_DO_RE = re.compile(
    r"^(User (?:(?:also|really|still|sure|definitely|certainly) )?)does (like|love|enjoy|have|miss|hate|prefer|ride|"
    r"wear|teach|play|want|need|eat|drink|cook|bake|read|watch|listen|know|live|get|own|go|try|collect)\b"
)
_TAG_RE = re.compile(r",\s*(?:yeah|yep|yes|lol|haha+|hehe|tbh|you know|i guess|ok|okay|right)\s*[.!]*$", re.IGNORECASE)


def tidy_en(statement: str) -> str:
    # only after a word in lower case: "Gone With the Wind" is a title
    text = _MID_CAPITAL_RE.sub(lambda m: m.group("before") + (m.group("word").lower() if m.group("before").islower()
                                                              else m.group("word")), statement)
    text = _LIKING_COMMA_RE.sub(r"\1 ", text)
    text = _LIKE_NUMBER_RE.sub("about ", text)
    text = _EMPHATIC_DO_RE.sub(lambda m: m.group(1) + conjugate(m.group(2)), text)
    tidied = _TAG_RE.sub("", text)
    return tidied if len(tidied.split()) >= 3 else text
