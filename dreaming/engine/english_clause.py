"""Readings of one English clause of a user turn: (quote, statement, borrowed_from_a_question).

extract.py splits a turn into sentences and clauses; this module says what one clause discloses. The
readings are tried from the most to the least specific: a short answer to the assistant's wh-question,
"they …" / "them" naming a group the user spoke of, "we have …", a dropped "I" ("Just got home from
work"), a second verb sharing the sentence's "I", a short answer to a yes/no question, "X is my
favourite", a plain first-person clause.
"""
from __future__ import annotations

import re

from dreaming.engine import answers
from dreaming.engine import english as en
from dreaming.engine.language import content_tokens
from dreaming.engine import english_sentences as es
from dreaming.engine.dropped_subjects import dropped_subject_reading
from dreaming.engine.go_activities import outing_habit
from dreaming.engine.hopes import doubted_before, hoped_or_to_come
from dreaming.engine.third_person import conjugate, to_third_person_en
from dreaming.engine.we_are import our_reading, we_are_reading


# A first-person clause run on without a comma: "Hi I am amy I hate clowns", "I like animals I have two cats", "my name
# is john im a teacher" (chat spelling: "im", "iam"). Not the
# "I" of a relative clause ("a cafe I eat at", "the band I like"), of a clause a verb or a conjunction opens ("I wish
# I could", "so hungry I could eat"), of an inversion ("had I not") or of a tag ("not very glamorous I know").
_RUN_ON_I_RE = re.compile(
    r"(?<=[a-z0-9])\s+(?=(?:I|I'm|I’m|I've|I’ve|[Ii]am|[Ii]m)\s+(?!(?:know|guess|think|mean|bet|suppose|swear|hope|believe|said|say|"
    r"not)\b)[a-z])"
)
_RUN_ON_MODAL_RE = re.compile(r"\S+\s+(?:could|would|should|can|will|might|must)\b")
# The run-on "I" opens a clause complete with its object, so it cannot be a relative clause whose object is the noun
# before it ("on the heavy side I eat to much", "in 3rd grade I can never do nothing"; not "the book I read").
_OWN_OBJECT_AFTER_RE = re.compile(
    r"(?:I|i)\s+(?:(?:really|also|just|never|always|usually|still|often|can|can't|cannot|could|will|won't|would|do|"
    r"don't|did|didn't|not|get|got)\s+){0,3}[a-z']+\s+(?:a|an|the|my|it|them|him|her|me|myself|lots|alot|a lot|too|"
    r"to much|so much|some|nothing|anything|something|everything|every|all|no|two|three|four|five|\d+|"
    r"(?P<prep>at|in|on|for|from)\s+(?:a|an|the|my|\d+|[A-Z]))\b"
    r"|(?:I'm|I’m|[Ii]m|I am|[Ii]am)\s+(?:a|an|in|from|\d+|[a-z]+ing)\b",
)
# A time, a place, a reason or a way before the "I" is what the clause after it is about ("the day I met her").
_ADVERBIAL_HEADS = frozenset("way time times day days night year years week month moment place reason one thing things "
                             "so such too".split())
_ARTICLES = frozenset("a an the my your his her our their this that these those some any every each another".split())
_SUBORDINATORS = frozenset("if unless because cause since when whenever while after before until else as though".split())
_RUN_ON_NOT_AFTER = frozenset(
    """and but or so that when where while if because cause since as what which who whom how why until till before
    after than like though although unless whether once think guess hope wish know believe say said says bet mean
    feel suppose wonder swear sure glad happy sad afraid remember forget forgot realize realized noticed heard hear
    see saw understand agree thought knew figured had do did does am was were can could would should will is are be
    been have has all everything anything something nothing way time day thing things place one ones reason much more
    most only ever also just really even probably maybe here there whatever wherever whenever then everytime admit
    tell told promise imagine doubt assume expect nor""".split()
)
# A determiner or a preposition shortly before the "I" opens the noun phrase a relative clause is about ("a cafe I eat
# at", "for guests I have never met").
_RUN_ON_DETERMINERS = frozenset("a an the my your his her our their this that these those some any every each no another "
                                "favorite so such too for of to with from about in on at by into over under".split())


