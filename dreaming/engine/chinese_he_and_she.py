"""他 / 她 standing for the one relative of the user named just before: "我老公是上海人，他口味偏甜" → 用户的老公口味偏甜,
"主要是想跟孙子视频，他在美国读书" → 用户的孙子在美国读书.

The pronoun must open its clause, and the clause before it in the sentence (or, for a sentence's first clause, the
sentence before) must name exactly one person, a relative or friend of the user's whose gender the pronoun does not
contradict: 他 for a man or one of either sex (朋友, 孩子), 她 for a woman or one of either sex. Never 它 (a pet:
chinese_pet_names.py), never 他们, never two people named, never a question, a hypothetical, a guess (他应该会…) or
someone's words or opinion (她说… / 他觉得…). The clause is read as if it said 我+relative, so every guard of a first-person
clause applies (chinese.zh_clause); the quote runs from the relative to the end of the pronoun's clause.
"""
from __future__ import annotations

import re

from dreaming.engine.chinese import ZH_HYPOTHETICAL_RE, zh_clause, zh_statement
from dreaming.engine.language import sentences

_MALE = ("儿子|孙子|外孙|老公|丈夫|男朋友|男友|弟弟|哥哥|爸爸|父亲|老爸|爷爷|外公|姥爷|公公|岳父|叔叔|舅舅|伯伯|侄子|女婿|"
         "表哥|表弟|堂哥|堂弟")
_FEMALE = ("女儿|孙女|外孙女|老婆|妻子|媳妇|女朋友|女友|妹妹|姐姐|妈妈|母亲|老妈|奶奶|外婆|姥姥|婆婆|岳母|丈母娘|阿姨|姑姑|侄女|"
           "闺蜜|儿媳|表姐|表妹|堂姐|堂妹")
_EITHER = "孩子|小孩|宝宝|爱人|老伴|对象|朋友|同事|室友|同学|老板|领导|老师|邻居"
# Said only after 我 (我妈, 我哥): alone, 哥 is in 墨西哥 and 妹 in 姐妹.
_SHORT = {"爸": "m", "哥": "m", "弟": "m", "妈": "f", "姐": "f", "妹": "f"}
# People counted but never the one a 他 / 她 stands for: more than one, or nobody's in particular.
_MANY = "父母|爸妈|家人|孩子们|朋友们|同事们|同学们|兄弟姐妹|姐妹|兄弟|医生|护士|人家|别人|大家"
_PERSON_RE = re.compile("|".join(sorted({*_MALE.split("|"), *_FEMALE.split("|"), *_EITHER.split("|"),
                                         *_MANY.split("|")}, key=lambda w: (-len(w), w)))
                        + r"|(?<=我)[爸妈哥姐弟妹]|(?<=我的)[爸妈哥姐弟妹]|(?<=我家)[爸妈哥姐弟妹]")
# "我女儿在杭州当医生": a job of the one named, not a second person.
_JOBS = frozenset("医生 护士 老师 老板 领导".split())
_WORK_RE = re.compile(r"(?:当|是|做|成为|一名|一个)$")
_GENDER = {**{w: "m" for w in _MALE.split("|")}, **{w: "f" for w in _FEMALE.split("|")},
           **{w: "" for w in _EITHER.split("|")}, **_SHORT}
# Whose the relative is: 我 / 我的 / 我家 before it, or nobody said ("跟孙子视频"); 他的 / 朋友的 make it someone else's.
_OWNER_RE = re.compile(r"我(?:的|家的?|有(?:一)?个)?$")
_SOMEONE_ELSES_RE = re.compile(r"(?:[他她你您它]|的|家)$")

_CLAUSE_RE = re.compile(r"[^，,；;。！!？?\n]+[，,；;。！!？?]*")
# Not "，她叫小美": the name stays in the clause before (chinese.ZH_CLAUSE_SPLIT_RE).
_PRONOUN_LEAD_RE = re.compile(r"^(?P<lead>(?:而且|但是?|不过|可是|所以|然后|现在|目前|其实|平时|今年|去年|最近)?)"
                              r"(?P<p>[他她])(?!们|(?:的名字|名字)?名?叫)")
