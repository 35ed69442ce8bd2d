"""The user's own draft, and where a request ends and pasted material starts.

A turn that brings a text ("Proofread my cover letter:\n…", "以下是我的作文：…") holds the request first and the paste
after it: `request_of` says where the request ends. A letter, an email, a CV or notes the user writes as themself are
the user's own words about themself (`own_draft`), and the name that signs such a letter is the user's
(`signed_name`); a text to reply to, a story or a script never is.
"""
from __future__ import annotations

import re

from dreaming.engine.language import STOP_WORDS

# Where pasted material starts: a line ending in a colon, a blank line, or an opening quote mark.
_PASTE_START_RE = re.compile(r":\s*\n|\n\s*\n|:\s*[\"“«]|\n|：")  # a full-width colon: "以下是我的作文："
REQUEST_CHARS = 400
# What the user writes as themself: a letter, an email, a CV, notes for a talk. Never a story, a poem, a
# script; nor an essay (an exam essay's "I work as a pilot" is made up for the prompt).
_WRITING = (r"(?:e-?mails?|mail|letters?|cover letter|motivation letter|personal statement|statement of purpose|"
            r"sop|cv|resume|résumé|bio|self-introduction|introduction|notes|speech|linkedin (?:post|summary|profile)|"
            r"profile|message)")
_OWN_DRAFT_RE = re.compile(
    rf"\b(?:my|our)\s+(?:own\s+|original\s+|(?!story|poem|novel|script|song|lyrics|chapter|essay)[\w-]+\s+){{0,3}}?"
    rf"{_WRITING}\b"
    rf"|\b(?:proofread|polish|improve|correct|edit|rewrite|rephrase|revise|check)\b[^.\n]{{0,40}}?"
    rf"\b(?:this|the following|the)\s+(?:e-?mail|letter|cover letter|motivation letter|personal statement)\b"
    r"|我的(?:邮件|简历|自我介绍|信|发言稿|演讲稿|申请)",
    re.IGNORECASE,
)
# ... but a text to reply to is the other person's, and a story's first person is a character.
_NOT_OWN_DRAFT_RE = re.compile(
    r"\b(?:reply|respond|response|answer(?:ing)?)\s+(?:to|for)\b|\b(?:story|stories|poem|novel|fiction|fanfic|script|"
    r"screenplay|lyrics|song|chapter|character|roleplay|role-play)\b|回复",
    re.IGNORECASE,
)
# "Thank you and best regards,\nErli" closing the user's own letter: the user's name.
_SIGNED_RE = re.compile(
    r"(?im)^[^\n]{0,30}\b(?:regards|sincerely|best|cheers|thanks|thank you|yours(?: truly| faithfully| sincerely)?|"
    r"warmly|warm wishes|respectfully),?[ \t]*\n\s*(?P<name>(?-i:[A-Z][a-z]{1,15}(?:[ \t][A-Z][a-z]{1,15}){0,2}))[ \t]*[\"”]?[ \t]*$"
)
_NOT_NAMES = frozenset("your name team sir madam dear the all everyone me admin user customer manager".split())


# A long turn with nothing pasted that opens with an instruction: "Write a user story where I am enhancing …. currently …".
_OPENING_REQUEST_RE = re.compile(
    r"\s*(?:(?:please|pls|kindly|can you|could you|would you)\s+)?(?:write|create|make|generate|draft|compose|give|"
    r"help|describe|explain|rewrite|prepare|design|suggest|plan)\b[^.!?\n]*[.!?]", re.IGNORECASE)


def request_of(text: str) -> str:
    """The request before a pasted text (all of a short turn without a paste; of a long one without a paste, the
    instruction it opens with)."""
    head = text[:REQUEST_CHARS]
    cut = _PASTE_START_RE.search(head)
    if cut or len(text) <= REQUEST_CHARS:
        return head[: cut.start()] if cut else head
    opening = _OPENING_REQUEST_RE.match(head)
    return opening.group(0) if opening else ""


def own_draft(request: str) -> bool:
    """Whether a request says the text it brings is the user's own writing about themself ("improve my
    cover letter", "proofread the following email", "我的简历"), not someone else's to answer or a story."""
    return bool(_OWN_DRAFT_RE.search(request)) and not _NOT_OWN_DRAFT_RE.search(request)


def signed_name(text: str) -> list[tuple[str, str]]:
    """The name that signs the user's own letter (a draft to polish, never one to reply to)."""
    if not own_draft(request_of(text)):
        return []
    found = []
    for m in _SIGNED_RE.finditer(text):
        name = m.group("name")
        if any(w.lower() in _NOT_NAMES | STOP_WORDS for w in name.split()):
            continue
        closing = m.group(0)[: m.start("name") - m.start()].split()
        # as few closing words as make a quote ("best regards, Erli"), and not a capitalised title
        closing = closing[-max(1, 3 - len(name.split())):]
        start = m.start() + m.group(0).rfind(closing[0], 0, m.start("name") - m.start())
        found.append((text[start: m.end("name")], f"User's name is {name}"))
    return found[-1:]  # the letter's own closing, not one it quotes


# The request after a paste ("<marking criteria…>\n\nThe title of my dissertation is X. Can you write 200 words for the
# ethics section?", "…更值得关注。请为我精简以上内容"): a task for the assistant, with a task's verb, so a pasted letter's own
# "Could you confirm the booking?" is not taken for the user's words.
_CLOSING_TASK_RE = re.compile(
    r"\b(?:can|could|would|will) you\b|\bplease\b|\bpls\b|^\s*(?:now\s+)?(?:write|rewrite|summari[sz]e|translate|proofread|"
    r"paraphrase|shorten|expand|simplify|correct|improve|polish|edit|make|give|help)\b|请|帮我|帮忙",
    re.IGNORECASE | re.MULTILINE,
)
_TASK_VERB_RE = re.compile(
    r"\b(?:write|rewrite|re-write|summari[sz]e|summary|translate|proofread|paraphrase|rephrase|shorten|expand|simplify|correct|"
    r"improve|polish|edit|words|essay|section|answer)\b|精简|润色|翻译|总结|改写|修改|概括|扩写|续写|以上|上面",
    re.IGNORECASE,
)
_SIGN_OFF_RE = re.compile(r"(?im)^[^\n]{0,30}\b(?:regards|sincerely|yours|cheers|best wishes)\b")
_CLOSING_SENTENCE_RE = re.compile(r"[^。！？!?.\n]*(?:请|帮我)[^。！？!?.\n]*[。！？!?.]?\s*$")


def closing_request(text: str) -> str:
    """The user's request after the text a long turn brings: its last paragraph (its last sentence, when the request
    runs on from the paste on the same line), when it asks the assistant to do something to the text; else ""."""
    if len(text) <= REQUEST_CHARS:
        return ""
    body = text.rstrip()
    block = body[body.rfind("\n\n") + 2:] if "\n\n" in body else body[body.rfind("\n") + 1:]
    if len(block) > REQUEST_CHARS:
        last = _CLOSING_SENTENCE_RE.search(block[-REQUEST_CHARS:])
        block = last.group(0).strip() if last else ""
    if not block or _SIGN_OFF_RE.search(block) or not (_CLOSING_TASK_RE.search(block) and _TASK_VERB_RE.search(block)):
        return ""
    return block
