"""Short answers read together with the question they answer.

"Are you a student?" → "I am!" → "User is a student"; "Where are you from?" → "Ohio." → "User is
from Ohio"; "Do you like puppies? I adore them!"; "Me too!" after the other side said "I love hiking".
The quote stays the user's own words; the statement borrows the question's words.
"""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.language import CJK_RE, sentences
from dreaming.engine.third_person import AND_VERBS, conjugate, to_third_person_en
from dreaming.engine.sensitive import sensitive_category

_VOLUNTEERED_RE = re.compile(r"\b(?:by the way|btw|anyway|oh and|also|fun fact)\b|顺便|对了|另外|说起来", re.I)


# An offer of help or a greeting asks for nothing in particular.
_OPEN_OFFER_RE = re.compile(
    r"\b(?:how (?:can|may) I help|what can I (?:do|help)|anything (?:else )?I can (?:do|help)|how can I assist|"
    r"what brings you|how's it going|what's up)\b|\bhow are you(?: doing)?(?: today)?\s*[?？]|"
    r"(?:有什么|有啥)(?:能|可以|需要)?(?:我)?(?:帮|为)|需要我帮忙|能帮到你|可以帮你|帮你做|你好吗|最近怎么样|最近好吗",
    re.IGNORECASE,
)


def answers_last_question(tail: str) -> str:
    """The last question-bearing sentence of the assistant's turn."""
    parts = [p for p in re.split(r"(?<=[.!?。！？])\s*", tail) if p.strip()]
    asking = [p for p in parts if re.search(r"[?？]|吗|呢", p)]
    return asking[-1] if asking else tail


def answers_a_question(previous_assistant: str | None, user_text: str, *, chinese: bool) -> bool:
    """A short user turn right after an assistant question is an answer, not something volunteered."""
    if not previous_assistant:
        return False
    tail = previous_assistant.strip()[-200:]
    if not re.search(r"[?？]|吗|呢", tail):
        return False
    if _VOLUNTEERED_RE.search(user_text[:40]):
        return False
    if _OPEN_OFFER_RE.search(answers_last_question(tail)):
        return False  # "How can I help?" asks nothing about the user: what they tell is volunteered
    size = len(CJK_RE.findall(user_text)) if chinese else len(user_text.split())
    return size <= (30 if chinese else 15)


# "Do you like to paint?" / "Are you a student?" / "Have you been to Paris?" — what a short answer refers to.
QUESTION_FRAME_RE = re.compile(
    r"\b(?P<aux>do|did|are|were|have)\s+you\s+(?:ever\s+|also\s+|still\s+|really\s+|guys\s+)?"
    r"(?P<rest>[^?.!]{2,70}?)\s*\?",
    re.IGNORECASE,
)

_SHORT_ANSWER_RE = re.compile(
    r"^(?:I|i)\s+(?:(?:really|definitely|sure|also|certainly|absolutely|totally)\s+)?"
    r"(?P<polarity>do|did|am|was|have|don't|dont|do not|didn't|didnt|did not|am not|'m not|haven't|have not)"
    r"(?:\s+(?:too|as well|also|not))?\s*$",
    re.IGNORECASE,
)

_PRONOUN_ANSWER_RE = re.compile(
    r"^(?P<head>(?:I|i)\s+(?:[\w']+\s+){0,2}?[\w']+)\s+(?P<pronoun>it|them|those|one|that)"
    r"(?P<tail>(?:\s+(?:too|a lot|so much|very much|alot))?)\s*$",
    re.IGNORECASE,
)

FAVOURITE_RE = re.compile(
    r"^(?P<x>[\w'’ ,&-]{2,60}?)(?:\s+(?:is|are)|'s|’s)\s+(?:(?:probably|definitely|really|totally|still)\s+)?"
    r"(?P<one>one of\s+)?my\s+(?:all[- ]time\s+)?(?:favou?rite|fave|fav)s?(?:\s+(?P<k>[a-z]+(?:\s+[a-z]+)?))?\s*$",
    re.IGNORECASE,
)


