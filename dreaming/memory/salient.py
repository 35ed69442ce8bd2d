"""The salient units of a statement: the words, names and numbers that carry its meaning, in one
vocabulary for English and Chinese, so "User drinks an oat latte every morning" and
"用户每天早上都喝燕麦拿铁" come out as nearly the same set.

Used by tombstones (dreaming/memory/tombstones.py) to stop paraphrases of a forgotten statement — there
each unit is stored only as a keyed hash — and by the forget page to offer near-duplicates.

A unit is a concept name (English lemma) for a word in the lexicon, a light English stem for other
words, a leftover run of Chinese characters, a number, or a name (a capitalised word after the
first, any Latin word inside Chinese). Names and numbers weigh more than common words: they are what
makes a statement about *this* person.
"""
from __future__ import annotations

import functools
import re
import unicodedata

NAME_WEIGHT = 1.5
WORD_WEIGHT = 1.0

# English word (or stem) -> concept. Synonyms share a concept; Chinese words below map onto the same.
_EN = {
    "each": "every", "everyday": "every day", "daily": "every day", "weekly": "every week",
    "mornings": "morning", "breakfast": "morning meal", "evenings": "evening", "night": "evening",
    "nights": "evening", "tonight": "evening", "noon": "midday", "lunch": "midday meal", "dinner": "evening meal",
    "weekend": "weekend", "weekends": "weekend", "today": "today", "yesterday": "yesterday", "tomorrow": "tomorrow",
    "drank": "drink", "drinking": "drink", "sip": "drink", "ate": "eat", "eating": "eat", "eats": "eat",
    "cook": "cook", "cooked": "cook", "cooking": "cook", "made": "make", "making": "make",
    "love": "like", "loves": "like", "loved": "like", "enjoy": "like", "enjoys": "like", "fond": "like",
    "favourite": "like", "favorite": "like", "prefer": "like", "prefers": "like", "likes": "like", "liked": "like",
    "hate": "dislike", "hates": "dislike", "hated": "dislike", "dislikes": "dislike", "detest": "dislike",
    "lives": "live", "lived": "live", "living": "live", "resides": "live", "moved": "move", "moving": "move",
    "relocated": "move", "owns": "", "own": "", "keeps": "", "works": "work", "worked": "work", "working": "work", "job": "work", "employed": "work",
    "studies": "study", "studied": "study", "studying": "study", "learning": "study", "learn": "study",
    "plays": "play", "played": "play", "playing": "play",
    "runs": "run", "running": "run", "jogging": "run", "jog": "run", "swims": "swim", "swimming": "swim",
    "reads": "read", "reading": "read", "watches": "watch", "watching": "watch", "married": "marry",
    "wife": "spouse", "husband": "spouse", "partner": "spouse", "mom": "mother", "mum": "mother",
    "mommy": "mother", "dad": "father", "daddy": "father", "parents": "parent", "kids": "child", "kid": "child",
    "children": "child", "son": "son", "daughter": "daughter", "brother": "brother", "sister": "sister",
    "boyfriend": "boyfriend", "girlfriend": "girlfriend", "friend": "friend", "friends": "friend",
    "colleague": "colleague", "coworker": "colleague", "boss": "boss", "grandmother": "grandmother",
    "grandma": "grandmother", "grandfather": "grandfather", "grandpa": "grandfather", "aunt": "aunt",
    "uncle": "uncle", "puppy": "dog", "dogs": "dog", "kitten": "cat", "cats": "cat", "corgi": "dog corgi",
    "coffee": "coffee", "latte": "latte", "lattes": "latte", "tea": "tea", "milk": "milk", "oat": "oat",
    "oats": "oat", "oatmeal": "oat", "beer": "beer", "wine": "wine", "water": "water", "juice": "juice",
    "rice": "rice", "noodles": "noodle", "noodle": "noodle", "bread": "bread", "cake": "cake",
    "chocolate": "chocolate", "fruit": "fruit", "apple": "apple", "apples": "apple", "meat": "meat",
    "vegetarian": "vegetarian", "vegan": "vegan", "spicy": "spicy", "sweet": "sweet", "tofu": "tofu",
    "dumplings": "dumpling", "dumpling": "dumpling", "hotpot": "hotpot", "sushi": "sushi", "pizza": "pizza",
    "doctor": "doctor", "nurse": "nurse", "teacher": "teacher", "engineer": "engineer", "programmer": "programmer",
    "developer": "programmer", "designer": "designer", "student": "student", "lawyer": "lawyer",
    "company": "company", "office": "office", "school": "school", "university": "university",
    "college": "university", "hospital": "hospital", "home": "home", "house": "home", "apartment": "home",
    "city": "city", "hometown": "hometown", "born": "born", "birthday": "birthday", "allergic": "allergy",
    "allergy": "allergy", "guitar": "guitar", "piano": "piano", "violin": "violin", "music": "music",
    "song": "song", "songs": "song", "movie": "movie", "movies": "movie", "film": "movie", "films": "movie",
    "book": "book", "books": "book", "novel": "novel", "game": "game", "games": "game", "chess": "chess",
    "football": "football", "soccer": "football", "basketball": "basketball", "tennis": "tennis",
    "yoga": "yoga", "gym": "gym", "hiking": "hike", "hike": "hike", "travel": "travel", "travelling": "travel",
    "traveling": "travel", "trip": "travel", "photography": "photography", "painting": "paint", "paint": "paint",
    "drawing": "draw", "draw": "draw", "garden": "garden", "gardening": "garden", "car": "car", "bike": "bike",
    "bicycle": "bike", "cycling": "bike", "train": "train", "subway": "subway", "metro": "subway",
    "sleep": "sleep", "sleeps": "sleep", "sleeping": "sleep", "early": "early", "late": "late",
    "years": "year", "year": "year", "old": "age", "age": "age", "months": "month", "weeks": "week",
    "days": "day", "anxious": "anxious", "happy": "happy", "sad": "sad", "tired": "tired", "stressed": "stress",
    "stress": "stress", "lonely": "lonely", "pregnant": "pregnant", "wedding": "wedding",
}

