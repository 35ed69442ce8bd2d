"""Read a statement with what was said just before it, the way a listener would.

Light sleep extracts clause by clause, so a clause can lean on the one before it: "My sister Lena
lives in Berlin. … I miss her a lot" (her = the sister), "I booked flights to Kyoto! I'm going with my
friend Yuki" (going = to Kyoto), "I started learning the ukulele. I practice every evening" (practice
= the ukulele). These rules fill such gaps when the antecedent is unambiguous, and tidy what the
third-person rewrite leaves behind ("…, we video call" → "…, User and Lena video call"). A gap they
cannot fill stays a gap; deep sleep's vagueness rule (dreaming.engine.vagueness.vague_reason) keeps such a
statement out of memory.
"""
from __future__ import annotations

import re

from dreaming.engine.third_person import AND_VERBS, conjugate

_FEMALE_EN = "sister|mom|mum|mother|wife|girlfriend|fiancee|fiancée|daughter|aunt|niece|grandma|grandmother|granddaughter"
_MALE_EN = "brother|dad|father|husband|boyfriend|fiance|fiancé|son|uncle|nephew|grandpa|grandfather|grandson"
_FEMALE_ZH = "姐姐|妹妹|妈妈|母亲|老婆|妻子|女朋友|女友|女儿|奶奶|外婆|姥姥|闺蜜|姐|妹|妈"
_MALE_ZH = "哥哥|弟弟|爸爸|父亲|老公|丈夫|男朋友|男友|儿子|爷爷|外公|姥爷|哥|弟|爸"
_NAME = r"(?: (?:named |called )?(?P<name>[A-Z][a-z]+)\b)?"
_PERSON_EN_RE = re.compile(rf"\b[Mm]y (?:(?:older|younger|little|big|baby|twin|best) )?(?P<kin>{_FEMALE_EN}|{_MALE_EN}){_NAME}")
_PERSON_ZH_RE = re.compile(rf"我的?(?P<kin>{_FEMALE_ZH}|{_MALE_ZH})(?P<name>[A-Za-z][A-Za-z-]*)?")
_FEMALE_SET = frozenset((_FEMALE_EN + "|" + _FEMALE_ZH).split("|"))

_TRAILING = r"(?P<trail>(?:\s+(?:a lot|so much|very much|too|again|already|sometimes|badly|every day|all the time))*)"
_OBJECT_PRONOUN_EN_RE = re.compile(rf"^(?P<head>User (?:[a-z']+ ){{0,3}}?[a-z']+) (?P<p>her|him)\b{_TRAILING}\s*$")
_OBJECT_PRONOUN_ZH_RE = re.compile(r"(?<=[带陪想看接送给帮找见])(?P<p>她|他)(?!们|的)")

_GOING_RE = re.compile(r"^(?P<head>User (?:is |was |will be )?(?:going|goes|went|heading|headed))(?= (?:with|in|at|next|this|early|late)\b)")
_DESTINATION_RE = re.compile(r"\b(?:to|for|in) (?P<place>[A-Z][\w'-]+(?: [A-Z][\w'-]+){0,2})")
_NO_OBJECT_RE = re.compile(
    r"^(?P<head>User (?:still |also |now )?(?:practices|practises|plays|trains|rehearses))"
    r"(?= (?:for|every|each|on|at|in|daily|twice|once|\d)\b|$)"
)
_ACTIVITY_RE = re.compile(
    r"\b(?:learning|playing|practicing|practising|studying|taking up|took up|picked up|learn|play|practice)"
    r" (?P<obj>(?:the |a |an )?[a-z][\w'-]*(?: (?!(?:last|this|next|every|for|on|at|in|since|with|yesterday|today|"
    r"now|again|too)\b)[a-z][\w'-]*)?)"
)
_WE_RE = re.compile(r"\b(?:[Ww]e(?P<aux>'re|’re|'ve|’ve)?)\b")
_OUR_RE = re.compile(r"\b(?:[Oo]ur)\b")
_COMPANION_RE = re.compile(
    rf"^User's (?:(?:older|younger|little|big|best) )?(?P<kin>{_FEMALE_EN}|{_MALE_EN}|friend|partner|roommate|"
    rf"family|parents|kids|children|cousin|neighbou?r|coworker|colleague)(?: (?P<name>[A-Z][a-z]+))?\b"
)
_ARTICLE_CAPITAL_RE = re.compile(r"(?<=[a-z,] )(The|A|An|This|That|These|Those|Some|My|Our|Their)(?= [a-z])")


