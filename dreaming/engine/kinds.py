"""What a search word means without a semantic embedder: "dog" / "狗" is about a corgi too.

`slots.LEXICON` names the common things (pet:dog = dog, puppy, 狗 …). Here are the *kinds* of those
things, in both languages — dog breeds, cat breeds, kinds of coffee, tea, noodles, instruments, sports —
and the words for a whole slot or group ("pet" / "宠物" is every pet, "instrument" / "乐器" every
instrument). `words_meaning(query)` gives every word a statement may use for what the query names.

Search only: deep sleep compares statements with LEXICON alone. A corgi and a husky are two dogs, and
were they dog words there, "User has a corgi" and "User has a husky" would read as one memory.
"""
from __future__ import annotations

import re
from functools import lru_cache

from dreaming.engine.slots import LEXICON, concepts_in

# concept → the words for its kinds (breeds, varieties), English and Chinese. "hobby:instrument" and
# "hobby:sport" hold the instruments and sports the lexicon has no concept for.
KINDS: dict[str, tuple[str, ...]] = {
    "pet:dog": (
        "corgi", "labrador", "golden retriever", "retriever", "poodle", "husky", "beagle", "bulldog", "chihuahua",
        "dachshund", "shiba inu", "shiba", "german shepherd", "border collie", "collie", "pug", "schnauzer",
        "samoyed", "pomeranian", "terrier", "yorkie", "greyhound", "whippet", "shih tzu", "akita", "doberman",
        "rottweiler", "dalmatian", "maltese", "bichon", "spaniel", "malamute", "sheepdog", "great dane",
        "柯基", "拉布拉多", "金毛", "泰迪", "贵宾犬", "哈士奇", "二哈", "比格", "斗牛犬", "法斗", "吉娃娃", "腊肠犬",
        "柴犬", "德牧", "德国牧羊犬", "边牧", "边境牧羊犬", "巴哥", "雪纳瑞", "萨摩耶", "博美", "梗犬", "比熊",
        "秋田犬", "杜宾", "罗威纳", "斑点狗", "西施犬", "阿拉斯加", "田园犬", "土狗",
    ),
    "pet:cat": (
        "siamese", "persian cat", "maine coon", "ragdoll", "british shorthair", "american shorthair", "sphynx",
        "bengal cat", "tabby", "calico", "russian blue", "scottish fold", "暹罗猫", "波斯猫", "缅因猫", "布偶猫",
        "英短", "美短", "加菲猫", "橘猫", "狸花猫", "无毛猫", "孟加拉猫", "三花猫", "蓝猫", "折耳猫",
    ),
    "pet:parrot": (
        "cockatiel", "budgie", "parakeet", "macaw", "cockatoo", "african grey", "lovebird", "conure",
        "玄凤", "虎皮鹦鹉", "金刚鹦鹉", "牡丹鹦鹉", "凤头鹦鹉", "灰鹦鹉",
    ),
    "pet:rabbit": ("holland lop", "lop", "lionhead", "垂耳兔", "侏儒兔", "狮子兔"),
    "pet:hamster": ("syrian hamster", "dwarf hamster", "金丝熊", "侏儒仓鼠"),
    "pet:turtle": ("red-eared slider", "巴西龟", "草龟"),
    "drink:coffee": (
        "espresso", "americano", "cappuccino", "latte", "flat white", "mocha", "macchiato", "cold brew",
        "美式", "浓缩咖啡", "卡布奇诺", "拿铁", "摩卡", "冷萃", "澳白",
    ),
    "drink:tea": (
        "green tea", "black tea", "oolong", "jasmine tea", "matcha", "pu'er", "earl grey", "chai", "milk tea",
        "bubble tea", "绿茶", "红茶", "乌龙", "茉莉花茶", "抹茶", "普洱", "龙井", "铁观音", "奶茶",
    ),
    "drink:wine": ("merlot", "cabernet", "pinot", "chardonnay", "riesling", "champagne", "prosecco", "香槟", "白葡萄酒"),
    "drink:beer": ("ipa", "lager", "stout", "pilsner", "craft beer", "精酿", "扎啤"),
    "food:noodles": (
        "ramen", "udon", "soba", "pho", "pasta", "spaghetti", "拉面", "乌冬", "荞麦面", "米粉", "米线", "螺蛳粉",
        "刀削面", "牛肉面", "意面",
    ),
    "food:pasta": ("spaghetti", "lasagna", "penne", "ravioli", "fettuccine", "千层面"),
    "food:dumplings": ("gyoza", "xiaolongbao", "wonton", "wontons", "小笼包", "馄饨", "锅贴", "煎饺"),
    "hobby:running": ("marathon", "half marathon", "trail running", "long-distance running", "马拉松", "半马", "越野跑",
                      "长跑", "慢跑", "夜跑", "晨跑"),
    "hobby:hiking": ("mountaineering", "trekking", "登山", "远足", "徒步旅行"),
    "hobby:singing": ("karaoke", "choir", "卡拉OK", "唱K", "K歌", "合唱"),
    "hobby:dancing": ("ballet", "hip hop", "breakdancing", "salsa", "tango", "芭蕾", "街舞", "霹雳舞", "拉丁舞", "民族舞",
                      "广场舞", "爵士舞", "现代舞"),
    "hobby:guitar": ("electric guitar", "acoustic guitar", "电吉他", "木吉他"),
    "hobby:instrument": (
        "flute", "saxophone", "trumpet", "harp", "bass guitar", "clarinet", "harmonica", "erhu", "guzheng", "pipa",
        "accordion", "长笛", "萨克斯", "小号", "竖琴", "贝斯", "单簧管", "口琴", "二胡", "古筝", "琵琶", "笛子", "手风琴",
    ),
    "hobby:sport": (
        "volleyball", "baseball", "golf", "table tennis", "ping pong", "boxing", "martial arts", "karate",
        "taekwondo", "judo", "rugby", "hockey", "ice skating", "skating", "snowboarding", "triathlon", "fencing",
        "shooting range", "archery", "scuba diving", "diving", "fitness", "gym",
        "排球", "棒球", "高尔夫", "乒乓球", "拳击", "武术", "空手道", "跆拳道", "柔道", "橄榄球", "冰球", "滑冰",
        "单板", "铁人三项", "击剑", "射击", "射箭", "潜水", "健身",
    ),
}

