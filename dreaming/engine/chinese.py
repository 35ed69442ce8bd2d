"""Chinese clause rules: first-person clauses (我…, with dropped subjects after a comma), what
disqualifies them (questions, requests, 如果…, reactions), their statement (我 → 用户) and category."""
from __future__ import annotations

import re

from dreaming.engine.language import CJK_RE
from dreaming.engine.life_answers import ORIGIN_ZH
from dreaming.engine.third_person import _KIN_ZH, to_third_person_zh

# "我的爱好有很多，比如滑板、书法和烘焙": the examples after 比如 / 包括 belong to the clause before them; so does
# the name after a comma ("我养了一只猫，叫Milo", "我有个妹妹，她叫小美"), never "，叫我小雪就好"; and how often, said
# with no thing of its own ("我最近开始学游泳，每周去两次").
ZH_CLAUSE_SPLIT_RE = re.compile(
    r"[，,：:](?!\s*(?:(?:比如|例如|譬如|包括|像是)[\u4e00-\u9fff]|(?:它|他|她)?(?:的名字|名字)?(?:名)?叫(?!我)|"
    r"(?:每天|每周|每星期|每个?月|每年|一周|一个?月|一年)(?:都|会|大概|差不多)*[去来练喝吃跑游打上做]?"
    r"[一两二三四五六七八九十\d]+(?:次|杯|趟|回|个?小时|公里)(?:左右)?(?:[。！!~～，,]|$)))"
)

_ZH_LEAD_FILLER_RE = re.compile(
    r"^(?:(?:你好|您好|嗨|哈喽|哈哈+|嘿|嗯+|啊|哦|噢|哇|好的|好吧|是的|是啊|对(?!我)|对啊|对呀|没错|当然|谢谢你?|"
    r"AI伴侣|ai伴侣|AI|小助手|其实|而且|所以|但是|但(?!愿)|不过|可是|然后|还有|另外|说实话|老实说|因为|由于|并且|"
    r"我跟你说|跟你说|告诉你|比如说?|例如|譬如)[，,！!。~～\s]*)+"
)

# 我们家 is the user's household ("我们家养了一只猫"); any other 我们 is not the user alone.
# 我国 / 我校 / 我司 / 我县 …: the institution's "our" (a textbook's 我国, a company's 我司), not the speaker; not
# 我国庆 (National Day), 我军训, 我院子, 我司机朋友, 我省钱 / 我方便 / 我社交 (省 方 社 市 局 stay: too often the user's).
_ZH_INSTITUTION_ME = r"(?!们(?!家)|国(?!庆)|校(?!对)|司(?!机)|院(?!子)|军(?!训)|党|县|区(?!别|分)|厂)"

_ZH_FIRST_PERSON_RE = re.compile(r"^(?:(?![我你他她它这那])[\u4e00-\u9fff]){0,6}?(?<![自忘])我" + _ZH_INSTITUTION_ME)

# 对我来说 is "for me" (the 对 of "对，我…" is a yes); 帮助我 / 要求我 / 让我: someone else acts on the user.
_ZH_OBJECT_ME_RE = re.compile(
    r"(?:[给对让帮跟和叫告诉陪教问带替向使令请逼劝]|帮助|要求|鼓励|支持|提醒|允许|邀请|说服|影响|打扰|吸引|启发|激励|安慰|陪伴)我(?!们)"
)

# What may stand before "我的…" when the clause is the user's: a time, a linking word ("今天我的…", "但我的…").
# After a verb the 我的 is an object's owner and the subject is someone else's or dropped: "融入了我的气息",
# "缓解我的压力", "并提高我的瑜伽技巧" are pieces of a sentence, not statements.
_ZH_BEFORE_MY_RE = re.compile(
    r"(?:今天|昨天|前天|明天|最近|现在|目前|平时|平常|以前|之前|后来|当时|那时候?|小时候|有时候?|偶尔|每天|每周|每年|"
    r"周末|上周末?|这周末?|下周|上个?月|这个月|下个?月|去年|今年|明年|前年|这几年|这些年|这几天|这段时间|早上|上午|中午|"
    r"下午|晚上|昨晚|今晚|刚才|毕竟|但是?|可是|而|又|也|还|都|真的|确实|终于|总之|反正|可能|也许|大概|本来|原来|"
    r"是|就是|只是)*"
)

