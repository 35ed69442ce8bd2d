"""Skip the task, keep the person: what the user says about themself inside a skipped session.

A session triaged as coding, document or translation is not dreamed (its code, pasted text and
translations say nothing about the user), but the user's own words around the task often do: "I work
as a backend engineer at a fintech startup", "I'm preparing for IELTS", "for my Etsy shop". This pass
runs on the rules engine for every dreamer (no model call: a skipped session costs nothing):

1. keep only the user's own prose of each user turn: no fenced code, no code-like or stack-trace
   lines; in a document or translation turn only the request before the pasted text;
2. in a roleplay session keep only what is said out of character ("(OOC: I'm a nurse irl)"): the
   first person of fiction is the character, not the user;
3. extract with the local engine and keep explicit first-person statements about the user
   (identity, work, study, where they live, what they run or own, what they prepare for), plus what
   self_disclosure.py finds inside the requests ("I'm a nurse, write me…", "for my Etsy shop").

Every quote stays a verbatim substring of the user's message, so light sleep verifies it as usual.
"""
from __future__ import annotations

import re

from dataclasses import replace

from dreaming.engine import multilingual
from dreaming.engine.extract import extract_candidates
from dreaming.engine.language import content_tokens, sentences
from dreaming.engine.own_drafts import REQUEST_CHARS, closing_request, own_draft, request_of
from dreaming.engine.self_disclosure import self_disclosures, without_request
from dreaming.engine.triage import _CODE_LINE_RE, _STACK_TRACE_RE, _symbol_density
from dreaming.protocol import ExtractedCandidate, Turn

_PROSE_SYMBOLS = 0.08  # code characters per visible character past which a line or a sentence is code
_WORD_RE = re.compile(r"[A-Za-z]{2,}")
_FENCE_RE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_DRAFT_CHARS = 6000
_OOC_RE = re.compile(
    r"\(\s*(?:OOC|out of character)\s*[:\-–]?\s*([^()]{3,300})\)|\[\s*(?:OOC|out of character)\s*[:\-–]?\s*([^\[\]]{3,300})\]|"
    r"(?:^|\n)\s*(?:OOC|out of character)\s*[:\-–]\s*([^\n]{3,300})",
    re.IGNORECASE,
)
# A story the user asks for with themself in it, or a story to go on with: its "I" from then on is a character.
_FICTION_ASK_RE = re.compile(
    r"\b(?:write|continue|tell|make|create|generate)\b[^.!?\n]{0,30}\b(?:story|fanfic|fan fiction|novel|chapter|scene|episode)\b"
    r"(?![\s-]+(?:generator|app|game|bot|website|site|class|function|script|mode|editor|model|api|endpoint|page|feature))"
    r"|\b(?:role-?play|let'?s pretend)\b|续写|写(?:一个|一篇|个)?(?:故事|小说)|角色扮演",
    re.IGNORECASE,
)
_TASK_WISH_RE = re.compile(r"\s+and (?:(?:I|i|they) )?(?:(?:want|wants|need|needs)\b|(?:would like|'d like|am trying|'m trying|"
                           r"are trying|is trying|trying) to\b).*$", re.DOTALL)