_FIRST_PERSON_BEFORE_RE = re.compile(r"\b(?:i|i'm|i’m|im|my|me)\b")


def _runs_on(text: str, m: re.Match) -> bool:
    said_before = re.split(r"[.!?,;:]", text[: m.start()])[-1].lower()  # lower case: the run-on "I" is the first one
    before = said_before.split()
    # the words before are a first-person clause of their own ("Last Friday I went…" is one clause)
    after = text[m.end() : m.end() + 80]
    # "If I save enough I can buy it", "be nice or else I will dump him": the clause before is not a statement
    own = _OWN_OBJECT_AFTER_RE.match(after)
    # a place after the verb is no object: "the song I sang at my wedding" is about the song
    own_object = bool(own) and not _ADVERBIAL_HEADS & set(before[-3:]) and not _SUBORDINATORS & set(before) \
        and not (own.group("prep") and _ARTICLES & set(before[-3:]))
    if _RUN_ON_MODAL_RE.match(after) and not own_object:
        return False  # "so hungry I could eat", "the best I can"
    return len(before) >= 2 and bool(_FIRST_PERSON_BEFORE_RE.search(said_before)) and before[-1] not in _RUN_ON_NOT_AFTER \
        and (own_object or not _RUN_ON_DETERMINERS & set(before[-3:]) and not en.late_i_says_nothing(f"{said_before} {after}"))


# "I'm vegetarian, no mushrooms please": the request after the comma is its own clause, so the disclosure
# before it is not read as part of a request.
_REQUEST_TAIL_RE = re.compile(r"\s*,\s*(?=(?:(?:and|but|so)\s+)?(?:please|pls|can you|could you|would you)\b"
                              r"|(?:no|not|without|nothing with|hold the)\s+[\w' -]{1,30}?,?\s+(?:please|pls|thanks)\b)",
                              re.IGNORECASE)


# "I got a puppy on Sunday, we named him Rocky": the naming is its own clause (es.pronoun_name reads it with the pet).
_NAMING_TAIL_RE = re.compile(r"\s*[,;]\s*(?=(?:and\s+)?(?:[Ww]e|I) (?:named|called) (?:her|him|it) [A-Z])")


# "she loves climbing, we go bouldering most weekends": a "we" after a clause a pronoun opens is a clause of its own
# (not after "On Sunday," or "I love it,"; "my wife loves hiking, we go …" is read with the wife, resolve.tidy_en).
_WE_AFTER_COMMA_RE = re.compile(r"\s*,\s*(?=(?:(?:and|so|now)\s+)?[Ww]e\b)")
_ANOTHER_OPENS_RE = re.compile(r"^(?:(?:oh|well|yeah|yes|lol|btw|and|but|so)\s+)*(?:he|she|they)\s+"
                               r"(?:[a-z]+\s+)?(?:loves?|likes?|enjoys?|is|was|has|got|gets|wanted|wants|started|found)\b",
                               re.IGNORECASE)


def _we_after_another(text: str, m: re.Match, start: int) -> bool:
    piece = re.split(r"[.!?,;:]", text[start : m.start()])[-1].strip()
    return bool(_ANOTHER_OPENS_RE.match(piece))


class _ClauseSplitter:
    """EN_CLAUSE_SPLIT_RE's separators, where a first-person clause runs on without one (_RUN_ON_I_RE), where a
    request follows a comma (_REQUEST_TAIL_RE) and where a pet or child is named after one (_NAMING_TAIL_RE)."""

    def finditer(self, text: str, start: int, end: int) -> list[re.Match]:
        found = list(en.EN_CLAUSE_SPLIT_RE.finditer(text, start, end))
        found += list(_REQUEST_TAIL_RE.finditer(text, start, end))
        found += list(_NAMING_TAIL_RE.finditer(text, start, end))
        found += [m for m in _RUN_ON_I_RE.finditer(text, start, end) if _runs_on(text, m)]
        found += [m for m in _WE_AFTER_COMMA_RE.finditer(text, start, end) if _we_after_another(text, m, start)]
        return sorted(found, key=lambda m: m.start())


CLAUSE_SPLITTER = _ClauseSplitter()

