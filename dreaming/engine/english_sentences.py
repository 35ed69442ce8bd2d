"""Readings of a whole English sentence of a user turn, beside its clauses (extract.py asks each):
what matters to the user said with the user as the object ("Dance is my go-to for stress relief"), a thing
the user made or shows ("Here's a pic of my cork board"), a name beside what someone is to the user ("Oscar,
my guinea pig") and an introduction ("Hi, Tracy here", "As a nurse, …"); what "my two sons" / "my car" imply
the user has is possessions.py's. Each returns (quote, statement) pairs whose quote is verbatim in the sentence."""
from __future__ import annotations

import re

from dreaming.engine.english import (
    EN_HYPOTHETICAL_RE,
    EN_NOT_ABOUT_USER_RE,
    LEAD_FILLER_RE,
    cut_tail,
    trailing_dropped,
)
from dreaming.engine.language import content_tokens
from dreaming.engine.third_person import conjugate, to_third_person_en

# "The rainbow flag mural is important to me", "Dance is my go-to for stress relief", "Playing video games
# helps me unwind": what matters to the user, said with the user as the object. The subject must name
# the thing: "it" / "this" / "they" would leave the memory about nothing.
VALUE_RE = re.compile(
    r"^(?P<x>(?!(?:it|he|she|which|what|there|here|you|we|everything|nothing|something|anything|all|who|one|their|"
    r"his|her|its|our|your|stuff|things?)\b)"
    r"[A-Za-z\"“][\w\"“”'’ &-]{2,70}?)\s+"
    r"(?P<pred>(?:is|are|was|has been|have been)\s+(?:(?:really|so|very|super|particularly|especially|truly|"
    r"incredibly|extremely|always|still)\s+)*(?:important|special|meaningful|significant|interesting|dear|precious)"
    r"\s+(?:to|for)\s+me"
    r"|(?:means|meant|mean)\s+(?:a lot|so much|the world|everything|a great deal)\s+to\s+me"
    r"|(?:has|have|had|holds|hold)\s+(?:a lot of|so much|a special|special|great|deep|a deep|real)\s+"
    r"(?:significance|meaning|place)\s+(?:for|to|in)\s+(?:me|my heart)"
    r"|(?:is|are)\s+(?:at the top of|high on|first on)\s+my\s+list"
    r"|(?:really\s+|always\s+)?(?:speaks|speak|spoke)\s+to\s+me"
    r"|(?:always\s+|still\s+)?(?:reminds|remind)\s+me\s+of\s+[\w' -]{3,50}"
    r"|(?:is|are|was)\s+(?:pretty much\s+|definitely\s+|always\s+)?my\s+(?:go-to|passion|happy place|escape|"
    r"therapy|outlet|comfort|safe place|sanctuary)(?:\s+(?:for|when)\s+[\w' -]{2,40})?"
    r"|(?:helps|help|keeps|keep)\s+me\s+(?:to\s+)?(?:unwind|relax|de-?stress|destress|calm|stay (?:focused|calm|"
    r"sane|grounded|motivated|positive|fit|healthy|creative)|focus|recharge|cope|sleep|think|grounded|sane|"
    r"motivated|going|express myself)\b[\w' -]{0,40}"
    r"|(?:motivates|motivate|inspires|inspire|drives|drive|guides|guide|grounds|ground)\s+me\b[\w', -]{0,60}"
    # "Art's allowed me to explore who I am", "Running has helped me stay sane"
    r"|(?:has\s+|have\s+)?(?:allowed|helped|enabled)\s+me\s+(?:to\s+)?[\w' -]{3,60}"
    r"|(?:has|have)\s+(?:given|taught|shown)\s+me\s+[\w' -]{3,60}"
    r"|(?:brings|bring|gives|give)\s+me\s+(?:so much\s+|a lot of\s+|such\s+|great\s+)?(?:joy|peace|comfort|"
    r"happiness|strength|hope|energy)\b[\w' -]{0,40})$",
    re.IGNORECASE,
)


