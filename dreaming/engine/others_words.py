"""Words in a user's turn that are not the user speaking about themself.

A user turn carries more than the user's own voice: lines of a script ("Naruto: I love a girlfriend"), a
story's dialogue (“I’m hooked.”, asked Sharon),
a pasted video transcript, a poem or a song, a title ("the My Hero Academia universe", "I Spent 24 Hours with the World's Shortest
Woman"), an assistant's self-description pasted back ("I am an AI trained to help…"), talk about
the chat itself ("My first request is…", "I will choose the fifth option", "I have a problem"), the slots of
a prompt that gives the assistant a role ("I want you to act as a chemist. My first job is to analyze…"), and
the instructions for a text to write, in the voice of its writer ("Don't use numbers, so I don't just use
periods. I use stops, not parentheses"). Each reads as first person and none is a fact about the user.
`not_the_user(text, quote)` says whether a quote found in `text` is one of these; extract.py drops such clauses
before they become candidates, whatever reading found them.

A quotation is not one of these: what a user asks to put into their own message ("Combine it with:
“I'm moved, two boxes of fresh food came”") is in their own voice, and the hand-labelled WildChat
conversations count it as theirs.
"""
from __future__ import annotations

import re

# "Naruto: …", "Dr. Grey: …" at the start of a line: a line of a script. Labels a user writes about
# their own message ("Update: I moved", "PS: …", "Me: …") are not characters.
_SPEAKER_RE = re.compile(r"(?m)^[ \t]*(?P<who>[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,2})[ \t]*:[ \t]*(?=\S)")
# The same inside a line of a script run together: "Sasuke: hey Naruto. Naruto: I love a girlfriend."
_INLINE_SPEAKER_RE = re.compile(r"(?:^|(?<=[.!?]))[ \t]*(?P<who>[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,2})[ \t]*:[ \t]*(?=\S)")
_OWN_LABELS = frozenset({
    "me", "i", "user", "update", "edit", "ps", "p.s", "p.s.", "note", "nb", "context", "background", "info",
    "question", "q", "answer", "a", "about me", "my question", "my situation", "details", "tldr", "tl;dr",
})
# A pasted forum thread: posts headed "Dark Fact said:" or signed with "Joined Aug 25, 2002" and a message count.
# Not the user's own telling ("My boss said:", "Then I said:").
_FORUM_POST_RE = re.compile(r"(?m)^(?!.*\b(?:I|my|My|we|We|our|Our|me)\b)[^\n]{1,40} said:[ \t]*$"
                            r"|^Joined[ \t]?[A-Z][a-z]{2} \d{1,2}, \d{4}[ \t]*$")
