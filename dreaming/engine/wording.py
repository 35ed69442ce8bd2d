"""The last touches to an English statement, so that it reads right to the user months later.

- a closed-class word the user typed with a capital in mid-sentence: "… for About eight years" → "for about";
- a comma left between a liking verb and its object by a spoken "like,": "User likes, Frida Kahlo";
- "like" before a number, said for "about": "User drinks like 4 cups a day" → "about 4 cups a day";
- a spoken tag at the end: "User cooks usually, yeah" → "User cooks usually";
- a comment after the fact: "User got hired as a life coach, thanks for asking", "User has a weakness for vanilla ice
  cream, they're the best", "User likes to spend time with animals, love them" → the fact alone; so a consequence
  joined by "so": "User lives in the city now so its hard" → "User lives in the city now";
- the "do" of emphasis, said back to someone ("I do have two dogs"): "User does have two dogs" → "User has two dogs";
- "finally" and a leading "even", which lean on a wait or a clause the memory does not have: "User finally turned
  18" → "User turned 18", "User even went hiking" → "User went hiking";
- the "so" of an exclamation: "User is so passionate about baking" → "User is passionate about baking" (not the "so"
  of "so … that": "User is so tired they could sleep" keeps it);
- "this" / "that" of a photo or a thing shown, past the subject: "User took this pic in Spain" → "a pic", "User
  adopted this cute pup" → "a cute pup";
- a "together" left from a "we" whose others are gone: "User goes to the beach together during their vacations" →
  "User goes to the beach during their vacations" (not "User and their mom cooked together", "got together with").
"""
from __future__ import annotations

import re

_MID_CAPITAL_RE = re.compile(
    r"\b(?P<before>[\w'’]+,? )(?P<word>About|Around|Almost|Nearly|Over|Under|Maybe|Probably|Like|Just|Only|Since|For|With|And|But|The|"
    r"A|An|Of|To|In|On|At|Every|Each|Some|Most|Many|Few|Last|Next|This|That|These|Those|"
    r"Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)\b(?= [a-z0-9])"
)
_LIKING_COMMA_RE = re.compile(r"^(User (?:\w+ )?(?:likes|loves|enjoys|prefers|hates|adores)),\s+")
_NUMBER_WORD = r"(?:\d|a (?:couple|few|dozen|hundred|thousand)\b|(?:one|two|three|four|five|six|seven|eight|nine|ten|" \
               r"twenty|thirty|forty|fifty|a hundred|half)\b)"
# the verb "like" ("User would like 2 tickets", "User's kids like 3 shows") is after a subject or a modal
_LIKE_NUMBER_RE = re.compile(
    rf"(?<!\bUser )(?<!\bwould )(?<!\bto )(?<!n't )(?<!\bdo )(?<!\bdoes )(?<!\bdid )(?<!\bthey )(?<!\bwe )\blike,?\s+(?={_NUMBER_WORD})"
)
_TAG_RE = re.compile(r",\s*(?:yeah|yep|yes|lol|haha+|hehe|tbh|you know|i guess|ok|okay|right)\s*[.!]*$", re.IGNORECASE)
# A comment on what was said, after the fact: "…, thanks for asking", "…, they're the best", "…, love them", "…, of
# course", "… no lie". It is the user talking, not something to remember; the fact before it reads alone.
_COMMENT_TAIL_RE = re.compile(
    r"(?:,\s*(?:thanks for asking|thank you for asking|thanks for the idea|of course|thankfully|luckily|hopefully|"
    r"(?:they|it|that)(?:'s|’s|'re|’re| is| are) (?:the best|great|awesome|amazing|so good|so fun|so cute|all (?:they|I) "
    r"\w+)|(?:love|loves|adore|adores) (?:them|it)(?: so much| a lot)?|they don'?t know why|"
    r"(?:they|it)'(?:ll|d|ve))|\s+(?:lol|haha+|hehe|lmao|no lie|for real|not cool huh|huh))\s*[.!]*$",
    re.IGNORECASE,
)

# A consequence or comment joined by "so" after the fact: "User lives in the city now so its hard", "User is in new york
# so yeah its very cold", "User has kids, so video games in the house is a must" — after a comma, or before words that
# open a clause. Not the "so" of degree ("User is so happy they are 18", "Seeing their kids' faces so happy at the
# beach was the best"), "so much" / "so that", nor a purpose ("so they can buy a house").
_SO_TAIL_RE = re.compile(
    r"(?:\s*,\s*so\s+(?!(?:much|many|far|long|that|well|often|little|few|they|their|them|he|she|his|her|we|our|i|user)\b)"
    r"(?=(?:[\w']+\s+){0,5}(?:is|are|was|were|would|will|have|has|can|cant|can't|must|should)\b)"
    r"|\s+so\s+(?=(?:yeah|its|it's|it’s|lets|let's|that's|thats|there's|cant|can't)\b)).*$",
    re.IGNORECASE,
)

