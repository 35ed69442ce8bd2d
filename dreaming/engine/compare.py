"""Comparing candidate statements with existing memories, and merging near-duplicates, by rules.

Similarity alone never makes a contradiction: a contradiction needs explicit evidence, either the same
slot with a different value (lives in X / moved to Y, works at X / Y, favourite X is A / B, a pet
renamed), or a negation of what the memory says ("no longer", "not anymore", 不再, likes X / hates X).
Similarity alone never makes a repeat either: two statements told apart by a name, a number or another
item of the same slot ("a parrot named Kiwi" / "a parrot named Mango") are two facts; the same things
said in another language are one (dreaming.engine.slots).
"""
from __future__ import annotations

import re
from dataclasses import replace

from dreaming.engine import slots
from dreaming.engine.habits import habit_ended
from dreaming.engine.frequency import without_frequency
from dreaming.engine.language import content_tokens, is_chinese
from dreaming.engine.family_ages import list_with_new_age, member_keys
from dreaming.engine.partings import parts_a_couple
from dreaming.engine.spouses import as_spouse, says_less_of_the_spouse
from dreaming.protocol import Comparison, MemoryRef

REINFORCE_AT = 0.6

_V = r"(?P<v>[^,.;!?，。；！？]+)"
# Slots are read at the start of the predicate (after the subject and a few adverbs), so a slot verb
# in a relative clause ("visits their sister who lives in Berlin") is not taken for the subject's own.
_ADVERBS_EN = r"(?:(?:now|still|currently|recently|just|finally|also|already|actually|officially|has|have|had|been|is|was)\s+)*"
_SLOTS_EN = [
    ("residence", re.compile(rf"^{_ADVERBS_EN}(?:lives|lived|living|moved|relocated|resides|resided|based|settled)"
                             rf" (?:back )?(?:down )?(?:in|to|at|into) {_V}", re.I)),
    ("workplace", re.compile(rf"^{_ADVERBS_EN}(?:works|worked|working|started working|got a (?:new )?job|employed)"
                             rf"(?: as [^,.;!?]+?)? (?:at|for|with) {_V}", re.I)),
    ("occupation", re.compile(rf"^{_ADVERBS_EN}(?:works as|working as|worked as|employed as) {_V}", re.I)),
    ("school", re.compile(rf"^{_ADVERBS_EN}(?:studies|studied|studying|goes to school|enrolled) (?:at|in) {_V}", re.I)),
    ("status", re.compile(r"^(?:(?:now|still|currently|recently|just|finally|got|is|has been|was)\s+)+"
                          r"(?P<v>married|single|divorced|engaged|widowed|separated)\b", re.I)),
    ("status", re.compile(r"^(?:(?:now|still|currently|recently|just|finally|is|has)\s+)*"
                          r"(?P<v>dating|in a relationship|broke up|has a (?:boy|girl)friend|has a partner)\b", re.I)),
    ("age", re.compile(r"^(?:(?:now|just|turned|is|was)\s+)+(?P<v>\d{1,3})(?: years old|\b)", re.I)),
    ("pet", re.compile(r"^(?:(?:now|still|also|just|has|have|had|got|adopted|owns|raises)\s+)+(?:a |an |two |three |\d+ )?"
                       r"(?:\w+ )?(?P<v>dog|dogs|cat|cats|puppy|kitten|corgi|poodle|beagle|labrador|retriever|"
                       r"terrier|parrot|rabbit|hamster|horse|pet|pets)\b", re.I)),
]
_NAME_EN = re.compile(r"^(?:name is|is called|is named|goes by) (?P<v>\w+)", re.I)
_FAVOURITE_EN = re.compile(rf"\bfavou?rite (?P<k>\w+(?: \w+)?) is {_V}", re.I)
_FAVOURITE_FIRST_EN = re.compile(r"^(?P<v>[^,.;!?]+?) is (?:the )?user's (?:all-time )?favou?rite (?P<k>\w+(?: \w+)?)\b", re.I)
_SLOTS_ZH = [
    # "搬到这里以后觉得很孤单": "here" names no place, and what follows 以后 is no part of one
    ("residence", re.compile(r"^(?:现在|目前|已经|还|一直|也|刚|刚刚|最近)*(?:住在|搬到了?|搬去了?|定居在?|生活在)(?![这那])"
                             r"(?P<v>[\u4e00-\u9fffA-Za-z]{1,12}?)(?:了|住|生活|以后|之后|$|[，。])")),
    ("workplace", re.compile(r"^(?:现在|目前|已经|还|一直|也)*在(?P<v>[\u4e00-\u9fffA-Za-z]{1,12}?)(?:工作|上班)")),
    ("occupation", re.compile(r"^(?:现在|目前|已经|还|一直|也)*(?:职业是|工作是|是一名|是一个|当)(?P<v>[\u4e00-\u9fff]{1,8}?)(?:$|[，。了])")),
    ("name", re.compile(r"^叫(?P<v>[\u4e00-\u9fffA-Za-z]{2,4})$")),
    ("age", re.compile(r"^(?:今年|现在)?(?P<v>\d{1,3})岁")),
    ("status", re.compile(r"^(?:已经|刚|刚刚|现在|还是)*(?P<v>结婚|离婚|单身|订婚|恋爱)")),
    ("pet", re.compile(r"^(?:还|也|已经)*(?:养了|养着|有)(?:一只|两只|一条|只|条)?(?:[\u4e00-\u9fffA-Za-z]{0,6}?的)?(?P<v>狗|猫|柯基|宠物)")),
]
_FAVOURITE_ZH = re.compile(r"最喜欢的(?P<k>[\u4e00-\u9fff]{1,4})是(?P<v>[\u4e00-\u9fffA-Za-z]{1,12})")
# A plan is not yet a change: "is moving to Tokyo next month" / "下个月要搬去东京" supersedes nothing.
_PLAN_RE = re.compile(r"\b(?:plans? to|planning to|will|going to|is moving|wants? to|hopes? to|next (?:week|month|year))\b"
                      r"|打算|计划|准备|要搬|想搬|下个月|明年|将要", re.I)