# Timestamps on lines of their own ("0:10", "12:05:33") mark a pasted transcript.
_TIMESTAMP_LINE_RE = re.compile(r"(?m)^\s*\d{1,2}:\d{2}(?::\d{2})?\s*$")
# A song's or poem's parts ("(Verse 1)", "[Chorus]") on lines of their own.
_SONG_PART_RE = re.compile(r"(?im)^\s*[\[(]?(?:verse|chorus|pre-chorus|bridge|outro|intro|hook|refrain|stanza)\b[^\n]{0,12}$")
_VERSE_LINE_RE = re.compile(r"^[A-Z][^\n]*[^.?!:;\s]$")
# "My" with a capital inside a sentence, followed by a capitalised word: a title or a name.
_TITLE_MY_RE = re.compile(r"(?<=[a-z,;] )My (?=[A-Z])")
_TITLE_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]{3,}")
# A character's line in a story: “I’m hooked.”, asked Sharon / Alex said, “I’m trying…”.
_SPEECH_VERBS = r"(?:said|says|asked|asks|replied|replies|added|adds|answered|shouted|whispered|exclaimed|muttered|yelled|cried)"
_REPORTED_SPEECH_RE = re.compile(
    rf"[“\"](?P<after>[^”\"\n]{{1,600}})[”\"],?[ \t]*{_SPEECH_VERBS}[ \t]+(?:[A-Z]|the |his |her )"
    # … and a line the quote mark opens and the line's end closes: Robert replies, "I think I am developing:
    rf"|\b(?!I\b)[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?[ \t]+{_SPEECH_VERBS}(?: to [A-Z][\w'’-]*)?,?[ \t]*[“\"](?P<before>[^”\"\n]{{1,600}})(?:[”\"]|$)",
    re.MULTILINE,
)
_AI_SELF_RE = re.compile(
    r"\b(?:(?:I am|I'm|I’m|as) an? (?:AI|artificial intelligence|(?:large )?language model|chatbot|virtual assistant)\b|"
    r"I (?:can|could|will) (?:assist|help) (?:you )?with (?:tasks|questions|a variety|various|that|anything)\b|"
    r"(?:I am|I'm|I’m) (?:trained|programmed|designed) to\b)",
    re.IGNORECASE,
)
# Talk about the conversation itself, not the user's life.
_CHAT_META_RE = re.compile(
    r"^(?:I (?:have|had|got) (?:a|an|one|another|some|this|the same) (?:small |quick |little )?"
    r"(?:problem|issue|question|doubt|request|query|task)\s*[.!]?$|"
    r"my (?:first|next|last|second|third|previous|original|new|only) (?:request|reply|question|message|prompt|"
    r"answer|response|input|task|suggestion)\b|"
    r"I (?:will|'ll|’ll|would|'d|’d) (?:choose|pick|select|go with|take) (?:the |option |number )?"
    r"(?:\w+ )?(?:option|one|choice|answer|version)\b|"
    r"I (?:use|used|am using|'m using|’m using|run|ran|tried|copied|pasted) (?:this|that|these|those|the following|"
    r"it|them)\b|"
    r"I can use (?:it|this|that|them|these)\b|"
    r".*\bI meant\b)",  # "In China I meant": what they said before, put right
    re.IGNORECASE,
)


# A question to the assistant without its question mark: "How do i respond to…", "Should I tell my boss…".
_ASKING_RE = re.compile(
    r"^(?:(?:how|what|where|when|why|which|who)\s+(?:do|does|did|should|can|could|would|will|shall|must|might|am)|"
    r"should|can|could|do|did|am|shall|may|might|must)\s+(?:I|i|we)\b|"
    # ... and a request: "Write 10 short comments to my followers…" says what to write, not who the user is.
    r"^(?:please\s+)?(?:write|create|generate|rewrite|translate|summari[sz]e|list|draft|compose|explain|give me|tell me|"
    r"make me)\b",
    re.IGNORECASE,
)

# A piece of writing asked for with the user inside it: "Write a user story where I am enhancing the page…",
# "create a scene in which I meet…", "a story about me, a guy in college…": every "I" after it in the turn is
# the one in the story — except a user story's premise, the developer's own work ("where I am enhancing the page").
_STORY_FRAME_RE = re.compile(
    r"\b(?:write|create|generate|make|draft|compose|give me|tell)\b[^.!?\n]{0,60}?"
    r"\b(?:(?P<user_story>user stor(?:y|ies))|story|stories|scene|poem|song|script|dialogue|scenario|tale|narrative|"
    r"fanfic)\b[^.!?\n]{0,30}?"
    r"\b(?:(?:where|in which|wherein|whereby)\s+(?P<who>I|i|we|me|my)|about\s+(?:me|myself))\b",
    re.IGNORECASE,
)


