"""Quote verification: a candidate's quote must be the user's own words, found in the message it cites.

Normalization forgives what a model may legitimately change when copying (whitespace, full-width
vs half-width characters, curly quotes and other punctuation, case) and nothing else.
"""
import re
import unicodedata

from dreaming.engine.answers import frame_words
from dreaming.engine.chinese_answers import zh_frame_words
from dreaming.engine.chinese_pastimes import zh_pastimes
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.dates import DATE_PHRASE_RE
from dreaming.engine.go_activities import OUTING_WORDS
from dreaming.engine.implied_pursuits import INFERRED_WORDS
from dreaming.engine.language import CJK_RE, STOP_WORDS, is_chinese, words
from dreaming.engine.multilingual import SAID
from dreaming.engine.sensitive import sensitive_spans

_PUNCT_OR_SPACE = re.compile(r"[\s\W_]+", re.UNICODE)


def normalize_for_match(text: str) -> str:
    # NFKC folds full-width forms (ＡＢＣ，１２３) into their ASCII twins.
    text = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_OR_SPACE.sub("", text)


def quote_in_text(*, quote: str, text: str, min_chars: int = 2) -> bool:
    """True when the normalized quote is a substring of the normalized text (and not trivially short)."""
    needle = normalize_for_match(quote)
    if len(needle) < min_chars:
        return False
    return needle in normalize_for_match(text)


def quote_in_message(*, quote: str, text: str) -> bool:
    """The quote is verbatim in a stored message, or in its masked form.

    A model only ever sees masked text, so a quote may carry "[SECRET]" where the stored message has
    the secret itself; both spellings of the message count. Light sleep's verification and deep
    sleep's re-check both ask this.
    """
    return quote_in_text(quote=quote, text=text) or quote_in_text(quote=quote, text=mask_secrets(text))


def quoted_sensitive(statement: str) -> str | None:
    """The sensitive kind of the words a `User said: "…"` statement quotes, whoever they seem to name: the
    user's words kept without a subject ("Diagnosed with diabetes last year.") are about the user, so the
    first-person reading of the sensitive rules would miss them. None for any other statement."""
    if not statement.startswith(SAID):
        return None
    spans = sensitive_spans(statement[len(SAID):], anyone=True)
    return spans[0][2] if spans else None


# --- does the quote support the statement? ------------------------------------------------------
# A verbatim quote proves the user said *something*; it does not prove the statement. "I have" is in
# nearly every conversation, and "User has three kids and a yacht." must not ride on it. So the quote
# must be long enough to carry a fact, and what the statement adds — its names, numbers and content
# words — must be in the quote, up to the rewrite a third-person statement makes ("I love" → "User
# loves", "my" → "their") and a date worked out from the quote's own "yesterday" / "next month".

MIN_QUOTE_WORDS = 3
MIN_QUOTE_CJK = 4

# Words a faithful third-person rewrite adds without saying anything new.
_REWRITE_WORDS = frozenset(
    """user user's users their theirs they them themself themselves has have is are was were does do did
    name named called household who whose which that someone something currently said""".split()
)
# A date worked out from a relative time needs one in the quote (English and Chinese time words).
_RELATIVE_TIME_RE = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this|coming|weekend|week|month|year|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|morning|night|earlier|recently|soon|just|"
    # "in October" → "in October 2026": a month said without its year is worked out like "next month"
    r"january|february|march|april|(?-i:May)|june|july|august|september|october|november|december)\b"
    r"|[昨今明前后上下本这]个?[天晚周月年]|[上下这本]个?(?:星期|礼拜)|星期|周[一二三四五六日末]|礼拜|上周|下周|去年|今年|明年|前天|后天|刚",
    re.IGNORECASE,
)
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20",
                 "a": "1", "an": "1", "single": "1", "once": "1", "twice": "2", "both": "2", "couple": "2",
                 "first": "1", "second": "2", "third": "3", "half": "0.5", "dozen": "12"}
_ZH_DIGITS = {"一": "1", "二": "2", "两": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8",
              "九": "9", "十": "10"}
