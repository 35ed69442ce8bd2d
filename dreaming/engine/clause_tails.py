"""Where an English clause's main part ends and the tail it carries along begins: "I love it here so if he ever
needs …", "… when I was a boy", "I'm always alone, it feels nice". The tail is said, but it is not the fact the
statement keeps (english.en_clause and the readings of english_clause.py cut it with `cut_tail`)."""
from __future__ import annotations

import re

from dreaming.engine.third_person import SINCE_NOT_AN_AGE, WHEN_NOT_AN_AGE

# Where the main clause ends and a subordinate tail begins ("… so if he ever needs …", "… when I was a boy").
EN_TAIL_RE = re.compile(
    r"\s+(?:so|as|and|because|cause|" + SINCE_NOT_AN_AGE + r"|while|" + WHEN_NOT_AN_AGE + r"|whenever|until|unless|if|though|although|whereas|"
    r"which|who|that)\s+(?=(?:if|I|i|he|she|we|they|it|you|my|his|her|their|our|there|this|that)\b)"
    # ("the cause" / "a good cause" is a noun, not "'cause")
    r"|(?<!\bthe)(?<!\ba)(?<!\bgood)(?<!\bworthy)(?<!\bour)(?<!\bmy)(?<!\bthis)"
    # ("since 2015", "since college", "since moving here" say since when: a "since" of cause has a subject, above)
    r"\s+(?:because|'?cause|’cause|if|unless|although|though|whereas|which|whenever)\s+"
    r"|\s+and\s+(?=(?:hoping|hope|wondering|wishing)\b)"
    r"|\s+(?:that|who)\s+(?=(?:likes|loves|enjoys|is|was|has|makes|takes|goes|works|lives)\b)"
    r"|,\s*(?=(?:\w+\s+){0,2}(?:is|are|was|were|it's|its)\b)"
    # another's news told with the user's ("we're moving to Leeds, she got a job there"): it is not the user's
    r"|,\s*(?=(?:he|she|they)\s+(?:just\s+|finally\s+|also\s+)?(?:got|gets|has|had|found|finds|wants|needs|started|works|"
    r"loves|likes|said|says)\b)"
    # an aside on the user's words or a change said after them: "I'm a truck driver, not very glamorous I know", "I
    # migrated here, a lot has changed" (not "it stands for freedom": what a thing means to the user is kept)
    r"|,\s*(?=not\s+(?:very|that|so|too|what)\b|(?:a lot|lots|so much|much|everything|nothing)\s+(?:has|have|had)\b)"
    r"|,\s*(?=(?:maybe|perhaps|so|which|but|though|because|since|and|or|except|unless|nice|how|what|"
    r"especially|mostly|mainly|particularly)\b)"
    # a question to the other side run on without its stop: "I love the winter what is your fave weather"
    # (an auxiliary before the "you": "I admire what you do" says what is admired)
    r"|\s+(?=(?:(?:what|how|where|which|who|when)\s+(?:is|are|was|were|do|does|did|about)|whats|what's|how's)\s+"
    r"(?:your|you|ur|u|yours)\b)"
    # what the other side would make of it: "I have a silver eared bunny you would love"
    r"|\s+(?=(?:that\s+|which\s+)?(?:you|u)(?:'d|’d| would| will|'ll|’ll)\s+(?:love|like|enjoy|adore|hate)\b)"
    r"|\s*\((?:[^)]*)\)|\s+[—–]\s*|\s+-\s+|(?<=\w)[-–—]\s+|\s*[:;]-?[()DPp]\B|\s*[\U0001F300-\U0001FAFF]",
)


def cut_tail(text: str) -> str:
    m = EN_TAIL_RE.search(text)
    if m and len(text[: m.start()].split()) >= 2:
        return text[: m.start()].rstrip(" ,;:-")
    return text