# "After finishing my screenplay I got a rejection letter", "When I was younger, we had money problems": the
# main clause after a subordinate opening says what happened. (A sentence ending in a subordinate tail is cut by
# clause_tails.EN_TAIL_RE instead.)
_SUBORDINATE_OPENING_RE = re.compile(
    r"(?:[A-Z][a-z]+,\s+|(?:oh|well|yeah|yes|so|and|but|then|also|anyway),?\s+)?"
    r"(?P<sub>(?:(?:especially|right|just|even|ever|only)\s+)?(?:after|when|once|since|before|while|as soon as)\s+"
    r"(?P<body>[^,;?]{3,80}?))"
    # without a comma only "I" can open the main clause ("after finishing my screenplay I got …")
    r"(?:\s*,\s*(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll|my|My|we|We|we've|we’ve|we're|we’re)\b)"
    r"|\s+(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll)\s))",
    re.IGNORECASE,
)
# The subordinate clause is itself news when it is a first-person deed: "after I failed the test recently, …".
_SUBORDINATE_DEED_RE = re.compile(r"(?:I|i)\s+(?:(?:just|recently|finally)\s+)?(?!was\b|were\b|had been\b)[a-z]{2,}ed\b|"
                                  r"(?:I|i)\s+(?:(?:just|recently|finally)\s+)?(?:got|went|won|lost|met|made|took|saw|"
                                  r"left|quit|began|ran|wrote|bought|found|gave|sold|built|drove|flew)\b")
# "when I was younger" / "when I was a kid": when the main clause happened, kept in its statement.
_CHILDHOOD_RE = re.compile(r"when (?:I|i) was (?P<x>younger|little|young|a kid|a child|a teenager|a teen|a boy|a girl|"
                           r"growing up|in (?:high school|middle school|college|school)|\d{1,2}|eight|nine|ten|eleven|twelve)$",
                           re.IGNORECASE)


_SUBORDINATE_ONLY_RE = re.compile(
    r"(?:[A-Z][a-z]+,\s+|(?:oh|well|yeah|yes|so|and|but|then|also|anyway),?\s+)?"
    r"(?P<sub>(?:(?:especially|right|just|even|ever|only)\s+)?(?:after|when|once|since|before|while|as soon as)\s+"
    r"(?P<body>[^,;?]{3,80}?))[\s,]*$",
    re.IGNORECASE,
)


def subordinate_split(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, end, suffix) clauses: a piece opening with "after …" / "when …" is split before its main clause
    (or, split off by a comma already, is only the subordinate part); the subordinate part stays only when it
    is a first-person deed; suffix is "when they were younger" for a main clause about the user's childhood."""
    out, carried = [], ""
    for start, end in pieces:
        m = _SUBORDINATE_OPENING_RE.match(text, start, end)
        if not m or m.end() >= end:
            m = _SUBORDINATE_ONLY_RE.match(text, start, end)
            if not m:
                out.append((start, end, carried))
                carried = ""
                continue
        if _SUBORDINATE_DEED_RE.match(text, m.start("body"), m.end("body")):
            out.append((m.start("body"), m.end("body"), ""))
        childhood = _CHILDHOOD_RE.search(m.group("sub"))
        suffix = f" when they were {childhood.group('x').lower()}" if childhood else ""
        if m.end() < end and m.re is _SUBORDINATE_OPENING_RE:
            out.append((m.end(), end, suffix))
            carried = ""
        else:
            carried = suffix  # the main clause is the next piece
    return out


# "We have a dog and a cat" / "We live in Ohio": the user's household.
WE_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e've|[Ww]e’ve)\s+(?:(?:also|still|just|recently|now)\s+)?"
    r"(?:(?P<verb>live|lived|moved|rent)\b(?P<rest>.*)|(?P<verb2>have|own|bought|adopted|got|raise)\b"
    r"(?P<rest2>.*\b(?:kids?|children|sons?|daughters?|boys|girls|babies|baby|twins|triplets|teens|teenagers|toddlers?|"
    r"grandkids|grandchildren|dogs?|cats?|pets?|puppy|puppies|kittens?|horses?|chickens|goats|cows|"
    r"house|home|apartment|flat|farm|garden|cabin|boat|car|cars|truck)\b.*))$"
)

