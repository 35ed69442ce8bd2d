"""Session triage by signals: coding, document, translation, roleplay, or normal (kept).

Each user turn is scored for the four skip kinds; the session takes the kind that dominates the
user's words. A session in which the user talks about themself is always kept, whatever else it holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from dreaming.engine.language import CJK_RE
from dreaming.protocol import TriageResult, Turn

SKIP_KINDS = ("coding", "document", "translation", "roleplay")

_CODE_FENCE_RE = re.compile(r"```|~~~")
_STACK_TRACE_RE = re.compile(
    r"Traceback \(most recent call last\)|File \"[^\"\n]+\", line \d+|^[ \t]+at [\w$.]+\(|"
    r"\b[A-Za-z]*(?:Error|Exception)(?::|\s+at\b)|\bSyntaxError\b|[Ss]egmentation fault|[Ss]tack ?trace|"
    r"undefined is not|[Nn]ull ?[Pp]ointer|command not found|exit code \d+|npm ERR!|E/AndroidRuntime|\bfatal:",
    re.MULTILINE,
)
_CODE_LINE_RE = re.compile(
    r"^\s*(?:def |class |import |from \S+ import |#include|function\b|const |let |var |public |private |"
    r"protected |static |return\b|if ?\(|for ?\(|while ?\(|else\b|elif |try:|except\b|catch ?\(|"
    r"SELECT |INSERT |UPDATE |CREATE TABLE|<\w+[^>]*>|</\w+>|\}|\{|@\w+|\w+\s*=\s*[\w\"'\[{(]|"
    r"\w+(?:\.\w+)+\(.*\)\s*;?$|local \w+|end$|Sub |End Sub|Dim |\$ |>>> |#!/)",
    re.MULTILINE,
)
_CODE_WORDS_RE = re.compile(
    r"\b(?:code|coding|program(?:ming)?|script|function|method|class|variable|compile[rd]?|debug(?:ging)?|bug|"
    r"error|exception|syntax|api|sdk|json|xml|yaml|html|css|javascript|typescript|python|java|kotlin|c\+\+|"
    r"c#|golang|rust|php|ruby|sql|mysql|postgres|regex|docker|kubernetes|git|github|npm|pip|gradle|maven|"
    r"react|vue|angular|django|flask|node(?:\.js)?|jquery|pandas|numpy|keras|tensorflow|pytorch|vba|macro|"
    r"excel formula|linux|bash|shell|terminal|powershell|database|query|backend|frontend|server|endpoint|"
    r"repository|deploy|unity|lua|android studio|xcode|swift|framework|library|module|plugin|algorithm)\b",
    re.IGNORECASE,
)
_CODE_REQUEST_RE = re.compile(
    r"\b(?:write|give|type|make|create|build|fix|debug|optimi[sz]e|refactor|implement|code)\b[^.?!\n]{0,40}"
    r"\b(?:code|(?<!talk )(?<!movie )(?<!video )(?<!film )script|function|program|app|website|bot|query|api)\b|\bcode me\b|"
    r"\b(?:in|using|with) (?:python|java|javascript|c\+\+|c#|html|sql|php|kotlin|swift|rust|go|lua|vba|react)\b",
    re.IGNORECASE,
)
_CODE_WORDS_ZH_RE = re.compile(r"代码|编程|程序|报错|函数|变量|编译|调试|脚本|算法|接口|数据库|bug|Bug|BUG")
_CODE_WORDS_OTHER_RE = re.compile(
    r"\bкод\w*|\bошибк\w*|\bпрограмм\w*|\bфункци\w*|\bскрипт\w*|\bбаз\w* данных|\bc[oó]digo\b|"
    r"\bprograma(?:ci[oó]n)?\b|\bfunci[oó]n\b|\bfonction\b|\bFunktion\b|\bbase de (?:datos|donn[ée]es)\b",
    re.IGNORECASE,
)
# A request for code in other languages: "напиши … код", "escribe un programa", "écris une fonction".
_CODE_REQUEST_OTHER_RE = re.compile(
    r"(?:\bнапиш\w*|\bсдела\w*|\bсозда\w*|\bисправ\w*|\bescrib\w*|\bcrea\w*|\b[ée]cri\w*|\bschreib\w*)"
    r"[^.?!\n]{0,100}(?:\bкод\w*|\bпрограмм\w*|\bскрипт\w*|\bфункци\w*|[cс]\+\+|\bc[oó]digo\b|\bprograma\b|"
    r"\bscript\b|\bfonction\b|\bfunci[oó]n\b|\bProgramm\b)",
    re.IGNORECASE,
)

_TRANSLATE_RE = re.compile(
    # "translate", "a translation of/into …"; not the bare noun ("transcription and translation",
    # "the English translation in parentheses" inside another request)
    r"\btranslat(?:e|ing)\b|\btranslations? (?:of|into|to|for)\b|\btranslation:|"
    r"\b(?:into|to) (?:english|chinese|spanish|french|german|japanese|korean|"
    r"russian|arabic|farsi|persian|italian|portuguese|hindi|turkish|vietnamese|thai|indonesian|dutch|polish)\b"
    r"(?=[^.?!\n]{0,3}(?::|\n|$|,|\.))|\bwhat does [^?]{1,60} mean in\b|\bhow do you say\b",
    re.IGNORECASE,
)
_TRANSLATE_OTHER_RE = re.compile(r"\bперевед\w*|\bперевод\w*|\btradu[cz]\w*|\btraduis\w*|[üu]bersetz\w*", re.IGNORECASE)
_TRANSLATE_ZH_RE = re.compile(r"翻译|译成|翻成|译为|英译中|中译英|(?:用|成)(?:英文|中文|英语|日语|韩语)(?:说|写|表达)")

_DOCUMENT_VERB_RE = re.compile(
    # "Polish" with a capital is the nationality ("Polish supervillains") unless it opens a request ("Polish this")
    r"(?-i:\bpolish\b)|(?-i:\bPolish\b)(?= (?:this|the|my|it|these|following|up)\b)|"
    r"\b(?:summari[sz]e|summary|tl;?dr|rewrite|re-write|rephrase|paraphrase|proofread|edit|improve|"
    r"shorten|condense|expand|respond(?: in \d+ words)? to (?:this|the following)|reply to this|analy[sz]e|"
    r"explain (?:this|these|it|the following)|critique|review this|grammar|correct (?:this|the|any|all|my)|"
    r"make (?:it|this) (?:better|shorter|longer|more)|bullet points|key points|main points|add points)\b",
    re.IGNORECASE,
)
_DOCUMENT_NOUN_RE = re.compile(
    r"\b(?:article|essay|paper|email|e-mail|letter|paragraphs?|passage|text|document|report|abstract|"
    r"statement|story|chapter|post|content|speech|table|tables|findings|results|following)\b",
    re.IGNORECASE,
)
_DOCUMENT_OTHER_RE = re.compile(
    r"\bперефраз\w*|\bперепиш\w*|\bсократи\w*|\bперескаж\w*|\bрезюм\w*|\banaliza\b|\bresum[ei]\w*|"
    r"\breformul\w*|\bcorrig\w*|\bparafrase\w*|\bumschreib\w*|\bzusammenfass\w*|\breescrib\w*|\br[ée][ée]cri\w*",
    re.IGNORECASE,
)
_DOCUMENT_ZH_RE = re.compile(r"总结|概括|润色|改写|修改|修饰|校对|摘要|缩写|扩写|精简|分析(?:一下)?(?:这|以下)|重写|提炼")
_DOCUMENT_NOUN_ZH_RE = re.compile(r"文章|作文|论文|邮件|段落|这段|以下|下面|全文|报告|材料")

_ROLEPLAY_RE = re.compile(
    # "role playing games", "a role play event": the user's hobby, not a game with the assistant
    r"\b(?:role ?-?play(?:ing)?+(?!\s*(?:games?|events?|groups?|clubs?|community|communities)\b)|rp\b|"
    r"let'?s play\b(?! (?:a |some )?(?:music|song|video))|stay in character|"
    r"in character|out of character|\(ooc|continue the story|continue the scene|"
    r"pretend (?:to be|you are|you're)|act as if you were|"
    # a character's name is capitalised even under IGNORECASE: "I play Gandalf", not "I play in the band"
    r"i (?:play|am playing|will play)\s+(?:as\s+)?(?-i:[A-Z])\w+|i try to (?:cast|attack|dodge|open|run|grab)|"
    r"interactive (?:story|fiction|game)|text adventure|your turn|what do you do next)",
    re.IGNORECASE,
)
# "You are Luna, a shy elf …" only counts together with a game or scene marker in the same message;
# "You are a professional machine learning specialist" is a task prompt.
_YOU_ARE_RE = re.compile(r"\byou (?:are|will be|will play|play) (?:now )?(?:a |an |my |the )?[\w' -]{1,40}", re.I)
_SCENE_RE = re.compile(r"\b(?:let'?s play|game|scene|scenario|story|character|adventure|pretend)\b", re.I)
# "I want you to be AdventureGPT … a text-based adventure game", "Стань Дашей … в игре": the assistant given a
# persona to play a game with the user. A persona for a job ("act as a translator") has no game word.
_PERSONA_RE = re.compile(
    r"\bI want you to (?:be|act as|play|pretend|become)\b|\bAs [A-Z][\w-]+, you (?:will|must|should|are)\b|"
    r"(?:^|[.!?]\s+)(?:Стань|Представь, что ты|Ты теперь|Ты будешь)\b"
)
_GAME_RE = re.compile(r"\b(?:game|adventure|role ?-?play\w*|text-based|choose[- ]your[- ]own)\b|\bигр\w*|\bролев\w*", re.I)
_ROLEPLAY_ZH_RE = re.compile(r"角色扮演|扮演|你现在是|接下来你是|你是我的(?:女朋友|男朋友|老婆|老公)|继续故事|继续剧情|跑团")
# *waves*, *smiles softly* — an action between asterisks (not bold markdown headings, not math).
_ACTION_RE = re.compile(r"(?<![*\w(&])\*[a-z][a-z ,.'’!-]{1,80}?[a-z.!]\*(?![*\w])")
_SCRIPT_LINE_RE = re.compile(r"(?:^|[.!?”\"]\s+)[A-Z][\w'-]{1,20}(?: [A-Z][\w'-]{1,20})?:\s*[\"“(*]", re.MULTILINE)
_STORY_RE = re.compile(
    r"point of view|there (?:would|will) be dialogue|in this story|\bthe story so far\b|"
    # a bracketed stage direction, but not a shared photo's caption ("[photo: a dog on a beach]")
    r"^\s*\[(?![^\]]*\b(?:photos?|image|picture|pic|screenshot|caption|attachment|shares?|sent|sends)\b)[^\]]{5,200}\]|"
    r"^\s*\((?:[^()]{40,})\)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
# Code written inline (no line breaks): statements, calls, includes, operators.
_CODE_TOKEN_RE = re.compile(
    r"#include|\bint main\b|\bvoid \w+\s*\(|\breturn\s+\w*;|\w+\([^()\n]{0,40}\)\s*[;{]|"
    # a statement's end before a brace or another statement, not a list item's "…;" before the next item
    r";[ \t]*(?:\}|\n[ \t]*(?:\}|[\w.\[\]]+[ \t]*[=(]))|"
    r"\b(?:printf|scanf|console\.log|System\.out|std::)|[=!<>]=|&&|\|\||->|::|\+\+|=>"
)

_FIRST_PERSON_RE = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|me|myself)\b|我")


@dataclass
class _Score:
    coding: float = 0.0
    document: float = 0.0
    translation: float = 0.0
    roleplay: float = 0.0
    signals: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in SKIP_KINDS})

    def add(self, kind: str, amount: float, signal: str) -> None:
        setattr(self, kind, getattr(self, kind) + amount)
        if signal not in self.signals[kind]:
            self.signals[kind].append(signal)


def _symbol_density(text: str) -> float:
    visible = [c for c in text if not c.isspace()]
    if not visible:
        return 0.0
    return sum(c in "{}()[];=<>/\\*_#$&|`^~" for c in visible) / len(visible)


def _first_person_density(text: str) -> float:
    tokens = max(1, len(re.findall(r"\w+", text)) + len(CJK_RE.findall(text)) // 2)
    return len(_FIRST_PERSON_RE.findall(text)) / tokens


def _score_user_turn(text: str, score: _Score, weight: float) -> None:
    head = text[:400]  # instructions come first; a pasted body follows
    code_lines = len(_CODE_LINE_RE.findall(text))
    lines = max(1, text.count("\n") + 1)
    if _CODE_FENCE_RE.search(text):
        score.add("coding", 2.0 * weight, "code fence")
    if _STACK_TRACE_RE.search(text):
        score.add("coding", 1.5 * weight, "stack trace / error message")
    if code_lines >= 3 and code_lines / lines >= 0.25:
        score.add("coding", 2.0 * weight, "code lines")
    if len(text) > 200 and _symbol_density(text) > 0.06:
        score.add("coding", 1.0 * weight, "symbol density")
    if len(_CODE_TOKEN_RE.findall(text)) >= 8:
        score.add("coding", 2.0 * weight, "code tokens")
    code_words = len(_CODE_WORDS_RE.findall(head)) + len(_CODE_WORDS_ZH_RE.findall(head)) + len(
        _CODE_WORDS_OTHER_RE.findall(head)
    )
    if code_words:
        # Keywords alone never make a coding turn: "her programming", "a movie script".
        score.add("coding", min(1.0, 0.4 * code_words) * weight, "programming keywords")
    if _CODE_REQUEST_RE.search(head) or _CODE_REQUEST_OTHER_RE.search(head):
        score.add("coding", 1.0 * weight, "asks for code")

    if _TRANSLATE_RE.search(head) or _TRANSLATE_ZH_RE.search(head) or _TRANSLATE_OTHER_RE.search(head):
        score.add("translation", 2.0 * weight, "translation request")

    long_paste = len(text) > 500 and _first_person_density(text[200:]) < 0.02
    # the request opens the turn, or closes a long one ("<the article> Summarize the above.")
    ask = head + "\n" + text[-300:] if len(text) > 700 else head
    doc_verb = _DOCUMENT_VERB_RE.search(ask) or _DOCUMENT_ZH_RE.search(ask) or _DOCUMENT_OTHER_RE.search(ask)
    doc_noun = _DOCUMENT_NOUN_RE.search(head) or _DOCUMENT_NOUN_ZH_RE.search(head)
    if doc_verb and (long_paste or (len(text) > 400 and (doc_noun or '"' in text[:300] or ":" in head))):
        score.add("document", 1.5 * weight, "asks to summarize/rewrite/analyze a text")
    if long_paste and (doc_verb or doc_noun):
        score.add("document", 1.0 * weight, "long pasted text with little first person")

    roleplay_hits = len(_ROLEPLAY_RE.findall(text)) + len(_ROLEPLAY_ZH_RE.findall(text))
    roleplay_hits += bool(_YOU_ARE_RE.search(head) and _SCENE_RE.search(head))
    roleplay_hits += bool(_PERSONA_RE.search(head) and _GAME_RE.search(head))
    if roleplay_hits:
        score.add("roleplay", min(3.0, 1.5 * roleplay_hits) * weight, "roleplay instructions")
    actions = len(_ACTION_RE.findall(text))
    if actions:
        score.add("roleplay", min(2.0, 1.0 * actions) * weight, "*action* markers")
    script_lines = len(_SCRIPT_LINE_RE.findall(text))
    if script_lines >= 2:
        score.add("roleplay", (1.5 if script_lines >= 3 else 1.0) * weight, "script-style dialogue lines")
    if _STORY_RE.search(text):
        score.add("roleplay", 1.5 * weight, "story narration / stage directions")


def _score_assistant_turn(text: str, score: _Score) -> None:
    if _CODE_FENCE_RE.search(text) or len(_CODE_LINE_RE.findall(text)) >= 5:
        score.add("coding", 0.5, "assistant answers with code")
    if len(_ACTION_RE.findall(text)) >= 2:
        score.add("roleplay", 0.5, "assistant narrates *actions*")


STRONG = 1.4  # a turn's score from which it counts as that kind
_TASK_TALK_RE = re.compile(
    r"\b(?:the user|file|files|code|prompt|prompts|session|command|script|function|error|output|system|"
    r"text|essay|article|document|paragraph|translation|chapter|story|character|program|app|project|notes|"
    r"presentation|mistakes|sentences?|email|letter|list|words|questions?|table|website|post|send you)\b|"
    r"代码|文件|作文|文章|论文|翻译|程序|发给你|给你发|发送",
    re.IGNORECASE,
)


# "Write a story about me …": the first person of the story (and of its continuations) is a character.
_FICTION_REQUEST_RE = re.compile(
    r"\b(?:write|continue|make|create|tell)\b[^.?!\n]{0,40}\b(?:story|stories|scene|chapter|episode|fanfic|"
    r"fan-fiction|roleplay|role-play)\b|写(?:一个|一篇|个)?(?:故事|小说)|续写",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Disclosure:
    """A self-disclosure the extractor found, as far as triage needs it."""

    seq: int | None
    quote: str
    importance: float
    user_initiated: bool


def _about_the_user(d: Disclosure, text: str, needed: float) -> bool:
    """A disclosure that says something about the user: said on their own, important enough, not about
    the task (its tools, files, text), and not a sentence deep inside someone else's pasted text."""
    if not d.user_initiated or d.importance < needed or _TASK_TALK_RE.search(d.quote) or _CODE_WORDS_RE.search(d.quote):
        return False
    at = text.find(d.quote)
    return not (len(text) >= 600 and at > 300 and _first_person_density(text[200:]) < 0.02)


