"""An outcome said without its object, named by the pursuit the user told of before.

"I got an interview at Amazon for a PM role" one week, "I got the job!" the next: light sleep reads the second
session alone, so its statement is "User got the job", true but about nothing a later reader can find. Deep sleep
has the earlier memory, so it names the outcome: "User got the PM role at Amazon". The same for an application
("User applied to Stanford for grad school" → "I got in!" → "User was accepted to Stanford for grad school") and in
Chinese (用户下周要去腾讯面试产品经理 → 我拿到offer了 → 用户拿到了腾讯产品经理的offer). Only when exactly one pursuit is
on record: of two interviews, which one became the job is not said, and the statement stays as the user put it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from dreaming.engine.passings import tells_a_death

_ORG = r"[A-Z][\w&.'-]*(?: (?:[A-Z][\w&.'-]*|of|and|&))*"
_ROLE = r"[\w' /-]{1,40}?(?:role|position|job|internship|post|opening)"

# the outcome, unnamed: "User got the job", "User got in", 用户拿到offer了
_JOB_OUTCOME_RE = re.compile(r"^User (?:finally |just |actually )?(?:got|landed|accepted|was offered|got offered|"
                             r"has been offered|has got) the (?:job|position|role|offer|internship)$")
_ADMISSION_RE = re.compile(r"^User (?:finally |just |actually )?(?:got in|got accepted|was accepted|was admitted|"
                           r"has been accepted|got admitted)$")
_JOB_OUTCOME_ZH_RE = re.compile(r"^用户(?:终于|已经|也)?(?:拿到(?:了)?offer了?|面试通过了|通过了面试|被录用了)$")
_ADMISSION_ZH_RE = re.compile(r"^用户(?:终于|已经|也)?(?:被录取了|录取了)$")

# the pursuit told before
_INTERVIEW_RE = re.compile(
    rf"^User (?:got|has|had|is having|has got|landed|is preparing for|is going to) (?:an? |their )?(?:job |final |second |"
    rf"first |big )?interview (?:(?:at|with) (?P<org>{_ORG}))?(?: for (?:an? |the )?(?P<role>{_ROLE}))?"
    rf"(?: (?:at|with) (?P<org2>{_ORG}))?\b"
)
_APPLIED_RE = re.compile(r"^User (?:applied|is applying|has applied|just applied) (?:for|to) (?:an? |the )?(?P<what>[\w&' -]{2,60}?)"
                         r"(?: (?:last|next|this) \w+| (?:yesterday|today|recently))?$")
_INTERVIEW_ZH_RE = re.compile(r"^用户(?:[^，。]{0,6}?(?:去|到|在))?(?P<org>[^去到在，。]{2,8}?)面试(?P<role>[\u4e00-\u9fffA-Za-z]{2,10})?$")
_APPLIED_ZH_RE = re.compile(r"^用户(?:已经|刚刚?)?申请了(?P<what>[\u4e00-\u9fffA-Za-z]{2,20})$")


@dataclass(frozen=True)
class _Pursuit:
    kind: str  # "interview" or "application"
    org: str = ""
    role: str = ""
    what: str = ""


def _pursuit(statement: str) -> _Pursuit | None:
    if m := _INTERVIEW_RE.match(statement):
        org, role = m.group("org") or m.group("org2") or "", m.group("role") or ""
        return _Pursuit("interview", org=org, role=role) if org or role else None
    if m := _APPLIED_RE.match(statement):
        return _Pursuit("application", what=m.group("what"))
    if m := _INTERVIEW_ZH_RE.match(statement):
        return _Pursuit("interview", org=m.group("org"), role=m.group("role") or "")
    if m := _APPLIED_ZH_RE.match(statement):
        return _Pursuit("application", what=m.group("what"))
    return None


def unnamed_outcome(statement: str) -> bool:
    return any(r.match(statement) for r in (_JOB_OUTCOME_RE, _ADMISSION_RE, _JOB_OUTCOME_ZH_RE, _ADMISSION_ZH_RE))


def _named(statement: str, p: _Pursuit) -> str | None:
    if _JOB_OUTCOME_RE.match(statement):
        if p.kind == "application":
            return f"User got the {p.what}"
        job = p.role or "job"
        return f"User got the {job} at {p.org}" if p.org else f"User got the {job}"
    if _ADMISSION_RE.match(statement):
        return f"User was accepted to {p.what}" if p.kind == "application" else None
    if _JOB_OUTCOME_ZH_RE.match(statement):
        return f"用户拿到了{p.org}{p.role}的offer" if p.kind == "interview" else None
    if p.kind != "application":
        return None
    school, _, course = p.what.partition("的")  # 香港大学的研究生 → 用户被香港大学录取了，读研究生
    return f"用户被{school}录取了，读{course}" if course else f"用户被{school}录取了"


def outcome_named(statement: str, earlier: list[str]) -> tuple[str, int] | None:
    """(the statement with its object, the index in `earlier` of the pursuit that names it), or None: when the
    statement is an unnamed outcome and exactly one of the `earlier` statements is a pursuit it can name."""
    if not unnamed_outcome(statement):
        return None
    found = [(i, p) for i, s in enumerate(earlier) if (p := _pursuit(s))]
    named = [(i, text) for i, p in found if (text := _named(statement, p))]
    return (named[0][1], named[0][0]) if len(named) == 1 and len(found) == 1 else None


# "User is engaged" after "User's girlfriend is named Priya": to whom is on record. (The comparer then supersedes
# "girlfriend" by "engaged"; without this the name would leave MEMORY.md with it.)
_UNNAMED_COUPLE_RE = re.compile(r"^User (?P<verb>is|got|has been|was) (?P<state>engaged|married)(?P<rest>(?: (?:for|since|in|"
                                r"last|this|on|about|almost|over|nearly) [\w' -]{1,40})?)$")
_PARTNER_RE = re.compile(r"^User's (?:girlfriend|boyfriend|partner|fianc[eé]e?|wife|husband|spouse)(?: is named| is called|"
                         r"'s name is)? (?P<name>[A-Z][a-z]+)\b")
_UNNAMED_COUPLE_ZH_RE = re.compile(r"^用户(?P<when>[^，。]{0,8}?)(?P<state>订婚了|结婚了)$")
_PARTNER_ZH_RE = re.compile(r"^用户的(?:女朋友|男朋友|对象|未婚妻|未婚夫)叫(?P<name>[\u4e00-\u9fffA-Za-z]{1,4})$")


def partner_named(statement: str, earlier: list[str]) -> tuple[str, int] | None:
    """("User is engaged to Priya", the index of the memory naming her) when exactly one partner is named before."""
    en, zh = _UNNAMED_COUPLE_RE.match(statement), _UNNAMED_COUPLE_ZH_RE.match(statement)
    if not en and not zh:
        return None
    pattern = _PARTNER_RE if en else _PARTNER_ZH_RE
    names = {(m.group("name"), i) for i, s in enumerate(earlier) if (m := pattern.match(s))}
    if len({name for name, _ in names}) != 1:
        return None
    name, at = min(names, key=lambda n: n[1])
    if en:
        return f"User {en.group('verb')} {en.group('state')} to {name}{en.group('rest')}", at
    return f"用户{zh.group('when')}和{name}{zh.group('state')}", at


def may_be_named(statement: str) -> bool:
    """Whether `statement` is an outcome, a couple or a death said without its object (a cheap test before reading
    memories)."""
    return unnamed_outcome(statement) or tells_a_death(statement) or bool(
        _UNNAMED_COUPLE_RE.match(statement) or _UNNAMED_COUPLE_ZH_RE.match(statement))
