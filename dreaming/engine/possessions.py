"""What "my <someone or something>" says the user has, wherever in a sentence it is said.

"I love long walks with my husband" says the user has a husband; "You better not be laughing at my mini van" that
they have a mini van; "my fifth son keeps asking me for a dog" that they have (at least) five sons; "She took our
kids" that they have kids. A person who says such a thing is telling who is in their life and what they own,
whatever the sentence is about, and a reader would remember it so ("User has a husband"). When a statement of the
turn is already about the thing ("User's sister lives in Berlin") it says so, and nothing is added.

Only the nouns of a closed list are read (family, pets and their breeds, vehicles, homes, a business or a degree);
a parent is not (everyone has had one). Not when the thing is gone, wished for or about to be got ("I sold my car",
"I want my own horse", "if my husband finds out"), nor "my dream house", "my ex-wife", "my late husband", "my husband and I are separated",
"… with my boyfriend, but we broke up".
"""
from __future__ import annotations

import re

from dreaming.engine.english import LEAD_FILLER_RE

_FAMILY = (r"kids?|children|child|sons?|daughters?|grandchildren|grandchild|grandkids?|grandsons?|granddaughters?|"
           r"sisters?|brothers?|siblings|wife|husband|boyfriend|girlfriend|fianc[eé]e?|babies|baby|twins|"
           r"nephews?|nieces?|step(?:sons?|daughters?|children|kids)|roommates?|teens?|toddlers?")
_BREEDS = (r"german shepherds?|shepherds?|labs?|labradors?|golden retrievers?|retrievers?|huskies|husky|poodles?|"
           r"beagles?|pit ?bulls?|bulldogs?|chihuahuas?|terriers?|collies?|dachshunds?|corgis?|pugs?|rottweilers?|"
           r"great danes?|boxers?|yorkies?|schnauzers?|dalmatians?|greyhounds?|mutts?|tabby|tabbies")
_PETS = (rf"dogs?|cats?|pupp(?:y|ies)|pups?|kittens?|kitty|horses?|ponies|pony|rabbits?|bunn(?:y|ies)|snakes?|"
         rf"rats?|hamsters?|guinea pigs?|gerbils?|ferrets?|parrots?|birds?|turtles?|tortoises?|lizards?|iguanas?|"
         rf"goldfish|fish|goats?|cows?|chickens|hens|pigs?|sheep|pets?|{_BREEDS}")
_THINGS = (r"cars?|trucks?|jeep|mini ?van|van|minivan|motorcycles?|motorbikes?|bikes?|boat|tractors?|rv|camper|"
           r"house|apartment|condo|farm|ranch|garden|yard|pool|cabin|business|shop|store|restaurant|bakery|blog|"
           r"channel|degree|major")
_NOUN = rf"(?:{_FAMILY}|{_PETS}|{_THINGS})"
_COUNT = r"\d+|two|three|four|five|six|seven|eight|nine|ten|twelve"
_ORDINALS = {"second": "two", "third": "three", "fourth": "four", "fifth": "five", "sixth": "six", "2nd": "two",
             "3rd": "three", "4th": "four", "5th": "five"}
# A describing word the user's thing keeps ("my red tractor", "my beautiful shepherd", "my two older brothers").
# A closed list: "my mom loves cats" must not read "mom loves" as the cats' description.
_MOD = (r"(?:older|younger|oldest|youngest|eldest|middle|little|big|baby|twin|teenage|teen|adult|grown|step|pet|"
        r"rescue|rescued|new|beautiful|lovely|sweet|cute|crazy|lazy|hyper|fat|tiny|huge|giant|sick|blind|deaf|"
        r"black|white|brown|grey|gray|red|blue|green|yellow|orange|silver|golden|pink|purple|spotted|stray|"
        r"two|three|four|five|six|seven|eight|nine|ten|twelve|\d+|second|third|fourth|fifth|sixth|2nd|3rd|4th|5th|"
        r"family|farm|house|guard|hunting|service|show|racing|pickup|pick-up|sports|electric|vintage|classic|"
        r"used|small|large|own|wonderful|amazing|awesome|best|only|german|english|french|irish|miniature|mini)")