# "moved to a new desk", "lives in a tiny flat": a common noun, not a place (unless a name follows: "a town in Ohio").
_NOT_A_PLACE_RE = re.compile(r"^(?:a|an|the|their|his|her|my|our)\b(?![^,.;]*\b(?-i:[A-Z]))", re.I)
# Where a slot value stops being the value: "Tokyo last week", "Siemens as an engineer".
_VALUE_END_RE = re.compile(r"\s+(?:now|last|this|next|since|for|with|as|in|at|near|and|because|when|after|before|"
                           r"from|on|during|recently|again|anymore|any more|these days)\b.*$", re.I)

# Who a statement is about. "User …" is the user; "User's sister Lena …" is the sister (named Lena);
# "User's favorite film …", "User's job …" are still the user's own slots.
_OTHERS_EN = (
    r"wife|husband|spouse|partner|boyfriend|girlfriend|fianc[eé]e?|sisters?|brothers?|siblings?|mom|mum|mother|"
    r"dad|father|parents|sons?|daughters?|kids?|child|children|baby|grandma|grandpa|grandmother|grandfather|"
    r"grandparents|grand(?:son|daughter|kids|children)|aunt|uncle|cousins?|niece|nephew|family|friends?|"
    r"best friend|roommate|neighbou?r|boss|coworkers?|co-workers?|colleagues?|in-laws|twins?|"
    r"dogs?|cats?|puppy|kitten|corgi|pets?|horse|parrot|rabbit|hamster"
)
_SUBJECT_EN = re.compile(
    rf"^(?:the )?user's (?:(?:older|younger|little|big|baby|twin|best|new|old|oldest|youngest|eldest|late)\s+)*"
    rf"(?P<who>{_OTHERS_EN})\b(?:,? (?:named |called )?(?P<name>(?-i:[A-Z][\w-]+))\b(?! is (?:the )?user))?,?\s*",
    re.I,
)
_SUBJECT_USER_EN = re.compile(r"^(?:the )?user(?:'s household| and (?:their|his|her) (?:wife|husband|partner|family))?\s+", re.I)
_SUBJECT_OWN_SLOT_EN = re.compile(r"^(?:the )?user's\s+", re.I)
_SUBJECT_NAMED_EN = re.compile(r"^(?P<name>[A-Z][\w-]+(?: [A-Z][\w-]+)?)\s+(?=[a-z])")
_OTHERS_ZH = (
    "妈妈|爸爸|父母|爸妈|母亲|父亲|男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|爱人|对象|孩子|儿子|女儿|"
    "哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|家人|闺蜜|同事|室友|同学|老板|领导|朋友|"
    "妈|爸|哥|姐|弟|妹|猫|狗|宠物"
)
_SUBJECT_ZH = re.compile(rf"^用户的?(?P<who>{_OTHERS_ZH})(?P<name>[A-Za-z][A-Za-z-]*)?")
_SUBJECT_USER_ZH = re.compile(r"^用户(?:的家人|一家|和家人)?")
_KIN_ALIASES = {"mum": "mom", "mother": "mom", "father": "dad", "妈": "妈妈", "爸": "爸爸", "母亲": "妈妈",
                "父亲": "爸爸", "哥": "哥哥", "姐": "姐姐", "弟": "弟弟", "妹": "妹妹"}