# Characters a Chinese third-person rewrite adds: 用户 and grammar words.
_ZH_REWRITE_CHARS = frozenset("用户他她们的了是在有着过也都很会要和与及把被对为一个")
_CONTRACTED = {"ll": "will", "m": "am", "ve": "have", "d": "would", "re": "are", "t": "not"}
_SYNONYMS = {"fave": "favorite", "favourite": "favorite", "fav": "favorite", "faves": "favorite", "favorites": "favorite", "wanna": "want", "gonna": "will", "mom": "mother", "mum": "mother",
             "dad": "father", "hubby": "husband", "bf": "boyfriend", "gf": "girlfriend", "kiddo": "kid",
             "kiddos": "kids", "children": "kids", "child": "kid",
             "used": "use"}  # chat's "I use to play" is "used to" (third_person.py writes it so)
# A quote with a pronoun may have it resolved from the user's own earlier words ("I love it" → hiking).
_PRONOUN_RE = re.compile(r"\b(?:it|they|them|he|she|him|her|this|that|there|those|these|we|us|one)\b|[它他她这那]",
                         re.IGNORECASE)
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")  # not \b: "老伴2025年" has no word boundary
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)?")
# A word of any alphabet ("дочь", "océano"); Chinese is counted by its characters.
_LATIN_WORD_RE = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def quote_too_short(quote: str) -> bool:
    cjk = len(CJK_RE.findall(quote))
    latin_words = len(_LATIN_WORD_RE.findall(CJK_RE.sub(" ", quote)))
    return cjk + latin_words < MIN_QUOTE_CJK if cjk else latin_words < MIN_QUOTE_WORDS


def _stem(word: str) -> str:
    """A crude English stem, enough to accept agreement and tense: loves/loved/loving/love, kids/kid."""
    word = _SYNONYMS.get(word, word).removesuffix("'s")
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and word[-3:-2] in ("s", "x", "z", "o", "h") and len(word) > 3:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    word = word.rstrip("e") or word
    if len(word) > 3 and word[-1] == word[-2]:  # running → runn → run, planned → plann → plan
        word = word[:-1]
    return word[:6]


def _quote_words(quote: str) -> list[str]:
    """The quote's words with contractions spelled out: "I'll" says "will", "I'm" says "am"."""
    out = []
    for word in words(quote):
        head, _, tail = word.partition("'")
        out.append(word)
        if tail:
            out += [head, _CONTRACTED.get(tail, tail)]
    return out


def _numbers(text: str) -> set[str]:
    found = {n.replace(",", "") for n in _NUMBER_RE.findall(text)}
    found |= {_NUMBER_WORDS[w] for w in words(text) if w in _NUMBER_WORDS}
    found |= {_ZH_DIGITS[ch] for ch in text if ch in _ZH_DIGITS}
    return found


def statement_unsupported(*, statement: str, quote: str, message: str = "", context: str = "",
                          asked: str = "") -> str | None:
    """Why the quote does not support the statement, or None when it does.

    `message` is the whole user message the quote is from: a date the statement worked out
    ("on 7 May 2023") may come from its "yesterday" even outside the quote. `context` is the user's
    own words in the session so far: a name, or what a pronoun of the quote stands for ("She is a
    nurse" → "User's sister Anna is a nurse"), may come from there. `asked` is the other side's
    question the message answers, when it opens with that answer: a short answer's statement may take
    its words from the question (answer_unsupported) — nothing else may.
    """
    reason = _unsupported_alone(statement=statement, quote=quote, message=message, context=context)
    if reason and asked:
        return answer_unsupported(statement=statement, quote=quote, asked=asked) and reason
    return reason


# A short answer: "Yes, two of them!", "I do.", "Mostly rock." (longer, it says its own things).
MAX_ANSWER_WORDS = 15
_QUESTION_TAIL_CHARS = 300
_NEGATION_RE = re.compile(r"n't\b|\b(?:not|no|never|nope|nah|neither|nor|none)\b|没|不", re.IGNORECASE)


# "I love hiking. Do you?": a question that names nothing asks about the sentence before it.
_TAG_QUESTION_RE = re.compile(
    r"^\W*(?:(?:and|so|what|how)\s+)?(?:about\s+)?(?:(?:do|did|are|were|have|would|can|will)\s+)?(?:you|u|yourself)"
    r"(?:\s+(?:too|also|as well))?\s*[?？]+\W*$",
    re.IGNORECASE,
)
# "I also enjoy mountain biking. Have you ever tried it?": the "it" is named in the sentence before (answers.antecedent).
_POINTING_QUESTION_RE = re.compile(r"^\W*(?:\w+\s+){1,4}(?:it|them)(?:\s+(?:too|also|before|yet|at all))?\s*[?？]+\W*$",
                                   re.IGNORECASE)
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?…。！？])\s*")