# "The kids look so cute! How did they handle it?" → "They were scared" is about the user's kids.
_GROUP_NOUNS = (
    "kids|children|sons|daughters|twins|grandkids|grandchildren|parents|folks|siblings|brothers|sisters|"
    "students|dogs|cats|pets|turtles|puppies|kittens|horses|chickens|birds|fish|rabbits|plants|paintings|family"
)
_USER_GROUP_RE = re.compile(rf"\b(?:[Mm]y|[Oo]ur|[Tt]he)\s+(?:(?:two|three|four|little|older|younger|new|)\s*)?(?P<noun>{_GROUP_NOUNS})\b")
_ASSISTANT_GROUP_RE = re.compile(rf"\b(?:[Yy]our|[Tt]he)\s+(?:(?:two|three|four|little|older|younger|new|)\s*)?(?P<noun>{_GROUP_NOUNS})\b")


# "Family's super important to me": a group named without "my" when the user says what it is to them.
_BARE_GROUP_RE = re.compile(rf"(?:^|[.!?]\s+)(?P<noun>{_GROUP_NOUNS.title()})(?:'s| is| are| means?)\b[^.!?]*?\bme\b")


def groups_mentioned(text: str, *, by_user: bool) -> list[str]:
    """Plural things of the user's named in a turn: "my kids" / "our turtles" (the user), "your kids" (the
    other side speaking of the user's), "the kids" (either), "Family's everything to me" (the user)."""
    if by_user:
        bare = [m.group("noun").lower() for m in _BARE_GROUP_RE.finditer(text)]
        return bare + [m.group("noun").lower() for m in _USER_GROUP_RE.finditer(text)]
    pattern = _ASSISTANT_GROUP_RE
    return [m.group("noun").lower() for m in pattern.finditer(text)]


def the_group(mentions: list[str]) -> str | None:
    """The one plural thing named lately, or None when there are none or several."""
    # "family" is everyone: it stands for "they" only when no narrower group (the kids, the dogs) was named
    narrower = [m for m in mentions if m != "family"]
    mentions = narrower or mentions
    return mentions[0] if len(set(mentions)) == 1 else None


# "I noticed a little girl sitting all alone … I sat with her": someone not of the user's, who may be the "her".
_STRANGER_EN_RE = re.compile(r"\b(?:a|an|this|that|the|one|some)\s+(?:[a-z]+\s+){0,2}?(?:(?P<f>girl|woman|lady|gal)|"
                             r"(?P<m>boy|man|guy|gentleman|dude))\b")
_STRANGER = "~"  # the kin word of such a one: it takes a pronoun away from a relative, never stands for it


def people_mentioned(text: str) -> list[tuple[str, str, str | None]]:
    """(gender, kin word, name) for each relative the user names: "my sister Lena", "我姐姐Lena"; and someone
    else of each gender ("a little girl"), who may be who a "her" is."""
    found = []
    for pattern in (_PERSON_EN_RE, _PERSON_ZH_RE):
        for m in pattern.finditer(text):
            kin = m.group("kin").lower()
            found.append(("f" if kin in _FEMALE_SET else "m", kin, m.group("name")))
    for m in _STRANGER_EN_RE.finditer(text):
        found.append(("f" if m.group("f") else "m", _STRANGER, None))
    return found


def _the_one(people: list[tuple[str, str, str | None]], gender: str) -> tuple[str, str | None] | None:
    """(kin, name) of the single relative of that gender named lately; several different ones: None.
    "my sister" and "my sister Lena" are one person."""
    by_kin: dict[str, str | None] = {}
    for who_gender, kin, name in people:
        if who_gender == gender:
            by_kin[kin] = by_kin.get(kin) or name
    names = {name for name in by_kin.values() if name}
    if len(by_kin) != 1 or len(names) > 1 or _STRANGER in by_kin:
        return None
    kin, name = next(iter(by_kin.items()))
    return kin, name


