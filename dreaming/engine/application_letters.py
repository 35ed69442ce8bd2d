"""What an application letter says about its writer, and what it only sells.

A cover letter or a statement of purpose the user brings is read as the user's own words (own_drafts.own_draft),
and most of its first person is self-marketing: "my unique combination of skills makes me an ideal candidate", "I am
equipped to enhance…", "I am confident that…". None of that is kept about the user (english.says_nothing_of_the_user
asks `self_marketing`); what such a letter names is: the role applied for and the background it opens with
(`candidacy`). The same rhetoric in a report about someone else ("I want to take a moment to highlight the progress of
Hinson") is not the user either, nor its verdict on them ("I commend Hinson for his remarkable growth").
"""
from __future__ import annotations

import re

# An application's self-marketing ("my unique combination of skills makes me an ideal candidate", "I am equipped to
# enhance…"): how a cover letter sells its writer, not what the user would keep about themself.
_SELF_MARKETING_RE = re.compile(
    r"\b(?:ideal|perfect|strong|excellent|great|suitable|right|valuable) (?:candidate|fit|asset|addition)\b"
    r"|\b(?:well[- ])?equipped to\b"
    r"|\bmy (?:\w+ ){0,2}?(?:skills|skill set|skillset|expertise|abilities|qualifications)\b[^.;]{0,40}?"
    r"\b(?:make|makes|remain|allow|allows|enable|enables|ensure|ensures|align|aligns|improve|improves|enhance|"
    r"enhances|establish|establishes|drive|drives|boost|boosts|strengthen|strengthens|add|adds)\b"
    r"|\b(?:committed|dedicated) to (?:staying|delivering|providing|ensuring|achieving|excellence)\b"
    r"|\bcontribute to (?:your|the) (?:team|company|organi[sz]ation|success)\b"
    # a letter's or a report's rhetoric: "I am confident that Hinson's journey…", "I want to take a moment to …"
    r"|\bconfident (?:that|in)\b|\beager to (?:deepen|expand|grow|contribute|apply|bring|learn more|gain|develop|build|"
    r"acquire|hone|further)\b"
    # what the writer's past did for their skills: "… has allowed me to sharpen my problem-solving skills"
    r"|\b(?:allowed|enabled|helped|taught) me to (?:sharpen|hone|develop|build|strengthen|enhance|refine|improve|"
    r"cultivate|broaden|deepen)\b|\bthrive in (?:a|an|any|the) (?:\w+ )?(?:environment|setting|role|team)\b"
    r"|\btake (?:a|this) moment to\b|\blook forward to seeing (?:him|her|them)\b"
    # a report's or a reference's verdict on someone: "I commend Hinson for his growth", "I highly recommend her for…"
    r"|\bI (?:\w+ )?(?:commend|congratulate|applaud|salute|nominate|endorse|(?:highly|strongly|wholeheartedly) "
    r"recommend) (?!you\b|your\b|myself\b|me\b)(?:him|her|them|[A-Z][\w'’-]+)\b",
    re.IGNORECASE,
)


# "… makes me an ideal candidate for the SEO intern role": the self-praise says nothing, the role it names is what the
# user applies for. A role it does not name ("this role") is none.
_CANDIDACY_RE = re.compile(
    r"\b(?:me|I am|I'm|I’m)\s+(?:an?\s+)?(?:\w+\s+)?candidate for (?P<role>(?:the|a|an)\s+(?!(?:this|that|your|above|"
    r"mentioned|advertised|same)\b)(?:[\w&'’-]+\s+){1,4}?(?:role|position|job|post|internship|program|programme|"
    r"scholarship|fellowship|vacancy))\b",
    re.IGNORECASE,
)


# "With a solid foundation in crafting backlinks, …, I am …": the background an application opens with is the fact.
_BACKGROUND_RE = re.compile(
    r"^\W*[Ww]ith (?P<what>(?:an? |\d{1,2}\+? years? of )?(?:(?:solid|strong|extensive|deep|broad|proven|"
    r"thorough|hands-on|professional) )?(?:foundation|background|experience|expertise|track record|degree)) "
    r"(?P<x>in (?:[\w&'’+#-]+ ){0,7}?[\w&'’+#-]+)(?=,|\s+(?:and|coupled|combined|as well as|along)\b)"
    r"(?=[^.]*?\b(?:I|I'm|I’m|I've|I’ve|my)\b)"
)


# "Furthermore, my work experience as a data analyst and product manager has allowed me to sharpen …": what the
# letter credits for the writer's growth is the fact; the growth it sells is not.
_EXPERIENCE_AS_RE = re.compile(
    r"^\W*(?:(?:furthermore|moreover|additionally|in addition|also|besides|finally),?\s+)?my (?P<what>(?:[\w-]+ )?"
    r"(?:experience|background)) (?P<x>(?:as|in|at) (?:an? |the )?(?:[\w&'’+#-]+ ){0,6}?[\w&'’+#-]+) "
    r"(?:has|have|had) (?:\w+ )?(?:allowed|enabled|helped|taught|given|equipped|prepared) me\b",
    re.IGNORECASE,
)


def candidacy(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for the role an application names ("… makes me an ideal candidate for the SEO intern
    role" → "User is a candidate for the SEO intern role"), the background it opens with ("With a solid
    foundation in crafting backlinks, I …" → "User has a solid foundation in crafting backlinks") or credits for
    the writer's growth ("my work experience as a nurse has taught me …" → "User has work experience as a nurse")."""
    m = _CANDIDACY_RE.search(sentence)
    if m:
        return sentence, f"User is a candidate for {m.group('role')}"
    m = _BACKGROUND_RE.match(sentence)
    if m:
        return m.group(0).strip(), f"User has {m.group('what')} {m.group('x')}"
    m = _EXPERIENCE_AS_RE.match(sentence)
    if not m:
        return None
    what = m.group("what").lower()
    return m.group(0).strip(), f"User has {'a ' if what.endswith('background') else ''}{what} {m.group('x')}"


def self_marketing(text: str) -> bool:
    """Whether the text sells its writer (or praises someone in a report) rather than saying something about them."""
    return bool(_SELF_MARKETING_RE.search(text))