def _turn_kind(text: str, weight: float = 1.0) -> tuple[str | None, _Score]:
    score = _Score()
    _score_user_turn(text, score, weight)
    kind = max(SKIP_KINDS, key=lambda k: (getattr(score, k), -SKIP_KINDS.index(k)))
    return (kind if getattr(score, kind) >= STRONG else None), score


@dataclass
class SessionSignals:
    """What the rules see in a session: the share of the user's words each skip kind covers, the
    signals behind it, and the user turns in which the user talks about themself."""

    covered: dict[str, float]
    signals: dict[str, list[str]]
    total: float
    personal: list[int]
    own_kinds: list[str | None]
    assistant_code: float = 0.0  # share of the assistant's turns that answer with a code fence
    fiction: list[int] = field(default_factory=list)  # user turns whose first person is a story's character

    def share(self, kind: str) -> float:
        return self.covered[kind] / self.total if self.total else 0.0

    def rule_kind(self) -> str | None:
        """The skip kind the rules alone decide (None: keep)."""
        if self.personal or not self.total:
            return None
        kind = max(SKIP_KINDS, key=lambda k: (self.covered[k], -SKIP_KINDS.index(k)))
        if self.share(kind) >= 0.5 and self.signals[kind]:
            return kind
        # A question without code ("how to implement quick sort in c++") that the assistant answers
        # with code in most of its turns is a coding session all the same.
        return "coding" if self.assistant_code >= 0.5 else None