_OWN_CHILDREN_RE = re.compile(r"^ (?:a|an|one|two|three|four|five|six|\d+)(?: (?:little|young|grown|grown-up|adult|teenage|"
                              r"beautiful|wonderful|amazing))? (?:kids?|children|child|sons?|daughters?|boys|girls|twins|triplets|teens|teenagers|"
                              r"babies|baby (?:boy|girl))\b")

# "We explored the old town", "we went to the beach recently": something the user did with others (it is
# still something the user did). Only past activities: "we think", "we should", "we are" say nothing lasting.
WE_DID_RE = re.compile(
    r"^(?:[Ww]e)\s+(?:(?:also|just|recently|finally|even|all)\s+)?(?P<verb>went|explored|visited|tried|made|took|watched|"
    r"played|spent|celebrated|threw|hosted|saw|finished|camped|hiked|travel(?:l)?ed|toured|baked|cooked|built|painted|"
    r"ran|won|volunteered|attended|climbed|planted|adopted|drove|flew|swam|had|did|held|organized|organised|raised|"
    r"worked|performed|danced|donated|roasted|launched|opened|started|put on|put together|got to)\b(?P<rest>.+)$"
)

# "We're putting together a talent show next month", "we're considering adopting a rescue dog": the
# user's plans, made with others.
WE_PLAN_RE = re.compile(
    r"^(?:[Ww]e(?:'re|’re| are))\s+(?:(?:also|now|still|finally|even)\s+)?(?P<verb>putting together|planning|considering|"
    r"thinking about|thinking of|going to|hoping to|organizing|organising|hosting|adopting|starting|opening|launching|"
    r"building|renovating|saving up for|saving for|moving|getting|expecting|trying to|flying|driving to|heading to|"
    r"traveling|travelling|visiting)\b(?P<rest>.+)$"
)

# "We develop apps for dentists", "we sell handmade soap on Etsy": the work the user does with their company or
# team (the user is one of "we", as in "we went").
WE_WORK_RE = re.compile(
    r"^(?:[Ww]e)\s+(?:(?:also|now|currently|mainly|mostly|only|still|already)\s+)?(?P<verb>run|own|sell|make|develop|"
    r"build|offer|provide|produce|manufacture|ship|export|import|operate|manage|teach|design|deliver|supply|"
    r"distribute|serve|specialize in|specialise in|work (?:with|on|in|for|at))\b(?P<rest>.+)$"
)
# "We make a great team", "we make a difference": an idiom, not the work.
_NOT_WORK_RE = re.compile(r"^\s*(?:(?:an?|the|some|such)\s+)?(?:[\w-]+\s+)?(?:team|pair|couple|duo|difference|decision|"
                          r"choice|mistake|plan|effort|point|sense|progress|friends)\b", re.I)
# "Our company sells solar panels in Kenya": what the user's company or team is and does.
OUR_RE = re.compile(
    r"^[Oo]ur (?P<noun>(?:[\w-]+ ){0,2}?(?:company|business|startup|shop|store|team|school|restaurant|bakery|agency|"
    r"studio|clinic|brand|organi[sz]ation|firm|product|app|website|platform|department|lab|university|college|"
    r"factory|farm|charity|club|project))\s+(?P<rest>(?:is|are|was|has|have|sells|makes|offers|provides|develops|builds|"
    r"runs|ships|specializes|specialises|works|helps|operates|produces|serves|exports|imports|focuses|employs)\b.+)$"
)

# "We always look forward to our family camping trip", "We love painting together": what the user's
# household does and likes.
WE_LIKE_RE = re.compile(
    r"^(?:[Ww]e)\s+(?:(?:all|both|really|always|usually|also|just|still|often)\s+)*(?P<verb>love|like|enjoy|adore|"
    r"look forward to|go|visit|play|watch|cook|bake|hike|camp|travel|volunteer)\b(?P<rest>.+)$"
)


# "Big country music fan here", "65 here": the user describing themself without a verb.
HERE_RE = re.compile(
    r"^(?P<x>(?:(?:a|an|just a|just an)\s+)?(?:[\w'-]+\s+){0,3}(?:fan|lover|person|guy|girl|boy|gal|man|woman|mom|"
    r"dad|mother|father|grandma|grandpa|student|nurse|teacher|veteran|vet|nerd|geek|introvert|extrovert|"
    r"homebody|foodie|gamer|runner|reader|writer|artist|musician|engineer|programmer|\d{1,3}))\s+here\b",
    re.IGNORECASE,
)