def you_to_them(text: str) -> str:
    text = re.sub(r"\byour\b", "their", text, flags=re.I)
    text = re.sub(r"\byourself\b", "themself", text, flags=re.I)
    return re.sub(r"\byou\b", "them", text, flags=re.I)


def question_before(frames: list[re.Match], position: int) -> tuple[str, str] | None:
    before = [m for m in frames if m.end() <= position]
    return _frame(before[-1]) if before else None


# Chat often drops the "?": "Did you break it skateboarding" is still asked when it ends the turn and opens its
# sentence with the question's verb and "you" (a statement of the other side's never does).
_UNMARKED_QUESTION_RE = re.compile(
    r"(?:^|(?<=[.!?])\s)\s*(?:(?:oh|so|and|well|wow|haha+|lol|cool|nice|ok|okay|hey|but)\b[\s,]*)?"
    r"(?:do|did|are|were|have)\s+you\s+(?![^.!?]*\bor\b)[^?.!,;]{2,70}?(?P<end>\s*\.?\s*)$",
    re.IGNORECASE,
)


def last_question(text: str) -> tuple[str, str] | None:
    unmarked = _UNMARKED_QUESTION_RE.search(text)
    if unmarked:
        text = text[: unmarked.start("end")] + "?"
    frames = list(QUESTION_FRAME_RE.finditer(text))
    if not frames:
        have = _ANY_QUESTION_RE.search(text)  # "Any children?", "You have any pets?": "do you have any …?"
        dropped = _DROPPED_DO_RE.search(text)  # "You sing?", "You like your job?": chat drops the "do"
        return ("do", f"have any {have.group('k')}") if have else ("do", dropped.group("rest")) if dropped else None
    frame = _frame(frames[-1])
    pointer = _POINTER_END_RE.search(frame[1]) if frame else None
    thing = pointer and antecedent(text[: frames[-1].start()])
    if thing:  # "I also enjoy mountain biking. Have you ever tried it?" → "No" → "User has not tried mountain biking"
        return frame[0], f"{frame[1][: pointer.start()]} {thing}{frame[1][pointer.end():]}"
    return frame


_ANY_QUESTION_RE = re.compile(r"(?:^|[.!?]\s+)\W*(?:(?:so|and|oh|ok|okay)\s+)?(?:you\s+(?:got|have)\s+)?any\s+"
                              r"(?P<k>kids|children|pets|siblings|brothers|sisters|animals|dogs|cats|grandchildren|grandkids)"
                              r"(?:\s+(?:yet|at all))?\s*\?\W*$", re.IGNORECASE)

_DROPPED_DO_RE = re.compile(r"(?:^|[.!?]\s+)\W*(?:(?:and|so)\s+)?(?:you|u)\s+(?:(?:ever|also|still|really)\s+)?(?P<rest>(?!(?:are|were|have|know|mean|think|too|"
                            r"must|should|can|could|would|will|might|did|do|got|guys|there)\b)[a-z]+\b[^?.!]{0,50}?)\s*\?\W*$",
                            re.IGNORECASE)


# "… tried it?", "… like them too?": the question's thing is a pronoun, named in the sentence before.
_POINTER_END_RE = re.compile(r"\s+(?:it|them)(?=(?:\s+(?:too|also|before|yet|at all))?\s*$)", re.IGNORECASE)
_LIKED_THING_RE = re.compile(
    r"\b(?:love|loves|like|likes|enjoy|enjoys|play|plays|watch|watches|read|reads|tried|try|collect|collects|do|does)"
    r"\s+(?P<np>[a-z][a-z' -]*?)(?=\s+(?:and|but|because|so|too|also|with|every|on|in|at|a lot|all)\b|\s*[,.!?;]|\s*$)",
    re.IGNORECASE,
)
_NOT_A_THING_RE = re.compile(r"^(?:it|them|that|this|those|these|to|a lot|so|you|your|my|me|what|how|much)\b", re.I)