# verb → (after "does", after "did"); only verbs that after "does" / "did" are never a noun ("does volunteer work",
# "did security" keep their "do")
_EMPHATIC_VERBS = {
    "like": ("likes", "liked"), "love": ("loves", "loved"), "enjoy": ("enjoys", "enjoyed"), "have": ("has", "had"),
    "get": ("gets", "got"), "wear": ("wears", "wore"), "teach": ("teaches", "taught"), "ride": ("rides", "rode"),
    "play": ("plays", "played"), "miss": ("misses", "missed"), "remember": ("remembers", "remembered"),
    "raise": ("raises", "raised"), "learn": ("learns", "learned"), "try": ("tries", "tried"),
    "watch": ("watches", "watched"), "see": ("sees", "saw"), "want": ("wants", "wanted"), "need": ("needs", "needed"),
    "know": ("knows", "knew"), "live": ("lives", "lived"), "go": ("goes", "went"), "make": ("makes", "made"),
    "take": ("takes", "took"), "own": ("owns", "owned"), "prefer": ("prefers", "preferred"), "hate": ("hates", "hated"),
    "eat": ("eats", "ate"), "drink": ("drinks", "drank"), "read": ("reads", "read"), "write": ("writes", "wrote"),
    "think": ("thinks", "thought"), "feel": ("feels", "felt"), "believe": ("believes", "believed"),
    "cook": ("cooks", "cooked"), "bake": ("bakes", "baked"), "listen": ("listens", "listened"),
    "collect": ("collects", "collected"),
}
_EMPHATIC_DO_RE = re.compile(r"^(?P<head>User(?:'s [a-z]+)? (?:still |also |really |sometimes |usually |often )?)"
                             r"(?P<do>does|did) (?P<verb>" + "|".join(_EMPHATIC_VERBS) + r")\b")
_LEANING_ADVERB_RE = re.compile(r"^(User (?:is |was |has |had )?)(?:finally|even) (?!(?:if|though|when|with|more|less|"
                                r"better|worse|so|as|after|before|now|then)\b)")
_FINALLY_RE = re.compile(r"(?:\band|\bbut|,) finally (?=[a-z])")


_EXCLAIMED_SO_RE = re.compile(r"^(User (?:is|was|feels|felt|has been|had been) )(?:so|soo+|super|sooo+) (?=[a-z]+(?:$|[,;]| (?:about|for|of|to|"
                              r"with|at|in|on|by|and|but|now|lately|today)\b))")
_EVALUATIVE = (r"amazing|awesome|cool|great|delicious|beautiful|gorgeous|incredible|fantastic|wonderful|lovely|cute|fun|"
               r"neat|epic|sweet|nice|stunning|yummy|tasty|cozy|adorable|sunny|gorgeous")
_SHOWN_THING_RE = re.compile(r"(?<=\w )(?:this|that) (?=(?:(?:super|really|so|pretty) )?(?:" + _EVALUATIVE + r")\b|"
                             r"(?:pic|pics|photo|picture|shot|snap|selfie)\b)")


def _shown_thing(m: re.Match) -> str:
    rest = m.string[m.end():]
    return "an " if rest[:1].lower() in "aeiou" and rest[:1] else "a "


def _plain_do(m: re.Match) -> str:
    present, past = _EMPHATIC_VERBS[m.group("verb")]
    return m.group("head") + (present if m.group("do") == "does" else past)


# "Retired now" → "User retired now": the "I'm" of a state was dropped, not a verb said.
_STATE_NOW_RE = re.compile(r"^User (?=(?:retired|married|divorced|engaged|widowed|unemployed|single) now\b)")


# "We go to the beach together" → "User goes to the beach together": the others of the "we" are gone, and a
# "together" with no one left to be together with reads wrong ("User goes to the beach during their vacations").
_LONE_TOGETHER_RE = re.compile(r",?\s+(?:all\s+)?together\b(?=\s*(?:$|[,;]|\s(?:during|on|at|in|for|every|each|last|this|"
                               r"and|after|before|while|when|since|now|often|sometimes|a lot)\b))")
_SOMEONE_WITH_RE = re.compile(r"^User(?:'s [a-z]+)? and\b|\b(?:with|get|got|getting|gets|came|come|comes|put|puts|"
                              r"bring|brings|brought|pull|pulled|coming)\b[^,;]*\btogether\b", re.IGNORECASE)


def _lone_together_dropped(text: str) -> str:
    return text if _SOMEONE_WITH_RE.search(text) else _LONE_TOGETHER_RE.sub("", text)


def tidy_en(statement: str) -> str:
    # only after a word in lower case: "Gone With the Wind" is a title
    text = _MID_CAPITAL_RE.sub(lambda m: m.group("before") + (m.group("word").lower() if m.group("before").islower()
                                                              else m.group("word")), statement)
    text = _LIKING_COMMA_RE.sub(r"\1 ", text)
    text = _LIKE_NUMBER_RE.sub("about ", text)
    text = _STATE_NOW_RE.sub("User is ", _EMPHATIC_DO_RE.sub(_plain_do, text))
    text = _SHOWN_THING_RE.sub(_shown_thing, _EXCLAIMED_SO_RE.sub(r"\1", text))
    text = _FINALLY_RE.sub(lambda m: m.group(0).replace("finally ", ""), _LEANING_ADVERB_RE.sub(r"\1", text))
    tidied = _SO_TAIL_RE.sub("", _COMMENT_TAIL_RE.sub("", _TAG_RE.sub("", _lone_together_dropped(text))))
    return tidied if len(tidied.split()) >= 3 else text