_MY_NOUN_RE = re.compile(
    rf"\b(?:(?P<my>[Mm]y|MY)|(?P<our>[Oo]ur)|(?P<the>[Tt]he))\s+(?P<mods>(?:{_MOD}\s+){{0,2}}?)"
    rf"(?P<noun>{_NOUN})(?![\w'’-])(?!\s+(?:of|from|for)\b)"
)
# The thing is not (or no longer, or not yet) the user's: "I quit my job", "looking for my dream car".
_NOT_HELD_BEFORE_RE = re.compile(
    r"\b(?:quit|quitting|lost|losing|left|leaving|sold|selling|totaled|wrecked|crashed|miss|missed|missing|gave up|"
    r"want|wants|wanted|wanna|need|needs|looking for|find|buy|buying|get|getting|dream of|wish|wished|"
    # "I hope I can finish my degree": not had yet
    r"finish|finishing|complete|completing|earn|earning|pursue|pursuing|"
    r"someday|imagine|rip|r\.i\.p|buried|bury|mourning|divorced|divorcing|broke up with|breaking up with|"
    r"split (?:up )?with|dumped|cheated on)\s+(?:(?:all|both|one|of|some)\s+)*$",
    re.IGNORECASE,
)
# Words before a thing that make it not the user's own now, or not a real thing: "my dream car", "my late dog",
# "my Minecraft house" (pursuits.py reads "my … car" with the same words).
NOT_HELD_MODS = frozenset(
    "dream future ideal ex ex- late former previous old dead deceased imaginary fantasy virtual fictional first last "
    "next favorite favourite least minecraft sims roblox".split()
)
_NOT_HELD_AFTER_RE = re.compile(r"\s*(?:died|passed|is gone|was gone|ran away|got stolen|was stolen|is dead|was dead|"
                                r"(?:are|is)?\s*(?:on (?:the|their|its) way|due)\b|"
                                # "My husband and I are separated", "my boyfriend dumped me": no longer the user's
                                r"(?:and I\s+)?(?:(?:are|were|have|had|got|just|recently|finally|are getting|got)\s+)*"
                                r"(?:separated|divorced|broke up|split up|split|parted ways|broke it off)\b|"
                                r"(?:just\s+)?(?:left|dumped) me\b)",
                                re.IGNORECASE)
# Later in the sentence, the couple parted: "I used to watch it with my boyfriend, but we broke up".
_PARTNER_RE = re.compile(r"^(?:wife|husband|boyfriend|girlfriend|fianc[eé]e?)$")
_PARTED_LATER_RE = re.compile(r"\b(?:we|they|he|she)\s+(?:(?:just|recently|finally|have|had|are|were|got)\s+)*"
                              r"(?:broke up|split up|split|separated|divorced|parted ways|broke it off)\b", re.IGNORECASE)
_FIELD_RE = re.compile(r" in (?!(?:the|a|an|my|it|that|this)\b)[a-z]+(?: (?!(?:and|but|so|or|I|i|is|was|from|at)\b)[a-z]+)?")
_REQUEST_RE = re.compile(r"\b(?:can|could|would|will) (?:you|u)\b|\bplease\b|\bhelp me\b|"
                         r"\b(?:write|make|create|generate|draft|give|tell|show|suggest) me\b", re.IGNORECASE)
_KIDS_RE = re.compile(r"(?:kids?|children|child)$", re.IGNORECASE)
_TEACHES_RE = re.compile(r"\b(?:teacher|teach|teaches|teaching|coach|coaching|nanny|babysit\w*|daycare|tutor\w*|classroom|"
                         r"students?|pupils?)\b", re.IGNORECASE)
_OWN_WITH_THE = frozenset("kids wife husband grandkids grandchildren twins".split())
_PLURAL_RE = re.compile(r"(?:s|children|grandchildren|puppies|twins|babies|ponies|bunnies|huskies|sheep|goldfish|fish)$")
# Who the thing is: the category the rest of the engine gives it.
_RELATION_RE = re.compile(rf"^(?:{_FAMILY})$")