def antecedent(before: str) -> str | None:
    """What an "it" of the question points at: the thing liked or done at the end of the sentence before it
    ("I also enjoy mountain biking."), or a one-word question of its own ("Wrestling?"); None when unsure."""
    last = [p for p in re.split(r"(?<=[.!?])\s+", before.strip()) if p.strip()][-1:] or [""]
    sentence = last[0].strip()
    if sentence.endswith("?") and len(sentence.split()) <= 3:
        thing = sentence.rstrip(" ?").strip()
        return thing.lower() if re.fullmatch(r"[A-Za-z][a-z]+(?: [a-z]+)?", thing) and not _NOT_A_THING_RE.match(thing) \
            and not _WH_WORD_RE.match(thing) else None
    found = list(_LIKED_THING_RE.finditer(sentence))
    thing = found[-1].group("np").strip() if found else ""
    if not thing or len(thing.split()) > 4 or _NOT_A_THING_RE.match(thing):
        return None
    return thing


# "What do you do for fun?" holds "do you do for fun?", but it is no yes-no question: "Yeah" answers nothing in it.
_WH_WORD_RE = re.compile(r"\b(?:what|where|when|why|how|which|who|whom|whose)\b", re.IGNORECASE)


def _frame(m: re.Match) -> tuple[str, str] | None:
    rest = m.group("rest").strip()
    if re.search(r"\b(?:think|mean|know|want me|need me|agree)\b", rest, re.I):
        return None
    opening = re.split(r"[.!?]", m.string[: m.start()])[-1]
    if _WH_WORD_RE.search(opening):
        return None
    return m.group("aux").lower(), rest


def resolve_answer(quote: str, question: tuple[str, str] | None) -> str | None:
    """A statement for "I do" / "I adore them" given the question it answers, or None."""
    if question is None:
        return None
    aux, rest = question
    rest = ASKED_TAIL_RE.sub("", you_to_them(rest))  # "Are you in aaa like me?" → not "User is in aaa like me"
    short = _SHORT_ANSWER_RE.match(quote)
    if short:
        negative = bool(re.search(r"n't|\bnot\b", short.group(0)))
        if aux in ("do", "did"):
            verb, _, obj = rest.partition(" ")
            if not obj or not re.fullmatch(r"[a-z]+", verb.lower()):
                return None
            if aux == "did":
                return f"User {'did not ' + verb if negative else 'did ' + verb} {obj}"
            return f"User {'does not ' + verb if negative else conjugate(verb)} {obj}"
        if aux in ("are", "were"):
            return f"User {'is' if aux == 'are' else 'was'}{' not' if negative else ''} {rest}"
        if aux == "have":
            return f"User {'has not' if negative else 'has'} {rest}"
    # "Do you have kids?" → "I have two" / "Two"
    counted = re.match(r"^(?:(?:I|i) (?:have|had|own) )?(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)$",
                       quote, re.IGNORECASE)
    if counted and aux in ("do", "have"):
        m = re.match(r"(?:have|own|got)\s+(?:any\s+)?(?P<obj>[a-z ]{2,40})$", rest, re.I)
        if m:
            return f"User has {counted.group('n').lower()} {m.group('obj')}"
    pronoun = _PRONOUN_ANSWER_RE.match(quote)
    if pronoun and aux in ("do", "did"):
        _, _, obj = rest.partition(" ")
        if obj and len(obj.split()) <= 6:
            return en.en_statement(f"{pronoun.group('head')} {obj}")
    return None


