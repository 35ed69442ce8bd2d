"""First person → third person: "I'm from Ohio" → "User is from Ohio"; "我养了一只狗" → "用户养了一只狗"."""
from __future__ import annotations

import re

USER_ZH = "用户"

_ADVERBS = frozenset(
    """also still just really actually usually always often sometimes never rarely currently recently
    now already even mostly mainly probably definitely totally absolutely truly honestly seriously basically
    literally kinda sorta generally normally typically occasionally mostly only finally originally once ever much rather
    sure first both""".split()
)
_MODALS = frozenset("can could will would shall should may might must cannot can't couldn't won't wouldn't "
                    "shouldn't mustn't didn't wasn't weren't hadn't".split())
IRREGULAR_PAST = frozenset(
    """was were had did went got made took saw came bought grew began left met found lost felt thought knew
    told became spent kept won ran wrote taught caught brought sold built broke fell drove flew gave ate drank
    swam sang paid said heard held sat stood understood chose forgot led rode shot slept spoke stole threw
    woke wore hung fought dug drew hid bit lit sent lent meant dealt quit used""".split()
)
_THIRD_PERSON_SPECIAL = {"have": "has", "do": "does", "go": "goes", "am": "is", "don't": "doesn't",
                         "wanna": "wants to", "gotta": "has to", "cant": "can't", "wont": "won't",
                         "didnt": "didn't", "doesnt": "doesn't",
                         "haven't": "hasn't", "dont": "doesn't", "havent": "hasn't", "ain't": "isn't",
                         "be": "is", "are": "is", "aren't": "isn't"}

_CONTRACTIONS = [
    (re.compile(r"\b(?:I|i)(?:'|’)m\b|\bI am\b|\bi am\b|\bIm\b|\bim\b(?= [a-z])|\bI m\b|\b[Ii]am\b"), "User is"),
    (re.compile(r"\b(?:I|i)(?:'|’)ve\b|\bIve\b|\bI ve\b"), "User has"),
    (re.compile(r"\b(?:I|i)(?:'|’)ll\b|\bI ll\b(?= [a-z])"), "User will"),  # "I ll take mine": the apostrophe left out
    (re.compile(r"\b(?:I|i)(?:'|’)d(?= (?:been|had|gone|done|seen|never|already|just|always|lived|worked))"),
     "User had"),
    (re.compile(r"\b(?:I|i)(?:'|’)d\b"), "User would"),
]
_I_VERB_RE = re.compile(
    r"\b(?:I|i)\b( (?:(?:(?:pretty|very|so) much|kind of|sort of|" + "|".join(sorted(_ADVERBS))
    + r"|(?!(?:fly|rely|apply|reply|supply|imply|multiply|comply|ally)\b)[a-z]+ly) )*)([A-Za-z'’]+)"
)
# Verbs common enough after "and" to be read as a second verb of the user's ("… and love to browse").
AND_VERBS = frozenset(
    """love like enjoy hate prefer have own work live play go do want need spend make take watch read teach study run
    ride drive cook bake collect listen write paint draw sing dance travel hike swim find keep try stay feel learn
    give help eat drink use sell grow raise build fix walk coach train deliver feed bring""".split()
)
_AND_VERB_RE = re.compile(
    r"^([^,;]*?\b(?:and|or) (?:(?:also|still|really|often|usually|always|sometimes) )*)"
    rf"({'|'.join(sorted(AND_VERBS))})\b"
)
_MY_X_AND_I_RE = re.compile(r"^(?:[Mm]y) ((?:\w+ ){0,2}\w+) and (?:I|me)\b")


def conjugate(verb: str) -> str:
    low = verb.lower().replace("’", "'")
    if low in _THIRD_PERSON_SPECIAL:
        return _THIRD_PERSON_SPECIAL[low]
    past = low.endswith("ed") and not low.endswith("eed")  # "moved", not "need" / "succeed"
    if low in _MODALS or low in IRREGULAR_PAST or past or not low.isalpha():
        return verb
    if low in ("has", "does", "goes", "was") or low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3:
        return verb  # chat's "I lives in america": already agreeing, not "liveses"
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