# A guess, someone's words or opinion, a wish for later: not a fact of the relative; nor "他会教我们…", whose 我们 is
# nobody a memory could name, or "他在那边买了房", whose place is in the clause before.
_NOT_A_FACT_RE = re.compile(r"我们|那边|那里|那儿|这边|这里|应该|可能|也许|大概|估计|或许|说不定|一定|肯定|会不会|觉得|认为|以为|说(?!话)|希望|担心|怕|同意|答应|反对")
# "他很可爱", "她真好": a passing word of praise.
_PRAISE_RE = re.compile(r"^(?:也|还|都|真的)?(?:很|太|真|好|特别|非常|挺|超|蛮|多)[\u4e00-\u9fff]{1,3}[的了啊呀哦呢]?$")
# What comes after the relative stands for again ("让我搬过去跟她住"): the statement stops before it.
_AGAIN_RE = re.compile(r"(?:跟|和|与|陪|给|帮|为|替|向)?[他她它]")
_QUESTION_RE = re.compile(r"[？?]|吗[。！!，,]?$|呢[。！!，,]?$")
_TAIL_RE = re.compile(r"[啊呀呢吧哦啦哈嘛噢~～！!。，,；;…\s]+$")


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [(start + m.start(), start + m.end()) for m in _CLAUSE_RE.finditer(text[start:end])]


def _the_one_named(window: str) -> tuple[int, str] | None:
    """(where it starts, the word) of the one person `window` names, when it names exactly one that is the user's."""
    named = [m for m in _PERSON_RE.finditer(window) if m.group(0) not in _JOBS or not _WORK_RE.search(window[:m.start()])]
    if len(named) != 1 or named[0].group(0) not in _GENDER:
        return None
    before = window[: named[0].start()]
    owner = _OWNER_RE.search(before)
    if owner:
        return owner.start(), named[0].group(0)
    if named[0].group(0) in _SHORT or _SOMEONE_ELSES_RE.search(before):
        return None
    return named[0].start(), named[0].group(0)


def _statement(clause: str, pronoun: re.Match, kin: str) -> str | None:
    rest = _TAIL_RE.sub("", clause[pronoun.end():])
    if _NOT_A_FACT_RE.search(rest) or _PRAISE_RE.match(rest):
        return None
    owner = "的" if _PERSON_RE.match(rest) else ""  # "她老公是医生": her husband
    said = zh_clause(pronoun.group("lead") + "我的" + kin + owner + rest)
    if said is None:
        return None
    statement = zh_statement(said)
    again = _AGAIN_RE.search(statement)
    statement = _TAIL_RE.sub("", statement[: again.start()]) if again else statement
    said_of = statement.find(f"用户的{kin}")
    return statement if 0 <= said_of and len(statement) - said_of - len(f"用户的{kin}") >= 2 else None


def _readable(sentence: str) -> bool:
    return not _QUESTION_RE.search(sentence) and not ZH_HYPOTHETICAL_RE.search(sentence)


def zh_he_and_she(text: str, s_start: int, s_end: int, *, stated: set[str]) -> list[tuple[str, str]]:
    """(quote, statement) for each clause of the sentence text[s_start:s_end] of the message `text` that opens on a
    他 / 她 standing for the one relative named in the clause (or the sentence) before; none whose statement is
    already `stated`."""
    if not _readable(text[s_start:s_end]):
        return []
    found, carried = [], None  # carried: (where its quote starts, relative) of a pronoun clause just read
    clauses = _clauses(text, s_start, s_end)
    for i, (c_start, c_end) in enumerate(clauses):
        clause = text[c_start:c_end]
        pronoun = _PRONOUN_LEAD_RE.match(clause)
        if not pronoun:
            continue
        w_start, w_end = clauses[i - 1] if i else (sentences(text[:s_start]) or [(c_start, c_start)])[-1]
        if not i and not _readable(text[w_start:w_end]):
            continue
        one = _the_one_named(text[w_start:w_end])
        if one is None and carried and not _PERSON_RE.search(text[w_start:w_end]):  # "…，他在读大学，他喜欢打篮球"
            one = (carried[0] - w_start, carried[1])
        carried = None
        gender = _GENDER.get(one[1]) if one else None
        if one is None or (pronoun.group("p") == "他" and gender == "f") or (pronoun.group("p") == "她" and gender == "m"):
            continue
        statement = _statement(clause, pronoun, one[1])
        if statement and statement not in stated:
            found.append((_TAIL_RE.sub("", text[w_start + one[0]:c_end]), statement))
            carried = (w_start + one[0], one[1])
    return found