# Short answers to the assistant's wh-questions: "Where are you from?" → "Ohio." → "User is from Ohio".
_ANSWER_FRAMES = [
    (re.compile(r"where (?:are|were) you (?:originally )?from\b", re.I), "User is from {f}"),
    (re.compile(r"where do you (?:live|stay|reside)\b|where are you (?:based|living)\b", re.I), "User lives in {f}"),
    (re.compile(r"where do you work\b", re.I), "User works at {f}"),
    (re.compile(r"where did you grow up\b|where were you raised\b", re.I), "User grew up in {f}"),
    (re.compile(r"where were you born\b", re.I), "User was born in {f}"),
    (re.compile(r"what did you study\b|what was your major\b", re.I), "User studied {f}"),
    (re.compile(r"what are you studying\b|what(?:'s| is) your major\b", re.I), "User is studying {f}"),
    (re.compile(r"how old are you\b", re.I), "User is {f}"),
    (re.compile(r"what do you do (?:for (?:a )?(?:living|work|job)|professionally)|"
                r"what(?:'s| is) (?:your|the) (?:new )?(?:job|profession|occupation|line of work|role|position)|"
                r"what do you work", re.I),
     "User works in {f}"),
    (re.compile(r"what do you (?:do|like to do) (?:for fun|in your (?:free|spare) time)|"
                r"what (?:are|is) your (?:hobbies|hobby|interests|passion)", re.I), "User enjoys {f}"),
    (re.compile(r"what(?:'s| is| are) your (?:favou?rite|fav) (?P<k>[a-z]+(?: [a-z]+)?)", re.I),
     "User's favorite {k} is {f}"),
    (re.compile(r"what (?:kind|type|sort)s? of (?P<k>[a-z]+(?: [a-z]+)?) do you (?P<v>[a-z]+)", re.I), "User {v} {f}"),
    (re.compile(r"what (?P<k>[a-z]+) do you (?P<v>drive|play|watch|read|own|have|like|love|eat|speak|study|teach)\b",
                re.I), "User {v} {f}"),
    (re.compile(r"\byou have any (?:hobbies|interests|passions)|what do you like to do\b|^\W*(?:so |and )?any "
                r"(?:hobbies|interests|passions)\b", re.I), "User enjoys {f}"),
    (re.compile(r"do you play any (?:sports|instruments?|games)", re.I), "User plays {f}"),
    # "You have any animals?" (chat drops the "do") and a bare "Any kids?" ask the same
    (re.compile(r"\byou have any (?P<k>[a-z]+(?: [a-z]+)?)|^\W*(?:so |and )?any (?P<k2>kids|children|pets|siblings|"
                r"brothers|sisters|grandkids|grandchildren|animals)\s*\?", re.I), "User has {f} {k}"),
    # "What do you drive?" → "99 ford mustang": the verb asked ends the question
    (re.compile(r"what do you (?:usually |mostly |normally |like to )?(?P<v>drive|play|watch|read|teach|study|eat|drink|"
                r"listen to|collect|cook|bake|grow|raise|hunt|fish for|sell|write|paint)\s*\?", re.I), "User {v} {f}"),
    (re.compile(r"\bdo you (?:\w+ )?(?P<v>like|love|enjoy|play|watch|read|listen to|eat|drink|cook|speak|collect)\b",
                re.I), "User {v} {f}"),
    (re.compile(r"are you (?:a |an )?[a-z]+(?: [a-z]+)? or (?:a |an )?[a-z]+", re.I), "User is {f}"),
    (re.compile(r"what(?:'s| is) your name\b", re.I), "User's name is {f}"),
    # "How long have you been married?" → "5 years already!" → "User has been married for 5 years"
    (re.compile(r"how long have you (?:two |guys )?been (?P<k>[a-z]+(?: (?!for\b)[a-z]+){0,3})", re.I),
     "User has been {k} for {f}"),
    (re.compile(r"how many (?P<k>[a-z]+(?: [a-z]+)?) do you have\b", re.I), "User has {f} {k}"),
    # "How often do you go running?" → "Three times a week" → "User goes running three times a week"
    (re.compile(r"how often do you (?:all |guys |two |both )?(?:get to )?(?P<v>[a-z]+)(?P<k>(?: (?!you\b|your\b)[a-z']+){0,5}?)"
                r"(?= together\b| with\b| on\b| at\b| in\b|\s*\?)", re.I), "User {v}{k} {f}"),
]