# Chinese word -> concept (the same concept names as above). Longest match wins.
_ZH = {
    "每天": "every day", "天天": "every day", "每周": "every week", "每个": "every", "每": "every",
    "早上": "morning", "早晨": "morning", "上午": "morning", "早餐": "morning meal", "早饭": "morning meal",
    "晚上": "evening", "夜里": "evening", "中午": "midday", "午饭": "midday meal", "午餐": "midday meal",
    "晚饭": "evening meal", "晚餐": "evening meal", "周末": "weekend", "今天": "today", "昨天": "yesterday",
    "明天": "tomorrow", "喝": "drink", "吃": "eat", "做饭": "cook", "煮": "cook", "做": "make",
    "喜欢": "like", "爱": "like", "热爱": "like", "最爱": "like", "偏爱": "like", "讨厌": "dislike",
    "不喜欢": "dislike", "受不了": "dislike", "住在": "live", "住": "live", "搬到": "move", "搬家": "move",
    "搬": "move", "工作": "work", "上班": "work", "学习": "study", "学": "study", "读书": "study", "玩": "play",
    "打": "play", "弹": "play", "养了": "", "养": "", "有": "", "拥有": "", "跑步": "run", "游泳": "swim",
    "看书": "read", "读": "read", "看": "watch", "结婚": "marry", "老婆": "spouse", "妻子": "spouse",
    "老公": "spouse", "丈夫": "spouse", "爱人": "spouse", "妈妈": "mother", "母亲": "mother", "妈": "mother",
    "爸爸": "father", "父亲": "father", "爸": "father", "父母": "parent", "孩子": "child", "小孩": "child",
    "儿子": "son", "女儿": "daughter", "哥哥": "brother", "弟弟": "brother", "姐姐": "sister", "妹妹": "sister",
    "男朋友": "boyfriend", "女朋友": "girlfriend", "朋友": "friend", "同事": "colleague", "老板": "boss",
    "奶奶": "grandmother", "外婆": "grandmother", "姥姥": "grandmother", "爷爷": "grandfather",
    "外公": "grandfather", "姥爷": "grandfather", "阿姨": "aunt", "姑姑": "aunt", "姨妈": "aunt",
    "叔叔": "uncle", "舅舅": "uncle", "狗": "dog", "小狗": "dog", "狗狗": "dog", "柯基": "dog corgi",
    "猫": "cat", "小猫": "cat", "猫咪": "cat", "咖啡": "coffee", "拿铁": "latte", "茶": "tea", "牛奶": "milk",
    "奶": "milk", "燕麦": "oat", "啤酒": "beer", "葡萄酒": "wine", "红酒": "wine", "水": "water", "果汁": "juice",
    "米饭": "rice", "面条": "noodle", "面": "noodle", "面包": "bread", "蛋糕": "cake", "巧克力": "chocolate",
    "水果": "fruit", "苹果": "apple", "肉": "meat", "素食": "vegetarian", "吃素": "vegetarian",
    "纯素": "vegan", "辣": "spicy", "甜": "sweet", "豆腐": "tofu", "饺子": "dumpling", "火锅": "hotpot",
    "寿司": "sushi", "披萨": "pizza", "医生": "doctor", "护士": "nurse", "老师": "teacher", "教师": "teacher",
    "工程师": "engineer", "程序员": "programmer", "设计师": "designer", "学生": "student", "律师": "lawyer",
    "公司": "company", "办公室": "office", "学校": "school", "大学": "university", "医院": "hospital",
    "家": "home", "城市": "city", "老家": "hometown", "家乡": "hometown", "出生": "born", "生日": "birthday",
    "过敏": "allergy", "吉他": "guitar", "钢琴": "piano", "小提琴": "violin", "音乐": "music", "歌": "song",
    "电影": "movie", "书": "book", "小说": "novel", "游戏": "game", "国际象棋": "chess", "象棋": "chess",
    "足球": "football", "篮球": "basketball", "网球": "tennis", "瑜伽": "yoga", "健身": "gym",
    "健身房": "gym", "徒步": "hike", "爬山": "hike", "旅行": "travel", "旅游": "travel", "摄影": "photography",
    "拍照": "photography", "画画": "paint", "绘画": "paint", "花园": "garden", "园艺": "garden", "车": "car",
    "汽车": "car", "自行车": "bike", "骑车": "bike", "火车": "train", "地铁": "subway", "睡觉": "sleep",
    "睡": "sleep", "早起": "early", "早": "early", "晚": "late", "岁": "age", "年": "year", "月": "month",
    "周": "week", "天": "day", "焦虑": "anxious", "开心": "happy", "难过": "sad", "累": "tired",
    "压力": "stress", "孤独": "lonely", "怀孕": "pregnant", "婚礼": "wedding", "上海": "shanghai",
    "北京": "beijing", "东京": "tokyo", "柏林": "berlin", "伦敦": "london", "纽约": "new york",
}

