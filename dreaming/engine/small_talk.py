"""Small talk told as if it were a fact about the user: how things are going, a cheer, a thing only pointed at.

A friend's "How have you been?" gets "I've been doing great lately!", "Gonna keep chasing those dreams!",
"I'll cherish that little guy with all my heart!". Rewritten in the third person they read like facts, yet a
month later, in MEMORY.md, they tell the user nothing they would want remembered. Each rule is a shape of
the words, not a topic:

- `how_it_goes_reason`: how things go, with nothing named that goes so ("User has been doing great lately",
  "User didn't do too great", "User has been having some tough times lately", "User got some great news to
  share", "User had a good laugh", "User has been decompressing"), or said to the other side ("User loves to help",
  "User won't let anything get them down", "User is gonna keep chasing after those dreams"). A vague reason:
  deep sleep never promotes it (vagueness.vague_reason);
- `pointed_at_reason`: a pet, a person or a thing only pointed at ("that little guy", "these little ones",
  "this one"): who or what was shown or said before, the statement does not say. Also a vague reason.

What still stands: a thing that goes well or badly, named ("User's bakery is doing great", "User is doing well
in their chemistry class"), a lasting trait ("User is passionate about dancing", "User is not very good at
swimming"). A mood of the moment with its reason ("User is so pumped for the launch tomorrow") is not handled here:
read as a state of the moment it cost LoCoMo evidence turns whose only memory it was (see the h14/weak report).
"""
from __future__ import annotations

import re

_TIME_TAIL = (r"(?:\s+(?:lately|recently|now|today|so far|these days|overall|this week|this month|this year|"
              r"all (?:week|day)|thankfully|honestly|though|too|again|for (?:a while|once))|,?\s+thanks)*")
_INTENSIFIER = r"(?:(?:so|super|really|pretty|very|too|quite|real|totally|extremely|even|more|much|a bit|kind of|" \
               r"such|that|a lot|alot|lots|way)\s+)*"
_WELL_OR_BADLY = r"(?:great|good|well|fine|ok|okay|alright|all right|better|worse|awesome|amazing|badly|bad|poorly|" \
                 r"terrible|terribly|lousy|meh|so-so)"
_HOW_IT_GOES_RE = re.compile(
    r"^User (?:(?:has|had|have)(?: not|n't)? been |is(?: not|n't)? |was(?: not|n't)? |'s been |did(?: not|n't)? |"
    r"does(?: not|n't)? |feels |felt |is feeling |has been feeling )?"
    r"(?:(?:doing|do|feeling|going|getting on|getting by|holding up|keeping|keeping up) )?"
    + _INTENSIFIER + r"(?P<p>" + _WELL_OR_BADLY + r"|busy)" + _TIME_TAIL + r"$",
    re.IGNORECASE,
)
# "User has been having some tough times lately", "User got some great news to share", "User had a good laugh", "User
# had great ideas and brainstormed", "User made some great memories": the kind of time, news, laugh or talk, not what
# it was.
_A_KIND_OF_TIME_RE = re.compile(
    r"^User (?:has been having|has had|had|is having|was having|got|has|has gotten|heard|had|has been keeping|made) "
    r"(?:some |a |such a |so much |quite a |quite the |lots of |a lot of )?" + _INTENSIFIER
    + r"(?:(?:tough|hard|rough|difficult|great|good|fun|wild|crazy|busy|amazing|awesome|exciting|big|nice|lovely|"
      r"bad|sad|blast of a|special|memorable|wonderful|incredible|unforgettable|long|productive|relaxing|lazy|"
      r"similar)\s+)?"
    r"(?P<p>times?|news|laughs?|blast|fun|day|week|weekend|busy|ideas|conversations?|talks?|chats?|memories|moments|"
    r"adventures?|experiences?)"
    r"(?: to share| to tell| lately| recently| so far| together)?(?:,? and (?:brainstormed|talked|chatted|laughed))?"
    + _TIME_TAIL + r"$",
    re.IGNORECASE,
)