def frame_words(asked: str) -> str:
    """The words the statement of a short answer to `asked` takes from its frame rather than from the question:
    "What do you do for fun?" → "Hiking." → "User enjoys hiking" adds "enjoys" (see _ANSWER_FRAMES); "" when no
    frame reads the question."""
    for pattern, template in _ANSWER_FRAMES:
        if pattern.search(asked):
            return re.sub(r"\{\w+\}", " ", template).strip()
    return ""


# An activity, not a thing: "creating gaming content for YouTube" (but "a painting", "my wedding ring").
_DOING_RE = re.compile(
    r"^(?!(?:thing|something|nothing|anything|everything|wedding|building|ring|king|morning|evening|spring|string|"
    r"ceiling|clothing|feeling|meeting|painting|drawing|earring|sibling|pudding|stuffing|frosting|icing|bedding|"
    r"ending|wing|darling|duckling|seedling|sling|swing|viking)\b)[a-z]+ing\s+\w",
    re.IGNORECASE,
)

_FRAGMENT_REJECT_RE = re.compile(
    # "Do you play guitar?" → "Yes, for 10 years": how long is no thing played (bare_answer reads it)
    r"^(?:for|since|you|he|she|it|it's|its|that|that's|thats|this|they|them|those|these|him|her|we|there|what|how|why|who|when|where|yes|no|"
    r"yeah|yep|nope|nah|sure|ok|okay|thanks|thank|sounds|wow|lol|haha|hi|hello|hey|not|nothing|none|me|"
    r"same|too|i|i'm|my)\b|\b(?:is|are|was|were|sounds|seems|looks|do|does|did|can|will|would|should|you|your)\b"
    # an exclamation or a wish is no answer ("Woohoo, Nate!", "Have fun with that", "Good luck!")
    r"|^(?:woo+hoo+|woo+t|yay+|yippee|hooray|whoa|omg|aw+|oh|ah|congrat\w*|cheers|hehe|have (?:fun|a)|good luck|"
    r"take care|let's|hang in|go for it|enjoy|keep (?:it|up|going)|awesome|amazing|great|cool|nice|sweet|"
    r"wonderful|fantastic|perfect|exciting|interesting|funny|crazy|scary|lovely|beautiful|cute|sad)\b",
    re.I,
)
# "Do you like country music?" → "A little bit": how much, not what.
_DEGREE_RE = re.compile(r"(?:a (?:little|bit|lot|tad)|little|sometimes|kind of|sort of|somewhat|occasionally|"
                        r"rarely|often|mostly not|definitely|absolutely|totally|of course)\b", re.IGNORECASE)
# "…, Nate": a name addressed to the other side ends the fragment; it is not part of any answer.
_ADDRESSED_RE = re.compile(r",\s*[A-Z][a-z]+\W*$")


_ABOUT_A_PRONOUN_RE = re.compile(r"\b(?:about|in|of|from|on) (?:it|that|this|them|those|these)\b[^?]*\?\s*$", re.I)

# "Pizza, you?" — the question asked back is not part of the answer.
_ASK_BACK_RE = re.compile(r"[,\s]*(?:and |what about |how about )?(?:you|yours|u|yourself)\s*\?+\s*$|"
                          r"[,\s]+(?:and|what about|how about) (?:you|yours|u|yourself)[\s.!]*$", re.I)  # "…, and you"


# A fragment with its own "I" is a clause ("Man I am tired I waitress all week"): the clause readings read it.
_OWN_SUBJECT_RE = re.compile(r"\b(?:i|i'm|i’m|im|am)\b", re.IGNORECASE)
# "Love it": a reaction to what was said, naming nothing.
_POINTS_BACK_RE = re.compile(r"\b(?:it|that|this|them|those|these)$", re.IGNORECASE)
# "Only one": a count answers "how many", not "what do you do for fun".
_QUANTITY_ONLY_RE = re.compile(r"(?:(?:only|just|about|maybe|like|almost)\s+)?(?:\d+|one|two|three|four|five|six|seven|"
                               r"eight|nine|ten|a few|a couple|a lot|lots|some|many|all|both|none|several)", re.IGNORECASE)