def _phrase(mods: str, noun: str) -> str:
    """"User has …": "a red tractor", "two sons", "kids", "at least five sons" (from "my fifth son")."""
    words = mods.split()
    ordinal = _ORDINALS.get(words[0]) if words else None
    if ordinal:
        plural = noun if _PLURAL_RE.search(noun) and not noun.endswith("ss") else f"{noun}s"
        return f"at least {ordinal} {plural}"
    counted = bool(words) and bool(re.fullmatch(_COUNT, words[0]))
    if counted or _PLURAL_RE.search(noun):
        return f"{mods} {noun}".strip()
    said = f"{mods} {noun}".strip()
    if words[:1] == ["own"]:
        return f"their {said}"  # "my own store": "User has their own store", not "an own store"
    return f"{'an' if said[0] in 'aeiou' else 'a'} {said}"


def possessions(sentence: str) -> list[tuple[str, str, str]]:
    """(quote, statement, category) for each "my <noun>" / "our <noun>" of the closed list that says the user has it."""
    found = []
    if _REQUEST_RE.search(sentence):
        return found  # "Can you help me write a poem about my cat?": a request's words are self_disclosure.py's to read
    counted = _COUNTED_FRAGMENT_RE.match(LEAD_FILLER_RE.sub("", sentence.strip()))
    if counted:
        found.append((counted.group("q"), f"User has {counted.group('q')}", "relation"))
    # the user as the one who acts or owns: "It made me realize how crucial the upgrades are, especially for the kids"
    # speaks of the community's kids
    speaks_of_self = bool(re.search(r"\b(?:I|I'm|I’m|I've|I’ve|my)\b", sentence))
    for m in _MY_NOUN_RE.finditer(sentence):
        if m.group("the") and not (speaks_of_self and m.group("noun").lower() in _OWN_WITH_THE):
            continue  # "the kids" / "the wife" are the user's own only in a sentence about the user
        if _KIDS_RE.match(m.group("noun")) and _TEACHES_RE.search(sentence):
            continue  # "I am an elementary teacher, and my kids do too": a teacher's kids are the class
        mods, noun = m.group("mods").strip().lower(), m.group("noun").lower()
        if m.group("our") and not re.match(rf"(?:{_FAMILY}|{_PETS}|farm|house|ranch|business|shop|store|restaurant)$", noun):
            continue  # "our car" / "our garden" may be anyone's household; "our kids" / "our dog" are the user's
        if set(mods.split()) & NOT_HELD_MODS or _NOT_HELD_BEFORE_RE.search(sentence[max(0, m.start() - 30): m.start()]):
            continue
        if _NOT_HELD_AFTER_RE.match(sentence, m.end()) or (
                _PARTNER_RE.match(noun) and _PARTED_LATER_RE.search(sentence, m.end())):
            continue
        if re.search(r"(?:'s|’s)\s*$", sentence[: m.start()]):
            continue  # "my sister's dog" is the sister's (the regex starts at "my" only; this is for "mom's my …")
        category = "relation" if _RELATION_RE.match(noun) else "fact"
        quote, phrase = m.group(0), _phrase(mods, noun)
        field = _FIELD_RE.match(sentence, m.end()) if noun in ("degree", "major") else None
        if field:  # "with my major in economics" → "User has a major in economics"
            quote, phrase = quote + field.group(0), phrase + field.group(0)
        found.append((quote, f"User has {phrase}", category))
    return found


# "5 grandkids now", "Two huskies.": an answer that counts what the user has.
_COUNTED_FRAGMENT_RE = re.compile(
    r"^(?P<q>(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:older|younger|little|grown)\s+)?"
    r"(?:kids|children|sons|daughters|grandchildren|grandkids|grandsons|granddaughters|sisters|brothers|"
    r"siblings|dogs|cats|horses|pets|chickens|birds))\b(?:\s+(?:now|already|so far))?[.!]*$",
    re.IGNORECASE,
)


def not_yet_said(found: list[tuple[str, str, str]], *, stated: str) -> list[tuple[str, str, str]]:
    """The possessions no statement of the turn already says: "User has two sons", "User owns a farm", or one
    about the thing itself ("User's sister lives in Berlin" says there is a sister; "User's two older brothers were in
a band" does not say how many).""" 
    kept = []
    for quote, statement, category in found:
        noun = statement.split()[-1].lower()
        stem = re.escape(re.sub(r"(?:s|es)$", "", noun) if len(noun) > 3 else noun)
        if not re.search(rf"\b(?:has|have|had|owns|own)\b[^.]*\b{stem}(?:s|es)?\b|"
                         rf"\buser's {stem}(?:s|es)?\b", stated.lower()):
            kept.append((quote, statement, category))
    return kept