_IRL_RE = re.compile(r"\s+(?:irl|IRL|in real life)\b(?=[\s.!,]*$)")
_SELF_STATEMENT_RE = re.compile(
    r"^(?:(?:also|and|but|so|btw|by the way|actually|well|oh),?\s+)*"
    # not the task's state: "I'm using node.js and I'm working with strings… I have a problem"
    r"(?:I\s*(?:am|'m|’m)\b(?!\s+(?:sorry|not sure|trying to (?:get|make|fix|run|use|understand|figure)|getting|"
    r"having|looking for|asking|wondering|unable|stuck|confused|going to (?:send|give|paste|share|ask)|using|"
    r"working with))|"
    r"I (?:work|worked|live|lived|study|studied|teach|run|own|have been|grew up|moved|was born|majored|graduate[sd]?|"
    r"sell|manage|volunteer|coach)\b|"
    # what the user has been doing, or just began: "I've been coding for 2 years", "I just started learning python"
    r"I(?:'ve|’ve| have) been (?:coding|programming|learning|studying|working|teaching|developing|writing|playing)\b|"
    r"I (?:(?:just|recently|finally) )?(?:(?:started|began) (?:learning|studying|working|coding|programming|a new|my new|"
    r"college|university|school|my first)|switched (?:from|to)|joined|got (?:a|my) (?:new )?(?:job|degree|internship))\b|"
    r"my (?:name|job|work|profession|occupation|wife|husband|partner|son|daughter|kids?|children|family|"
    r"dog|cat|pet|boss|company|business|shop|store|startup|team|students?|class|hometown|major|thesis|"
    r"professor|teacher|clients|customers|employer|manager|colleagues|coworkers|school|university|college)\b|"
    # the user speaking for their organisation: "our company sells…", "we are a small agency", "we run a bakery"
    r"our (?:company|business|startup|shop|store|team|school|clinic|agency|firm|restaurant|brand|"
    r"organi[sz]ation|customers|clients|students)\b|"
    r"we(?:\s+are|'re|’re)\s+an?\s|we (?:run|own|sell|make|manufacture|provide|offer|specialize|ship|export)\b|"
    # what the user has built or runs: "I have a Minecraft server with 50 players", "I own a small bakery"
    r"I (?:have|own|'ve got|’ve got) (?:an?|my own) (?:[\w'-]+ ){0,3}?(?:website|site|blog|channel|podcast|shop|store|business|"
    r"company|startup|agency|studio|restaurant|bakery|salon|clinic|farm|brand|newsletter|server|bot|app)\b|"
    r"我(?:是|在|的(?:工作|职业|专业|公司|店|网店|店铺|网站|公众号|博客|工作室|孩子|儿子|女儿|老婆|老公|家|论文|毕业设计|毕设|"
    r"导师|老板|客户|学生)|正在准备|准备考|住在|从事|毕业|(?:正|现在|目前)在(?:写|做)(?:毕业设计|毕设|课题|研究|[^，。]{0,4}论文)|"
    r"(?:自己)?(?:开了|开的|经营)|(?:正在|刚开始|开始)?学(?:习)?|想学|们(?:公司|团队|学校|项目组|店|工厂|工作室)))",
    re.IGNORECASE,
)


def says_who(quote: str) -> bool:
    """Whether a quote says who the user is (identity, work, study, home, family, what they run), in any language
    the rules read."""
    return bool(_SELF_STATEMENT_RE.search(quote.strip())) or multilingual.is_self_statement(quote)


def own_words(turn: Turn, *, kind: str) -> str:
    """The user's own prose of one turn of a skipped session, as pieces of the original text joined by
    line breaks (so a clause found in it is still verbatim in the message)."""
    text = turn.content
    if kind == "roleplay":
        return "\n".join(next(g for g in m.groups() if g) for m in _OOC_RE.finditer(text))
    if kind in ("document", "translation"):
        request = request_of(text)
        # "proofread my cover letter: …": the pasted text is the user's own, its first person the user
        if own_draft(request):
            return _prose(text[:_DRAFT_CHARS])
        closing = closing_request(text)  # "<pasted criteria>\n\nThe title of my thesis is X. Can you write …?"
        return f"{request}\n{closing}" if closing and closing not in request else request
    return _prose(text)


def _prose(text: str) -> str:
    """The lines of `text` that are prose: no fenced code, no code-like or stack-trace lines."""
    text = _FENCE_RE.sub("\n", text)
    kept = []
    for line in text.splitlines():
        if not line.strip() or _CODE_LINE_RE.match(line) or _STACK_TRACE_RE.search(line):
            continue
        if _symbol_density(line) <= _PROSE_SYMBOLS:
            kept.append(line)
            continue
        # "I'm building a shop for my bakery. this is my code: def f(x): return [x]": the sentences that are prose
        kept += [line[a:b].strip() for a, b in sentences(line)
                 if _symbol_density(line[a:b]) <= _PROSE_SYMBOLS and len(_WORD_RE.findall(line[a:b])) >= 4]
    return "\n".join(kept)