_ZH_QUESTION_RE = re.compile(r"[？?]$|吗$|呢$|什么|怎么|为什么|哪|吗[，。！]|你觉得|你认为|你有没有|能不能|可不可以|是不是|有没有")

# 给我 asks for something ("给我写一份回复"); "朋友给我发了个定位" (给我 + a verb with 了) tells what someone did.
# "我会给你发送…" / "我发给你" announce what comes next in the chat: about the conversation, not the user.
_ZH_REQUEST_RE = re.compile(
    r"请你|帮我|给我(?![\u4e00-\u9fff]{1,3}了)|你能|你可以|麻烦你|推荐|建议我|告诉我|请教|想问|问你|和你聊|跟你聊|想听听|"
    r"给你(?:发|看|讲|说|写|介绍|提供|补充|贴)|发给你|发你|你(?:的|说的)(?:话|建议|意见|推荐|指导|陪伴|帮助)"
)

_ZH_GENERIC_RE = re.compile(
    r"^我(?:也|还|一定|就|真的|很|非常)*(?:觉得|认为|想想|知道了?|明白了?|懂了?|同意|同感|也是|会去看|会的|会试|会注意|"
    r"感谢|感激|可以|"
    r"会努力|会加油|相信你|理解|猜|希望你|谢谢|很好|挺好|还好|没事|不知道|不太清楚|不确定|看看|试试|"
    r"已经记下|记下来|记住了|会(?:好好|去试|去尝试|尽力|试着|尝试|努力|注意|考虑|坚持|按照|参考|去找|记住|多|先|认真)|"
    r"(?:准备|要|先|得)?去(?:吃|睡|洗|休息)|该去)|再见|晚安|拜拜"
)

# "我想和你谈谈我的瑜伽课", "我需要学习你的方法": about this chat with the assistant — a memory saying "你" means nobody.
_ZH_TO_YOU_RE = re.compile(r"你|您")

# "…，以确保我有充足的时间" / "为了让我…": the purpose of what the clause before said, not a statement of its own.
_ZH_PURPOSE_LEAD_RE = re.compile(r"以(?![前后来往为及上下内外])|从而|进而|为了|好让|使得")

# "我基本上已经着迷了": taken with something said before — the clause alone does not say what.
_ZH_NO_OBJECT_RE = re.compile(r"^[^对把被为]*?(?:着迷|迷上|爱上|喜欢上|上瘾)了?$")

ZH_HYPOTHETICAL_RE = re.compile(r"如果|假如|(?<![主只需重想])要是|假设|万一|但愿|以后有机会")

_ZH_TASK_RE = re.compile(
    r"写一篇|写一首|写个|帮我写|翻译|作文|论文|文章|邮件|题目|作业|这段话|报错|代码|"
    r"(?:写|改|修改|调试|运行|跑)(?:一下)?(?:这个|这段|我的)?程序|这个程序|程序(?:报错|出错|有问题)"
)

_ZH_DISCLOSURE_RE = re.compile(
    r"我(?:今年|已经)?(?:\d{1,3}|[一二两三四五六七八九十]{1,3})岁|我(?:今年|已经)(?:\d{1,3}|[一二两三四五六七八九十]{1,3})了|我(?:[\u4e00-\u9fff]{0,5}?)(?:是|叫|住|在|喜欢|爱|讨厌|不喜欢|养|有|去|来自|搬|学|做|当|开|买|看|读|听|玩|"
    r"不吃|不喝|只吃|只喝|吃素|不抽烟|戒了|"
    r"练|跑|打|弹|画|唱|跳|写|拍|参加|加入|结婚|离婚|毕业|工作|上班|上学|出生|长大|最近|今天|昨天|刚|已经|"
    r"一直|经常|每天|每周|周末|平时|从小|特别|很|非常|超|挺|比较|更|还|也|都|正在|打算|计划|准备|想去|想学|"
    r"热爱|热衷|沉迷|痴迷|着迷|酷爱|钟爱|喜爱|迷上|爱上|擅长|会|感到|觉得自己|心情|有点|好|终于|决定|换了|辞职|退休|怀念|想念|成为|变得|家|老家|"
    r"妈|爸|父母|男朋友|女朋友|老公|老婆|孩子|儿子|女儿|哥|姐|弟|妹|朋友|同事|室友|的|拿到|收到|找到|入职|考上|升职|报名|"
    r"了[一两几][个只次家本部场门节堂件套双辆台]|一般|通常|考(?!虑)|辍学|退学|起床|睡觉|健身|锻炼|申请了|被录取|被录用|面试)"
)