def _subject(statement: str) -> tuple[str, str | None, str]:
    """(who, name, predicate): who the statement is about ("user", "sister", "lena"…), the name given
    to them if any, and the rest of the statement after the subject."""
    text = statement.strip()
    if is_chinese(text):
        m = _SUBJECT_ZH.match(text)
        if m:
            who = m.group("who")
            return _KIN_ALIASES.get(who, who), (m.group("name") or None), text[m.end():]
        m = _SUBJECT_USER_ZH.match(text)
        if m:
            return "user", None, text[m.end():]
        return "?", None, text
    if _FAVOURITE_FIRST_EN.match(text):
        return "user", None, text
    m = _SUBJECT_EN.match(text)
    if m:
        who = m.group("who").lower()
        who = _KIN_ALIASES.get(who, who)
        return who, (m.group("name").lower() if m.group("name") else None), text[m.end():]
    m = _SUBJECT_USER_EN.match(text)
    if m:
        return "user", None, text[m.end():]
    m = _SUBJECT_OWN_SLOT_EN.match(text)
    if m:
        return "user", None, text[m.end():]
    m = _SUBJECT_NAMED_EN.match(text)
    if m and m.group("name").lower() != "user":
        return m.group("name").lower(), m.group("name").lower(), text[m.end():]
    return "?", None, text


def _same_subject(a: tuple[str, str | None, str], b: tuple[str, str | None, str]) -> bool:
    """Same person: the same kin word (names equal when both are given), or the same name."""
    (who_a, name_a, _), (who_b, name_b, _) = a, b
    if "?" in (who_a, who_b):
        return True  # a statement we cannot parse is judged on its content alone, as before
    if who_a == who_b:
        return name_a is None or name_b is None or name_a == name_b
    # "Lena moved to Paris" is about "User's sister Lena".
    return name_a is not None and (name_a == name_b or name_a == who_b or who_a == name_b)


def same_subject(a: str, b: str) -> bool:
    """Whether two statements are about the same person (unknown subjects count as the same)."""
    return _same_subject(_subject(a), _subject(b))


def _clean_value(value: str) -> str:
    return _VALUE_END_RE.sub("", value.strip()).strip().lower()


def _slots(text: str) -> dict[str, str]:
    """The slots the statement's own subject fills, read at the start of its predicate."""
    _, _, predicate = _subject(text)
    predicate = predicate.strip()
    planned = bool(_PLAN_RE.search(text))
    found: dict[str, str] = {}
    for name, pattern in _SLOTS_EN + _SLOTS_ZH:
        if planned and name in ("residence", "workplace", "status"):
            continue
        m = pattern.search(predicate)
        if m and not (name == "residence" and _NOT_A_PLACE_RE.match(m.group("v"))):
            found.setdefault(name, _clean_value(m.group("v")))
    m = _NAME_EN.search(predicate)
    if m:
        found.setdefault("name", m.group("v").lower())
    for pattern in (_FAVOURITE_EN, _FAVOURITE_FIRST_EN, _FAVOURITE_ZH):
        m = pattern.search(text)
        if m:
            found[f"favourite {m.group('k').lower()}"] = m.group("v").strip().lower()
    return found