# Verbs that end in "ing" without being a participle.
_NOT_PARTICIPLES = frozenset("bring sing ring sting swing cling fling spring string wring sling thing king ping".split())


def _agreeing(verb: str) -> str:
    """The verb after the user's "I", agreeing with "User": "love" → "loves"; a participle whose "am" chat left out
    ("I taking spanish") → "is taking", not "takings"."""
    low = verb.lower()
    if low.endswith("ing") and len(low) > 4 and low not in _NOT_PARTICIPLES:
        return f"is {verb}"
    return conjugate(verb)


def to_third_person_en(text: str) -> str:
    """Rewrite a first-person English clause about the user in the third person."""
    text = _MY_X_AND_I_RE.sub(lambda m: f"User and their {m.group(1)}", text)
    # "I use to be in the military" is chat's "used to": a past habit, not "User uses to be"
    text = re.sub(r"\b((?:I|i)(?: (?:also|still|just|really))?) use to (?=[a-z])", r"\1 used to ", text)
    # The first "I" becomes "User" with its verb agreeing; later ones become "they".
    done = False
    for pattern, repl in _CONTRACTIONS:
        m = pattern.search(text)
        if m and (not done or m.start() < first_at):
            first_at, done, found = m.start(), True, (m, repl)
    m_verb = _I_VERB_RE.search(text)
    if m_verb and (not done or m_verb.start() < first_at):
        agreeing = _agreeing(m_verb.group(2))
        if agreeing.startswith("is "):  # "I usually unwinding" → "User is usually unwinding"
            head = text[: m_verb.start()] + f"User is{m_verb.group(1)}{agreeing[3:]}"
        else:
            head = text[: m_verb.start()] + f"User{m_verb.group(1)}{agreeing}"
        tail = text[m_verb.end() :]
    elif done:
        m, repl = found
        head, tail = text[: m.start()] + repl, text[m.end() :]
    else:
        head, tail = "", text
    # "User is quiet and love to browse" → "… and loves to browse".
    # …but not under an infinitive, a modal or "let / make / help": "User tries to stay calm and find a way", "User
    # can expand their store and get closer to customers", "lets them show their creativity and share their love".
    bare_infinitive = re.search(r"\b(?:can|could|will|would|shall|should|may|might|must|cannot|can't|won't|wouldn't|"
                                r"couldn't|shouldn't|didn't|doesn't|don't|let|lets|make|makes|help|helps)$", head)
    tail = _AND_VERB_RE.sub(lambda m: m.group(0) if bare_infinitive or re.search(
        r"\b(?:to|let|lets|make|makes|help|helps|can|could|will|would|should|might|may|must) \w+", m.group(1)) else
                            f"{m.group(1)}{conjugate(m.group(2))}", tail)
    tail = re.sub(r"\b(?:I|i)(?:'|’)m\b", "they're", tail)
    tail = re.sub(r"\b(?:I|i)(?:'|’)(ve|ll|d)\b", r"they'\1", tail)
    tail = re.sub(r"\bI (?:am|m)\b", "they are", tail)
    tail = re.sub(r"\bI ve\b", "they have", tail)
    tail = re.sub(r"\bI ll\b(?= [a-z])", "they will", tail)
    tail = re.sub(r"\bI was\b", "they were", tail)
    tail = re.sub(r"\b(?:I|i)\b", "they", tail)
    tail = re.sub(r"\bthey was\b", "they were", tail)
    tail = re.sub(r"\bthey wasn't\b", "they weren't", tail)
    text = head + tail
    text = re.sub(r"\b(User|they) (has|have) got\b", r"\1 \2", text)  # British "have got" = "have"
    text = re.sub(r"^(?:[Mm]y|MY)\b", "User's", text)
    text = re.sub(r"\b(?:[Mm]y)\b", "their", text)
    text = re.sub(r"\b(?:[Mm]yself)\b", "themself", text)
    text = re.sub(r"\b(?:[Mm]ine)\b", "theirs", text)
    text = re.sub(r"^(?:[Mm]e|Them),?\s+(?=(?:User|they)\b)", "", text)  # "Me, I was in the navy": the "I" says it
    text = re.sub(r"(?<![-'])\b(?:[Mm]e)\b(?![-'])", "them", text)  # not the "me" of "me-time", "me-too"
    return text