def resolve_pronoun(statement: str, *, people: list[tuple[str, str, str]]) -> str:
    """"User misses her" → "User misses their sister Lena" when exactly one woman was mentioned lately."""
    m = _OBJECT_PRONOUN_EN_RE.match(statement)
    if m:
        person = _the_one(people, "f" if m.group("p") == "her" else "m")
        if not person:
            return statement
        kin, name = person
        return f"{m.group('head')} their {kin}{' ' + name if name else ''}{m.group('trail')}"
    zh = _OBJECT_PRONOUN_ZH_RE.search(statement)
    if zh and statement.startswith("用户") and len(_OBJECT_PRONOUN_ZH_RE.findall(statement)) == 1:
        person = _the_one(people, "f" if zh.group("p") == "她" else "m")
        if person:
            kin, name = person
            return statement[: zh.start()] + kin + (name or "") + statement[zh.end():]
    return statement


_THEM_OBJECT_EN_RE = re.compile(r"^(?P<head>User (?:[a-z']+ ){0,3}?[a-z']+) them\b(?!-)(?P<rest>[^,;]*)$")


# "…how much they need them": the user ("they") cannot be their own verb's "them", so it is the group.
_THEY_VERB_THEM_RE = re.compile(r"^(?P<head>User\b[^,;]*\bthey (?:[a-z']+ )?[a-z']+) them$")


# "my grandkids, I have three of them" → "User has three grandkids", not "three of their grandkids"
_COUNT_OF_THEIR_RE = re.compile(r"^(?P<head>User (?:has|had)) (?P<n>two|three|four|five|six|seven|eight|nine|ten|\d{1,2}) "
                                r"of their (?P<kin>\w+)$")


def resolve_them(statement: str, *, group: str | None) -> str:
    """"User likes holding them" → "User likes holding their turtles" when one group of the user's (kids, pets,
    …) was named lately (groups_mentioned / the_group); otherwise unchanged."""
    if not group:
        return statement
    they_them = _THEY_VERB_THEM_RE.match(statement)
    if they_them:
        return f"{they_them.group('head')} their {group}"
    m = _THEM_OBJECT_EN_RE.match(statement)
    if not m or re.search(r"\b(?:they|they'd|they're|they've|he|she|we|it|you|try|tried)\b", m.group("head")):
        return statement  # "User figured they'd try them out": "them" belongs to another clause
    return f"{m.group('head')} their {group}{m.group('rest')}"


def resolve_ellipsis(statement: str, *, before: list[str]) -> str:
    """Fill a missing destination or object from the statement said just before (same turn)."""
    if not before:
        return statement
    previous = before[-1]
    going = _GOING_RE.match(statement)
    if going and " to " not in statement:
        place = _DESTINATION_RE.search(previous)
        if place:
            return f"{going.group('head')} to {place.group('place')}{statement[going.end():]}"
    bare = _NO_OBJECT_RE.match(statement)
    if bare:
        activity = _ACTIVITY_RE.search(previous)
        if activity:
            return f"{bare.group('head')} {activity.group('obj')}{statement[bare.end():]}"
    return statement


# "…with their business, Jon" / "…, btw": a name addressed to the other side, or a chat tic, after the last comma.
# Not after a noun that takes a name ("User has a dog, Max") nor after a capitalised word ("Austin, Texas").
_NAMEABLE = (r"dog|cat|puppy|pup|kitten|pet|hamster|rabbit|bunny|bird|parrot|horse|fish|turtle|snake|son|daughter|"
             r"baby|kid|child|boy|girl|brother|sister|mom|mum|dad|wife|husband|partner|boyfriend|girlfriend|friend|"
             r"cousin|aunt|uncle|niece|nephew|grandma|grandpa|name|named|called|band|book|song|album|film|movie|"
             r"show|game|team|city|town|country|state")