def slot_of(statement: str) -> tuple[str, str] | None:
    """(subject, slot) of a statement that fills a slot, e.g. ("user", "residence") for "User moved to
    Tokyo", ("sister", "residence") for "User's sister Lena lives in Berlin"; None otherwise. A cheap
    key deep sleep uses to show the dreamer every memory that could be contradicted, whatever the
    embedder thinks of their similarity."""
    slots = _slots(statement)
    if not slots:
        return None
    who = _subject(statement)[0]
    return who, sorted(slots)[0]


def slot_keys(statement: str) -> set[tuple[str, str]]:
    """Every (subject, slot) the statement fills."""
    who = _subject(statement)[0]
    # "Lily turned 8" fills the age the family list "User has two kids: Lily (7) and Max (4)" gives (family_ages.py)
    return {(who, slot) for slot in _slots(statement)} | {("member", name) for name in member_keys(statement)}


_NEGATION_RE = re.compile(
    r"\b(?:no longer|not anymore|any ?more|stopped|quit|gave up|used to|doesn't|does not|isn't|is not|"
    r"hasn't|has not|never|not)\b|不再|已经不|不[喜爱是住在]|没有再|戒了|放弃了|以前",
    re.I,
)
_POSITIVE_RE = re.compile(r"\b(?:likes|loves|enjoys|adores|prefers)\b|喜欢|热爱|爱", re.I)
_NEGATIVE_RE = re.compile(r"\b(?:hates|dislikes|can't stand|doesn't like|does not like|doesn't enjoy)\b|讨厌|不喜欢|不爱", re.I)
_FUNCTION_WORDS = frozenset(
    "no longer anymore any more stopped quit gave used doesn't isn't hasn't never not likes loves enjoys "
    "hates dislikes prefers like love enjoy hate".split()
)


def similarity(a: str, b: str) -> float:
    """Dice overlap of content tokens (English words, Chinese character bigrams)."""
    ta, tb = set(content_tokens(a)), set(content_tokens(b))
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


def _values_differ(a: str, b: str) -> bool:
    if a == b or a in b or b in a:
        return False
    return similarity(a, b) < 0.5


def _topic(text: str) -> set[str]:
    return {t for t in content_tokens(text) if t not in _FUNCTION_WORDS}


def _frequency_change(new: str, old: str) -> str | None:
    """The same habit done as often as another number says: "用户现在每周打三次羽毛球了" after "User plays badminton
    twice a week"."""
    fn, fo = slots.facts_of(new), slots.facts_of(old)
    if not fn.often or not fo.often or fn.often == fo.often or fn.subject != fo.subject or fn.plan or fo.plan:
        return None
    hobbies = {c for c in fn.things if c.startswith("hobby:")}
    same_habit = hobbies == {c for c in fo.things if c.startswith("hobby:")} and (
        bool(hobbies) or similarity(without_frequency(new), without_frequency(old)) >= 0.75)  # "runs 5k": no lexicon word
    if not same_habit or fn.negated or fo.negated:
        return None
    return f"same habit, another frequency: '{fo.often}' → '{fn.often}'"