# An opening adverb or activity is no name: "Mostly mysteries", "Knitting and baking" (but "Ohio", "Horses").
_HEDGE_RE = re.compile(r"^[A-Z][a-z]+(?:ly|ing)\b")
_COUNTED_TEMPLATES = ("User has {f} {k}", "User has {f}", "User has been {k} for {f}", "User {v}{k} {f}", "User is {f}")
# "Play video games and listen to music" answers "What do you do for fun?" in the user's own verbs.
_LEADING_VERB_RE = re.compile(rf"^(?:{'|'.join(sorted(AND_VERBS))})\b", re.IGNORECASE)


def _answer_fragment(fragment: str) -> str | None:
    """The fragment of a short answer that may fill a frame, or None when it is no verbless answer."""
    fragment = _ASK_BACK_RE.sub("", fragment.strip()).strip(" .!…,")
    # "Three times a week; it keeps us on track", "Tuna for work but whatever bites": the answer is the first part
    # (not a lone word before "but": "Exciting but kinda nerve-wracking" is a reaction, whole)
    fragment = re.split(r"\s*(?:;|\s[-–—]\s)\s*", fragment, maxsplit=1)[0]
    before_but = re.split(r",?\s+but\s+", fragment, maxsplit=1)[0]
    fragment = before_but if len(before_but.split()) >= 2 else fragment
    size = len(fragment.split())
    fragment = _ADDRESSED_RE.sub("", fragment).strip(" .!…,")
    if not fragment or size > 8 or fragment.endswith("?") or _FRAGMENT_REJECT_RE.search(fragment) \
            or _DEGREE_RE.match(fragment) or _OWN_SUBJECT_RE.search(fragment) or _POINTS_BACK_RE.search(fragment) \
            or BARE_NEGATIVE_RE.search(fragment):  # "Unfortunately no": an answer, but no thing to fill the frame
        return None
    return fragment


# A job answered with its name: "What do you do for work?" → "Nurse, night shifts mostly" → "User is a nurse",
# "Software engineer at a bank" → "User is a software engineer at a bank" (a field stays: "User works in marketing").
_ROLE_RE = re.compile(
    r"^(?:(?:a|an)\s+)?(?P<role>(?:[a-z-]+\s+)?(?:[a-z]+(?:er|or|ist|ian|ant|ent|eer|ic)|nurse|chef|cook|nanny|clerk|"
    r"barista|waitress|pilot|vet|lawyer|surgeon|coach|tutor|barber|housewife|homemaker|cop|soldier|paramedic|"
    r"firefighter|medic))(?P<rest>\s+(?:at|for|in|with)\s+.+)?$", re.IGNORECASE,
)


def _reframed(template: str, fragment: str) -> tuple[str, str]:
    """The frame and fragment for a job named by its name, or an origin said with "originally"
    ("Originally Kenya" → "User is originally from Kenya"); others as they are."""
    if template == "User works in {f}":
        head = fragment.split(",")[0].strip()
        role = _ROLE_RE.match(head)
        if not role:
            return template, head
        name = role.group("role").lower()
        return "User is {f}", f"{'an' if name[0] in 'aeiou' else 'a'} {name}{role.group('rest') or ''}"
    origin = re.match(r"originally\s+(?P<x>.+)", fragment, re.IGNORECASE) if template == "User is from {f}" else None
    return ("User is originally from {f}", origin.group("x")) if origin else (template, fragment)