# A prompt that gives the assistant a role: "I want you to act as a chemist", "pretend to be my landlord".
_ROLE_PROMPT_RE = re.compile(
    r"\b(?:act|acting|serve|function|behave|roleplay|role-play) as (?:an?|my|the|our)\b|"
    r"\bpretend (?:to be|you(?:'re|’re| are))\b|\bI want you to (?:be|become|play) (?:an?|my)\b",
    re.IGNORECASE,
)
# ... and its slots in the first person: what the role's first task is, what the user will hand it.
_ROLE_SLOT_RE = re.compile(
    r"^(?:my (?:first|next|initial|only|second|third|1st) (?:[\w-]+ ){0,2}?(?:is|will be|would be)\b|"
    r"I(?: will|'ll|’ll| shall| am going to|'m going to|’m going to) (?:\w+ )?(?:give|provide|send|type|write|tell|"
    r"ask|share|supply|describe|paste|reply|feed|present)\b)",
    re.IGNORECASE,
)
# A request for a text ("Let's write a 1000 word blog post", "rewrite this email") …
_WRITING_REQUEST_RE = re.compile(
    r"\b(?:write|rewrite|re-write|draft|compose|generate|create|paraphrase|rephrase)\b[^.?!\n]{0,60}?"
    r"\b(?:post|article|essay|story|email|e-mail|letter|text|copy|content|paragraphs?|blog|caption|description|"
    r"review|script|speech|report|summary|poem|tweets?|thread)\b",
    re.IGNORECASE,
)
# ... and the instructions for it in the voice of its writer: what the text uses, what it avoids.
_TEXT_MECHANICS_RE = re.compile(
    r"^(?:so )?I (?:(?:do not|don't|don’t|never|always|only|just|mostly|rarely|also|can't|cannot|won't|will not|"
    r"must not|should not|shouldn't) )*(?:use|write|put|add|include|avoid|type|insert|want)\b[^.;!?]{0,40}?"
    r"\b(?:periods|full stops|stops|commas|punctuation|parenthes[ie]s|brackets|dashes|hyphens|emojis?|hashtags|"
    r"bullet points|bullets|numbers|numerals|headings|headers|subheadings|paragraphs|sentences|syntax|markdown|"
    r"bold|italics|capital letters|caps|quotation marks|exclamation marks|semicolons|colons|keywords?|jargon|"
    r"passive voice|active voice|first person|tone|wording)\b",
    re.IGNORECASE,
)


# The material of the task, not the user's life: "I have a dataframe with 3 columns", "我有一组0到0.8的数据".
_TASK_MATERIAL_RE = re.compile(
    r"^(?:I|i)\s+(?:have|had|got|'ve got|’ve got)\s+(?:a|an|this|the|some|two|three|\d+)\s+(?:\w+\s+){0,2}?"
    r"(?:dataframe|dataframes|data ?set|datasets|array|arrays|matrix|string|strings|dictionary|dict|json|csv|"
    r"spreadsheet|column|columns|variable|variables|regex|excel (?:file|sheet)|text file|"
    r"(?:list|set|array) of (?:numbers|integers|floats|strings|values|data|points|dicts|tuples|objects|urls))\b"
    r"|^我有(?:一组|一个|一些|一份|一段|个|两个|几个|一列|一张)[^，。,]{0,12}?(?:数据|列表|数组|矩阵|字符串|字典|表格|"
    r"变量|数字|excel|csv|json|dataframe)",
    re.IGNORECASE,
)
_ECHO_MIN_WORDS = 6


def not_the_user(text: str, quote: str, *, echoing: str | None = None) -> bool:
    """Whether `quote` (a verbatim piece of the user turn `text`) is someone else's words or chat talk. `echoing`
    is the other side's message before the turn: a quote found in it is the assistant's text pasted back."""
    at = text.find(quote)
    if at < 0:
        return False
    if echoing and len(quote.split()) >= _ECHO_MIN_WORDS and " ".join(quote.split()) in " ".join(echoing.split()):
        return True
    if _TASK_MATERIAL_RE.match(quote.strip()):
        return True
    return (_in_script_line(text, at, at + len(quote)) or _in_reported_speech(text, at)
            or _is_transcript(text) or _is_forum_thread(text) or _is_verse(text)
            or _is_title(quote) or bool(_TITLE_MY_RE.search(text[max(0, at - 2):at + len(quote)]))
            or bool(_AI_SELF_RE.search(quote)) or bool(_CHAT_META_RE.match(quote.strip()))
            or bool(_ASKING_RE.match(quote.strip())) or _in_a_story_asked_for(text, at)
            or _template_slot(text, at, quote.strip()))