def session_signals(turns: list[Turn], *, disclosures: list[Disclosure] = ()) -> SessionSignals:
    """The rules' reading of a session.

    1. Each user turn gets its own kind from its signals (or none); a turn without signals continues
       the kind of the turn before it ("go on", "fix it", a pasted chapter). A roleplay turn or a
       request for a story starts fiction: no later turn is personal.
    2. Each kind covers the words of the user turns of that kind (assistant turns add a nudge); a
       session the assistant answers with code in most turns is coding when no kind covers half.
    3. A self-disclosure in a user turn that is not itself pasted material or code marks the turn as
       personal; in a turn that only continues a task or talks about code it must be substantial.
    """
    user_turns = [t for t in turns if t.role == "user" and t.content.strip()]
    by_seq = {}
    for d in disclosures:
        by_seq.setdefault(d.seq, []).append(d)

    covered = {kind: 0.0 for kind in SKIP_KINDS}
    signals = {kind: [] for kind in SKIP_KINDS}
    total = 0.0
    previous: str | None = None
    fiction = False
    in_fiction: list[int] = []
    personal: list[int] = []
    own_kinds: list[str | None] = []
    for turn in user_turns:
        own, score = _turn_kind(turn.content)
        own_kinds.append(own)
        kind = own or previous
        size = min(4000, max(40, len(turn.content)))
        total += size
        if kind:
            covered[kind] += size
            for signal in score.signals[kind]:
                if signal not in signals[kind]:
                    signals[kind].append(signal)
        # A roleplay turn is fiction; a request for a story makes the turns after it fiction.
        if fiction or own == "roleplay":
            in_fiction.append(turn.seq)
        fiction = fiction or own == "roleplay" or bool(_FICTION_REQUEST_RE.search(turn.content[:400]))
        if own is None and not fiction:
            # In a task's follow-up, or next to programming words ("I'm working with strings in
            # node.js"), only a substantial statement makes the turn personal.
            needed = 0.6 if previous or score.coding else 0.5
            if any(_about_the_user(d, turn.content, needed) for d in by_seq.get(turn.seq, [])):
                personal.append(turn.seq)
        previous = kind
    replies = [t.content for t in turns if t.role == "assistant"]
    for reply in replies:
        extra = _Score()
        _score_assistant_turn(reply, extra)
        for kind in SKIP_KINDS:
            if getattr(extra, kind):
                covered[kind] += 20  # a nudge, never enough on its own
    assistant_code = sum(bool(_CODE_FENCE_RE.search(r)) for r in replies) / len(replies) if replies else 0.0
    if assistant_code >= 0.5 and "assistant answers with code" not in signals["coding"]:
        signals["coding"].append("assistant answers with code")
    return SessionSignals(covered=covered, signals=signals, total=total, personal=personal, own_kinds=own_kinds,
                          assistant_code=assistant_code, fiction=in_fiction)


def triage_turns(turns: list[Turn], *, disclosures: list[Disclosure] = ()) -> TriageResult:
    """Classify a session by the rules alone: a self-disclosure keeps it, else the skip kind that
    covers at least half of the user's words skips it."""
    if not any(t.role == "user" and t.content.strip() for t in turns):
        return TriageResult(kind="normal", reason="no user messages")
    found = session_signals(turns, disclosures=disclosures)
    if found.personal:
        listed = ", ".join(str(s) for s in found.personal[:3])
        return TriageResult(kind="normal", reason=f"personal: the user talks about themself (turn {listed})")
    kind = found.rule_kind()
    if kind is None:
        return TriageResult(kind="normal", reason="task or conversation: no dominant skip signal")
    return TriageResult(
        kind=kind, reason=f"{kind} ({found.share(kind):.0%} of the user's words): {', '.join(found.signals[kind][:4])}"
    )
