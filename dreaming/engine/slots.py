"""What a statement is about, in words that do not depend on the language it was said in.

The local embedder sees "User drinks an oat latte every morning" and "用户每天早上都喝燕麦拿铁" as
unrelated, and "User has a parrot named Kiwi" / "… named Mango" as near-duplicates. Both are wrong for
memory. A statement's *particulars* (the names, numbers and common things it mentions, each read through
a small bilingual lexicon) and its *kind* (has / lives / works / likes / does / drinks …) say better:

- `particulars_differ(a, b)`: the same kind of thing with another name, number or item ("a parrot
  named Kiwi" / "a parrot named Mango", "two sisters" / "three sisters") — a second item or a change,
  never a repeat;
- `same_thing(a, b)`: the same subject, kind and things, whatever the language ("oat latte every
  morning" / "每天早上都喝燕麦拿铁", "plays the ukulele" / "is learning the ukulele");
- `is_rename(statement)`: the words say a name changed ("is now called Mango", "改名叫");
- `fulfils(statement, plan)`: a later statement that makes a plan come true ("User is moving to Tokyo
  next month" → "User lives in Tokyo now");
- `thing_keys(statement)`: cheap keys deep sleep uses to show the comparer every memory about the same
  thing, whatever the embedder thinks of their similarity.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dreaming.engine import compare as _compare
from dreaming.engine.dates import DATE_PHRASE_RE, is_plan
from dreaming.engine.language import content_tokens, is_chinese
from dreaming.engine.frequency import frequency_of, without_frequency
from dreaming.engine.spouses import as_spouse

# concept → the words for it, English and Chinese. A concept is "<slot>:<english name>"; the slot is what
# two different concepts of the same slot have in common ("pet:parrot" / "pet:dog" are two pets).
LEXICON: dict[str, tuple[str, ...]] = {
    # pets
    "pet:dog": ("dog", "dogs", "puppy", "狗", "小狗", "狗狗"),
    "pet:cat": ("cat", "cats", "kitten", "猫", "小猫", "猫咪"),
    "pet:parrot": ("parrot", "parrots", "鹦鹉"),
    "pet:rabbit": ("rabbit", "rabbits", "bunny", "兔子", "小兔子"),
    "pet:hamster": ("hamster", "hamsters", "仓鼠"),
    "pet:turtle": ("turtle", "tortoise", "乌龟"),
    "pet:goldfish": ("goldfish", "金鱼"),
    "pet:horse": ("horse", "pony", "马"),
    # drinks
    "drink:oat latte": ("oat latte", "oat milk latte", "oat-milk latte", "燕麦拿铁"),
    "drink:latte": ("latte", "拿铁"),
    "drink:coffee": ("coffee", "咖啡"),
    "drink:green tea": ("green tea", "绿茶"),
    "drink:milk tea": ("milk tea", "bubble tea", "boba", "奶茶", "珍珠奶茶"),
    "drink:tea": ("tea", "茶"),
    "drink:beer": ("beer", "啤酒"),
    "drink:wine": ("wine", "red wine", "红酒", "葡萄酒"),
    "drink:juice": ("juice", "果汁"),
    # foods
    "food:ramen": ("ramen", "拉面"),
    "food:dumplings": ("dumplings", "dumpling", "饺子"),
    "food:hotpot": ("hotpot", "hot pot", "火锅"),
    "food:sushi": ("sushi", "寿司"),
    "food:noodles": ("noodles", "面条"),
    "food:pizza": ("pizza", "披萨", "比萨"),
    "food:pasta": ("pasta", "spaghetti", "意大利面", "意面"),
    "food:tacos": ("tacos", "taco", "塔可"),
    "food:chocolate": ("chocolate", "巧克力"),
    "food:spicy food": ("spicy food", "辣的", "吃辣"),
    # cities
    "city:tokyo": ("tokyo", "东京"),
    "city:osaka": ("osaka", "大阪"),
    "city:kyoto": ("kyoto", "京都"),
    "city:shanghai": ("shanghai", "上海"),
    "city:beijing": ("beijing", "北京"),
    "city:hangzhou": ("hangzhou", "杭州"),
    "city:shenzhen": ("shenzhen", "深圳"),
    "city:guangzhou": ("guangzhou", "广州"),
    "city:chengdu": ("chengdu", "成都"),
    "city:hong kong": ("hong kong", "香港"),
    "city:taipei": ("taipei", "台北"),
    "city:seoul": ("seoul", "首尔"),
    "city:singapore": ("singapore", "新加坡"),
    "city:berlin": ("berlin", "柏林"),
    "city:paris": ("paris", "巴黎"),
    "city:london": ("london", "伦敦"),
    "city:new york": ("new york", "nyc", "纽约"),
    "city:toronto": ("toronto", "多伦多"),
    "city:sydney": ("sydney", "悉尼"),
    "city:melbourne": ("melbourne", "墨尔本"),
    "city:lisbon": ("lisbon", "里斯本"),
    "city:vancouver": ("vancouver", "温哥华"),
    # family and people close to the user
    "family:sister": ("sister", "sisters", "姐姐", "妹妹", "姐妹"),
    "family:brother": ("brother", "brothers", "哥哥", "弟弟", "兄弟"),
    "family:mother": ("mom", "mum", "mother", "妈妈", "母亲"),
    "family:father": ("dad", "father", "爸爸", "父亲"),
    "family:parents": ("parents", "父母", "爸妈"),
    "family:married": ("married", "结婚了", "结婚", "已婚"),
    "family:divorced": ("divorced", "离婚了", "离婚", "离异"),
    "family:single": ("single", "单身"),
    "family:son": ("son", "sons", "儿子"),
    "family:daughter": ("daughter", "daughters", "女儿"),
    "family:child": ("kid", "kids", "child", "children", "孩子"),
    "family:spouse": ("wife", "husband", "spouse", "老婆", "妻子", "老公", "丈夫", "爱人", "太太"),  # one person: spouses.py
    "family:partner": ("partner", "boyfriend", "girlfriend", "男朋友", "女朋友", "对象"),
    "family:grandmother": ("grandma", "grandmother", "奶奶", "外婆", "姥姥"),
    "family:grandfather": ("grandpa", "grandfather", "爷爷", "外公", "姥爷"),
    "family:cousin": ("cousin", "cousins", "表哥", "表姐", "表妹", "表弟"),
    "family:friend": ("friend", "friends", "best friend", "朋友", "闺蜜"),
    # jobs
    "job:nurse": ("nurse", "护士"), "job:doctor": ("doctor", "医生"),
    "job:teacher": ("teacher", "teach", "teaching", "老师", "教师", "教书"),
    "job:programmer": ("programmer", "software engineer", "software developer", "developer", "程序员"),
    "job:designer": ("designer", "设计师"), "job:accountant": ("accountant", "会计"), "job:finance": ("finance", "财务"),
    "job:chef": ("chef", "厨师"),  # not "cook": "User loves to cook" is not a job
    "job:lawyer": ("lawyer", "律师"), "job:engineer": ("engineer", "工程师"), "job:student": ("student", "学生"),
    "job:data analyst": ("data analyst", "数据分析师"),
    "job:journalist": ("journalist", "记者"), "job:pharmacist": ("pharmacist", "药剂师"),
    "job:architect": ("architect", "建筑师"),
    "job:photographer": ("photographer", "摄影师"),
    "job:product manager": ("product manager", "产品经理"),
    "job:project manager": ("project manager", "项目经理"),
    "job:civil servant": ("civil servant", "公务员"),
    "job:police officer": ("police officer", "policeman", "policewoman", "警察"),
    "job:banking": ("bank", "banker", "banking", "银行"),  # "works at a bank" / "在银行上班": where, as a job
    "job:barista": ("barista", "咖啡师"), "job:illustrator": ("illustrator", "插画师"), "job:analyst": ("analyst", "分析师"),
    "job:consultant": ("consultant", "顾问", "咨询师"), "job:recruiter": ("recruiter", "招聘经理", "猎头"),
    "job:human resources": ("human resources", "人事", "人力资源"), "job:veterinarian": ("veterinarian", "vet tech", "兽医"),
    "job:cashier": ("cashier", "收银员"), "job:professor": ("professor", "教授"), "job:researcher": ("researcher", "研究员"),
    "job:electrician": ("electrician", "电工"),
    # hobbies
    "hobby:ukulele": ("ukulele", "尤克里里"),
    "hobby:guitar": ("guitar", "吉他"),
    "hobby:piano": ("piano", "钢琴"),
    "hobby:violin": ("violin", "小提琴"),
    "hobby:cello": ("cello", "大提琴"),
    "hobby:drums": ("drums", "架子鼓"),
    "hobby:rock climbing": ("rock climbing", "climbing", "攀岩"),
    "hobby:running": ("running", "jogging", "jogs", "跑步"),
    "hobby:hiking": ("hiking", "徒步", "爬山"),
    "hobby:swimming": ("swimming", "swim", "swims", "游泳"),
    "hobby:cycling": ("cycling", "biking", "骑行", "骑车"),
    "hobby:yoga": ("yoga", "瑜伽"),
    "hobby:painting": ("painting", "drawing", "画画", "绘画"),
    "hobby:photography": ("photography", "摄影"),
    "hobby:reading": ("reading", "读书", "看书", "阅读"),
    "hobby:baking": ("baking", "烘焙", "烤面包"),
    "hobby:cooking": ("cooking", "做饭", "烹饪"),
    "hobby:chess": ("chess", "国际象棋", "下棋"),
    "hobby:pottery": ("pottery", "陶艺"),
    "hobby:birdwatching": ("birdwatching", "bird watching", "观鸟"),
    "hobby:knitting": ("knitting", "织毛衣", "编织"),
    "hobby:gardening": ("gardening", "园艺"),
    "hobby:tennis": ("tennis", "网球"),
    "hobby:badminton": ("badminton", "羽毛球"),
    "hobby:basketball": ("basketball", "篮球"),
    "hobby:football": ("football", "soccer", "足球"),
    "hobby:dancing": ("dancing", "dance", "跳舞"),
    "hobby:singing": ("singing", "唱歌"),
    "hobby:calligraphy": ("calligraphy", "书法"),
    "hobby:fishing": ("fishing", "钓鱼"),
    "hobby:skiing": ("skiing", "滑雪"),
    "hobby:surfing": ("surfing", "冲浪"),
    # when and how often: part of what a habit is ("every morning" is not "every evening")
    "time:morning": ("morning", "mornings", "早上", "早晨"),
    "time:evening": ("evening", "evenings", "晚上"),
    "time:weekend": ("weekend", "weekends", "周末"),
}

_THINGS = frozenset({"pet", "drink", "food", "city", "family", "job", "hobby"})

# What the statement does with its things; two statements are one thing only when their kinds agree.
_KINDS_EN = [
    ("plan", r"plans? to|planning to|is going to|are going to|will|is moving|are moving|intends? to|hopes? to|wants? to"),
    ("live", r"lives?|lived|living|moved|relocated|resides?|based|settled|is from|comes? from|grew up"),
    ("work", r"works?|worked|working|employed|job|is an?|became an?|career"),
    ("have", r"has|have|had|owns?|adopted|got|raises?|keeps?"),
    ("do", r"plays?|playing|learns?|learning|practi[cs]es?|practi[cs]ing|takes? (?:\w+ )?lessons|goes|go|does|"
           r"took up|picked up|started"),
    # what happened once is an event, not the habit: "went hiking" is not "loves hiking"
    ("did", r"played|learned|learnt|went|did|tried|took|finished|won|joined|attended|last (?:week|weekend|month|year)|"
            r"yesterday|ago"),
    ("like", r"likes?|loves?|enjoys?|adores?|prefers?|is into|is a fan|favou?rite|passion"),
    ("drink", r"drinks?|drank|drinking|sips?|orders?"),
    ("eat", r"eats?|ate|eating|cooks?|cooked|makes?|made"),
    ("visit", r"visit(?:s|ed|ing)?|travel(?:l)?(?:s|ed|ing)?|trip|flew|vacation|holiday"),
]
_KIND_EN_RE = [(kind, re.compile(rf"\b(?:{words})\b", re.I)) for kind, words in _KINDS_EN]
_KINDS_ZH = [
    ("plan", r"打算|计划|准备|将要|要搬|想搬|下个月|明年|下周"),
    ("live", r"住在|住|搬到|搬去|定居|生活在|来自|老家"),
    ("work", r"工作|上班|职业|是一名|是一个|当|做(?=[\u4e00-\u9fff]{0,4}(?:经理|师|员|开发|设计|销售|会计|财务))|"
             r"是(?=[\u4e00-\u9fff]{0,4}(?:经理|师|员|医生|护士|警察|会计|律师)(?:$|[，。了]))"),
    ("have", r"养了|养着|养|有"),
    ("do", r"弹|学|练|玩|打|去|参加"),
    ("did", r"(?:去|玩|学|做|看|买|吃|喝|弹|打|参加)了|昨天|前天|上周|上个月|去年"),  # not 住在东京了: a state
    ("like", r"喜欢|爱|热爱|最爱|迷上"),
    ("drink", r"喝"),
    ("eat", r"吃|做"),
    ("visit", r"旅行|旅游|去了|游玩"),
]
_KIND_ZH_RE = [(kind, re.compile(words)) for kind, words in _KINDS_ZH]
# Kinds that say the same about a hobby or a habit: "loves the ukulele" / "plays the ukulele" / "在学尤克里里".
_KIND_FAMILY = {"do": "enjoy", "like": "enjoy", "drink": "consume", "eat": "consume"}

_NEGATED_RE = re.compile(r"\b(?:no longer|not|never|doesn't|does not|isn't|stopped|quit|anymore)\b|不再|不|没有|戒了", re.I)
_RENAME_RE = re.compile(
    r"\b(?:renamed|re-named|now (?:called|named)|changed (?:its|his|her|their|the) name|new name is|"
    r"goes by \w+ now|is called \w+ now|is named \w+ now)\b|改名|改叫|现在叫|新名字",
    re.I,
)
_NAME_EN_RE = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")
_NAME_ZH_RE = re.compile(r"(?:叫|名叫|名字是)([\u4e00-\u9fff]{1,3}?|[A-Za-z][\w-]*)(?=(?:了|啦)?(?:$|[，。,.\s的]))|([A-Za-z][a-z]+)")
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "一": "1", "两": "2", "二": "2", "三": "3", "四": "4",
                 "五": "5", "六": "6", "七": "7", "八": "8", "九": "9", "十": "10"}
_NUMBER_RE = re.compile(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\b"
                        r"(?= (?:\w+ )?(?:years?|months?|kids|children|sisters|brothers|sons|daughters|dogs|cats|"
                        r"pets|siblings|times|days|weeks|hours)\b)|(?<![A-Za-z])(\d+)(?![A-Za-z])|([一两二三四五六七八九十])(?=个|只|条|岁|年)", re.I)
_NOT_NAMES = frozenset(
    "User I I'm Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June "
    "July August September October November December English Chinese Mandarin Japanese Christmas The A An".split()
)

_EN_TERMS = sorted(((w, c) for c, ws in LEXICON.items() for w in ws if w.isascii()), key=lambda x: -len(x[0]))
_EN_TERM_RE = re.compile(r"\b(" + "|".join(re.escape(w) for w, _ in _EN_TERMS) + r")\b", re.I)
_EN_TERM_CONCEPT = {w: c for w, c in _EN_TERMS}
_ZH_TERMS = sorted(((w, c) for c, ws in LEXICON.items() for w in ws if not w.isascii()), key=lambda x: -len(x[0]))


@dataclass(frozen=True)
class Facts:
    """What a statement says, language aside."""

    subject: str  # "user", "family:sister", a name
    subject_name: str | None
    kinds: frozenset[str]
    concepts: frozenset[str]
    names: frozenset[str]
    numbers: frozenset[str]
    plan: bool
    negated: bool
    dated: bool = False
    rest: int = 0  # words (Chinese: characters) the lexicon, the kinds and the fillers leave unexplained
    dates: frozenset[str] = frozenset()  # the worked-out dates ("in october 2026"), not counted in rest
    date_numbers: frozenset[str] = frozenset()  # the numbers that are part of those dates
    often: str | None = None  # "2/week": how often a habit is done (frequency.py), not a count of things

    @property
    def things(self) -> frozenset[str]:
        return frozenset(c for c in self.concepts if c.split(":")[0] in _THINGS)

    def slots(self) -> set[str]:
        return {c.split(":")[0] for c in self.things}


def _concepts(text: str, chinese: bool) -> tuple[frozenset[str], str]:
    """The lexicon concepts in the text, and the text with them blanked out (so "Tokyo" is not a name too)."""
    found = set()

    def en_hit(m: re.Match) -> str:
        found.add(_EN_TERM_CONCEPT[m.group(1).lower()])
        return " _ "

    rest = _EN_TERM_RE.sub(en_hit, text)
    if chinese or re.search(r"[\u4e00-\u9fff]", rest):
        for word, concept in _ZH_TERMS:
            if word in rest:
                found.add(concept)
                rest = rest.replace(word, "＿")
    return frozenset(found), rest


def concepts_in(text: str) -> frozenset[str]:
    """The lexicon concepts a text names, in either language ("my dog" → pet:dog, "狗" → pet:dog)."""
    return _concepts(text, is_chinese(text))[0]


# A statement is "about its things" when at most this much of it is something else.
_MOSTLY = 1
_FILLER_EN = frozenset("every day daily always usually often still now lot much time times year years week weeks "
                       "month months new ones one really".split())
_FILLER_ZH_RE = re.compile(r"用户|每天|每周|经常|一直|现在|非常|特别|一个|一只|一条|[的了都在很也还会个只条着过]")


def _unexplained(rest: str, *, chinese: bool) -> int:
    for _, pattern in (_KIND_ZH_RE if chinese else _KIND_EN_RE):
        rest = pattern.sub(" ", rest)
    if chinese:
        return len(re.findall(r"[\u4e00-\u9fff]", _FILLER_ZH_RE.sub("", rest)))
    return sum(1 for word in content_tokens(rest) if word not in _FILLER_EN)


def _subject_key(statement: str) -> tuple[str, str | None]:
    who, name, _ = _compare._subject(statement)  # compare imports this module too
    if who in ("user", "?"):
        return who, name
    concepts, _ = _concepts(who, is_chinese(who))
    family = sorted(c for c in concepts if c.split(":")[0] in ("family", "pet"))
    return (family[0] if family else who), name


@lru_cache(maxsize=4096)
def facts_of(statement: str) -> Facts:
    text = statement.strip()
    chinese = is_chinese(text)
    subject, subject_name = _subject_key(text)
    concepts, rest = _concepts(text, chinese)
    kinds = {kind for kind, pattern in (_KIND_ZH_RE if chinese else _KIND_EN_RE) if pattern.search(text)}
    if chinese:
        names = {(a or b).lower() for a, b in _NAME_ZH_RE.findall(rest) if (a or b) and (a or b) not in ("User",)}
    else:
        names = {n.lower() for n in _NAME_EN_RE.findall(rest) if n not in _NOT_NAMES}
    numbers = set()
    for groups in _NUMBER_RE.findall(without_frequency(text)):
        value = next((g for g in groups if g), "")
        numbers.add(_NUMBER_WORDS.get(value.lower(), value))
    plan = is_plan(text) or "plan" in kinds
    dates = frozenset(m.group(0).lower() for m in DATE_PHRASE_RE.finditer(text))
    return Facts(
        subject=subject, subject_name=subject_name, kinds=frozenset(kinds - {"plan"}), concepts=concepts,
        names=frozenset(names), numbers=frozenset(numbers), plan=plan, negated=bool(_NEGATED_RE.search(text)),
        dated=bool(dates), rest=_unexplained(without_frequency(DATE_PHRASE_RE.sub(" ", rest)), chinese=chinese), dates=dates,
        date_numbers=frozenset(re.findall(r"\d+", " ".join(dates))), often=frequency_of(text),
    )


def _both_have_own(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a - b) and bool(b - a)


def particulars_differ(a: str, b: str) -> str | None:
    """Why two statements about one subject cannot be the same fact: another name, number or item of
    the same slot. None when nothing tells them apart."""
    fa, fb = facts_of(a), facts_of(b)
    if _both_have_own(fa.names, fb.names):
        return f"another name: {', '.join(sorted(fb.names - fa.names))} / {', '.join(sorted(fa.names - fb.names))}"
    if _both_have_own(fa.numbers, fb.numbers):
        return f"another number: {', '.join(sorted(fb.numbers - fa.numbers))} / {', '.join(sorted(fa.numbers - fb.numbers))}"
    for slot in fa.slots() & fb.slots():
        if slot == "family" and fa.subject != fb.subject:
            continue  # "User's sister has a dog" / "User's brother has a dog": the subject rule decides
        mine = frozenset(c for c in fa.things if c.startswith(slot + ":"))
        theirs = frozenset(c for c in fb.things if c.startswith(slot + ":"))
        if _both_have_own(mine, theirs):
            return f"another {slot}: {', '.join(sorted(x.split(':')[1] for x in theirs - mine))}"
    return None


def _kind_families(facts: Facts) -> frozenset[str]:
    return frozenset(_KIND_FAMILY.get(k, k) for k in facts.kinds)


def _counted(facts: Facts) -> frozenset[str]:
    """The numbers that tell a fact apart: not a date's, and not "一只" (one), which English says as "a"."""
    return facts.numbers - facts.date_numbers - {"1"}