def _contradiction(statement: str, memory: str) -> str | None:
    if parts_a_couple(statement):
        return None  # "User broke up with Chris" ends only what it names: deep sleep asks engine.partings
    renamed = slots.renames(statement, memory)
    if renamed:
        return renamed
    if is_chinese(statement) != is_chinese(memory):
        # "lives in Berlin" vs "住在北京": only values the bilingual lexicon knows can be compared
        return (slots.single_valued_change(statement, memory) or slots.status_change(statement, memory)
                or _frequency_change(statement, memory))
    if not _same_subject(_subject(statement), _subject(memory)):
        return None  # "User moved to Tokyo" says nothing about where the user's sister lives
    new_slots, old_slots = _slots(statement), _slots(memory)
    for slot, value in new_slots.items():
        if slot == "pet":
            continue  # a second pet is not a contradiction of the first
        if slot in old_slots and _values_differ(value, old_slots[slot]):
            return f"same {slot}, different value: '{old_slots[slot]}' → '{value}'"
    changed = slots.single_valued_change(statement, memory)  # "User is a teacher now" after "User works as a nurse"
    if changed:
        return changed
    over = (slots.ended(statement, memory) or slots.status_change(statement, memory)  # "User is divorced" after "… married"
            or habit_ended(statement, memory) or _frequency_change(statement, memory))
    if over:
        return over
    shared = _topic(statement) & _topic(memory)
    if not shared:
        return None
    topic_overlap = len(shared) / max(1, min(len(_topic(statement)), len(_topic(memory))))
    if topic_overlap < 0.75:  # "not a fan of cats" vs "has two cats" share a word, not a topic
        return None
    new_neg, old_neg = bool(_NEGATION_RE.search(statement)), bool(_NEGATION_RE.search(memory))
    if new_neg != old_neg:
        return "negates: " + ", ".join(sorted(shared)[:3])
    if (_POSITIVE_RE.search(statement) and _NEGATIVE_RE.search(memory)) or (
        _NEGATIVE_RE.search(statement) and _POSITIVE_RE.search(memory) and not _NEGATIVE_RE.search(statement)
    ):
        return "opposite preference about " + ", ".join(sorted(shared)[:3])
    return None


# "User's dog is named Milo" says what "User has a dog named Milo" says; compared in the second form.
_IS_NAMED_RE = re.compile(r"^User's (?P<x>(?:[a-z-]+ ){0,2}?[a-z-]+) is (?:named|called) (?P<n>[A-Z][\w' -]*)$")
# "User has a dog" says less than "User has a dog named Milo": it repeats it, it is no new dog.
_BARE_HAS_RE = re.compile(r"^User has (?:a|an) (?P<x>(?:[a-z-]+ ){0,2}?[a-z-]+)$")


# The same in Chinese: "用户的猫叫团子" / "用户养了一只猫叫团子" / "用户有一只猫，叫团子" → "用户有猫叫团子".
_IS_NAMED_ZH_RE = re.compile(r"^用户(?:的|(?:养了|养着|养|有)(?:一|两|[0-9])?[只条个匹]?)(?P<x>[\u4e00-\u9fff]{1,3}?)[，,]?(?:名字)?叫(?P<n>.+)$")
_BARE_HAS_ZH_RE = re.compile(r"^用户(?:养了|养着|养|有)(?:一|两|[0-9])?[只条个匹]?(?P<x>[\u4e00-\u9fff]{1,3})$")


def _as_has(statement: str) -> str:
    text = statement.strip()
    zh = _IS_NAMED_ZH_RE.match(text)
    if zh:
        return f"用户有{zh.group('x')}叫{zh.group('n')}"
    m = _IS_NAMED_RE.match(text)
    if not m:
        return statement
    return f"User has {'an' if m.group('x')[0] in 'aeiou' else 'a'} {m.group('x')} named {m.group('n')}"


def _says_less(statement: str, memory: str) -> bool:
    """A bare "User has a dog" beside a memory of that dog with more said of it ("… named Milo", "… who is 3")."""
    zh = _BARE_HAS_ZH_RE.match(statement.strip())
    if zh:
        return memory.startswith(f"用户有{zh.group('x')}叫")
    m = _BARE_HAS_RE.match(statement.strip())
    return bool(m) and re.match(rf"User has (?:a|an) (?:[a-z-]+ )?{re.escape(m.group('x'))}\b.", memory) is not None


def _dates_it(statement: str, memory: str) -> bool:
    return slots.facts_of(statement).dated and not slots.facts_of(memory).dated