# Places a lexicon knows are names, whichever script they are written in.
_PLACES = frozenset({"shanghai", "beijing", "tokyo", "berlin", "london", "new", "york"})
_CONCEPTS = frozenset(word for concept in (*_EN.values(), *_ZH.values()) for word in concept.split())

_EN_STOP = frozenset("""
a an the and or but of to in on at for with from by as is are was were be been being am it its it's
this that these those there here user user's users their they them he she his her him i me my we our you your
has have had having do does did not no very really also just still now then so too some any more most much
many one about into over after before up down out off than which who whom whose what when where why how
named called name names usually often sometimes always never will would can could should may might
i'm im i've ive i'd i'll we're we've it's that's there's lot lots spend spent spending time times
get gets got getting thing things stuff right
""".split())

_ZH_STOP_WORDS = ("用户", "一只", "一个", "一位", "一条", "一家", "名叫", "叫做")
_ZH_STOP_CHARS = frozenset("的了是在都也很和与及就还又着过呢吗吧啊呀个只位条把被给对让叫他她它们这那其")

_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_LATIN_OR_NUMBER = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d+(?:[.,]\d+)?")
_ZH_NUMERALS = {"一": "1", "二": "2", "两": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7",
                "八": "8", "九": "9", "十": "10"}
_ZH_MAX_WORD = max(len(w) for w in _ZH)


def _en_stem(word: str) -> str:
    for suffix, repl, min_len in (("ies", "y", 5), ("ing", "", 6), ("ed", "", 5), ("es", "", 5), ("s", "", 4)):
        if word.endswith(suffix) and len(word) >= min_len and not word.endswith("ss"):
            return word[: -len(suffix)] + repl
    return word