# A greeting, thanks or yes / no and then a bare name: the name is the other side's ("Yep, John!"), not an answer.
VOCATIVE_RE = re.compile(
    r"^\W*(?:thanks|thank you|thx|hi|hey|hello|wow|congrats|congratulations|aw+|oh|yes|yeah|yep|yup|yea|no|nope|nah|"
    r"sure|ok|okay|right|exactly|absolutely|definitely|totally|true|indeed|of course|haha|lol|sorry),?\s+"
    r"(?-i:[A-Z][a-z]+)\W*$", re.IGNORECASE,
)


_THEY_RE = re.compile(r"^(?P<they>They(?P<aux>'re|’re|'ve|’ve)?)\s+(?=[a-z])")


def _they_reading(clause: str, *, they: str) -> tuple[str, str, bool] | None:
    """"They were scared" after "How did the kids handle it?" → "User's kids were scared"."""
    m = _THEY_RE.match(clause)
    if not m:
        return None
    aux = {"'re": " are", "’re": " are", "'ve": " have", "’ve": " have"}.get(m.group("aux") or "", "")
    head = f"My {they}{aux}"
    read = en.en_clause(head + clause[len(m.group("they")):], sentence=clause)
    if not read or len(read) <= len(head) + 1:
        return None
    quote = clause[: len(m.group("they")) + len(read) - len(head)]
    return quote, en.en_statement(read), False


_COMPANION_RE = re.compile(r"(?:[Mm]y|[Oo]ur)\s+(?P<who>(?:[\w'-]+\s+){0,2}?[\w'-]+)")
_PLURAL_VERB = {"is": "are", "was": "were", "has": "have"}


def together_reading(text: str, *, companion: tuple[int, int], start: int, quote: str, statement: str) -> tuple[str, str] | None:
    """"My mom and I made dinner last night" → ("My mom and I made dinner last night", "User and their mom made
    dinner …"): the clause split at "and I" would lose who the user did it with."""
    c_start, c_end = companion
    head = en.LEAD_FILLER_RE.sub("", text[c_start:c_end])
    m = _COMPANION_RE.fullmatch(head)
    said = text[start:]
    if not m or not re.fullmatch(r"\s+and\s+", text[c_end:start]) or not said.startswith(quote) or not quote.startswith("I"):
        return None
    if re.search(r"\b(?:name|is|are|was|were|has|have|had)\b", m.group("who")):
        return None  # "My name is Ahmed and I'm a developer": a clause of its own, not who the user did it with
    verb = re.match(r"^User (\w+)\b", statement)
    if not verb or (verb.group(1).endswith("s") and verb.group(1) not in _PLURAL_VERB):
        return None  # "User and their mom loves …" would not read; the plain clause is kept instead
    rest = statement[verb.end():]
    whole = text[c_end - len(head) : start + len(quote)]
    return whole, f"User and their {m.group('who')} {_PLURAL_VERB.get(verb.group(1), verb.group(1))}{rest}"


def _them_reading(clause: str, *, sentence: str, they: str) -> tuple[str, str, bool] | None:
    """"I also like holding them" after "How are your turtles?" → "User likes holding their turtles"."""
    m = re.search(r"\bthem\b", clause)
    if not m or not re.match(r"^(?:I|i)\s", en.LEAD_FILLER_RE.sub("", clause)):
        return None
    named = f"my {they}"
    read = en.en_clause(clause[: m.start()] + named + clause[m.end():], sentence=sentence)
    if not read or not read.endswith(named) and named not in read:
        return None
    offset = len(clause) - len(en.LEAD_FILLER_RE.sub("", clause))
    quote = clause[offset : offset + len(read) - len(named) + len("them")]
    return quote, en.en_statement(read), False