# A sentence that opens on a time of the user's life and says no one: "下个月去一家互联网公司做财务".
ZH_TIME_LED_RE = re.compile(r"^(?:下个月|下周|下星期|明年|明天|后天|今年|去年|上个月|上周|最近|后来)(?![\u4e00-\u9fff]{0,2}我)")
ZH_CONTINUATION_RE = re.compile(
    r"^(?:也|还|都|又|就|现在|目前|平时|平常|每天|每周|每晚|每个周末|经常|常常|周末|偶尔|一直|已经|今年|去年|上个月|最近|从小|"
    r"下个月|下周|明年|马上|快要|要|有空(?:的时候|时)?|业余时间|空闲时间|闲暇时|早上|上午|中午|下午|晚上|每天(?:早上|下午|晚上))*"
    r"(?:在[\u4e00-\u9fffA-Za-z]{1,15}?(?:工作|上班|上学|读书|住|做|当|教|送外卖|开车|打工|实习|开店|摆摊)|"
    r"(?:\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|了$)|(?:退休前|以前|之前|原来)是|"
    r"住在|喜欢|爱上|讨厌|养了|是一名|是个|当了?|开了|买了|搬到|搬去|搬回|换了|开始|去(?!年)|会去|打算|准备|计划|正在学|"
    r"学了|有一个|有两个|有一只|没有(?=孩子|小孩|宠物|男朋友|女朋友|对象|兄弟姐妹)|老家(?:在|是)|从[\d一二两三四五六七八九十]{1,3}岁(?:起|开始)|[\d一二两三四五六七八九十]{1,2}月(?:份)?(?:要)?上|"
    r"上(?:小学|初中|高中|大学|幼儿园)|在家(?=练|写|画|做|带|种|弹|看书|读书|学)|练(?=书法|字|琴|瑜伽|太极|毛笔|舞)|"
    r"一个人住|独居|退休在家)"
)
# Chinese drops the subject when it is obvious: a turn that opens with how the speaker feels is about
# the speaker ("最近压力好大，感觉有点累").
# So does one that opens with the speaker's habit: "周末经常去爬山", "平时没事就喜欢看书", "最近迷上了做陶艺" —
# a time of the week or of life, then what is done then (not 可以 / 多 / 应该: that is advice, not a habit).
_ZH_HABIT_TIME = (
    r"(?:周末|每个?周末|平时|平常|每天|每周|每晚|每天早上|下班(?:以)?后|放学(?:以)?后|有空(?:的时候|时)?|没事(?:的时候)?|"
    r"空闲(?:的)?时(?:候|间)?|闲暇(?:的)?时(?:候|间)?|业余时间|休息日|节假日|假期里?|最近|这几年|这段时间|从小)"
)
ZH_OPENING_STATE_RE = re.compile(
    r"^(?!.*[你他她它这那])(?:最近|今天|这几天|这段时间|现在)?[\u4e00-\u9fff]{0,6}?"
    r"(?:压力(?:好|很|太|特别)?大|(?:好|很|太|有点|特别)?累|心情(?:不好|很好|不错)|(?:很|好|特别|有点)?(?:开心|难过|"
    r"焦虑|紧张|烦|郁闷|孤独|无聊|忙))"
    rf"|^(?![^，,]*[你他她它这那我们？?]|.*[吗呢]$)(?:{_ZH_HABIT_TIME}[，,]?){{1,3}}(?:经常|常常|总是|一般|通常|基本上|都|就|会|也|还|一直)*"
    r"(?:去|喜欢|爱|迷上了?|爱上了?|在学|学|练|玩|打|弹|跑|游|画|唱|跳|看|读|拍)"
    # "搬到成都两周了": a move told without its 我
    r"|^(?:刚|刚刚|已经)?搬(?:到|来|回)了?[\u4e00-\u9fff]{2,6}?(?:[一两三四五六七八九十\d]+(?:天|周|个星期|个月|年)|快[一两三半]年)?了$"
)

_ZH_TRAILING_RE = re.compile(r"[啊呀呢吧哦啦哈嘛噢~～！!。，,…\s]+$")