def answer_to_wh_question(fragment: str, question_text: str | None) -> tuple[str, str] | None:
    """(quote, statement) for a verbless short answer to the assistant's last question, or None."""
    if not question_text or "?" not in question_text:
        return None
    fragment = _answer_fragment(fragment)
    if fragment is None:
        return None
    last_question = re.split(r"(?<=[.!?])\s+", question_text.strip())
    asked = next((q for q in reversed(last_question) if q.rstrip(". ").endswith("?")), "")
    if _ABOUT_A_PRONOUN_RE.search(asked):
        return None  # "What do you love most about it?" → "The bathhouse": the answer is about an "it" we do not name
    said = fragment
    for pattern, template in _ANSWER_FRAMES:
        m = pattern.search(asked)
        if not m:
            continue
        groups = m.groupdict()
        groups["k"] = groups.get("k") or groups.get("k2")
        if re.search(r"\b(?:or|and)$", groups.get("k") or ""):
            return None  # "Do you have any goals or activities…?" → "One": one of which?
        if template == "User has been {k} for {f}":
            fragment = re.sub(r"\s+(?:already|now|so far|and counting)$", "", fragment, flags=re.I)
            if not re.match(r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|almost|about|over|nearly)\b",
                            fragment, re.I):
                return None
        if template.startswith("User has {f}") and _DOING_RE.match(fragment):
            template = "User is {f}"  # "Any new projects?" → "creating gaming content for YouTube"
        if template.startswith("User has"):  # "Three." → "User has three kids", "Two dogs." → "two dogs"
            fragment = re.sub(r"^(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)\b", lambda w: w.group(0).lower(), fragment)
        if template == "User has {f} {k}" and not re.fullmatch(r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)",
                                                             fragment, re.I):
            template = "User has {f}"
        if template == "User {v}{k} {f}":
            if not re.search(r"\b(?:times?|once|twice|every|each|daily|weekly|monthly|a (?:day|week|month|year)|"
                             r"always|never|often|rarely|usually|sometimes|weekends?)\b", fragment, re.I):
                return None  # a frequency, or it is not the answer
            groups["v"] = "work out" if groups["v"].lower() == "workout" else groups["v"]  # the noun used as the verb
            said = fragment
            fragment = fragment[:1].lower() + fragment[1:]  # "User goes running every morning"; the quote keeps "Every"
        if template == "User is {f}" and "old" in asked.lower() and not re.search(r"\d|ty\b|teen", fragment):
            return None
        if template not in _COUNTED_TEMPLATES and _QUANTITY_ONLY_RE.fullmatch(fragment):
            return None
        if template == "User has {f}" and groups["k"] and _QUANTITY_ONLY_RE.fullmatch(fragment):
            return None  # "Any kids?" → "Only one": one what, said how, is the question's, not a fact to store
        fragment = _HEDGE_RE.sub(lambda w: w.group(0).lower(), fragment)  # "Mostly mysteries" → "User reads mostly …"
        if template == "User enjoys {f}" and _LEADING_VERB_RE.match(fragment):
            return said, to_third_person_en(f"I {fragment[:1].lower()}{fragment[1:]}")
        template, fragment = _reframed(template, fragment)
        verb = ""
        if groups.get("v"):
            head, _, particle = groups["v"].lower().partition(" ")
            verb = f"{conjugate(head)} {particle}".strip()
        if template.endswith(" {f}") and template.split()[-2] in ("in", "at", "from"):
            fragment = re.sub(rf"^{template.split()[-2]}\s+", "", fragment, flags=re.I)  # "In california" → "lives in california"
        fragment = re.sub(r"^(?:A|An|The)\b", lambda w: w.group(0).lower(), fragment)  # "A small town in Ohio"
        statement = template.format(f=to_third_person_en(fragment), k=(groups.get("k") or "").replace("your", "their"), v=verb)
        return said, re.sub(r"\s+", " ", statement).strip()
    return None


# "Me too!" / "Same here" after the assistant said something about itself: the user says it of themself.
ECHO_RE = re.compile(r"^\W*(?P<echo>me too|same here|so do i|i do too|i am too|i'm the same|same for me)\b", re.I)


def echoed_statement(previous: str) -> str | None:
    spans = sentences(previous[-400:])
    for s_start, s_end in reversed(spans):
        sentence = previous[-400:][s_start:s_end]
        if sentence.rstrip().endswith("?"):
            continue
        quote = en.en_clause(sentence, sentence=sentence.strip())
        if quote and not sensitive_category(sentence):
            return en.en_statement(quote)
    return None