def _dates_agree(fa: Facts, fb: Facts) -> bool:
    """Two dates must be the same date: a trip in May and one in March are two trips. A lasting state (a move,
    a job, a pet) said once with the date worked out and once without is one fact ("用户现在搬到上海了" / "User
    moved to Shanghai in October 2026"); a one-off happening ("did") dated once is not: it may be another one."""
    if fa.dated and fb.dated:
        return fa.dates == fb.dates
    if fa.dated == fb.dated:
        return True
    return not (fa.kinds | fb.kinds) & {"did", "visit"}


def same_thing(a: str, b: str) -> bool:
    """The same subject saying the same about the same things, in any language, the spouse however named: one memory."""
    return _same_thing(a, b) or (as_spouse(a), as_spouse(b)) != (a, b) and _same_thing(as_spouse(a), as_spouse(b))


def _same_thing(a: str, b: str) -> bool:
    fa, fb = facts_of(a), facts_of(b)
    if not fa.things or fa.things != fb.things:
        return False
    if fa.subject != fb.subject or (fa.subject_name and fb.subject_name and fa.subject_name != fb.subject_name):
        return False
    if fa.plan != fb.plan or fa.negated != fb.negated:
        return False
    # Nothing more particular on either side: "User plays the ukulele with Anna" says more than "User plays
    # the ukulele", and merging them would lose it.
    if fa.names != fb.names or _counted(fa) != _counted(fb):
        return False
    if not _dates_agree(fa, fb) or fa.often != fb.often:
        return False
    if ("did" in fa.kinds) != ("did" in fb.kinds):
        return False
    times_a = {c for c in fa.concepts if c.startswith("time:")}
    times_b = {c for c in fb.concepts if c.startswith("time:")}
    if times_a and times_b and times_a != times_b:
        return False
    if fa.rest > _MOSTLY or fb.rest > _MOSTLY:
        return False  # "User can teach others the joy that dancing brings them" is more than dancing
    if not fa.kinds and not fb.kinds and fa.things <= _STATUSES and _STATE_RE.match(a) and _STATE_RE.match(b):
        return True  # "User is married" / "用户结婚了": a state, said with no verb the kinds read
    # "User swims twice a week" / "用户每周游泳两次": the hobby's own word is the verb, which no kind reads
    return bool(_kind_families(fa) & _kind_families(fb)) or (not fa.kinds and not fb.kinds and all(
        c.startswith("hobby:") for c in fa.things))