# 哥 of a place's name is no brother: 墨西哥, 芝加哥, 圣地亚哥, 摩纳哥, 哥伦比亚, 哥本哈根, 哥斯达黎加.
_RELATION_ZH_RE = re.compile(
    r"妈|爸|父母|男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|爱人|对象|孩子|儿子|女儿|(?<![西加亚纳])哥(?!伦比亚|本哈根|斯达)|"
    r"姐|弟|妹|爷爷|奶奶|"
    r"外公|外婆|姥姥|姥爷|家人|朋友|闺蜜|同事|室友|同学|结婚|离婚|恋爱|分手|婆婆|公公|岳父|岳母|丈母娘"
)

_PREFERENCE_ZH_RE = re.compile(r"喜欢|爱|讨厌|最爱|热爱|偏爱|爱好|受不了|着迷|迷上|感兴趣|兴趣|热衷|沉迷|痴迷|喜爱")
_TITLE_ZH_RE = re.compile(r"《[^》]{0,40}》")

# 感到 / 感觉很… says how the user feels ("用户真的感到很幸运", "用户现在感觉好多了"); "感觉这本书很好" is an opinion.
_EMOTION_ZH_RE = re.compile(
    r"开心|高兴|快乐|难过|伤心|焦虑|紧张|压力|累|孤独|寂寞|生气|烦|郁闷|兴奋|感动|失望|担心|害怕|心情|沮丧|委屈|幸福|满足|"
    r"感到|感觉(?:到)?(?:自己)?(?:很|有些|有点|非常|特别|十分|挺|好|更)|感觉到?自己|幸运|乏味|困惑|迷茫|疲倦"
)

_EVENT_ZH_RE = re.compile(r"计划|打算|准备(?:去|要)|下个?月|下周|明年|要去|今天|昨天|前天|上周|上个月|去年|最近|刚才|刚刚|刚|周末|下周|明天|[去到参加看学买做玩完]了")

# What the user does again and again is no event at a time: "用户周末经常去爬山".
_HABIT_ZH_RE = re.compile(r"经常|常常|总是|一般|通常|平时|平常|每(?:天|周|晚|个月|个?周末)|一直")

LONG_LIVED_ZH_RE = re.compile(r"住在|来自|出生|长大|工作|上班|职业|毕业|大学|学校|专业|结婚|孩子|养了|老家|叫|岁|搬|去世|"
                              r"老伴|" + ORIGIN_ZH)

SPECIFIC_ZH_RE = re.compile(r"\d|[一二两三四五六七八九十百千万]+(?:年|岁|个|只|次|天|本|家)|《|叫|[A-Za-z]{2,}")


def category_zh(text: str) -> str:
    text = _TITLE_ZH_RE.sub("《》", text)  # a title's words are not the user's: 《听妈妈的话》 is a song, not a relation
    if _RELATION_ZH_RE.search(text):
        return "relation"
    if _PREFERENCE_ZH_RE.search(text):
        return "preference"
    if _EMOTION_ZH_RE.search(text):
        return "emotion"
    if _EVENT_ZH_RE.search(text) and not _HABIT_ZH_RE.search(text):
        return "event"
    return "fact"


ZH_NOT_LIST_ITEM_RE = re.compile(r"[我你他她它很是了吗呢吧真太也都就还]|感觉|非常|认识|谢谢")

ZH_LISTING_RE = re.compile(r"、|喜欢|爱好|兴趣|热爱|会|比如|包括|像是|擅长|养了|有")

ZH_LIST_ITEM_RE = re.compile(r"^[\u4e00-\u9fff、和与及等]{1,8}$")


def zh_clause(clause: str) -> str | None:
    stripped = _ZH_LEAD_FILLER_RE.sub("", clause)
    stripped = _ZH_TRAILING_RE.sub("", stripped)
    if not _ZH_FIRST_PERSON_RE.match(stripped):
        return None
    first_me = stripped.find("我")
    if first_me > 0 and _ZH_OBJECT_ME_RE.search(stripped[: first_me + 1]):
        return None
    if stripped.startswith("我的", first_me) and not _ZH_BEFORE_MY_RE.fullmatch(stripped[:first_me]):
        return None
    if _ZH_QUESTION_RE.search(stripped) or _ZH_REQUEST_RE.search(stripped):
        return None
    if _ZH_GENERIC_RE.match(stripped[first_me:]) or ZH_HYPOTHETICAL_RE.search(stripped):
        return None
    if _ZH_PURPOSE_LEAD_RE.match(stripped) or _ZH_NO_OBJECT_RE.match(stripped):
        return None
    if _ZH_TASK_RE.search(stripped) or _ZH_TO_YOU_RE.search(_TITLE_ZH_RE.sub("", stripped)):
        return None
    if not _ZH_DISCLOSURE_RE.search(stripped):
        return None
    if len(CJK_RE.findall(stripped)) < 4:
        return None
    return stripped