# "Playing video games and watching movies are my main hobbies" → "User's main hobbies are …".
_HOBBIES_RE = re.compile(
    r"^(?P<x>[A-Za-z][\w'’ ,&-]{2,80}?)\s+(?:is|are)\s+(?:(?:probably|definitely|really|basically)\s+)?my\s+"
    r"(?P<k>(?:main|favou?rite|biggest|two|three|only|other)\s+)?(?P<h>hobby|hobbies|passions?|interests)$",
    re.IGNORECASE,
)
# "… my love of reading", "my passion for baking": what the user loves, said as a noun.
_LOVE_OF_RE = re.compile(r"\b[Mm]y\s+(?:(?:deep|great|huge|big|lifelong|own)\s+)?(?P<n>love|passion)\s+(?:of|for)\s+"
                         r"(?P<x>(?!(?:it|that|this|them|you|your)\b)[\w' -]{3,40}?)(?=\s+(?:even|more|and|so|too|as|ever|since|is|was|has|"
                         r"have|had|are|were|made|makes|keeps|helps|led|grew|started|will|can|brought)\b|[,.!?;]|$)")


def love_of(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "… appreciate my love of reading" → "User loves reading"."""
    m = _LOVE_OF_RE.search(sentence)
    if not m or EN_HYPOTHETICAL_RE.search(sentence) or sentence.rstrip().endswith("?"):
        return None
    x = m.group("x").strip()
    return m.group(0), f"User loves {x}" if m.group("n") == "love" else f"User is passionate about {x}"


_DESCRIBED_RE = re.compile(
    r"^(?P<np>(?!(?:it|this|that|they|he|she|there|what|which|my|our)\b)[A-Za-z][\w' -]{2,40}?) (?:is|was) "
    r"(?!(?:[\w']+ ){0,5}?(?:my|me|I|mine)\b)(?:[\w']+ ){0,5}?[\w']+\s*(?:[-–—,;]|\band\b)\s*it (?P<rest>(?:really |always |just |truly |totally |still )?"
    r"(?:speaks?|helps?|keeps?|brings?|gives?|reminds?|motivates?|inspires?|means?|guides?|grounds?)\b.+)$",
    re.IGNORECASE,
)


def value_statement(clause: str) -> tuple[str, str] | None:
    """(quote, statement) for "X is important to me" / "X helps me unwind" (VALUE_RE), or None."""
    hobbies = _HOBBIES_RE.match(clause.rstrip(" ,;:-.!…"))
    if hobbies and not re.match(r"(?:it|that|this|they|those|these)\b", hobbies.group("x"), re.I) and not (
        EN_NOT_ABOUT_USER_RE.search(hobbies.group("x"))
    ):
        x = hobbies.group("x")
        kind = (hobbies.group("k") or "") + hobbies.group("h")
        verb = "are" if kind.endswith("s") else "is"
        return hobbies.group(0), f"User's {kind} {verb} {x[:1].lower() + x[1:] if not x[:2].isupper() else x}"
    # "Contemporary dance is so expressive - it really speaks to me": "it" is the thing just described
    described = _DESCRIBED_RE.match(clause.rstrip(" ,;:-.!…"))
    if described and not EN_NOT_ABOUT_USER_RE.search(described.group("np")):
        read = value_statement(f"{described.group('np')} {described.group('rest')}")
        if read:
            return described.group(0), read[1]
    # "…help me discover who I am": the relative clause is the point, not a tail to cut
    m = VALUE_RE.match((clause if re.search(r"\bwho I am\b", clause) else cut_tail(clause)).rstrip(" ,;:-.!…"))
    if not m or not content_tokens(m.group("x")) or EN_NOT_ABOUT_USER_RE.search(m.group("x")):
        return None  # "Your support means a lot to me" is about the other side
    thing, pred = m.group("x"), m.group("pred")
    if re.match(r"(?:allowed|helped|enabled)\b", pred):
        if not re.search(r"(?:'s|’s)$", thing):
            return None  # "X allowed me to …" without "has" is one past event, not what X means to the user
        thing, pred = thing[:-2], "has " + pred  # "Art's allowed me" → "Art has allowed User"
    if thing.lower() in ("that", "this", "they", "these", "those") or re.search(r"\b(?:I|I've|I’ve)\b", thing):
        # "This is important to me": about something the memory would not name; "the figurines I bought
        # remind me of…" is read by made_by_me
        return None
    thing = re.sub(r"^(?:this|that|these|those)\b", "The", thing, flags=re.IGNORECASE)  # "This necklace" → "The necklace"
    if re.search(r"\b(?:this|that|these|those|them|it|her|him|they|he|she|we|you)\b", thing, re.IGNORECASE):
        return None  # "Stuff like this mural", "Seeing them grow": hangs on something unnamed
    if len(re.findall(r"[\"“”]", thing)) % 2:
        thing = re.sub(r"[\"“”]", "", thing)  # the clause's opening quote mark was trimmed away
    thing = thing[:1].upper() + thing[1:]
    # The first "me" / "my" is the user by name, later ones "them" / "their".
    # "User" by name even after "User's family": "them" at the end would read as someone unnamed.
    predicate = re.sub(r"\b(me|my)\b", lambda w: "User" if w.group(1) == "me" else "User's", pred, count=1)
    predicate = re.sub(r"\bmyself\b", "themself", re.sub(r"\bme\b", "them", re.sub(r"\bmy\b", "their", predicate)))
    predicate = re.sub(r"\bwho I am\b", "who they are", predicate)
    predicate = re.sub(r"\bI(?:'m|’m| am)\b", "they are", re.sub(r"\bI\b(?!'|’)", "they", predicate))
    thing = re.sub(r"\bmy\b", "their", re.sub(r"\bMy\b", "User's", thing))
    return m.group(0), f"{thing} {predicate}"


# "These figurines I bought yesterday remind me of family love", "Here's the space I designed": the
# user did something to the thing the sentence is about.
MADE_BY_ME_RE = re.compile(
    r"\b(?P<det>(?i:the|this|that|these|those|my))\s+(?P<np>(?:[\w'-]+\s+){0,2}?[\w'-]{3,})\s+(?:I|I've|I’ve)\s+"
    r"(?:just\s+|recently\s+|finally\s+)?(?P<verb>bought|made|painted|drew|wrote|baked|cooked|built|designed|read|"
    r"watched|found|took|visited|planted|knitted|sewed|crafted|created|won|received|adopted|finished|did|got|saw|"
    r"went to|attended|tried|climbed|hiked|"
    # what the user does habitually: "the desserts I bake", "the songs I write"
    r"bake|make|cook|paint|draw|write|knit|sew|grow|build|design|collect|brew)\b"
    # "after finishing my screenplay I got a rejection letter": the verb has its own object, no relative clause
    r"(?:(?=\s+(?:a few|a couple|a while|the other day))"
    r"|(?!\s+(?:a|an|the|my|our|some|this|that|these|those|his|her|their|its|it|him|them|\d+)\b))"
    r"(?P<when>\s+(?:yesterday|today|last (?:week|weekend|month|year|night|\w+day)|this (?:week|weekend|month|year|"
    r"morning)|recently|the other day|a while (?:ago|back)|(?:a few|a couple of|two|three|\d+) (?:days|weeks|months|years) ago))?"
)
# nor a time: "This year I won queen" is when, not what ("User won a year")
_NOT_A_THING = frozenset("""one thing way time day stuff lot kind bit year years week weeks weekend month months morning
    evening night afternoon summer winter spring fall autumn season semester holiday holidays christmas""".split())
_HABIT_VERBS = frozenset("bake make cook paint draw write knit sew grow build design collect brew".split())


def made_by_me(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "these figurines I bought yesterday" → "User bought figurines yesterday"."""
    m = MADE_BY_ME_RE.search(sentence)
    if not m or m.group("np").split()[-1].lower() in _NOT_A_THING or EN_NOT_ABOUT_USER_RE.search(m.group("np")):
        return None
    np = m.group("np")
    det, verb = m.group("det").lower(), m.group("verb")
    if verb in _HABIT_VERBS:  # "the desserts I bake" → "User bakes desserts"
        obj = np if np.endswith("s") and not np.endswith("ss") else f"their {np}" if det == "my" else np
        return m.group(0), f"User {conjugate(verb)} {obj}"
    if det == "my":
        obj = f"their {np}"
    elif np.endswith("s") and det in ("these", "those"):
        obj = np
    else:
        obj = f"the {np}" if det in ("the", "that") else f"a {np}" if np[:1].lower() not in "aeiou" else f"an {np}"
    return m.group(0), f"User {verb} {obj}{m.group('when') or ''}"


# "Here's a pic of my cork board", "Check out my painting for the art show", "Here's one of my trophies from a
# dance contest": showing something of one's own says the user has it.
_SHOWN_MINE_RE = re.compile(
    r"\b(?:here'?s|here’s|here is|here are|check out|check|take a look at|have a look at|look at|(?:a|another)\s+(?:pic|picture|"
    r"photo|snap|shot|snapshot|peek)\s+(?:of|at))\s+(?:(?:a|another|the|this)\s+(?:pic|picture|photo|snap|shot|snapshot|"
    r"peek)\s+(?:of|at)\s+)?(?P<one>(?:one|some|a few|two|a couple) of\s+)?my\s+(?P<np>[^,.!?;:()\-–—]{2,80})",
    re.IGNORECASE,
)
_SHOWN_NP_END_RE = re.compile(
    r"\s+(?:that|which|who|when|where|I|I'm|I’m|I've|I’ve|and|so|because|it|it's|they|we|you|if|but|to|as)\b.*$"
    # "my dog playing in the snow": the activity is not the thing ("my painting for the show" is)
    r"|(?<=\w)\s+\w+ing\s+(?:at|in|on|with|around|outside|by|together|the|a|an)\b.*$"
    r"|\s+(?:now|today|yesterday|lately|recently|again|too|here|there|lol|haha)$",
)
# Not things one has: "my life", "my favorite", "my way", people (possessions.py reads "my kids" …).
_NOT_SHOWN = frozenset(
    "life day week weekend year time way journey heart mind thoughts feelings favorite favourite fave place turn "
    "family friend friends mom dad mother father wife husband son daughter kids children sister brother parents "
    "partner boyfriend girlfriend baby grandma grandpa self own fam folks crew squad team gang buddies pals boys girls "
    "fave favourite".split())


def shown_mine(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "Here's a pic of my cork board" → "User has a cork board", or None."""
    if sentence.rstrip().endswith("?") or EN_HYPOTHETICAL_RE.search(sentence):
        return None
    m = _SHOWN_MINE_RE.search(sentence)
    if not m:
        return None
    np = _SHOWN_NP_END_RE.sub("", m.group("np").strip()).strip()
    if re.match(r"(?:ideal|dream|future|next|perfect|imaginary)\b", np, re.I):
        return None  # "Check my ideal dance studio": wished for, not had
    words = np.split()
    if not 1 <= len(words) <= 7:
        return None
    head = re.split(r"\s+(?:from|for|at|in|with|by|of|on)\s+", np)[0].split()[-1].lower()
    if head in _NOT_SHOWN or head.rstrip("s") in _NOT_SHOWN or EN_NOT_ABOUT_USER_RE.search(np):
        return None
    quote = m.group(0)[: m.start("np") - m.start() + len(np)]
    if m.group("one"):  # "one of my trophies" → the user has trophies
        return quote, f"User has {np}"
    plural = head.endswith("s") and not head.endswith("ss")
    article = "" if plural else ("an " if words[0][:1].lower() in "aeiou" else "a ")
    return quote, f"User has {article}{np}"


# "Oscar, my guinea pig", "my sister, Lena,": a name set beside what the person or pet is to the user.
_APPOSITIVE_RE = re.compile(
    # not a place or a time after a preposition: "Back from Lisbon, my sister and I…"
    r"\b(?:(?<!\bfrom )(?<!\bin )(?<!\bto )(?<!\bat )(?<!\bof )(?<!\bfor )(?<!\bnear )(?<!\bvisited )(?<!\bleft )"
    r"(?<!\bon )(?P<name>[A-Z][a-z]{2,})\s*,\s*my\s+(?P<x>(?:[\w'-]+\s+){0,2}?(?:%(nouns)s))\b"
    r"|[Mm]y\s+(?P<x2>(?:[\w'-]+\s+){0,2}?(?:%(nouns)s))\s*,\s*(?P<name2>[A-Z][a-z]{2,})\s*(?:,|$|[.!]))"
    % {"nouns": "dog|cat|puppy|kitten|pet|turtle|tortoise|horse|pony|bird|parrot|fish|hamster|guinea pig|rabbit|bunny|"
                "snake|lizard|ferret|son|daughter|kid|baby|brother|sister|husband|wife|partner|boyfriend|girlfriend|"
                "mom|dad|mother|father|grandma|grandpa|best friend|friend|nephew|niece|cousin|aunt|uncle"}
)
# Words that open a sentence with a capital letter and are no one's name ("Also, my partner …").
_NOT_NAMES = frozenset(
    """thanks thank yes yeah yep yup wow well hey oh sure okay cool nice aww haha hello hi also anyway anyways
    besides plus still then now today tonight yesterday tomorrow lately recently meanwhile however maybe perhaps
    sometimes btw ps and but so though although because since after before once again first second third
    finally last next soon later here there yet instead otherwise indeed actually monday tuesday wednesday thursday
    friday saturday sunday january february march april june july august september october november december
    christmas easter""".split()
)


def is_a_name(word: str) -> bool:
    """A capitalised word that can be a name: not a discourse word ("Also", "Yep", "Honestly", "Anyway") that a
    sentence happens to open with."""
    low = word.lower().strip(" ,.!?")
    return bool(low) and low not in _NOT_NAMES and not low.endswith("ly") and not LEAD_FILLER_RE.fullmatch(low + ",")


def appositive_name(sentence: str) -> tuple[str, str] | None:
    m = _APPOSITIVE_RE.search(sentence)
    if not m:
        return None
    name, x = (m.group("name"), m.group("x")) if m.group("name") else (m.group("name2"), m.group("x2"))
    if not is_a_name(name):
        return None  # "Thankfully, my son is ok", "Also, my partner Sam and I …"
    quote = m.group(0).rstrip(" ,.!")
    return quote, f"User's {x} is named {name}"


# "Our one-year-old is so cute, his name is Kyle", "My new puppy, her name is Shadow".
NAMED_RE = re.compile(
    r"^(?:[Mm]y|[Oo]ur)\s+(?P<x>(?:[\w'-]+\s+){0,2}?(?:kid|son|daughter|baby|[\w-]+-year-old|dog|cat|puppy|kitten|"
    r"pet|turtle|horse|bird|parrot|fish|hamster|rabbit|bunny|snake|lizard|car|boat|band|store|shop|business|blog|"
    r"channel|book|novel|screenplay|script|album|song|game|app|brother|sister|friend|boyfriend|girlfriend|husband|wife|"
    r"partner|nephew|niece|cousin|grandson|granddaughter))\b[^.!?]{0,40}?,?\s+(?:and\s+)?(?:his|her|its|their)\s+"
    r"name\s+is\s+(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
)


# "Her name is Shadow!" after "I just adopted this cute pup" / "What's your puppy's name?": the one pet or child
# named in the last exchange.
_PRONOUN_NAME_RE = re.compile(r"^(?:(?:oh|well|yes|yeah|haha|aw+|and),?\s+)?(?:(?:[Hh]er|[Hh]is|[Ii]ts) name is|"
                              r"(?:[Ww]e|I|[Mm]y \w+) (?:named|called|call) (?:her|him|it)) (?P<name>[A-Z][\w'-]+)")
_NAMEABLE_RE = re.compile(
    r"\b(?P<d>my|our|this|your|a|the|another)\s+(?P<m>(?:(?:new|little|cute|sweet|adorable|baby|rescue|tiny|second|third|"
    r"other|first|older|younger|\w+-year-old)\s+)*)(?P<n>pup|puppy|dog|cat|"
    r"kitten|kitty|bunny|rabbit|hamster|turtle|tortoise|bird|parrot|horse|pony|fish|snake|lizard|baby|son|daughter|"
    r"guinea pig|best friend|friend|sister|brother|cousin|niece|nephew|boss|coworker|co-worker|colleague|neighbou?r|"
    r"roommate|girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?|grandson|granddaughter|stepson|stepdaughter)\b",
    re.IGNORECASE,
)


# "I got a puppy yesterday, her name is Luna", "… and we named her Mochi": the name said later in the same sentence.
_LATE_PRONOUN_NAME_RE = re.compile(r"(?:[,;]\s+(?:and\s+)?|\s+and\s+)(?P<q>(?:(?:[Hh]er|[Hh]is|[Ii]ts) name is|(?:[Ww]e|I) (?:named|called) "
                                   r"(?:her|him|it)) (?P<name>[A-Z][\w'-]+))")


def _nameable(m: re.Match) -> str:
    """"puppy" for "this cute pup", "second parrot" for "a second parrot" (which one of two is meant)."""
    noun = "puppy" if m.group("n").lower() == "pup" else m.group("n").lower()
    which = re.search(r"\b(second|third|other|another)\s*$", f"{m.group('d')} {m.group('m')}".lower())
    return f"{'other' if which and which.group(1) == 'another' else which.group(1)} {noun}" if which else noun


def pronoun_name(sentence: str, *, before: str, nearer: str = "") -> tuple[str, str] | None:
    """(quote, statement) for "Her name is Shadow" when exactly one pet or child was named just before it: in the
    same sentence, else in the same turn (`nearer`), else in `before` (the last exchange)."""
    m = _PRONOUN_NAME_RE.match(sentence.strip())
    late = None if m else _LATE_PRONOUN_NAME_RE.search(sentence)
    if not m and not late:
        return None
    if late:
        found = list(_NAMEABLE_RE.finditer(sentence, 0, late.start()))
        if len({n.group("n").lower() for n in found}) == 1:
            # "a second parrot, his name is Mango": the second one, not a new name for the first; the quote
            # holds the words that say so
            return sentence[found[-1].start() : late.end()], f"User's {_nameable(found[-1])} is named {late.group('name')}"
        return None
    for context in (nearer, before):
        nouns = {_nameable(n).split()[-1] for n in _NAMEABLE_RE.finditer(context)}
        if len(nouns) == 1:
            return m.group(0), f"User's {nouns.pop()} is named {m.group('name')}"
        if nouns:
            return None  # two of them: which one is named is not said
    return None


def named_statement(sentence: str) -> tuple[str, str] | None:
    m = NAMED_RE.match(sentence)
    if m and _NAMEABLE_RE.search(sentence, m.end("x"), m.start("name")):
        return None  # "My sister has a cat, her name is Luna": the name is the cat's (pronoun_name reads which one)
    return (m.group(0), f"User's {m.group('x')} is named {m.group('name')}") if m else None


# "Someone wrote me a letter after reading my blog post", "a stranger gave me flowers": something that
# happened to the user, told with another person as the subject.
TO_ME_RE = re.compile(
    r"^(?P<who>(?:one of (?:the|my|our) (?:[\w'-]+ ){0,3}?[\w'-]+s(?:,\s*[A-Z][a-z]+,)?|someone|somebody|a (?:friend|stranger|reader|fan|neighbou?r|coworker|co-worker|colleague|student|"
    r"customer|client|kid|child|woman|man|lady|guy|teacher|mentor|publisher|company|producer|director|recruiter)))\s+"
    r"(?:(?:just|recently|even|finally)\s+)?(?P<verb>wrote|sent|gave|told|asked|invited|offered|called|messaged|emailed|"
    r"texted|showed|taught|recommended|bought|made|hired|contacted|thanked)\s+(?:me|us)\b(?P<rest>[^,.!?;]{3,160})$",
    re.IGNORECASE,
)


def to_me_statement(clause: str) -> tuple[str, str] | None:
    m = TO_ME_RE.match(cut_tail(clause).rstrip(" ,;:-.!…"))
    if not m or EN_NOT_ABOUT_USER_RE.search(m.group("rest")):
        return None
    who = m.group("who")
    rest = to_third_person_en(trailing_dropped(m.group("rest")))
    return m.group(0), f"{who[:1].upper() + who[1:]} {m.group('verb')} User{rest}"


# "Hi, Tracy here": the user introducing themself by name.
NAME_HERE_RE = re.compile(r"^(?:hi|hello|hey|hiya|greetings)[,!.]?\s+(?P<name>[A-Za-z][a-z]{1,20})\s+here\b", re.IGNORECASE)
_NOT_A_NAME = frozenset("there everyone everybody all guys folks friend buddy again just me you it".split())

# "As a vegan, …" / "As a teacher I …": who the user is, said in passing.
AS_A_RE = re.compile(
    r"^(?:as|being)\s+(?P<x>(?:a|an)\s+(?!(?:kid|child|teen|teenager|boy|girl|baby|result|matter|whole|rule|side|"
    r"reminder|joke|bonus|gift|treat|thank|favor|favour|friend|fellow|fan of)\b)[\w-]+(?:\s+[\w-]+)?)"
    r"(?=\s*,|\s+(?:I|I'm|I’m|my|working|living|someone|it|that|this)\b)",
    re.IGNORECASE,
)

# "… visit me in Kansas City where I just moved": where the user lives, said in a relative clause.
WHERE_I_RE = re.compile(
    r"\b(?:in|to)\s+(?P<place>[A-Za-z][\w.'-]*(?:\s+[A-Za-z][\w.'-]*){0,2}?),?\s+where\s+(?:I|I've|I’ve)\s+"
    r"(?:(?:just|recently|finally|always)\s+)?(?P<verb>moved|lived|live|grew up|was born)\b"
)


# "Call me Sam", "You can call me Sam", "I go by Sam": the name the user wants to be called (not "call me crazy").
CALL_ME_RE = re.compile(r"^(?i:(?:you can|please|just)\s+)?(?i:call me|I go by)\s+(?P<name>[A-Z][a-z]{1,20})(?=\s*[.!,]?\s*$)")
MY_NAMES_RE = re.compile(r"^(?i:my name(?:'s|’s))\s+(?P<name>[A-Za-z][a-z]{1,20})\b")


def introduced_statements(sentence: str) -> list[tuple[str, str]]:
    """(quote, statement) for "Hi, Tracy here", "Call me Sam", "My name's Sam", "As a vegan, …", "… in Kansas City
    where I just moved"."""
    found = []
    named = NAME_HERE_RE.match(sentence)
    if named and named.group("name").lower() not in _NOT_A_NAME:
        name = named.group("name")
        found.append((named.group(0), f"User's name is {name[:1].upper() + name[1:]}"))
    call_me = CALL_ME_RE.match(LEAD_FILLER_RE.sub("", sentence.strip()))
    if call_me and is_a_name(call_me.group("name")):
        found.append((call_me.group(0), f"User goes by {call_me.group('name')}"))
    my_name = MY_NAMES_RE.match(LEAD_FILLER_RE.sub("", sentence.strip()))
    if my_name and is_a_name(my_name.group("name")):
        found.append((my_name.group(0), f"User's name is {my_name.group('name').capitalize()}"))
    as_a = AS_A_RE.match(LEAD_FILLER_RE.sub("", sentence))
    if as_a:
        found.append((as_a.group(0), f"User is {as_a.group('x')}"))
    where = WHERE_I_RE.search(sentence)
    if where:
        verb = where.group("verb")
        verb = {"live": "lives in", "lived": "lived in", "moved": "moved to", "grew up": "grew up in",
                "was born": "was born in"}[verb]
        found.append((where.group(0), f"User {verb} {where.group('place')}"))
    return found