def favourite(text: str) -> tuple[str, str, bool] | None:
    """"Pizza is my favorite food" → "User's favorite food is Pizza" (quote, statement, borrowed)."""
    m = answers.FAVOURITE_RE.match(text.strip())
    if not m:
        return None
    # "This trilogy is one of my faves" names its thing ("the trilogy"); a bare "This is my favorite" does not.
    x = re.sub(r"^(?:this|that)\s+(?=[a-z]{3,})", "the ", m.group("x").strip(), flags=re.I)
    if (
        re.match(r"^(?:it|that|this|they|those|these|he|she|I|i|my|here|there|what|which|who)\b", x, re.I)
        # "…have you ever seen X, it's my favorite": the favourite is an "it" inside a question
        or re.search(r"\b(?:you|your|it|that|this|they|he|she)$|\b(?:you|your)\b", x, re.I)
    ):
        return None
    kind = f" {m.group('k')}" if m.group("k") else ""
    if m.group("one"):
        return m.group(0), f"{x[:1].upper() + x[1:]} is one of User's favorite{kind or 's'}", False
    return m.group(0), f"User's favorite{kind} is {x}", False


def _says_something(rest: str) -> bool:
    """"… a rescue dog" does, "… it" / "… that" / "… there" does not."""
    return bool([w for w in content_tokens(rest) if w not in en.PRONOUN_ONLY])


EMPTY_STATEMENT_RE = re.compile(r"^User (?:goes|does|has|gets|makes|takes|is|was|did|had|can't|can|will|works|tries|knows)$"
                                 # "I have 6 weeks until my driving test" once "until …" was cut: time for nothing
                                 r"|^User (?:has|had) (?:\d+|a few|a couple of|two|three|four|five|six|seven|eight|nine|ten) "
                                 r"(?:minutes|hours|days|weeks|months|years)(?: left)?$"
                                 # "I want to but …" once the rest of the sentence was taken out: "User wants to"
                                 r"|^User (?:[\w']+ ){1,3}to$")


_NAMED_PRONOUN_RE = re.compile(r"(?:I|[Ww]e)\s+(?:named|called)\s+(?:him|her|it)\s+[A-Z]")
_ANSWERS_NO_RE = re.compile(r"\W*(?:no|nope|nah|not really|never)\b", re.IGNORECASE)


# A wish or a plan with its infinitive before "and": the next bare verb is wished or planned too.
_WISHED_BEFORE_RE = re.compile(
    r"\b(?:want|wants|wanted|wanna|need|needs|hope|hoping|plan|plans|planning|going|gonna|would like|'d like|’d like|"
    r"have|has|wish|dream|decided|ready|about)\s+(?:\w+\s+){0,2}?to\s+\w+[^,;.!?]*\b(?:and|or)\s+$",
    re.IGNORECASE,
)
_BASE_VERB_RE = re.compile(
    r"^(?:(?:also|maybe|then|finally|eventually)\s+)?(?:have|love|like|enjoy|play|watch|read|work|live|own|go|do|take|spend|"
    r"make|cook|bake|write|run|ride|drive|teach|study|collect|sing|dance|draw|paint|travel|hike|swim|fish|hunt|volunteer|"
    r"start|open|buy|move|get|become|learn|visit|see|find|build)\b",
    re.IGNORECASE,
)
# "my wife divorced me and took the kids": the verb after "and" is the wife's, the subject of the piece before it.
_OTHER_SUBJECT_PIECE_RE = re.compile(r"^(?:(?:and|but|so|then|because|since|when|while)\s+)?(?:(?:my|our|his|her|their)\s+"
                                     r"\w+|he|she|they|it)\b(?![^,;:]*\b(?:I|and I)\b)", re.IGNORECASE)


def _another_subject_before(sentence: str, clause: str) -> bool:
    """Does the piece of the sentence just before this subjectless clause have a subject other than the user?"""
    piece = re.split(r"[,;:]|\s[-–—]\s", sentence[: max(0, sentence.find(clause))])[-1]
    return bool(_OTHER_SUBJECT_PIECE_RE.match(en.LEAD_FILLER_RE.sub("", piece.strip())))


def _implicit_subject_reading(clause: str, *, sentence: str) -> tuple[str, str, bool] | None:
    """"… and go hiking on weekends" after the sentence's "I": the clause's "I" is the one before."""
    if _WISHED_BEFORE_RE.search(sentence[: max(0, sentence.find(clause))]) and _BASE_VERB_RE.match(clause):
        return None  # "I want to finish school and go to college": the going is wished, not done
    if _another_subject_before(sentence, clause):
        return None
    implicit = en.en_clause("I " + clause, sentence=sentence)
    return (implicit[2:], en.en_statement(implicit), False) if implicit else None