@functools.lru_cache(maxsize=65536)
def _en_units(word: str) -> tuple[str, ...]:
    lowered = word.casefold().replace("’", "'")
    if lowered.endswith("'s"):
        lowered = lowered[:-2]
    if lowered in _EN_STOP or len(lowered) < 2:
        return ()
    if lowered in _CONCEPTS:
        return (lowered,)
    concept = _EN.get(lowered)
    if concept is None:
        concept = _EN.get(_en_stem(lowered))
    if concept is None:
        stem = _en_stem(lowered)
        return () if stem in _EN_STOP else (stem,)
    return tuple(concept.split())


def _add(units: dict[str, float], unit: str, weight: float) -> None:
    units[unit] = max(units.get(unit, 0.0), weight)


def _zh_run_units(run: str, units: dict[str, float]) -> None:
    for unit, weight in _zh_run_units_cached(run):
        _add(units, unit, weight)


@functools.lru_cache(maxsize=65536)
def _zh_run_units_cached(run: str) -> tuple[tuple[str, float], ...]:
    units: dict[str, float] = {}
    _zh_run_units_into(run, units)
    return tuple(units.items())


def _zh_run_units_into(run: str, units: dict[str, float]) -> None:
    """Longest-match the lexicon through a run of Chinese; leftover stretches (names, rare words) are units too."""
    for stop in _ZH_STOP_WORDS:
        run = run.replace(stop, " ")
    leftover = ""
    i = 0
    while i < len(run):
        match = next(
            (run[i:i + n] for n in range(min(_ZH_MAX_WORD, len(run) - i), 0, -1) if run[i:i + n] in _ZH), None
        )
        if match is None:
            ch = run[i]
            if ch in _ZH_NUMERALS and (i + 1 < len(run) and run[i + 1] in "岁年个月天次"):
                _flush(leftover, units)
                leftover = ""
                _add(units, _ZH_NUMERALS[ch], NAME_WEIGHT)
            elif ch in _ZH_STOP_CHARS or ch == " ":
                _flush(leftover, units)
                leftover = ""
            else:
                leftover += ch
            i += 1
            continue
        _flush(leftover, units)
        leftover = ""
        for concept in _ZH[match].split():
            _add(units, concept, NAME_WEIGHT if concept in _PLACES else WORD_WEIGHT)
        i += len(match)
    _flush(leftover, units)


def _flush(leftover: str, units: dict[str, float]) -> None:
    # A stretch the lexicon does not know: usually a name ("米洛") or a specific thing; kept whole
    # when short, in overlapping pairs when long, so a paraphrase sharing most of it still matches.
    if len(leftover) < 2:
        return
    if len(leftover) <= 4:
        _add(units, leftover, NAME_WEIGHT)
        return
    for i in range(len(leftover) - 1):
        _add(units, leftover[i:i + 2], WORD_WEIGHT)


def salient_units(text: str) -> dict[str, float]:
    """{unit: weight} for a statement, in the shared English/Chinese vocabulary."""
    text = unicodedata.normalize("NFKC", text or "")
    units: dict[str, float] = {}
    has_chinese = bool(_CJK_RUN.search(text))
    for position, match in enumerate(_LATIN_OR_NUMBER.finditer(text)):
        token = match.group(0)
        if token[0].isdigit():
            _add(units, token.replace(",", ""), NAME_WEIGHT)
            continue
        is_name = token[0].isupper() and (has_chinese or position > 0) and token.casefold() not in _EN_STOP
        for unit in _en_units(token):
            _add(units, unit, NAME_WEIGHT if is_name and unit == _en_stem(token.casefold()) else WORD_WEIGHT)
    for run in _CJK_RUN.findall(text):
        _zh_run_units(run, units)
    return units


def coverage(wanted: dict[str, float], found: dict[str, float] | set[str]) -> float:
    """The share of `wanted`'s weight that `found` also holds (0 when `wanted` is empty)."""
    total = sum(wanted.values())
    if not total:
        return 0.0
    return sum(weight for unit, weight in wanted.items() if unit in found) / total


def near_duplicate(a: dict[str, float], b: dict[str, float], *, threshold: float = 0.67) -> bool:
    """Both statements hold most of each other's meaning (shared weight at least 2: one word is not enough)."""
    shared = sum(min(weight, b[unit]) for unit, weight in a.items() if unit in b)
    return shared >= 2 and coverage(a, b) >= threshold and coverage(b, a) >= threshold