_STATUSES = frozenset({"family:married", "family:divorced", "family:single"})
# The user's own state, said as such ("User is single now", 用户离婚了) — not "a single room", "their married sister".
_STATE_RE = re.compile(r"^User (?:is|got|has been|was) (?:now |still |recently |happily |just )?(?:married|divorced|single)\b|"
                       r"^用户(?:已经|现在|刚|刚刚|早就)?(?:结婚|离婚|单身|已婚|离异)")


def status_change(new: str, old: str) -> str | None:
    """Married / divorced / single said as the user's state, in either language, where the memory said another."""
    fn, fo = facts_of(new), facts_of(old)
    mine, theirs = fn.things & _STATUSES, fo.things & _STATUSES
    if not _STATE_RE.match(new) or not _STATE_RE.match(old) or fn.subject != "user" or fo.subject != "user" or fn.negated or fo.negated or fn.plan or fo.plan:
        return None
    if len(mine) == 1 and len(theirs) == 1 and mine != theirs:
        return f"same status, different value: '{next(iter(theirs)).split(':')[1]}' → '{next(iter(mine)).split(':')[1]}'"
    return None


def is_rename(statement: str) -> bool:
    return bool(_RENAME_RE.search(statement))


def renames(new: str, old: str) -> str | None:
    """The new statement renames what the old one named: "User's parrot Kiwi is now called Mango" /
    "User renamed their parrot Mango" after "User has a parrot named Kiwi"."""
    if not is_rename(new):
        return None
    fn, fo = facts_of(new), facts_of(old)
    if not fo.names or is_rename(old):
        return None
    shared = (fn.things | {fn.subject}) & (fo.things | {fo.subject})
    if not any(c.split(":")[0] in ("pet", "family") for c in shared):
        return None
    if not fn.names - fo.names:
        return None
    if len(fn.names) > 1 and not fn.names & fo.names:
        return None  # "Kiwi is now called Pip" renames Kiwi, not the other parrot Mango
    return f"renamed: {', '.join(sorted(fo.names - fn.names)) or '?'} → {', '.join(sorted(fn.names - fo.names))}"