def english_reading(
    clause: str, *, sentence: str, at_sentence_start: bool, first_sentence: bool, starts_first_person: bool,
    question: tuple[str, str] | None, previous_assistant: str | None, they: str | None = None,
) -> tuple[str, str, bool] | None:
    """(quote, statement, borrowed_from_a_question) for one English clause, or None (the order: see the module)."""
    bare = en.LEAD_FILLER_RE.sub("", clause)
    if _NAMED_PRONOUN_RE.match(bare):
        return None  # "I named him Pixel": es.pronoun_name reads it with the pet or child it names, or not at all
    # "Thanks, Mel!" names the other side; it answers nothing.
    # "No pets." after "Any pets?": the "no" the fillers strip is the answer, not a lead-in to "pets".
    if first_sentence and at_sentence_start and not VOCATIVE_RE.match(sentence) and not _ANSWERS_NO_RE.match(sentence):
        fragment = en.LEAD_FILLER_RE.sub("", sentence)
        answer = answers.answer_to_wh_question(fragment, previous_assistant)
        if answer:
            return answer[0], answer[1], True
    if they and at_sentence_start and not sentence.endswith("?"):
        reading = _they_reading(bare, they=they)
        if reading:
            return reading
    reading = _we_reading(bare, clause=clause, asked=previous_assistant if first_sentence else None) or \
        we_are_reading(en.cut_tail(bare).rstrip(" ,;:-.!"), whole=bare.rstrip(" ,;:-.!")) or our_reading(clause, sentence=sentence)
    if reading or WE_RE.match(bare):  # a "we have …" that says nothing is not read as anything else
        return reading
    if at_sentence_start and en.PRO_DROP_RE.match(bare):
        return dropped_subject_reading(bare, sentence=sentence)
    if not at_sentence_start and starts_first_person and en.IMPLICIT_SUBJECT_RE.match(clause):
        return _implicit_subject_reading(clause, sentence=sentence)
    bare = bare.rstrip(" .!…")
    resolved = answers.resolve_answer(bare, question)
    if resolved:
        return bare, resolved, True
    liked = favourite(bare) or favourite(bare.split(",")[0])
    if liked:
        return liked
    here = HERE_RE.match(bare) if at_sentence_start else None
    if here:
        described = re.sub(r"^(?:just\s+)?(?:a|an)\s+", "", here.group("x"), flags=re.I)
        article = "" if described[:1].isdigit() else ("an " if described[:1].lower() in "aeiou" else "a ")
        return here.group(0), f"User is {article}{described}", False
    if not sentence.endswith("?") and not re.match(r"^(?:I|i)\b", bare):
        value = es.value_statement(bare) or es.to_me_statement(bare)
        if value:
            return value[0], value[1], False
    said_before = sentence[: max(0, sentence.find(clause))]
    if doubted_before(said_before):
        return None  # "Don't feel like I'm making much of an impact": the opposite of what the clause says
    if not_yet := hoped_or_to_come(clause, said_before=said_before, sentence=sentence):
        return not_yet[0], not_yet[1], False
    quote = en.en_clause(clause, sentence=sentence)
    if not quote and they:
        return _them_reading(clause, sentence=sentence, they=they)
    if not quote:
        return None
    statement = en.habit_statement(quote) or outing_habit(quote) or en.en_statement(quote)
    if EMPTY_STATEMENT_RE.match(statement):
        return None  # "I go all the time" → "User goes": nothing left once the fillers are gone
    return quote, statement, False


# "What do you and your family do there?", "What do you enjoy doing with your kids?": whom the answer's "we" takes in.
_ASKED_TOGETHER_RE = re.compile(
    r"\b(?:you and (?:your|ur)|with (?:your|ur)) (?P<who>(?:(?:whole|little|two|older|younger) )?(?:family|fam|kids|"
    r"children|wife|husband|partner|boyfriend|girlfriend|friends|parents|sons|daughters|son|daughter|sister|brother|"
    r"mom|dad|team|crew|family members))\b[^.!?]*\?", re.IGNORECASE)