# "What is your favorite season?" → "Mine is winter!"; "… are my idea of a good saturday." → "Mine is a
# bottle of wine"; "Yellow is mine." The "mine" stands for the last "your X" / "my X" said before it.
_MINE_RE = re.compile(
    r"^\W*(?:(?:well|oh|haha|lol|ha|and|hmm)[\s,!.]+)?(?:mine(?:'s|’s| is| are| was| would be| has to be| will be)\s+"
    r"(?P<x>[^.!?;]{1,60}?)|(?P<y>[A-Za-z][^.!?;,]{0,40}?)\s+(?:is|are) mine(?: too| as well)?)\s*[.!…]*$",
    re.IGNORECASE,
)
_WHOSE_RE = re.compile(
    r"\b(?:your|my)\s+(?P<k>(?!(?:own|very|first|best)\b)[a-z]+(?:\s+(?!(?:is|are|was|were|and|but|so|too|then|mine|"
    r"yours|because|right|now|though)\b)[a-z]+){0,4})",
    re.IGNORECASE,
)


# "Mine is fine", "Mine is pretty busy": how it is, not what it is.
_SAYS_HOW_RE = re.compile(
    r"(?:fine|good|great|ok|okay|nice|cool|similar|different|(?:the )?same|better|worse|bad|boring|awful|terrible|"
    r"busy|too|also|pretty|really|very|not|no|so|kind of|sort of|a lot|much|way|even|just|probably|gone|done|over|"
    r"broken|dead)\b",
    re.IGNORECASE,
)


def mine_statement(sentence: str, *, before: str) -> tuple[str, str] | None:
    """(quote, statement) for "Mine is X" read against the "your / my K" before it, or None."""
    sentence = _ASK_BACK_RE.sub("", sentence.strip())  # "Mine is currently white, you?"
    m = _MINE_RE.match(sentence)
    if not m:
        return None
    said = (m.group("x") or m.group("y") or "").strip(" ,")
    owned = list(_WHOSE_RE.finditer(before[-300:]))
    if not said or not owned or _FRAGMENT_REJECT_RE.search(said.split()[0]) or _SAYS_HOW_RE.match(said):
        return None
    kind = owned[-1].group("k").lower()
    if re.fullmatch(r"(?:favou?rite|fave|fav)s?", kind) or sensitive_category(f"my {kind} is {said}"):
        return None
    return sentence.rstrip(" .!…"), f"User's {kind} is {to_third_person_en(said)}"


BARE_NEGATIVE_RE = re.compile(r"\b(?:no|nope|nah|not|never)\b|n't", re.IGNORECASE)
# What the asker adds about the asking, not about the user: "… like me?", "… by chance?", "… at all?"
ASKED_TAIL_RE = re.compile(r"(?:,?\s+(?:like me|like I do|by (?:any )?chance|at all|then|too|as well|either|yet|now|"
                            r"these days|right now))+\s*$", re.IGNORECASE)


# "How old are your kids?" → "Mia is 7 and Leo just turned 4": each child named with their age.
_AGES_ASKED_RE = re.compile(r"\bhow old (?:are|is) your (?P<k>kids|children|sons|daughters|boys|girls|grandkids|grandchildren|"
                            r"dogs|cats|pets|kid|son|daughter|dog|cat)\b", re.I)
_NAMED_AGE_RE = re.compile(r"\b(?P<name>(?!I\b)[A-Z][a-z]+) (?:is|'s|’s|just turned|turned|is turning|will be|is almost) "
                           r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b(?: (?:years|months) old)?")
_ONE_OF = {"kids": "kid", "children": "child", "grandkids": "grandkid", "grandchildren": "grandchild"}


def named_ages(sentence: str, *, asked: str) -> list[tuple[str, str]]:
    """(quote, statement) for each child or pet named with an age in answer to "How old are your …?"."""
    m = _AGES_ASKED_RE.search(asked)
    if not m:
        return []
    kind = m.group("k").lower()
    one = _ONE_OF.get(kind) or (kind[:-1] if kind.endswith("s") else kind)
    return [(a.group(0), f"User's {one} {a.group('name')} is {a.group('n')}") for a in _NAMED_AGE_RE.finditer(sentence)]