def single_valued_change(new: str, old: str) -> str | None:
    """A move or a new job said in either language: the same single-valued slot, another value."""
    fn, fo = facts_of(new), facts_of(old)
    if fn.subject != fo.subject or fn.plan or fo.plan or fn.negated:
        return None
    for slot, kind in (("city", "live"), ("job", "work")):
        if kind not in fn.kinds or kind not in fo.kinds:
            continue
        mine = {c for c in fn.things if c.startswith(slot + ":")}
        theirs = {c for c in fo.things if c.startswith(slot + ":")}
        if mine and theirs and not (mine & theirs):
            return f"same {slot}, different value: '{', '.join(sorted(theirs))}' → '{', '.join(sorted(mine))}'"
    return None


_ENDED_RE = re.compile(r"\b(?:no longer|anymore|any more|stopped|quit|left|gave up|retired from)\b|不再|已经不|辞职|辞去|离开了",
                       re.I)


def ended(new: str, old: str) -> str | None:
    """A job or a home the memory names, which the new statement says is over: "User doesn't teach anymore" /
    "User quit teaching" after "User is a teacher in Boston", "用户不再当老师了" after "用户是一名老师"."""
    fn, fo = facts_of(new), facts_of(old)
    if fn.subject != fo.subject or fo.negated or fo.plan or fn.plan or not _ENDED_RE.search(new):
        return None
    for slot in ("job", "city"):
        shared = {c for c in fn.things if c.startswith(slot + ":")} & {c for c in fo.things if c.startswith(slot + ":")}
        if shared:
            return f"no longer: {', '.join(sorted(c.split(':')[1] for c in shared))}"
    return None


