"""What a request is for, when that says who the user is: "I need this for my biology class", "we are a small
logistics company in Lagos, write a model for shipments".

The conversational rules read a request as the task at hand and keep nothing of it; self_disclosure.py reads the
user's plain self-statements and what "my <venture / people / family>" in a request says they have. This module
adds two more shapes of the same kind, each as a statement the request's words support:

- a course the user follows or teaches, named by its subject or level: "for my biology class" → "User has a
  biology class", "my 3rd grade class" → "User has a 3rd grade class" (never a bare "my class", nor "my first /
  next / online class", which names no subject);
- the user speaking as their organisation: "we are a small logistics company in Lagos" → "User's company is a
  small logistics company in Lagos" ("we are a family of four", "we are a team of students" say nothing of work).

The callers apply the same guards as to every self-disclosure (fiction and role-play frames, suppositions, someone
else's words, sensitive clauses, the truth guard).
"""
from __future__ import annotations

import re

# "for my AP Biology class", "my 8th grade English lesson", "my statistics course": a subject or a level before it.
_MY_COURSE_RE = re.compile(
    r"\b[Mm]y (?P<course>(?!(?:first|second|third|next|last|final|previous|new|own|whole|entire|online|only|favou?rite|"
    r"morning|evening|afternoon|night|weekly|daily|other|current|upcoming|early|late|big|small|little|"
    r"\w+ly)\b)(?:[A-Za-z0-9][\w'&-]* ){1,3}?(?:class|course|module|seminar|lecture|lessons?))\b(?![\w-])"
)
# "as a company", "we are a startup that …": an organisation the user speaks for.
_ORGANISATION = (r"company|startup|start-up|business|agency|firm|shop|store|restaurant|bakery|caf[eé]|clinic|"
                 r"practice|nonprofit|non-profit|NGO|charity|school|brand|studio|consultancy|manufacturer|retailer|"
                 r"distributor|supplier|brewery|winery|farm|hotel|organi[sz]ation")
_WE_ARE_RE = re.compile(
    rf"(?:^|(?<=[.!?;:\n]\s)|(?<=[.!?;:\n])|(?<=\b[Hh]i,\s)|(?<=\b[Hh]ello,\s))\s*"
    rf"(?P<quote>[Ww]e(?:\s+are|'re|’re)\s+(?P<what>an?\s+(?:[\w'&-]+\s+){{1,4}}?(?:{_ORGANISATION})"
    rf"(?:\s+(?:in|from|based in|located in)\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)?))(?![\w-])"
)
# What a subject-less "class" may not be: a word of the code or the task ("my Python class" is a class in the
# code when the turn has code in it; the caller passes the user's prose only).
_CODE_CLASS_RE = re.compile(r"\b(?:python|java|javascript|c\+\+|c#|kotlin|swift|typescript|php|ruby|css|base|"
                            r"main|abstract|parent|child|model|data|helper|utility|wrapper|custom|view|"
                            r"controller|service|test|entity|user)\s+class$", re.IGNORECASE)


def courses(text: str) -> list[tuple[str, str, int]]:
    """(the words from "my" on, statement, where they start) for each course the user names by its subject."""
    found = []
    for m in _MY_COURSE_RE.finditer(text):
        course = m.group("course")
        if _CODE_CLASS_RE.search(course):
            continue
        article = "an" if course[0].lower() in "aeiou8" and not course.lower().startswith(("uni", "eu", "one")) else "a"
        found.append((m.group(0), f"User has {article} {course}", m.start()))
    return found


def organisations(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for "we are a <kind of organisation>" said at the opening of a sentence."""
    found = []
    for m in _WE_ARE_RE.finditer(text):
        what = m.group("what")
        noun = re.findall(rf"\b(?:{_ORGANISATION})\b", what, re.IGNORECASE)[-1].lower()  # "a non-profit … organization"
        found.append((m.group("quote"), f"User's {noun} is {what}"))
    return found


# "which laptop suits me as a graphic design student", "the best way for a beginner like me", "as someone who
# works in retail, how do I…": who the user is, said beside "me" inside a question or a request.
_ROLE = r"(?P<role>(?:[\w'-]+ ){0,3}?[\w'-]+)"
_ROLE_END = r"(?=\s*(?:[,.;:!?)\n]|$|\s(?:and|but|so|who|which|that|to|in|at|for|with|how|what|can|could|should|would|is|are)\b))"
_BESIDE_ME_RE = re.compile(
    rf"\b(?:for|with) me,? as an? (?!\w+[ -]years?[ -]old){_ROLE}{_ROLE_END}"  # not "explain it to me as a 5 year old"
    rf"|\b(?:an?) (?P<like>[\w'-]+(?: [\w'-]+)?) like me\b"
    r"|(?:^|(?<=[.!?]\s)|(?<=\n))\s*[Aa]s (?:someone|a person|somebody|one) who (?P<does>(?:has|is|was|works|lives|loves|"
    r"teaches|runs|owns|studies|manages|[a-z]+s)\b[^,.;:!?\n]{3,80})(?=,)"
)
_NOT_A_ROLE_RE = re.compile(r"^(?:person|human|someone|somebody|people|guy|girl|man|woman|user|friend|thing|"
                            r"result|reminder|favou?r|gift|matter|whole|example|AI|bot|robot)$", re.IGNORECASE)


# What a role ends in: a person's noun ("student", "beginner", "nurse", "pharmacist", "mom").
_PERSON_NOUN_RE = re.compile(r"(?:er|or|ist|ian|ant|ent|ee|ive|mom|mum|dad|parent|nurse|vert|vegan|chef|"
                             r"coach|nanny|owner|freelancer|newbie|novice|rookie|amateur|pro)$", re.IGNORECASE)


def roles_beside_me(text: str) -> list[tuple[str, str]]:
    """(quote, statement) for a role said beside "me" (the _BESIDE_ME_RE shapes)."""
    found = []
    for m in _BESIDE_ME_RE.finditer(text):
        if m.group("does"):
            found.append((m.group(0).strip(), f"User {m.group('does').strip()}"))
            continue
        role = m.group("role") or m.group("like")
        if _NOT_A_ROLE_RE.match(role.split()[-1]) or not _PERSON_NOUN_RE.search(role):
            continue  # "a weight problem like me" names no one
        article = "an" if role[0].lower() in "aeiou" else "a"
        found.append((m.group(0).strip(), f"User is {article} {role}"))
    return found
