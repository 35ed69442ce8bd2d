"""Who the user says they are, inside a request: "I'm a final year student at the University of Lagos,
help me choose a project topic", "As a teacher, I want…", "I have 5 years of experience as a project
manager", "i am a beginner in guitar, give me a practice plan".

The conversational rules (extract.py) read such a sentence as a whole and drop it as a request; here
a clause that opens with one of the plain self-disclosure patterns below is cut off where the request
starts and kept on its own:

- identity and role: "I'm a/an <role>", "I'm <n> years old", "I'm <nationality>", "As a <role>, I…";
- work, study, home: "I work as/at/in/for…", "I teach / study / live / run / own / manage…", "I'm from…",
  "I'm based in…", "I'm learning / studying / preparing for / applying to…";
- what they have: "I have <n> <things>" or "I have a <relative / pet / venture / degree>";
- what "my <venture>" / "my <people at work>" / "my <family or pet>" in a request or a question says they
  have: "for my Etsy shop" → "User has an Etsy shop", "an email to my clients" → "User has clients", "what
  should I feed my dog?" → "User has a dog", "for my best friend Sarah" → "User's best friend is named
  Sarah" (possessions.py reads the same in the user's statements).

Only the user's own, explicit statements: nothing after a fiction or role-play frame in the same turn
("Write a story where I'm a knight", "Act as…"), nothing hypothetical ("If I'm a student…"), no
assistant template ("As an AI…"), never a question. The statement keeps the clause's words and its
negation ("I'm not a programmer" → "User is not a programmer") and must pass the truth guard
(quotes.statement_unsupported) that verify applies after.
"""
from __future__ import annotations

import re

from dreaming.engine import english as en
from dreaming.engine.application_letters import candidacy
from dreaming.engine.categories import category_by_definition
from dreaming.engine.dates import with_date
from dreaming.engine.importance import clause_importance as _importance  # the one importance rule of the engine
from dreaming.engine.implied_pursuits import implied
from dreaming.engine.language import STOP_WORDS, sentences
from dreaming.engine.others_words import not_the_user
from dreaming.engine.own_drafts import request_of, signed_name
from dreaming.engine.own_projects import devices, own_projects
from dreaming.engine.pursuits import DOING, belongings, jobs_as, platforms, plays, schoolwork, zh_possessions
from dreaming.engine.purposes import courses, organisations, roles_beside_me
from dreaming.engine.quotes import quote_too_short, statement_unsupported
from dreaming.engine.sensitive import redact_sensitive, sensitive_category
from dreaming.engine.skills import skills
from dreaming.protocol import ExtractedCandidate, Turn