def zh_statement(quote: str) -> str:
    return to_third_person_zh(quote)


# "这部三部曲是我最喜欢的书之一", "玩游戏和看电影是我的主要爱好": the thing comes first, the user after 是.
_ZH_FAVOURITE_RE = re.compile(
    r"^(?P<x>[\u4e00-\u9fffA-Za-z0-9《》“”、和与 ]{2,24}?)是我(?P<rest>(?:最喜欢|最爱)的[\u4e00-\u9fff]{0,6}?(?:之一)?|"
    r"的(?:主要|最大的?|日常)?(?:爱好|兴趣|乐趣)(?:之一)?)$"
)
# "给你看看我的软木板", "这是我养的乌龟", "分享一下我画的画": showing something of one's own.
_ZH_SHOWN_RE = re.compile(
    r"(?:给你看看|给你看|看看|分享一下|晒一下|这是|这就是|这些是)我(?P<how>的|养的|做的|画的|拍的|买的|种的|织的|写的)"
    r"(?P<x>[\u4e00-\u9fffA-Za-z]{1,8})$"
)
_ZH_NOT_SHOWN_RE = re.compile(r"错|想法|意见|看法|问题|生活|心情|故事|感觉|荣幸|责任|本分|最爱|最喜欢")
_ZH_DEMONSTRATIVE_RE = re.compile(r"^[这那](?:个|部|本|首|只|条|张|幅|件|些|家|种)?")


def zh_value(clause: str) -> tuple[str, str] | None:
    """(quote, statement) for "X是我最喜欢的…之一" / "X是我的爱好" / "给你看看我的X" / "这是我养的X", or None."""
    text = _ZH_TRAILING_RE.sub("", _ZH_LEAD_FILLER_RE.sub("", clause))
    favourite = _ZH_FAVOURITE_RE.match(text)
    if favourite:
        thing = _ZH_DEMONSTRATIVE_RE.sub("", favourite.group("x"))
        if len(CJK_RE.findall(thing)) + len(re.findall(r"[A-Za-z]+", thing)) < 2 or re.search(r"[你他她它]", thing):
            return None
        return text, f"{thing}是用户{favourite.group('rest')}"
    shown = _ZH_SHOWN_RE.search(text)
    if shown and not _ZH_NOT_SHOWN_RE.search(shown.group("x")):
        how, thing = shown.group("how"), shown.group("x")
        verb = {"的": "有", "养的": "养了", "做的": "做了", "画的": "画了", "拍的": "拍了", "买的": "买了", "种的": "种了",
                "织的": "织了", "写的": "写了"}[how]
        return text[shown.start():], f"用户{verb}{thing}"
    return None


# Who a Chinese clause is about: 我, or a relative of mine ("我妹妹在上海工作" is about the sister).
ZH_SUBJECT_RE = re.compile(rf"^我(?:的)?(?:{_KIN_ZH})|^我")


# "我们下个月要去日本旅游", "我们搬到深圳了", "我们结婚五年了": a 我们 that moves, marries or travels takes the user
# along (our company's or a class's 我们 does none of these).
_ZH_WE_LIFE_RE = re.compile(
    r"^(?:(?:今天|昨天|明天|最近|前段时间|上个?月|下个?月|这个月|去年|今年|明年|上周|下周|周末|这周末|年底|月底|暑假|寒假|"
    r"春节|国庆)[，,]?)*我们(?P<who>俩|两个|两人|一家人?)?(?=(?:今天|昨天|明天|最近|上个?月|下个?月|去年|今年|明年|下周|"
    r"周末|年底|都|也|已经|刚刚?|终于|就|还|马上)*(?:(?:要|打算|准备|计划)(?:今年|明年|下个?月|年底|[春夏秋冬]天|之后|以后)*)?(?:搬|结婚|订婚|领养|收养|养了|生了|怀孕|备孕|(?:要|生)(?:个|一个|二胎|孩子|宝宝)|买了房|"
    r"买了车|去.{1,8}(?:旅游|旅行|度假|玩)|装修|离婚))"
)