_TRAILING_ADDRESS_RE = re.compile(
    r"(?P<before>\S+),\s*(?P<who>[A-Z][a-z]+)\W*$|,\s*(?P<tic>btw|lol|haha+|tbh|imo|fyi|honestly|hehe|lmao)\W*$"
)
_NAMEABLE_RE = re.compile(rf"^(?:{_NAMEABLE})s?$|^[A-Z]")


def _address_match(statement: str) -> re.Match | None:
    m = _TRAILING_ADDRESS_RE.search(statement)
    if m and m.group("who") and _NAMEABLE_RE.match(m.group("before")):
        return None
    return m


def trailing_address(statement: str) -> str | None:
    """The name or chat tic a statement ends with, said to the other side ("User works hard, Maria" → "Maria")."""
    m = _address_match(statement.rstrip(" .!"))
    return (m.group("who") or m.group("tic")) if m else None


# "…soaking in the sun like this": pointing at a photo the memory does not have.
_LIKE_THIS_RE = re.compile(r"\s+like (?:this|that)(?: one)?\s*$")
# "User loves climbing, sliding": the engine cut a list before its "and"; the cut item goes too.
_NOT_A_LIST_ITEM = r"too|though|again|now|then|anyway|either|also|thanks|please|sorry|right|yeah|yes|no|ok|okay|lol|haha"
_CUT_LIST_RE = re.compile(rf",\s*(?!(?:{_NOT_A_LIST_ITEM})\b)(?![a-z]+ly\b)[a-z]+\s*$")


def _repair_cut_list(statement: str) -> str:
    """"User loves climbing, sliding" → "User loves climbing and sliding"; "User watches movies, hike" → "… and
    hikes". Only the shape the engine leaves when it cuts "X, Y, and Z" at the "and": one comma, one word after it
    (a list said without "and", "cuisines mexican, italian, chinese", has more commas and is left alone)."""
    cut = _CUT_LIST_RE.search(statement)
    if not cut or statement.count(",") != 1 or not statement.startswith("User"):
        return statement
    head, item = statement[: cut.start()], cut.group(0).strip(" ,")
    first_verb = re.match(r"^User (?:\w+ly |still |also |usually |often )?(\w+)", head)
    if item in AND_VERBS and first_verb and first_verb.group(1).endswith("s") and not re.search(r"\bto \w+$", head):
        item = conjugate(item)  # the user's second activity agrees with the first: "watches movies and hikes"
    return f"{head} and {item}"


def trim_tail_en(statement: str) -> str:
    """Take off what the statement does not need to stand on its own: a trailing name addressed to the other side,
    "btw", a "like this" pointing at a photo, an item of a list cut short. The quote keeps the user's words."""
    m = _address_match(statement.rstrip(" .!"))
    if m:
        statement = statement[: m.start("who") if m.group("who") else m.start("tic")].rstrip(" ,")
    trimmed = _LIKE_THIS_RE.sub("", statement)
    if len(trimmed.split()) >= 3:
        statement = trimmed
    return _repair_cut_list(statement)


def tidy_en(statement: str) -> str:
    """"…Lena lives in Berlin, we video call" → "…, User and Lena video call"; "loves The bathhouse" → "the"."""
    if _WE_RE.search(statement):
        companion = _COMPANION_RE.match(statement)
        if companion:
            who = "User and " + (companion.group("name") or f"their {companion.group('kin')}")
            statement = _WE_RE.sub(lambda m: who + {"'re": " are", "’re": " are", "'ve": " have", "’ve": " have"}.get(
                m.group("aux") or "", ""), statement)
            statement = _OUR_RE.sub("their", statement)
        else:
            cut = re.search(r",\s*(?:and |so )?(?:we|our)\b", statement, re.I)
            if cut:
                statement = statement[: cut.start()]
    statement = _COUNT_OF_THEIR_RE.sub(r"\g<head> \g<n> \g<kin>", statement)
    statement = re.sub(r"^User also ", "User ", statement)  # "also" leans on a previous clause the memory lacks
    statement = trim_tail_en(statement)
    return _ARTICLE_CAPITAL_RE.sub(lambda m: m.group(1).lower(), statement)