_I_AM = r"(?:I|i)\s*(?:'m|’m|\s+am\b|m\b)"
_NUMBER = r"(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|several|a few|many)"
_HAVE_NOUN = (
    r"(?:kids?|children|child|sons?|daughters?|babies|baby|twins|brothers?|sisters?|siblings?|wife|husband|partner|"
    r"boyfriend|girlfriend|fianc[ée]e?|grandchildren|grandkids|dogs?|cats?|pets?|puppy|puppies|kittens?|horses?|"
    r"parrots?|rabbits?|hamsters?|fish|years? of (?:\w+ )?experience|(?:bachelor|master|doctorate|phd|mba)\S*(?: degree)?|"
    r"degree|diploma|job|side hustle|business|shop|store|company|startup|channel|blog|website|podcast|restaurant|"
    r"bakery|salon|clinic|agency|studio|farm|band|brand|employees|staff|students|clients|customers|followers|"
    r"subscribers|car|house|apartment|garden|(?:final |midterm |entrance |driving )?exam|job interview|interview)"
)
# "I'm Nigerian": capitalised, as they are written (a lower-case "i'm french" is rare and "i'm polish" is a verb).
_NATIONALITIES = (
    "American|Canadian|Mexican|Brazilian|Argentinian|Argentine|Chilean|Colombian|Peruvian|Venezuelan|Cuban|British|"
    "English|Scottish|Welsh|Irish|French|German|Dutch|Belgian|Swiss|Austrian|Italian|Spanish|Portuguese|Greek|Turkish|"
    "Polish|Czech|Slovak|Hungarian|Romanian|Bulgarian|Serbian|Croatian|Ukrainian|Russian|Belarusian|Lithuanian|Latvian|"
    "Estonian|Finnish|Swedish|Norwegian|Danish|Icelandic|Chinese|Taiwanese|Japanese|Korean|Vietnamese|Thai|Filipino|"
    "Filipina|Indonesian|Malaysian|Singaporean|Indian|Pakistani|Bangladeshi|Sri Lankan|Nepali|Nepalese|Afghan|Iranian|"
    "Persian|Iraqi|Syrian|Lebanese|Jordanian|Palestinian|Israeli|Saudi|Emirati|Egyptian|Moroccan|Algerian|Tunisian|"
    "Nigerian|Ghanaian|Kenyan|Ethiopian|Somali|Ugandan|Tanzanian|South African|Australian|Kiwi|New Zealander|"
    "Kazakh|Uzbek|Armenian|Georgian|Azerbaijani|Mongolian"
)
# A clause that opens with one of these says who the user is (the module docstring).
_HEAD_RE = re.compile(
    rf"(?P<iam>{_I_AM}\s+(?:not\s+)?(?:an?\s+(?!bit\b|little\b|lot\b|few\b|(?:AI|bot|chatbot|assistant|language model|"
    rf"large language model)\b)|\d{{1,2}}\s*(?:years?[\s-]old|yo|y/o|yrs? old)\b|"
    rf"(?:from|based in|living in|located in|originally from|learning|studying|preparing for|training for|"
    rf"applying (?:to|for)|majoring in|enrolled in|currently (?:a|an|working|studying|learning|living)|"
    rf"in (?:my|the) (?:first|second|third|fourth|final|last|\d+(?:st|nd|rd|th)) year)\b))"
    rf"|(?P<verb>(?:I|i)\s+(?:(?:currently|also|still|now|actually)\s+)?"
    rf"(?:work(?:ed)?\s+(?:as|at|in|for|with)|teach|study|live\s+(?:in|with|near|on)|grew up|was born|"
    rf"run\s+(?:an?|my|our)|own\s+(?:an?|\d+)|manage\s+(?:an?|\d+)|majored|graduated|volunteer)\b)"
    rf"|(?P<doing>(?:{_I_AM}|(?-i:[Ww]e)(?:\s+are|'re|’re))\s+(?:(?:currently|also|still|now|actually|just)\s+)?{DOING}\s+(?!(?:it|this|that|them|these|those|"
    rf"something|anything|wrong|a mistake|mistakes|the following|an? error|fine|good|well|ok|okay|great|so|too|here|now)\b))"
    rf"|(?P<have>(?:I|i)\s+(?:have|'ve got|’ve got|own)\s+{_NUMBER}\s+(?:[\w'-]+\s+){{0,3}}?{_HAVE_NOUN}\b)"
    rf"|(?P<nation>{_I_AM}\s+(?:half[\s-])?(?-i:{_NATIONALITIES})\b)",
)
_AS_A_RE = re.compile(
    r"\b[Aa]s an? (?P<role>(?!(?:AI|bot|chatbot|assistant|language model|result|matter|reminder|example|rule|whole|"
    r"consequence|bonus|side note|note|favor|favour|gift|team|group|family|company|kid|child|teen|teenager|boy|girl|"
    r"baby|toddler|youngster|little \w+|young \w+)\b)[\w'-]+(?: [\w'-]+){0,6}?),\s*"
    r"(?P<rest>(?:I|i|my|My)\b[^.!?;\n]*"
    # "As a first time home buyer in Texas, what programs exist?" — not "As a doctor, what would you prescribe?"
    r"|(?:what|which|how|where|when|is|are|should|can|do|does|any)\b(?![^.!?;\n]*\b(?:you|your|u)\b)[^.!?;\n]*)"
)
# "As the owner of a small coffee shop, how do I…": who the user is, with what they lead.
_AS_THE_RE = re.compile(
    r"(?:^|(?<=[.!?\n]\s)|(?<=\n))\s*[Aa]s the (?P<role>(?:co-?)?(?:owner|founder|manager|head|director|ceo|CEO|president|"
    r"captain|leader|organi[sz]er|chair|principal|coach|editor|admin|administrator) of (?:an?|my|our|the) (?:[\w'-]+ ){0,4}?[\w'-]+),"
    r"(?=\s*(?:I|i|my|how|what|which|where|should|can|do|any)\b)"
)
# Where the statement about the user ends and the request starts.
_STOP_RE = re.compile(
    r"[.!?;:\n(\[\"“]|,\s|\s[-–—]\s|\s+(?:and|but|so|because|please|pls|who|which|that|whose|where|looking|trying|"
    r"wanting|hoping|can|could|would|will|need|want|while|whereas|since|though|although|except|i|I)\b"
    r"|\s+(?:'cause|’cause|cause|cuz|coz)\b"
)
# A role-play frame or a supposition before the clause: whoever "I" and "my" are there, not the user.
_ROLE_FRAME = (r"roleplay|role-play|role play|rp|scenario|pretend|imagine|act as|acting as|you are|you're|youre|"
               r"character|persona|simulat\w*|suppose|let's say|lets say|what if|as if")