_ZH_SURNAME_RE = re.compile(r"^我姓(?P<x>[\u4e00-\u9fff]{1,2})(?=[。！!，,]?$)")
_ZH_KIN_OPENING_RE = re.compile(r"^(?:大|小)?(?:女儿|儿子|老公|老婆|丈夫|妻子|爸爸|妈妈|爸|妈|哥哥|姐姐|弟弟|妹妹|孩子|老大|老二)"
                                r"(?:今年|现在|已经|才|刚)?(?:\d{1,2}|[一二两三四五六七八九十]{1,3})岁")
_ZH_AT_A_PLACE_RE = re.compile(r"^在(?P<place>一家[\u4e00-\u9fff]{1,10}?(?:公司|医院|学校|银行|工厂|餐厅|酒店|事务所|机构))$")


def clause_reading(clause: str, *, subject: str | None) -> tuple[str, str] | None:
    quote = zh_clause(clause)
    if quote:
        return quote, zh_statement(quote)
    surname = _ZH_SURNAME_RE.match(_ZH_LEAD_FILLER_RE.sub("", clause))
    if surname:  # "我姓张": too short for zh_clause, and a name all the same
        return surname.group(0), f"用户姓{surname.group('x')}"
    we = _ZH_WE_LIFE_RE.match(_ZH_LEAD_FILLER_RE.sub("", clause))
    said = zh_clause(we.string[: we.start("who") if we.group("who") else we.end()].replace("我们", "我")
                     + we.string[we.end():]) if we else None
    if said:
        return clause.rstrip("。！!~～ "), zh_statement(said)
    bare = _ZH_LEAD_FILLER_RE.sub("", clause)  # "…，但是老家在湖南"
    if subject and subject.startswith("我") and subject != "我" and _ZH_KIN_OPENING_RE.match(bare):
        # "我儿子今年五岁，女儿三岁": the next relative of the same 我
        kin = zh_clause("我" + bare)
        if kin:
            return clause.rstrip("。！!~～ "), zh_statement(kin)
    at_work = _ZH_AT_A_PLACE_RE.match(bare)
    if subject == "我" and at_work:  # "我是做设计的，在一家广告公司": where the user works
        return clause.rstrip("。！!~～ "), f"用户在{at_work.group('place')}"
    if subject and ZH_CONTINUATION_RE.match(bare):
        # "我最近搬到了杭州，在一家游戏公司工作": the second clause keeps the first one's 我; "我妹妹在上海工作，
        # 喜欢画画" keeps its 我妹妹 — it is the sister who likes painting.
        implicit = zh_clause(subject + bare)
        if implicit:
            return clause.rstrip("。！!~～ "), zh_statement(implicit)
    return None


# "我养了一只柯基叫豆豆，三岁了": the age after a pet or a child the clause before introduced is theirs, not the user's.
_AGE_ONLY_ZH_RE = re.compile(r"^用户(?P<age>(?:今年|已经|才|都|快)?(?:\d{1,2}|[一二两三四五六七八九十]{1,3})(?:岁|个月)(?:了|多了|多)?)$")
_BEING_BEFORE_ZH = (
    (re.compile(r"养了?(?:一|两)?[只条个]?(?P<kind>[\u4e00-\u9fff]{1,4}?)(?:叫|名叫)(?P<name>[\u4e00-\u9fffA-Za-z]{1,4})$"),
     "用户的{kind}{name}{age}"),
    (re.compile(r"养了?(?:一|两)?[只条](?P<kind>[\u4e00-\u9fff]{1,4})$"), "用户的{kind}{age}"),
    (re.compile(r"有(?:一)?个(?P<kind>儿子|女儿|孩子|宝宝|小孩|弟弟|妹妹|孙子|孙女)$"), "用户的{kind}{age}"),
)


def age_of_the_one_before(statement: str, before: str) -> str | None:
    """"用户的柯基豆豆三岁了" for "用户三岁了" said right after "用户养了一只柯基叫豆豆"; None when `before` (the statement
    of the clause before) introduced no pet or child, or `statement` is no bare age."""
    age = _AGE_ONLY_ZH_RE.match(statement)
    if age and re.search(r"[2-9]\d|[二三四五六七八九]十", age.group("age")):
        return None  # "我养了一只猫，今年三十岁了": a pet or a child is not thirty; that is the user
    for pattern, template in _BEING_BEFORE_ZH if age else ():
        being = pattern.search(before)
        if being:
            return template.format(age=age.group("age"), **being.groupdict())
    return None