def _template_slot(text: str, at: int, quote: str) -> bool:
    """A role prompt's slot after the role is set ("… act as a chemist. My first job is to…"), or a writing
    instruction in the writer's voice inside a request for a text ("… so I don't just use periods")."""
    if _ROLE_SLOT_RE.match(quote) and _ROLE_PROMPT_RE.search(text, 0, at):
        return True
    return bool(_TEXT_MECHANICS_RE.match(quote)) and bool(_WRITING_REQUEST_RE.search(text, 0, 4000))


def _in_a_story_asked_for(text: str, at: int) -> bool:
    frame = _STORY_FRAME_RE.search(text, 0, min(len(text), at + 12))
    if frame and frame.group("user_story") and frame.group("who") and at == frame.start("who"):
        return False  # the premise of a user story
    return bool(frame and frame.start() < at)


def _in_script_line(text: str, at: int, end: int) -> bool:
    """Whether the words from `at` to `end` are (or hold) a line spoken after someone's name: "Mira: I have…"."""
    line_start = text.rfind("\n", 0, at) + 1
    label = _SPEAKER_RE.match(text, line_start)
    if label and label.end() <= end and label.group("who").lower().rstrip(".") not in _OWN_LABELS:
        return True
    line_end = text.find("\n", at)
    labels = [m for m in _INLINE_SPEAKER_RE.finditer(text, line_start, len(text) if line_end < 0 else line_end)
              if m.group("who").lower().rstrip(".") not in _OWN_LABELS]
    before = [m for m in labels if m.end() <= end and m.start() <= at]
    # Two speakers or more in the line, and the words sit in the utterance of the last one before them.
    return len({m.group("who") for m in labels}) >= 2 and bool(before) and \
        not re.search(r"[.!?]", text[before[-1].end():at])


def _in_reported_speech(text: str, at: int) -> bool:
    """Whether the words from `at` on start inside a character's quoted line with its speaker named."""
    for m in _REPORTED_SPEECH_RE.finditer(text):
        group = "after" if m.group("after") is not None else "before"
        if m.start(group) <= at < m.end(group):  # a quote running past the line's end is still the character's
            return True
    return False


def _is_transcript(text: str) -> bool:
    return len(_TIMESTAMP_LINE_RE.findall(text, 0, 4000)) >= 3


def _is_forum_thread(text: str) -> bool:
    return len(_FORUM_POST_RE.findall(text, 0, 20_000)) >= 2


def _is_verse(text: str) -> bool:
    """A poem or a song: its parts named, or eight lines and more, most of them short, capitalised and unpunctuated
    at the end (a list's items are shorter; prose lines end in a full stop)."""
    if _SONG_PART_RE.search(text, 0, 4000):
        return True
    lines = [line.strip() for line in text[:4000].splitlines() if line.strip()]
    if len(lines) < 8:
        return False
    verse = sum(1 for line in lines if 3 <= len(line.split()) <= 14 and _VERSE_LINE_RE.match(line))
    return verse / len(lines) >= 0.75


def _is_title(quote: str) -> bool:
    """"I Spent 24 Hours with the World's Shortest Woman": most longer words capitalised."""
    words = _TITLE_WORD_RE.findall(quote)
    if len(words) < 4 or words[0][0].islower():
        return False  # a title capitalises its first word too: "I speak English, Hindi and French" is names in a sentence
    # and any sentence does: "We're flying to Florida for Christmas" is no title
    capitalised = sum(1 for w in words[1:] if w[0].isupper())
    return capitalised / (len(words) - 1) >= 0.75