_ROLE_FRAME_RE = re.compile(rf"\b(?:{_ROLE_FRAME})\b", re.IGNORECASE)
# ... and for "I am" / "I have" also a story, a poem or a script: "Write a story where I'm a knight" (a poem
# *for* my wife is still about the user's wife).
_NOT_THE_USER_RE = re.compile(
    rf"\b(?:{_ROLE_FRAME}|(?<!user )(?:story|stories)|fanfic|fan fiction|novel|chapter|scene|poem|song|lyrics|script|screenplay|"
    rf"game|narrat\w*|episode|dialogue)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL_LEAD_RE = re.compile(r"\b(?:if|when|whether|unless|once)\s*$|\b(?:if|when|whether|unless)\b[^,]*$", re.I)
_MY_VENTURE_RE = re.compile(
    r"\bmy (?!favou?rite\b|dream\b|ideal\b|future\b)((?:(?![\w-]+['’]s )(?:[A-Z][\w'-]+ |[a-z][\w'-]+ )){0,2}(?:shop|store|business|company|startup|channel|blog|website|podcast|"
    r"restaurant|bakery|salon|clinic|brand|agency|studio|farm|novel))\b(?![\w-])"
)
# "my notes for a presentation in French", "my thesis on coral reefs", "my trip to Japan": what the user is working
# on or heading to, with what it is for or about (without it, "my homework" says little).
_MY_WORK_RE = re.compile(
    r"\bmy (?P<work>(?:[\w-]+ ){0,2}?(?:notes|slides|presentation|speech|talk|research|paper|"
    r"assignment|project|report|portfolio|cover letter|cv|resume|application|interview|exam|course|trip|"
    r"wedding|app|game|book)) (?P<about>(?:for|on|about|in|at|(?:(?<=trip )|(?<=application ))to) (?:[\w'’-]+ ){0,5}?[\w'’-]+)"
    r"(?=\s*(?:[.,;:!?)\n]|$)|\s+(?:and|but|so|which|that|because|please|pls|can|could|would|will|with|i|I)\b)"
)
_MY_PEOPLE_RE = re.compile(
    r"\b(?:[Mm]y|[Oo]ur) (?P<noun>(?:new (?!to\b)|(?-i:[A-Z][a-z]+) (?=client|customer|student|patient|tenant|"
    r"roommate|flatmate|intern|colleague|coworker|co-worker)"  # "my new intern", "my Japanese client"
    # "my 5th grade students", "our ESL students", "my first-year students" (not "my fellow / future students")
    r"|(?:\d+(?:st|nd|rd|th)[ -]grade|(?:first|second|third|final)[ -]year|high school|middle school|elementary|"
    r"primary|secondary|college|university|ESL|EFL|adult|young|online|private|regular|international) (?=students|pupils|clients|patients))?"
    r"(?:customers?|clients?|students?|pupils|patients?|employees?|staff|subscribers|followers|readers|"
    r"colleagues?|coworkers?|co-workers?|team|boss|manager|supervisor|professor|advisor|landlord|landlady|tenants?|mentor|"
    r"roommates?|flatmates?|interns?))\b(?![\w-])"
)
# "a letter to my son who is in the army", "what should I feed my dog?", "for my best friend Sarah": a request or
# a question about the user's family or pet still says who they have (parents go without saying: only named).
_MY_FAMILY_RE = re.compile(
    r"\b[Mm]y (?P<noun>(?:(?:two|three|four|five|six|2|3|4|5|6)\s+(?=kids|children|sons|daughters|brothers|sisters|dogs|"
    r"cats|pupp|kittens|parrots|rabbits|hamsters|horses|grand))?"  # "with my two kids"
    r"(?:(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ -](?:years?|months?)[ -]old\s+)?"  # "my 5 year old son"
    r"(?:(?:little|younger|older|big|baby|elder|eldest|oldest|youngest|twin|best)\s+)?"
    # a pet's breed or age: "my new golden retriever puppy" (not "my late dog": no longer had)
    r"(?:(?:new\s+)?(?:(?!late|old|former|dead|previous|first|childhood|future|dream|imaginary|neighbou?rs?|hot|corn|sea)"
    r"(?![a-z]+s\s)[a-z]+\s+){0,2}"  # not "my sisters cat": the cat is the sister's
    r"(?=(?:dogs?|cats?|pupp(?:y|ies)|kittens?|parrots?|rabbits?|hamsters?|horses?)\b))?"
    r"(?:wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|sons?|daughters?|kids|children|brothers?|sisters?|"
    r"siblings|grandchildren|grandsons?|granddaughters?|mother-in-law|father-in-law|in-laws|nephews?|nieces?|"
    r"grandma|grandmother|grandpa|grandfather|granny|aunt|auntie|uncle|cousins?|stepson|stepdaughter|"
    r"dogs?|cats?|pupp(?:y|ies)|kittens?|parrots?|rabbits?|hamsters?|horses?|friend|mom|mum|mother|dad|father))(?![\w-])"
    r"(?:,?\s+(?P<name>[A-Z][a-z]{1,15})(?![\w-]))?"
)
# "my grandma passed away last week": no longer had.
_GONE_RE = re.compile(r"[^.!?;\n]{0,20}?\b(?:passed away|passed on|died|was killed|is no longer|rest in peace|RIP)\b",
                      re.IGNORECASE)
_NAMED_ONLY = frozenset("friend mom mum mother dad father".split())
# "I want my own business", "I quit my job", "my former boss": not something the user has now.
_NOT_HAD_RE = re.compile(r"\b(?:want|wish|dream of|hope|would|quit|lost|left|sold|closed|former|ex|old|previous|start|starting|open|"
                         r"opening|launch|launching|set up|setting up|miss|missed|lost|without)\W*\s*$",
                         re.IGNORECASE)
_MAX_WORDS = 16
# "I teach at one", "I am a big fan": what the clause is about was said before it.
_BARE_OBJECT_RE = re.compile(r"\s(?:one|it|that|this|them|there|those|these|so|too|here|fan|fans|called|named)$"
                             r"|\bon one\b", re.IGNORECASE)
IMPORTANCE_CAP = 0.6
# What a request only implies (pursuits.py: "settings to play better csgo", "my license plate"): pending until it recurs.
WEAK_IMPORTANCE_CAP = 0.4


# A request fastened to a statement by a comma: "I'm a PhD student at MIT, write an abstract for my paper".
_REQUEST_TAIL_RE = re.compile(
    r",\s*(?:(?:so|and|now|please|pls|kindly)\s+)*(?:write|give|help|make|create|tell|explain|show|generate|suggest|"
    r"list|provide|rewrite|translate|summari[sz]e|correct|check|fix|draft|compose|describe|recommend|find|"
    r"can you|could you|would you|will you)\b.*$"
    r"|,\s*(?:what|how|which|where|why|do you|is there|are there)\b[^.!]*\?.*$",  # a question, not "…, which I love"
    re.IGNORECASE | re.DOTALL,
)


# "I want you to act as a sales coach. My first request is "…"": the act-as frame is the assistant's; the request
# after it is the user's own, about the user.
_FRAME_LIFTED_RE = re.compile(r"\b[Mm]y first (?:[\w-]+ ){0,2}request is\b")


def _unframed_from(text: str, start: int) -> int:
    """Where the text a frame before `start` may cover begins: after "My first request is", else 0."""
    lifted = [m.end() for m in _FRAME_LIFTED_RE.finditer(text, 0, start)]
    return lifted[-1] if lifted else 0


def without_request(candidate: ExtractedCandidate) -> ExtractedCandidate:
    """The candidate without a request fastened to its statement: "User is a PhD student at MIT, write an
    abstract for their paper" → "User is a PhD student at MIT" (the quote cut at the same place)."""
    quote_cut = _REQUEST_TAIL_RE.search(candidate.quote)
    statement_cut = _REQUEST_TAIL_RE.search(candidate.statement)
    if not quote_cut or not statement_cut or candidate.statement.startswith('User said: "'):
        return candidate
    quote, statement = candidate.quote[: quote_cut.start()], candidate.statement[: statement_cut.start()]
    if len(statement.split()) < 3 or quote_too_short(quote):
        return candidate
    return candidate.model_copy(update={"quote": quote, "statement": statement})


def self_disclosures(turns: list[Turn]) -> list[ExtractedCandidate]:
    """Every self-disclosure clause of the user turns (module docstring), in order."""
    found: list[ExtractedCandidate] = []
    for turn in turns:
        if turn.role != "user":
            continue
        # Light sleep has taken the sensitive clauses out already; the engine does it again for any other caller.
        text = redact_sensitive(turn.content, anyone=False).text
        for quote, said, cap in [*((q, s, IMPORTANCE_CAP) for q, s in turn_disclosures(text)),
                                 *((q, s, WEAK_IMPORTANCE_CAP) for q, s in weak_disclosures(text))]:
            if sensitive_category(quote) or sensitive_category(said):
                continue  # "I'm a Muslim": never a candidate
            if not_the_user(text, quote):
                continue  # a script's line, a title, pasted AI text: the same rule as the conversational clauses
            statement = with_date(said, lead="", said_at=turn.created_at)  # "tomorrow" from when it was said
            category = category_by_definition(statement=statement, category=en.category_en(statement))
            importance = min(cap, _importance(category=category, quote=quote, chinese=False, user_initiated=True))
            found.append(ExtractedCandidate(quote=quote, statement=statement, category=category, importance=importance,
                                            seq=turn.seq, user_initiated=True))
    return found


def turn_disclosures(text: str) -> list[tuple[str, str]]:
    """(quote, statement) of each self-disclosure clause of one user turn's text."""
    return (_clauses(text) + _my_things(text) + _my_work(text) + _my_family(text) + _my_courses(text)
            + _organisations(text) + _roles_beside_me(text) + signed_name(text) + _candidacy(text) + _projects(text)
            + _skills(text)
            + [(quote, said) for quote, said in jobs_as(text) if not _not_had(text, text.find(quote))])


def weak_disclosures(text: str) -> list[tuple[str, str]]:
    """(quote, statement) of what a user turn's requests only imply they play, use or have (pursuits.py)."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's or a role-play's belongings
    found = [(_phrase_quote(text, start, start + len(words)), said) for words, said, start in belongings(text) + schoolwork(text)
             if not _not_had(text, start)]
    found += [(_phrase_quote(text, text.find(q), text.find(q) + len(q)), said) for q, said in plays(text) + platforms(text)
              if not _not_had(text, text.find(q))]
    found += zh_possessions(text)
    found += [(quote, said) for quote, said in devices(text) if not _not_had(text, text.find(quote))]  # "I'm on Windows 11"
    # what a request for help shows the user is busy with: "how can I learn Spanish faster" (implied_pursuits.py)
    found += [(_phrase_quote(text, start, start + len(words)), said) for words, said, start in implied(text)
              if not _not_had(text, start)]
    return [(quote, said) for quote, said in found if not statement_unsupported(statement=said, quote=quote)]


def _projects(text: str) -> list[tuple[str, str]]:
    """"my Discord bot" → "User has a Discord bot"; 我在写硕士论文 → 用户在写硕士论文 (own_projects.py)."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's or a role-play's projects
    return [(quote, said) for quote, said in own_projects(text) if not _not_had(text, text.find(quote))]


def _skills(text: str) -> list[tuple[str, str]]:
    """"I know HTML and CSS" → "User knows HTML and CSS"; 我完全不懂编程 → 用户完全不懂编程 (skills.py)."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's hacker who "knows Python"
    return [(quote, said) for quote, said in skills(text) if not _not_had(text, text.find(quote))]


def _my_courses(text: str) -> list[tuple[str, str]]:
    """"I need this for my biology class" → "User has a biology class" (purposes.py)."""
    return [(_phrase_quote(text, start, start + len(words)), said) for words, said, start in courses(text)
            if not _not_had(text, start)]


def _roles_beside_me(text: str) -> list[tuple[str, str]]:
    """"suits me as a graphic design student" → "User is a graphic design student" (purposes.py)."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's or a role-play's "me"
    return [(quote, said) for quote, said in roles_beside_me(text)
            if not _not_had(text, text.find(quote)) and not statement_unsupported(statement=said, quote=quote)]


def _organisations(text: str) -> list[tuple[str, str]]:
    """"we are a small logistics company in Lagos" → "User's company is a small logistics company in Lagos"."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's or a role-play's company
    return [(quote, said) for quote, said in organisations(text) if not _not_had(text, text.find(quote))]


def _candidacy(text: str) -> list[tuple[str, str]]:
    """"my skills make me an ideal candidate for the SEO intern role" → "User is a candidate for the SEO intern role"."""
    if _NOT_THE_USER_RE.search(request_of(text)):
        return []  # a story's or a role-play's applicant
    return [said for a, b in sentences(text) if (said := candidacy(text[a:b].strip()))][:1]


def _my_things(text: str) -> list[tuple[str, str]]:
    """"for my Etsy shop" → "User has an Etsy shop"; "help me talk to my customers" → "User has customers"."""
    found = []
    for m in [*_MY_VENTURE_RE.finditer(text), *_MY_PEOPLE_RE.finditer(text)]:
        if _not_had(text, m.start()):
            continue
        phrase = re.sub(r"^own ", "", m.group(1))
        plural = phrase.endswith("s") and not phrase.endswith(("ss", "sis", "us"))  # "my thesis", "my campus"
        article = "" if plural else ("an " if phrase[0].lower() in "aeiou" else "a ")
        quote = _phrase_quote(text, m.start(), m.end())
        found.append((quote, f"User has {article}{phrase}"))
    return found


def _my_work(text: str) -> list[tuple[str, str]]:
    """"check my notes for a presentation in French" → "User has notes for a presentation in French"."""
    found = []
    for m in _MY_WORK_RE.finditer(text):
        if _not_had(text, m.start()) or len(m.group("about").split()) < 2:
            continue
        work = m.group("work")
        article = "" if work.endswith("s") and not work.endswith(("ss", "sis", "us")) else ("an " if work[0].lower() in "aeiou" else "a ")
        quote = _phrase_quote(text, m.start(), m.end())
        found.append((quote, f"User has {article}{work} {m.group('about')}"))
    return found


def _not_had(text: str, start: int) -> bool:
    """A role-play frame before, a "want" / "lost" just before, or a supposition in the sentence before the "my"."""
    sentence_start = max((a for a, _ in sentences(text) if a <= start), default=0)
    return bool(_ROLE_FRAME_RE.search(text[_unframed_from(text, start):start]) or _NOT_HAD_RE.search(text[max(0, start - 20): start])
                or en.EN_HYPOTHETICAL_RE.search(text[sentence_start:start]) or _HYPOTHETICAL_LEAD_RE.search(text[sentence_start:start]))


def _my_family(text: str) -> list[tuple[str, str]]:
    """"a letter to my son" → "User has a son"; "for my best friend Sarah" → "User's best friend is named Sarah"."""
    found = []
    for m in _MY_FAMILY_RE.finditer(text):
        noun, name = m.group("noun"), m.group("name")
        if name and name.lower() in STOP_WORDS | {"happy", "merry", "dear", "thank", "thanks", "please", "hi", "hello"}:
            name = None
        if noun in _NAMED_ONLY and not name:
            continue
        if _not_had(text, m.start()) or _GONE_RE.match(text, m.end()):
            continue
        if name:
            said = f"User's {noun} is named {name}"
        else:
            plural = noun.endswith(("s", "children", "grandchildren", "puppies")) and not noun.endswith("ss")
            said = f"User has {'' if plural else 'an ' if noun[0] in 'aeiou' else 'a '}{noun}"
        quote = _phrase_quote(text, m.start(), m.end())
        found.append((quote, said))
    return found


_CLAUSE_END_RE = re.compile(r"[.!?;:,\n(\[\"“]|\s[-–—]\s")
_PHRASE_WORDS = 10


def _phrase_quote(text: str, start: int, end: int) -> str:
    """The quote for a phrase found at text[start:end] ("my boss"): the phrase itself when it is long enough to
    prove something, else its sentence; when that sentence is a request others_words reads as an instruction ("Write
    an email to my boss asking for Friday off"), the phrase run on to its clause's end ("my boss asking for Friday
    off", at most _PHRASE_WORDS words)."""
    phrase = text[start:end]
    if not quote_too_short(phrase):
        return phrase
    sentence = _sentence_around(text, start, end)
    if not not_the_user(text, sentence):
        return sentence
    stop = _CLAUSE_END_RE.search(text, end)
    run_on = text[start: stop.start() if stop else len(text)].rstrip()
    run_on = " ".join(run_on.split(" ")[:_PHRASE_WORDS]) if "\n" not in run_on else run_on
    if not quote_too_short(run_on):
        return run_on
    # "What should I name my bakery?": the words just before it in its clause ("name my bakery")
    lead = re.search(r"(?:[\w'’-]+ ){1,2}$", text[max(0, start - 40): start])
    if lead and not quote_too_short(lead.group(0) + phrase) and not not_the_user(text, lead.group(0) + phrase):
        return lead.group(0) + phrase
    # a request quoted inside a role prompt ('My first request is "I need you to … with my customers."'): the quoted words
    opening = max(text.rfind(mark, 0, start) for mark in '"“')
    inner = text[opening + 1: stop.start() if stop else len(text)].strip()
    if opening >= 0 and inner and inner in sentence and not not_the_user(text, inner):
        return inner
    return sentence


def _sentence_around(text: str, start: int, end: int) -> str:
    for a, b in sentences(text):
        if a <= start < b:
            return text[a:b].strip()
    return text[start:end]


def _clauses(text: str) -> list[tuple[str, str]]:
    found = []
    for start, end in sentences(text):
        sentence = text[start:end]
        head = start + _first_head(sentence)
        if "?" in sentence[: _first_head(sentence)] or _NOT_THE_USER_RE.search(text[_unframed_from(text, head): head]):
            continue
        # "As a customer, I want to filter flights" in a user story: its persona, not the user
        as_a = None if _USER_STORY_RE.search(text) else (_as_a_role(sentence) or _as_the_role(sentence))
        for said in (*_head_clauses(sentence), as_a):
            if said and not statement_unsupported(statement=said[1], quote=said[0], message=text):
                found.append(said)
    return found


def _first_head(sentence: str) -> int:
    heads = [m.start() for m in (_HEAD_RE.search(sentence), _AS_A_RE.search(sentence), _AS_THE_RE.search(sentence)) if m]
    return min(heads) if heads else len(sentence)


def _head_clauses(sentence: str) -> list[tuple[str, str]]:
    found = []
    for m in _HEAD_RE.finditer(sentence):
        before = sentence[: m.start()]
        if before.strip() and not re.search(r"(?:^|[,;:\-–—]|\band|\bbut|\bso|\balso|\bwell|\bhi|\bhello|\bhey|"
                                            r"\bgiven that|\bsince|\bbecause|\bnow that|\bseeing as)\s*$",
                                            before, re.IGNORECASE) \
                and not (m.group("doing") and re.search(r"\b(?:where|in which|as|while)\s*$", before, re.IGNORECASE)):
            continue  # mid-clause: "the guy I work with", "what I'm learning" (not "a user story where I am building…")
        if _HYPOTHETICAL_LEAD_RE.search(before):
            continue
        stop = _STOP_RE.search(sentence, m.end())
        if stop and stop.group(0) == "?":
            continue  # "I am an avid reader?" asks
        quote = sentence[m.start(): stop.start() if stop else len(sentence)].rstrip(" ,;:-–—.!…")
        said = _statement(quote, sentence=sentence)
        if said:
            found.append(said)
    return found


_USER_STORY_RE = re.compile(r"\buser stor(?:y|ies)\b|^\W*[Aa]s an? [\w\s'-]{1,40}, I want (?:to|a|an|the)\b[^.]*\bso that\b")


def _as_the_role(sentence: str) -> tuple[str, str] | None:
    """"As the owner of a small coffee shop, how do I attract customers?" → "User is the owner of a small coffee shop"."""
    m = _AS_THE_RE.search(sentence)
    if m and re.search(r"\b(?:you|your|u)\b", sentence[m.end():], re.IGNORECASE) \
            and not re.search(r"\b(?:I|i|my|me)\b", sentence[m.end():]):
        return None  # "As the owner of the house, what would you do?" asks the assistant to play it
    role = m and re.sub(r"\bmy\b", "their", m.group("role")).replace(" our ", " their ")
    return (m.group(0).strip().rstrip(","), f"User is the {role}") if m else None


def _as_a_role(sentence: str) -> tuple[str, str] | None:
    """"As a teacher, I want engaging lesson plans" → "User is a teacher" (the quote runs to the clause's end)."""
    m = _AS_A_RE.search(sentence)
    # only where the sentence or a clause opens: "the camera I had as a kid, I…" says when, not who
    if not m or _HYPOTHETICAL_LEAD_RE.search(sentence[: m.start()]) or \
            not re.fullmatch(r"(?:.*[,;:]\s*|\W*(?:\w+[,!]\s+)?)", sentence[: m.start()], re.DOTALL):
        return None
    article = m.group(0)[3:5].strip()
    quote = m.group(0).rstrip(" ,;:-–—.!…")
    if len(quote.split()) > _MAX_WORDS + 6:
        return None
    return quote, f"User is {article} {m.group('role')}"


def _statement(quote: str, *, sentence: str) -> tuple[str, str] | None:
    size = len(re.findall(r"[A-Za-z0-9'’]+", quote))
    if size < 2 or size > _MAX_WORDS:
        return None
    # "we are building a CRM for dentists": the user is building it (with others)
    statement = en.en_statement(re.sub(r"^[Ww]e(?:\s+are|'re|’re)\b", "I am", quote))
    if not statement.startswith("User ") or len(statement.split()) < 3 or _BARE_OBJECT_RE.search(statement):
        return None
    # "I'm Nigerian" proves nothing on its own (quotes.py): its sentence, verbatim, is the quote.
    return (sentence.strip() if quote_too_short(quote) else quote), statement
