"""Language facts the rules share: CJK detection, tokens, stop words, sentence and clause splitting."""
from __future__ import annotations

import re

from dreaming.engine.dates import DATE_PHRASE_RE

# Every "is this Chinese?" and every CJK character class of the app comes from here.
CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs (a regex class body)
# Scripts written without spaces between words: tokenizers treat them character by character.
EAST_ASIAN_CHARS = "\u3040-\u30ff" + CJK_CHARS + "\uac00-\ud7af"  # kana, ideographs, hangul
# Characters a BPE tokenizer spends about one token each on (ideographs, kana, hangul, CJK punctuation,
# full-width forms): the token estimate of MEMORY.md counts them one by one.
WIDE_CHARS = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
)
CJK_RE = re.compile(f"[{CJK_CHARS}]")
CJK_RUN_RE = re.compile(f"[{CJK_CHARS}]+")
# Latin letters with their accents, Greek and Cyrillic: "océano" and "дочь" are words (Chinese has its bigrams).
_LETTERS = "a-z0-9\u00df-\u00f6\u00f8-\u024f\u0370-\u03ff\u0400-\u04ff"
_WORD_RE = re.compile(f"[{_LETTERS}]+(?:'[a-z]+)?")

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been before being below
    between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
    few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers
    herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more
    most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them
    themselves then there there's these they they'd they'll they're they've this those through to too under
    until up very was wasn't we we'd we'll we're we've were weren't what what's when when's where where's
    which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your yours
    yourself yourselves user user's users themself also just really actually
    """.split()
)


def is_chinese(text: str) -> bool:
    """True when CJK characters make up a real share of the letters (so a stray 你好 does not flip it)."""
    cjk = len(CJK_RE.findall(text))
    if not cjk:
        return False
    latin = len(re.findall(r"[A-Za-z]", text))
    return cjk * 2 >= latin or cjk >= 6


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower().replace("’", "'"))


def content_tokens(text: str) -> list[str]:
    """Lower-cased English words without stop words, plus Chinese character bigrams."""
    tokens = [w for w in words(text) if w not in STOP_WORDS]
    for run in CJK_RUN_RE.findall(text):
        run = run.replace("用户", "").replace("我", "")
        if len(run) == 1:
            tokens.append(run)
        tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
    return tokens


def _stem(token: str) -> str:
    return token[:4] if token.isascii() else token  # "likes" / "like", "hiking" / "hike"


def in_own_words(*, quote: str, statement: str, share: float = 0.66) -> bool:
    """True when most of what the statement says is in the quote: "我喜欢爬山" → "用户喜欢爬山" is, but
    "I am!" → "User is a student" (built from the assistant's question) and "tokyo maybe" → "User
    moved to Tokyo" (one word of two) are not."""
    said = {_stem(t) for t in content_tokens(quote)}
    # A date worked out from "yesterday" (dates.py) is still the user's own word.
    stated = [_stem(t) for t in content_tokens(DATE_PHRASE_RE.sub(" ", statement))]
    if not stated or not said:
        return False
    return sum(1 for t in stated if t in said) / len(stated) >= share


# Sentence ends: . ! ? (not inside numbers like 3.5), CJK enders, line breaks, semicolons.
# A comma before "before that I …" / "since then I've …" also ends one: "About 2 years, before that I was a designer".
_SENTENCE_END_RE = re.compile(r"(?<=[.!?…])\s+|(?<=[.!?…][\"”])\s+(?=[A-Z])|(?<=[。！？!?；;])|\n+|(?<=[.!?])(?=[A-Z])"
                              r"|,\s+(?=(?:before that|after that|since then|other than that|apart from that|besides that|"
                              r"prior to that),?\s+(?:I|I'm|I’m|I've|I’ve|I'd|we|my)\b)")


# A period that closes an abbreviation, not a sentence: "Dr. Patel", "at St. Mary's", "e.g. pizza",
# "at 3 p.m. tomorrow". Titles never end a sentence; "St." does after a capitalized word ("Main St. How
# long…"); the others only when the next word starts in lower case.
_TITLE_RE = re.compile(r"(?:^|(?<=[\s(]))(?:Dr|Mr|Mrs|Ms|Mx|Prof|Fr|Rev|Sgt|Capt|Lt|Gen|vs|e\.g|i\.e)\.$", re.I)
_SAINT_RE = re.compile(r"(?:^|(?<=[\s(]))(?:St|Mt|Ft)\.$")
_SAINT_AFTER_NAME_RE = re.compile(r"[A-Z][\w'’]*\s+(?:St|Mt|Ft)\.$")
_ABBREVIATION_RE = re.compile(r"(?:^|(?<=[\s(]))(?:[a-z]\.[a-z]|etc|approx|Jr|Sr|Ave|Blvd|Rd|no|vol|ch|min|hrs?|mins?|lbs?|oz|ft)\.$", re.I)


def _abbreviation_before(text: str, end: int, next_at: int) -> bool:
    """True when the sentence end found at text[end:next_at] is the period of an abbreviation."""
    before = text[max(0, end - 12):end]
    if _TITLE_RE.search(before):
        return True
    if _SAINT_RE.search(before) and not _SAINT_AFTER_NAME_RE.search(before):
        return next_at < len(text) and text[next_at].isupper()
    return bool(_ABBREVIATION_RE.search(before)) and next_at < len(text) and text[next_at].islower()


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of sentences in `text`, trimmed of surrounding whitespace."""
    spans = []
    start = 0
    for m in _SENTENCE_END_RE.finditer(text):
        if _abbreviation_before(text, m.start(), m.end()):
            continue
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


# --- the other languages the rules read (multilingual.py): which one a text is in ------------------------

# Common words of each language that are not English words; Cyrillic text is read as Russian unless it
# has the letters only Ukrainian or Belarusian write (і ї є ґ ў), which no lexicon here covers.
_MARKERS = {
    "es": "el la los las de del que y en es un una por para con al lo se yo soy tengo mi mis gusta muy pero como "
          "está estoy hola también porque quiero puedo tiene hay este esta pero más cuando trabajo vivo muy años "
          "toco corro viajo juego hablo voy hago",
    "pt": "o os as de do da dos das que e em um uma para com não no na eu sou tenho meu minha você muito mas como "
          "está estou também porque quero posso tem isso ele ela mais quando trabalho moro toco jogo falo vou faço",
    "fr": "le la les de des du un une et est en que qui pour pas dans je suis j ai mon ma mes ce cette avec sur mais "
          "au aux très aussi parce ne il elle nous vous c est moi suis ai avec mais être fait",
    "de": "der die das und ist ich nicht ein eine zu den mit von sich auf für es im dem mein meine bin habe auch "
          "aber wie wir uns sehr oder wenn mir mich du dich bitte einen einem kann kannst war hat haben sind noch nur "
          "schon als",
    "nl": "de het een en van ik is dat niet je met op te zijn voor mijn ben heb ook maar als wat er aan bij nog "
          "al wij ze naar dan mij jij jou wel geen werk woon heet",
    "it": "il lo la i gli le di che e è un una per con non del della in mi sono ho mio mia anche ma come molto "
          "io questo questa ci sei lavoro abito suono vado gioco parlo faccio",
}
# English words among them ("in", "die", "come", "war", "pour", "met") say nothing about the language.
_ENGLISH_TOO = frozenset("come die den war hat im pour met er per non con hay sin son ben".split())
_MARKER_SETS = {code: frozenset(text.split()) - STOP_WORDS - _ENGLISH_TOO for code, text in _MARKERS.items()}
_LETTER_WORD_RE = re.compile(r"[^\W\d_]+")
_CYRILLIC_RE = re.compile(r"[а-яё]", re.IGNORECASE)
_NOT_RUSSIAN_RE = re.compile(r"[іїєґў]", re.IGNORECASE)
# Letters of Latin-script languages no lexicon here covers (Czech, Polish, Turkish, Romanian, Hungarian, Nordic…).
_OTHER_LATIN_RE = re.compile(r"[ěščřžůťďňłąęśźżńşğıășțőűåøæ]")  # matched on the lower-cased text
FOREIGN_LANGUAGES = ("ru", *_MARKERS)
# English stop words no other language here writes too ("a", "me", "he", "in" are Spanish, Italian or Dutch too).
_ENGLISH_ONLY = STOP_WORDS - frozenset().union(*_MARKER_SETS.values()) - {"a", "me", "he", "mi", "so", "do", "we"}


def foreign_language(text: str) -> str | None:
    """"ru", "es", "pt", "fr", "de", "nl" or "it" when `text` is written in that language, else None
    (English, Chinese, or a language the rules do not read)."""
    sample = text[:3000]
    cyrillic = len(_CYRILLIC_RE.findall(sample))
    latin = len(re.findall(r"[A-Za-z]", sample))
    if cyrillic and cyrillic >= latin:
        return None if _NOT_RUSSIAN_RE.search(sample) else "ru"
    if CJK_RE.search(sample) and is_chinese(sample):
        return None
    if len(_OTHER_LATIN_RE.findall(sample.lower())) >= 2:
        return None
    tokens = [w.lower() for w in _LETTER_WORD_RE.findall(sample)]
    if len(tokens) < 2:
        return None
    english = sum(1 for w in tokens if w in _ENGLISH_ONLY)
    scores = {code: sum(1 for w in tokens if w in markers) for code, markers in _MARKER_SETS.items()}
    best = max(scores, key=lambda code: (scores[code], -list(scores).index(code)))
    # A short text (what is left of a turn once a sensitive clause is out: "y corro maratones") needs one word.
    enough = 2 if len(tokens) > 6 or english else 1
    return best if scores[best] >= enough and scores[best] > english else None