def questions_asked(text: str) -> str:
    """The interrogative sentences of the other side's message, the only words a user's answer may borrow.

    "I love hiking in the mountains." followed by "Me too!" lends nothing: the other side's statement is
    not the user's. "Do you have any pets?" lends its words; so does "I love hiking. Do you?", whose
    question names nothing and asks about the sentence before it.
    """
    parts = [p.strip() for p in _SENTENCE_SPLIT_RE.split(text) if p.strip()]
    asked = []
    for i, part in enumerate(parts):
        if not part.endswith(("?", "？")):
            continue
        if i and (_TAG_QUESTION_RE.match(part) or _POINTING_QUESTION_RE.search(part)):
            asked.append(parts[i - 1])
        asked.append(part)
    return " ".join(asked)


# What a short answer says besides its content: "Yes, of course!", "No, not yet", "Mine is …".
_ANSWER_FILLERS = frozenset(
    """yes yeah yep yup sure course definitely absolutely certainly totally no nope nah not yet really never too
    also mine well oh haha lol thanks thank same here indeed do does did am is are have has was""".split()
)


def answer_unsupported(*, statement: str, quote: str, asked: str) -> str | None:
    """Why a short answer and the question it answers do not, together, support the statement, or None.

    "Do you have any pets?" → "Yes, two cats" supports "User has two cats"; "Do you eat meat?" → "I do"
    supports "User eats meat", "I don't" only "User does not eat meat". Every number and content word of
    the statement is in the quote or in a question of the tail (questions_asked), every content word of
    the answer is in the statement (an answer about something else lends nothing), and the statement
    denies exactly when the answer does.
    """
    asked = questions_asked(asked[-_QUESTION_TAIL_CHARS:])
    if not asked:
        return "the message before asks nothing: the other side's statements are not the user's"
    if len(_LATIN_WORD_RE.findall(quote)) > MAX_ANSWER_WORDS:
        return "too long to be a short answer"
    if bool(_NEGATION_RE.search(quote)) != bool(_NEGATION_RE.search(statement)):
        return "the statement does not deny what the answer denies, or denies what it does not"
    said = " ".join([quote, asked])
    missing_numbers = sorted(_numbers(statement) - _numbers(said) - {"1"})
    if missing_numbers:
        return f"number not in the answer nor in the question: {', '.join(missing_numbers)}"
    own = [w for w in words(quote) if w not in STOP_WORDS and w not in _ANSWER_FILLERS]
    unsaid = [w for w in own if _stem(w) not in {_stem(x) for x in words(statement)}]
    if unsaid:
        return f"the statement leaves out what the answer says: {', '.join(unsaid[:6])}"
    # An answer that names its own thing ("Hiking and fishing.") may take its verb from the question's frame
    # ("What do you do for fun?" → "User enjoys …"); a bare "Yes" borrows nothing but the question's words.
    lent = (frame_words(asked) if own else "") + zh_frame_words(asked)
    missing = _missing_words(statement, quote=f"{said} {lent}", context="")
    return f"not in the answer nor in the question: {', '.join(missing[:6])}" if missing else None


# "I'm only 19" says "User is 19 years old": the words an age is said in are the rewrite's, once the quote gives
# the number right after the user's "I am".
_AGE_STATED_RE = re.compile(r"^User is (?P<n>\S+(?: (?!years)\S+)?) years old\b")
_AGE_SAID_RE = (r"\b(?:I'm|I’m|I am|Im|I m)\s+(?:only |just |almost |nearly |about |around |age |aged )?{n}"
                r"(?:\s+(?:years?|yrs?)\s+old\b|\s*(?:[,.!;…]|$)|\s+(?:and|but|now|soon|myself|too|lol)\b)")