# "User has been decompressing", "User has been taking it easy": a pause of the day, with nothing named.
_RESTING_RE = re.compile(
    r"^User (?:has been|is|was|'s been|had been) (?:just )?(?P<p>decompressing|relaxing|chilling|resting|recharging|"
    r"taking it easy|hanging in there|hanging out|surviving|keeping busy|staying busy|laying low|lying low)"
    + _TIME_TAIL + r"$",
    re.IGNORECASE,
)
# Said to the other side, not about the user: an offer ("User loves to help"), a cheer to themself ("User won't let
# anything get them down", "User is not gonna let anything or anyone stop them"), agreement ("User couldn't
# agree more").
_SAID_TO_SOMEONE_RE = re.compile(
    r"^User (?:(?:always |really |just )?(?:loves|likes|is (?:always )?(?:happy|glad|here)|would love|is more than happy)"
    r" to (?P<p>help)(?: out| anytime| any time)?"
    r"|(?:won't|will not|is not gonna|isn't gonna|is not going to|isn't going to|never lets|doesn't let|won't ever) "
    r"(?P<q>let (?:anything|anyone|nothing|no one|anybody)(?: or (?:anyone|anything|anybody))?) "
    r"(?:stop|get|bring|keep|hold) (?:them|User)(?: down| back)?"
    # agreeing with the other side: "User couldn't agree more"
    r"|(?:totally |completely )?(?P<a>(?:couldn't|could not|can't|cannot) agree(?: with (?:you|that))?) more)"
    + _TIME_TAIL + r"$",
    re.IGNORECASE,
)

# "User is gonna keep chasing after those dreams", "User is going to keep working hard on it and see what happens": a
# resolve told to a friend who cheers the user on; what the user keeps at was said elsewhere, and is remembered there.
_KEEP_AT_IT_RE = re.compile(
    r"^User (?:is gonna|is going to|will|'ll|is|won't stop|will never stop|is determined to) (?:always |just )?"
    r"(?P<p>keep (?:on )?(?:chasing|working hard|working|pushing|going|trying|fighting|grinding|believing|hustling|at it))"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_KEEP_AT_IT_LIGHT = frozenset("""on it at it after those these their dreams dream goals goal and see what happens hard
    to make a success forward through harder every day no matter what way all""".split())

# A pet or a person only pointed at: "that little guy", "these little ones", "this one", "those cuties".
_POINTED_AT_RE = re.compile(
    r"\b(?P<p>(?:this|that|these|those) (?:(?:little|lil|tiny|cute|sweet|new|old|adorable|furry)\s+)?(?:guy|guys|one|ones|"
    r"girl|girls|boy|boys|fella|fellas|buddy|buddies|baby|babies|cutie|cuties|beauty|beauties|little ones|"
    r"critters?))\b(?!\s*(?:,\s*)?(?:called|named|(?-i:[A-Z])))",
    re.IGNORECASE,
)
_NAMED_BEFORE_RE = re.compile(r"\b(?:called|named)\b|\b(?!User\b)[A-Z][a-z]{2,}")

# "User's hard work is paying off": that it pays, not what the work is (said where the work is named).
_PAYING_OFF_RE = re.compile(
    r"^User's (?:(?:hard|own) )?(?P<p>work|efforts?|practice|persistence|patience|grind|hustle|dedication)"
    r" (?:(?:is|are|was|were|has been|have been|is really|is finally|is totally|really|finally) )*"
    r"(?:paying off|paid off|worth it)" + _TIME_TAIL + r"$",
    re.IGNORECASE,
)


def _main_clause(statement: str) -> str:
    return re.split(r"[,;]", statement.strip(), maxsplit=1)[0].strip().rstrip(".!")


def how_it_goes_reason(statement: str) -> str | None:
    """"User has been doing great lately": how things go, and nothing named that goes so — or None."""
    main = _main_clause(statement)
    m = (_HOW_IT_GOES_RE.match(main) or _A_KIND_OF_TIME_RE.match(main) or _RESTING_RE.match(main)
         or _PAYING_OFF_RE.match(main))
    if m:
        return f"'{m.group('p')}' says how things go, not what"
    keep = _KEEP_AT_IT_RE.match(main)
    if keep and not set(re.findall(r"[a-z']+", keep.group("rest").lower())) - _KEEP_AT_IT_LIGHT:
        return f"'{keep.group('p')}' is a resolve with nothing named in it"
    said = _SAID_TO_SOMEONE_RE.match(main)
    return f"'{said.group('p') or said.group('q') or said.group('a')}' is said to someone, not about the user" if said else None


def pointed_at_reason(statement: str) -> str | None:
    """"User will cherish that little guy": someone only pointed at, never named — or None."""
    main = _main_clause(statement)
    m = _POINTED_AT_RE.search(main)
    if not m or _NAMED_BEFORE_RE.search(main[4:m.start()]):
        return None
    return f"depends on '{m.group('p')}', which it does not name"