_INSTRUMENTS = ("hobby:ukulele", "hobby:guitar", "hobby:piano", "hobby:violin", "hobby:cello", "hobby:drums",
                "hobby:instrument")
_SPORTS = ("hobby:tennis", "hobby:badminton", "hobby:basketball", "hobby:football", "hobby:swimming",
           "hobby:running", "hobby:cycling", "hobby:skiing", "hobby:surfing", "hobby:rock climbing", "hobby:yoga",
           "hobby:sport")
# Words for a whole slot ("pet:" = every pet concept) or a group of concepts.
GROUPS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("pet", "pets", "animal", "animals", "宠物", "动物"): ("pet:",),
    ("drink", "drinks", "beverage", "beverages", "饮料", "喝的"): ("drink:",),
    ("food", "foods", "dish", "dishes", "食物", "吃的", "美食"): ("food:",),
    ("city", "cities", "城市"): ("city:",),
    ("family", "relative", "relatives", "家人", "家里人", "亲人", "亲戚"): ("family:",),
    ("sibling", "siblings", "兄弟姐妹"): ("family:sister", "family:brother"),
    ("job", "jobs", "occupation", "profession", "career", "职业", "工作"): ("job:",),
    ("hobby", "hobbies", "pastime", "爱好", "兴趣"): ("hobby:",),
    ("instrument", "instruments", "music", "musical", "乐器", "音乐"): _INSTRUMENTS,
    ("sport", "sports", "exercise", "运动", "体育", "锻炼"): _SPORTS,
}
_CONCEPTS = tuple(LEXICON) + tuple(c for c in KINDS if c not in LEXICON)


def _says(query: str, word: str) -> bool:
    if word.isascii():
        return re.search(rf"\b{re.escape(word)}\b", query, re.I) is not None
    return word in query


def _group_concepts(query: str) -> set[str]:
    found = set()
    for words, members in GROUPS.items():
        if any(_says(query, word) for word in words):
            found |= {c for member in members for c in _CONCEPTS if c == member or member.endswith(":")
                      and c.startswith(member)}
    return found


@lru_cache(maxsize=1024)
def words_meaning(query: str) -> tuple[str, ...]:
    """Every word, in both languages, a statement may use for what `query` names: its concepts, their
    kinds, and every member of a slot or group it names. Empty when the query names nothing known."""
    concepts = set(concepts_in(query)) | _group_concepts(query)
    words = {word for concept in concepts for word in LEXICON.get(concept, ()) + KINDS.get(concept, ())}
    return tuple(sorted(words))


def kind_of(word: str) -> tuple[str, ...]:
    """The concepts `word` is exactly a kind of ("登山" → hobby:hiking, "射击" → hobby:sport), sorted."""
    folded = word.strip().casefold()
    return tuple(sorted(c for c, kinds in KINDS.items() if any(k.casefold() == folded for k in kinds)))