def fulfils(statement: str, plan: str) -> bool:
    """A statement that says what a plan said would happen: "User is moving to Tokyo next month" is
    fulfilled by "User lives in Tokyo now" / "User moved to Tokyo"; "User plans to adopt a dog" by
    "User adopted a dog named Rex"."""
    fs, fp = facts_of(statement), facts_of(plan)
    if not fp.plan or fs.plan or fs.negated or fp.negated:
        return False
    if fs.subject != fp.subject:
        return False
    wanted = fp.things | fp.names
    if not wanted or not wanted <= (fs.things | fs.names):
        return False
    moving = bool(re.search(r"\bmov(?:e|es|ing)\b|\brelocat|搬", plan, re.I))
    if moving:
        return "live" in fs.kinds
    return bool(_kind_families(fs) & _kind_families(fp)) or "have" in fs.kinds


def stranded_by_move(plan: str, *, old_place: str) -> bool:
    """A plan that happens where the user no longer lives ("User's sister is visiting them in Shanghai
    next weekend" after the user moved from Shanghai)."""
    fp = facts_of(plan)
    place = {c for c in facts_of(old_place).things if c.startswith("city:")}
    return fp.plan and bool(place) and place <= fp.things and not re.search(r"\bmov(?:e|es|ing)\b|搬", plan, re.I)


def thing_keys(statement: str) -> set[tuple[str, str]]:
    """(subject, concept) for every common thing the statement names."""
    facts = facts_of(statement)
    return {(facts.subject, concept) for concept in facts.things}