def _with_the_asked(said: str, statement: str, *, asked: str | None) -> str:
    """"We love climbing" to "What do you and your family do?" → "User and their family love climbing": the others
    of "we" are the ones the question named. The verb stays as "we" said it (plural). Only a short answer opening the
    reply: verify lets a statement take words from the question for such an answer only (quotes.answer_unsupported)."""
    m = _ASKED_TOGETHER_RE.search((asked or "")[-300:])
    if len(said.split()) > 12:
        return statement
    verb = re.match(r"^[Ww]e\s+(?:(?:all|both|really|always|usually|also|just|still|often|even|recently|finally)\s+)*(\w+)", said)
    if not m or not verb or not statement.startswith("User "):
        return statement
    rest = statement[len("User "):].split(" ", 1)
    return f"User and their {m.group('who').lower()} {verb.group(1)}{' ' + rest[1] if len(rest) > 1 else ''}"


def _we_reading(bare: str, *, clause: str, asked: str | None = None) -> tuple[str, str, bool] | None:
    """"We have two dogs" → "User's household has two dogs"; "we went / are moving / love / sell …" → "User …"
    ("User and their family …" when the question asked about the user and their family);
    "Our company sells …" → "User's company sells …"."""
    said = en.cut_tail(bare).rstrip(" ,;:-.!")
    if en.EN_HYPOTHETICAL_RE.search(clause):
        return None
    if WE_RE.match(bare):
        we = WE_RE.match(said)
        rest = (we.group("rest") or we.group("rest2") or "") if we else ""
        if not we or not content_tokens(rest):
            return None
        verb = we.group("verb") or we.group("verb2")
        verb = {"have": "has", "own": "owns", "live": "lives", "raise": "raises", "rent": "rents"}.get(verb, verb)
        rest = re.sub(r"\bour\b", "their", to_third_person_en(en.trailing_dropped(rest)))  # "We just bought our first home"
        # a couple's children are each parent's: "We have two kids" → "User has two kids"
        subject = "User" if verb in ("has", "raises") and _OWN_CHILDREN_RE.match(rest) else "User's household"
        return we.group(0), f"{subject} {verb}{rest}", False
    we_did = WE_DID_RE.match(said)
    if we_did and content_tokens(we_did.group("rest")):
        rest = re.sub(r"\bour\b", "their", to_third_person_en(en.trailing_dropped(we_did.group("rest"))))  # "with our kids"
        return we_did.group(0), _with_the_asked(said, f"User {we_did.group('verb')}{rest}", asked=asked), False
    for work_re, subject in ((WE_WORK_RE, "User "), (OUR_RE, "User's ")):
        work = work_re.match(said)
        rest = work and work.group("rest")
        # "we serve them sometimes" says what the user does to something said before: not a fact on its own
        if rest and _says_something(rest) and not re.match(r"\s*(?:them|it|those|these|that|this|one)\b", rest, re.I) \
                and not (work_re is WE_WORK_RE and _NOT_WORK_RE.match(rest)):
            rest = re.sub(r"\bour\b", "their", to_third_person_en(en.trailing_dropped(rest)))
            verb, _, particle = (work.group("verb") if work_re is WE_WORK_RE else "").partition(" ")
            head = f"{conjugate(verb)}{' ' + particle if particle else ''}" if verb else work.group("noun")
            return work.group(0), f"{subject}{head} {rest.strip()}", False
    we_plan = WE_PLAN_RE.match(said)
    if we_plan and _says_something(we_plan.group("rest")):
        rest = re.sub(r"\bour\b", "their", to_third_person_en(en.trailing_dropped(we_plan.group("rest"))))
        return we_plan.group(0), f"User is {we_plan.group('verb')}{rest}", False
    we_like = WE_LIKE_RE.match(said)
    if we_like and _says_something(we_like.group("rest")):
        rest = re.sub(r"\bour\b", "their", to_third_person_en(en.trailing_dropped(we_like.group("rest"))))
        verb, _, particle = we_like.group("verb").partition(" ")  # "look forward to" → "looks forward to"
        statement = f"User {conjugate(verb)}{' ' + particle if particle else ''}{rest}"
        return we_like.group(0), _with_the_asked(said, statement, asked=asked), False
    return None