def compare_statements(statements: list[str], memories: list[MemoryRef]) -> list[Comparison]:
    results = []
    for index, said in enumerate(statements):
        # a family list the statement gives a member's new age of ("Lily turned 8"): the list takes it
        aged = next(((ref.id, listed) for ref in memories if (listed := list_with_new_age(said, ref.statement))), None)
        if aged:
            results.append(Comparison(index=index, relation="adds_detail", memory_id=aged[0], statement=aged[1],
                                      reason="a new age of someone the family list names"))
            continue
        statement = _as_has(said)
        best: tuple[float, MemoryRef] | None = None
        said_more: set[int] = set()  # memories the statement says all of, and more ("married to a doctor" → "wife is …")
        contradiction: tuple[MemoryRef, str] | None = None
        across: tuple[MemoryRef, str] | None = None  # a change read across languages, through the lexicon
        same_things: set[int] = set()
        for ref in memories:
            memory = replace(ref, statement=_as_has(ref.statement))
            # "User lives in Berlin" does not repeat "User's sister lives in Berlin": other subject, other fact.
            spouse, spouse_memory = as_spouse(statement), as_spouse(memory.statement)  # the spouse however named
            score = similarity(spouse, spouse_memory) if _same_subject(_subject(spouse), _subject(spouse_memory)) else 0.0
            if slots.particulars_differ(statement, memory.statement):
                score = 0.0  # a parrot named Mango is not the parrot named Kiwi said again
            elif _says_less(statement, memory.statement) or says_less_of_the_spouse(said, ref.statement):
                score = max(score, REINFORCE_AT)
            elif says_less_of_the_spouse(ref.statement, said):
                score = max(score, REINFORCE_AT)
                said_more.add(memory.id)
            elif score < REINFORCE_AT and slots.same_thing(statement, memory.statement):
                score = REINFORCE_AT  # "oat latte every morning" / "每天早上都喝燕麦拿铁": the same things said
                same_things.add(memory.id)
            # "User is divorced" ends "User is married to a doctor" as said; "… married to a nurse" ends "wife is a doctor"
            reason = _contradiction(statement, memory.statement) or (
                _contradiction(spouse, spouse_memory) if (spouse, spouse_memory) != (statement, memory.statement) else None)
            if reason and is_chinese(statement) != is_chinese(memory.statement):
                across = across or (memory, reason)
            elif reason and contradiction is None:
                contradiction = (memory, reason)
            if best is None or score > best[0]:
                best = (score, memory)
        if contradiction:
            memory, reason = contradiction
            results.append(Comparison(index=index, relation="contradicts", memory_id=memory.id, reason=reason))
        elif best and best[0] >= REINFORCE_AT:
            reason = ("the same things said: " + ", ".join(sorted(c.split(":")[1] for c in slots.facts_of(statement).things))
                      if best[1].id in same_things else f"same content (overlap {best[0]:.2f})")
            # "User moved to Shanghai in October 2026" after "用户现在搬到上海了": keep the dated wording (and the
            # spouse's fuller one)
            detail = ("says more of the user's spouse" if best[1].id in said_more else reason + "; adds the date"
                      if best[1].id in same_things and _dates_it(statement, best[1].statement) else None)
            if detail:
                results.append(Comparison(index=index, relation="adds_detail", memory_id=best[1].id, statement=said,
                                          reason=detail))
                continue
            results.append(Comparison(index=index, relation="reinforces", memory_id=best[1].id, reason=reason))
        elif across:
            memory, reason = across
            results.append(Comparison(index=index, relation="contradicts", memory_id=memory.id, reason=reason))
        else:
            results.append(Comparison(index=index, relation="new", reason="no matching memory"))
    return results


_SPECIFIC_RE = re.compile(r"\d|\b[A-Z][a-z]+|《|叫|named|called")


def merge_statements(statements: list[str]) -> str:
    """The statement best supported by the others and most specific (deterministic)."""
    candidates = [s.strip() for s in statements if s and s.strip()]
    if not candidates:
        return ""

    def score(item: tuple[int, str]) -> tuple[float, int]:
        i, s = item
        support = sum(similarity(s, o) for j, o in enumerate(candidates) if j != i)
        specific = len(_SPECIFIC_RE.findall(s[1:]))
        return (support + 0.3 * specific + 0.02 * len(set(content_tokens(s))), -i)

    return max(enumerate(candidates), key=score)[1]