_AGE_NUMBER = (r"\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|"
               r"seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen")
# "I'm only 19", "I am age 24", "I'm thirty two, retiring soon": a bare number after "I am" is the user's age.
_BARE_AGE_RE = re.compile(rf"^User is (?:only |just |almost |nearly |about |around |age |aged )?(?P<n>{_AGE_NUMBER})"
                          r"(?: (?:years?|yrs?) old| yo)?(?P<rest>,.*)?$", re.IGNORECASE)


# "since I was 6" / "when I was a kid" says since when, not why: no clause break before it (english.py).
AT_AN_AGE = (r"\s+(?:I|i)\s+was\s+(?:(?:a|an|about|around|only|just)\s+)?(?:\d|one|two|three|four|five|six|seven|eight|"
             r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|kid|child|little|young|small|teen|baby|boy|girl|"
             r"toddler|in\s+(?:high school|middle school|primary school|college|school|uni))")
SINCE_NOT_AN_AGE = rf"since(?!{AT_AN_AGE})"
WHEN_NOT_AN_AGE = rf"when(?!{AT_AN_AGE})"


def age_in_years(statement: str) -> str:
    """"User is only 19" → "User is 19 years old": said as a memory says an age (and as compare.py's age slot reads it)."""
    m = _BARE_AGE_RE.match(statement)
    return f"User is {m.group('n')} years old{m.group('rest') or ''}" if m else statement


_KIN_ZH = (
    "妈妈|爸爸|妈|爸|父母|爸妈|母亲|父亲|男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|爱人|对象|孩子|儿子|女儿|"
    "公婆|婆婆|公公|岳父|岳母|丈母娘|"
    "哥哥|姐姐|弟弟|妹妹|哥|姐|弟|妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|家人|朋友|闺蜜|同事|室友|同学|老板|领导|"
    "猫|狗|宠物"
)
_ZH_KIN_RE = re.compile(rf"我(?:的)?({_KIN_ZH})")


def to_third_person_zh(text: str) -> str:
    """Rewrite a first-person Chinese clause in the third person (我 → 用户)."""
    text = _ZH_KIN_RE.sub(lambda m: f"{USER_ZH}的{m.group(1)}", text)
    text = text.replace("我们家", f"{USER_ZH}家")  # the user's household
    text = re.sub(r"(?<=[跟和与])我们(?=住|一起住)", USER_ZH, text)  # "我婆婆跟我们住在一起": lives with the user
    text = re.sub(r"我们|自我|忘我", lambda m: {"我们": "\x00", "自我": "\x01", "忘我": "\x02"}[m.group(0)], text)
    text = text.replace("我的", f"{USER_ZH}的").replace("我", USER_ZH)
    text = _own_after_subject(text)
    return text.replace("\x00", "我们").replace("\x01", "自我").replace("\x02", "忘我")


def _own_after_subject(text: str) -> str:
    """"我跟我的朋友去爬山" → "用户跟自己的朋友去爬山", not "用户跟用户的朋友": once 用户 is the subject, what they have
    later in the clause is 自己的. When the first 用户 is a possessor ("用户的妈妈说用户的猫…") nothing changes."""
    first = text.find(USER_ZH)
    after = first + len(USER_ZH)
    if first < 0 or text.startswith("的", after):
        return text
    return text[:after] + text[after:].replace(f"{USER_ZH}的", "自己的")