def _age_words_lent(statement: str, quote: str) -> str:
    """The statement without its "years old" when the quote says the age as "I'm N" (see _AGE_STATED_RE)."""
    m = _AGE_STATED_RE.match(statement)
    if m and re.search(_AGE_SAID_RE.format(n=re.escape(m.group("n"))), quote, re.IGNORECASE):
        return statement[: m.end()].removesuffix(" years old") + statement[m.end():]
    return statement


def _unsupported_alone(*, statement: str, quote: str, message: str, context: str) -> str | None:
    message = message or quote
    statement = _age_words_lent(statement, quote)
    if quote_too_short(quote) and not _short_and_complete(statement=statement, quote=quote):
        return (f"quote too short to support a statement (needs {MIN_QUOTE_WORDS} words or "
                f"{MIN_QUOTE_CJK} Chinese characters): {quote[:80]!r}")
    if is_chinese(statement) != is_chinese(quote):
        return "statement is not in the language of the quote"
    time_words = [m.group(0) for m in _RELATIVE_TIME_RE.finditer(message)]
    # "last year" → "in 2022": a worked-out date or year is the quote's own time word.
    stated = _YEAR_RE.sub(" ", DATE_PHRASE_RE.sub(" ", statement)) if time_words else statement
    missing_numbers = sorted(_numbers(stated) - _numbers(quote) - {"1"})
    if missing_numbers:
        return f"number not in the quote: {', '.join(missing_numbers)}"
    missing = _missing_words(stated, quote=" ".join([quote, *time_words]), context=context)
    if missing and statement in {habit for _, habit in zh_pastimes(quote)}:
        return None  # "跑了十公里" → "用户跑步": the pastime the clause shows, in its habit's words (chinese_pastimes.py)
    if missing:
        return f"not in the quote: {', '.join(missing[:6])}"
    return None


def _short_and_complete(*, statement: str, quote: str) -> bool:
    """A two-word English quote that says all the statement says, and something: "I'm single" → "User is
    single", "I'm 25", "Love parties". ("I have" says nothing; "I'm Ali" cannot carry "User has a yacht".)"""
    if CJK_RE.search(quote) or len(_LATIN_WORD_RE.findall(quote)) < 2:
        return False
    content = [w for w in words(statement) if w not in STOP_WORDS and w not in _REWRITE_WORDS]
    return bool(content) and not _numbers(statement) - _numbers(quote) - {"1"} \
        and not _missing_words(statement, quote=quote, context="")


_NEVER = re.compile(r"(?!)")


def _missing_words(statement: str, *, quote: str, context: str) -> list[str]:
    """Content words of the statement the quote does not say. A few may come from the user's own
    words before it: any name, plus what a pronoun of the quote stands for (two words) or the object
    a clause left out ("I practice every evening" → the ukulele; one word)."""
    said = {_stem(w) for w in _quote_words(quote)}
    missing = [w for w in words(CJK_RE.sub(" ", statement))
               if w not in STOP_WORDS and w not in _REWRITE_WORDS and w not in _NUMBER_WORDS and not w.isdigit()
               and _stem(w) not in said]
    quote_chars = set(CJK_RE.findall(quote))
    own = statement.replace("自己", "") if "我" in quote else statement  # "我跟我的朋友" → "用户跟自己的朋友"
    missing += [ch for ch in dict.fromkeys(CJK_RE.findall(own))
                if ch not in quote_chars and ch not in _ZH_REWRITE_CHARS and ch not in _ZH_DIGITS]
    # "a cover letter for a nurse position" → "User is applying for …": a word the request implies (implied_pursuits.py)
    # "Just got back from my salsa lessons" → "User takes salsa lessons": a habit an outing implies (go_activities.py)
    implied = {**INFERRED_WORDS, **OUTING_WORDS}
    missing = [w for w in missing if not (implied.get(_stem(w)) or implied.get(w, _NEVER)).search(quote)]
    if not missing or not context:
        return missing
    names = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", context)}
    earlier = {_stem(w) for w in _quote_words(context)} | set(CJK_RE.findall(context))
    borrowed = [w for w in missing if w not in names and (_stem(w) in earlier or w in earlier)]
    allowance = 2 if _PRONOUN_RE.search(quote) else 1
    unexplained = [w for w in missing if w not in names and w not in borrowed]
    return unexplained + (borrowed if len(borrowed) > allowance else [])