def self_statements(turns: list[Turn], *, kind: str) -> list[ExtractedCandidate]:
    """Explicit statements the user makes about themself in the user turns of a session skipped as
    `kind`; nothing from code, pasted text or fiction."""
    user_turns = [t for t in turns if t.role == "user"]
    own = [Turn(seq=t.seq, role="user", content=words, created_at=t.created_at)
           for t, words in zip(user_turns, _session_own_words(user_turns, kind=kind))]
    own = [t for t in own if t.content.strip()]
    found = [_out_of_character(without_request(c)) for c in extract_candidates(own, limit=10_000)
             if c.user_initiated and says_who(c.quote) and not _the_task_wish(c)]
    return found + disclosures_not_yet_found(own, found=found)


def _session_own_words(turns: list[Turn], *, kind: str) -> list[str]:
    """Each user turn's own words; once a turn asks for a story about the user ("Write a story about me, a guy in
    college…"), that turn's words before the ask and, after it, only what is said out of character: the story's
    first person, told on in the turns that follow ("I get a real perm to look like Chase"), is a character."""
    found, fiction = [], False
    for turn in turns:
        frame = None if fiction or kind == "roleplay" else _FICTION_ASK_RE.search(turn.content[:REQUEST_CHARS])
        if fiction:
            found.append(own_words(turn, kind="roleplay"))
        elif frame:
            found.append(own_words(replace(turn, content=turn.content[: frame.start()]), kind=kind))
        else:
            found.append(own_words(turn, kind=kind))
        fiction = fiction or bool(frame)
    return found


def _the_task_wish(candidate: ExtractedCandidate) -> bool:
    """"User wants to run this as a service", split from "I own a Raspberry Pi 4 and want to run this as a service"
    (joined_predicates.py): the wish is the skipped task."""
    return bool(_TASK_WISH_RE.search(candidate.quote)) and bool(
        re.match(r"^User (?:wants|needs|would like|'d like|is trying)\b", candidate.statement))


def _out_of_character(candidate: ExtractedCandidate) -> ExtractedCandidate:
    """"(OOC: I'm actually a nurse irl)" → "User is a nurse" (the quote keeps its words); "I own a Raspberry Pi 4 and
    want to run this as a service" → "User owns a Raspberry Pi 4": the wish is the skipped task, not the person."""
    statement = _IRL_RE.sub("", candidate.statement)
    quote_cut, statement_cut = _TASK_WISH_RE.search(candidate.quote), _TASK_WISH_RE.search(statement)
    if quote_cut and statement_cut and len(statement[: statement_cut.start()].split()) >= 3:
        return candidate.model_copy(update={"quote": candidate.quote[: quote_cut.start()],
                                            "statement": statement[: statement_cut.start()]})
    if quote_cut and not statement_cut and not re.search(r"\b(?:wants?|needs?|would like|trying)\b", statement):
        # already split from its wish (joined_predicates.py): the quote keeps only what the statement says
        return candidate.model_copy(update={"quote": candidate.quote[: quote_cut.start()], "statement": statement})
    return candidate if statement == candidate.statement else candidate.model_copy(update={"statement": statement})


def disclosures_not_yet_found(turns: list[Turn], *, found: list[ExtractedCandidate]) -> list[ExtractedCandidate]:
    """The self-disclosure clauses said inside requests (self_disclosure.py) that say more than the candidates
    of `found` (or added before) that quote the same words of the same turn."""
    added: list[ExtractedCandidate] = []
    for d in self_disclosures(turns):
        said = {t for c in [*found, *added] if c.seq == d.seq and (c.quote in d.quote or d.quote in c.quote)
                for t in content_tokens(c.statement)}
        if set(content_tokens(d.statement)) - said - {"user"}:  # "As a nurse, I work nights" says more than "works nights"
            added.append(d)
    return added


def kept_session_disclosures(turns: list[Turn], *, found: list[ExtractedCandidate]) -> list[ExtractedCandidate]:
    """What a kept session's user says about themself inside their requests and the conversational rules
    missed: read in the user's own words (no code; of a long turn only the request before a paste)."""
    own = [replace(t, content=own_words(t, kind="document" if len(t.content) > REQUEST_CHARS else "coding"))
           for t in turns if t.role == "user"]
    return disclosures_not_yet_found([t for t in own if t.content.strip()], found=found)
