"""Chinese short answers read with the assistant's question: "你做什么工作？" → "程序员。" → "用户是程序员";
"你住在哪里？" → "杭州。" → "用户住在杭州"; "你有孩子吗？" → "没有。" → "用户没有孩子"; "你有宠物吗？" →
"有两只猫" → "用户有两只猫".

Chinese answers drop the subject and often the verb: the question gives them back. The quote stays the user's
own words; the statement borrows the question's frame (as answers.py does for English).
"""
from __future__ import annotations

import re

from dreaming.engine.language import CJK_RE
from dreaming.engine.sensitive import sensitive_category

_YOU = r"(?:你|您)"
_ADVERBS = r"(?:现在|目前|平时|平常|一般|周末|业余时间?|空闲时间?|有空的?时候?|都|还|最|主要|具体)*"

# A fragment that is no answer: a reaction, a hedge, a question back, a pronoun.
_NOT_AN_ANSWER_RE = re.compile(
    r"^(?:嗯|哈|呵|哦|啊|好|谢谢|不知道|不清楚|不好说|保密|秘密|随便|都行|都可以|没什么|差不多|一般|还行|还好|算是|"
    r"你猜|猜猜)|[你您他她它这那我吗呢？?]|什么|怎么|为什么"
)
_FILLER_RE = re.compile(r"^(?:嗯+|哦+|啊|哈哈+|其实|就是|算是|目前|现在|主要是?)[，,\s]*")
_TRAILING_RE = re.compile(r"[啊呀呢吧哦啦哈嘛噢~～！!。，,…\s]+$")

# Kin and animals a "你有X吗？" asks about: "有" / "没有" answers it.
_HAD_THINGS = r"孩子|小孩|宝宝|儿子|女儿|宠物|猫|狗|兄弟姐妹|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹|男朋友|女朋友|对象|伴侣|车|房子?"

_YES_RE = re.compile(r"^(?:是的?|对的?|对啊|嗯|有的?|有啊|当然|结了|结婚了|已经结婚了|已婚|喜欢|很喜欢|超喜欢|特别喜欢|爱|会)(?:[，,。！!~～\s]|$)")
_NO_RE = re.compile(r"^(?:不是|没有|没|还没有?|暂时没有|目前没有|还没结|未婚|单身|不喜欢|不太喜欢|不会|并没有|一个也没有)(?:[，,。！!~～\s]|$)")

# Role nouns: "程序员", "老师", "护士", "产品经理" answer "做什么工作" with who the user is.
_ROLE_RE = re.compile(
    r"^(?:一名|一个|一位|个)?[\u4e00-\u9fffA-Za-z]{0,6}?"
    r"(?:员|师|生|家|工|者|手|长|警|官|医生|护士|老板|经理|总监|主管|会计|律师|司机|厨师|老师|教授|公务员|自由职业|个体户|主播|编辑|记者|"
    r"作家|销售|客服|前端|后端|全栈|开发|HR|hr|UI|PM|CEO|博主|宝妈|家庭主妇|全职妈妈|外卖员|快递员|保安|店主)$"
)


def _frames() -> list[tuple[re.Pattern, str]]:
    """(question, template) — {f} is the answer fragment, {k} / {v} what the question named."""
    return [
        (re.compile(rf"{_YOU}(?:贵姓|姓什么)"), "用户姓{f}"),
        (re.compile(rf"{_YOU}(?:叫什么(?:名字)?|的名字(?:是|叫)|怎么称呼)|怎么称呼{_YOU}"), "用户叫{f}"),
        (re.compile(rf"{_YOU}(?:今年)?(?:多大|几岁|多少岁)|{_YOU}的年龄"), "用户{f}"),
        (re.compile(rf"{_YOU}(?:的)?老家|{_YOU}是哪(?:里|儿)?(?:的)?人|{_YOU}来自哪|{_YOU}是从哪(?:里|儿)来"), "用户来自{f}"),
        (re.compile(rf"{_YOU}{_ADVERBS}在哪(?:里|儿|家公司|个公司)?(?:工作|上班)"), "用户在{f}工作"),
        (re.compile(rf"{_YOU}{_ADVERBS}(?:住在?哪|在哪(?:里|儿)?(?:住|生活)|在哪个城市|住哪)"), "用户住在{f}"),
        (re.compile(rf"{_YOU}{_ADVERBS}(?:是)?(?:做|干|从事)(?:什么|啥)(?:工作|职业|行业|的)|{_YOU}的(?:工作|职业)是|"
                    rf"{_YOU}{_ADVERBS}是干(?:什么|啥)的|{_YOU}{_ADVERBS}在哪个行业"), "用户的工作是{f}"),
        (re.compile(rf"{_YOU}{_ADVERBS}(?:在)?(?:学|读)(?:的是)?(?:什么|啥)(?:专业)?|{_YOU}的专业"), "用户学的是{f}"),
        (re.compile(rf"{_YOU}?{_ADVERBS}(?:喜欢|爱)(?P<v>吃|喝|看|听|玩|读)(?:什么|啥|哪)"), "用户喜欢{v}{f}"),
        (re.compile(rf"{_YOU}最(?:喜欢|爱)的(?P<k>[\u4e00-\u9fff]{{1,6}}?)是(?:什么|哪|谁)"), "用户最喜欢的{k}是{f}"),
        (re.compile(rf"(?:{_YOU}|有)?{_ADVERBS}(?:有)?(?:什么|哪些|啥)(?:兴趣)?爱好|{_YOU}的(?:兴趣)?爱好|"
                    rf"(?:{_YOU}|^){_ADVERBS}(?:喜欢|爱)(?:做|干)(?:什么|啥|些什么)|{_YOU}{_ADVERBS}(?:做|干)(?:些)?(?:什么|啥)(?:消遣|放松|娱乐)|"
                    rf"{_YOU}{_ADVERBS}(?:平时|周末|下班后?|有空)[\u4e00-\u9fff]{{0,2}}?(?:干|做)(?:嘛|啥|什么|些什么)(?:[？?]|$)"),
         "用户喜欢{f}"),
    ]


_FRAMES = _frames()

# "你有孩子吗？", "你养宠物了吗？", "你有没有兄弟姐妹？": a yes-no about kin, pets, a car.
_HAS_RE = re.compile(rf"{_YOU}(?:家)?{_ADVERBS}(?:有没有|养没养|(?P<v>有|养))(?:了)?(?P<k>{_HAD_THINGS})(?:了)?(?:吗|没|么|[？?])")
# "你结婚了吗？", "你成家了吗？"
_MARRIED_RE = re.compile(rf"{_YOU}{_ADVERBS}(?:结婚|成家)了?(?:吗|没|么)")
# "你是学生吗？", "你喜欢猫吗？", "你会做饭吗？": the answer says yes or no to what follows 你.
_YES_NO_RE = re.compile(
    rf"{_YOU}{_ADVERBS}(?P<v>是|喜欢|会|吃|喝)(?!不是|说|指|想|认真|第一次)(?P<x>[\u4e00-\u9fffA-Za-z]{{1,8}}?)(?:吗|么)"
)
_COUNT_RE = re.compile(rf"{_YOU}(?:家)?{_ADVERBS}(?:有|养了?)几(?P<cl>[个只位条])(?P<k>[\u4e00-\u9fff]{{1,4}}?)(?:[？?]|$)")
_NUMBER_RE = re.compile(r"^(?:\d{1,2}|[一两二三四五六七八九十])[个只位条]?(?:[\u4e00-\u9fff]{0,4})$")
_AGE_RE = re.compile(r"^(?:今年)?(?:\d{1,3}|[一二三四五六七八九十]{1,3})(?:岁|周岁)?(?:了|啦)?$")


def answer_subject(statement: str) -> str | None:
    """Who the clauses after an answer are about: "跑步，周末经常去奥森跑步" goes on about the user; after "有，一个儿子，
    今年五岁" the age is the son's (None: no continuation is read)."""
    return None if re.match(r"用户(?:有|没有|养|不)", statement) else "我"


def zh_frame_words(asked: str) -> str:
    """The words the statement of a Chinese short answer to `asked` takes from its frame rather than from the
    question ("你老家是哪里的？" → "四川的。" → "用户来自四川" adds 来自); "" when no frame reads the question."""
    question = _asked(asked)
    for pattern, template in _FRAMES:
        if question and pattern.search(question):
            return re.sub(r"\{\w+\}", " ", template)
    return ""


def _asked(previous_assistant: str) -> str:
    """The last question of the assistant's turn."""
    parts = [p for p in re.split(r"(?<=[。！？!?])", previous_assistant.strip()[-200:]) if p.strip()]
    asking = [p for p in parts if re.search(r"[？?]|吗|呢", p)]
    return asking[-1] if asking else ""


def _cut(answer: str, m: re.Match) -> str:
    """The whole first piece of the answer the yes or no opens: "不吃，我吃不了辣" → "不吃"."""
    return re.split(r"[，,。！!？?；;~～…]", answer[m.start():], maxsplit=1)[0].strip()


def _fragment(text: str) -> str:
    """The answer's first piece: "程序员。" → "程序员", "一家互联网公司，做前端开发" → "一家互联网公司"."""
    first = re.split(r"[，,。！!？?；;~～…]", _FILLER_RE.sub("", text.strip()), maxsplit=1)[0]
    return _TRAILING_RE.sub("", first).strip()


# "有两只猫，一只叫橘子，一只叫豆豆": the names after the count belong to it.
_NAMED_RE = re.compile(r"[，,](?:一|另一|另外一|大|小)?(?:只|个|条|位)?(?:它|他|她)?(?:们)?(?:叫|名字叫)[\u4e00-\u9fffA-Za-z]{1,6}")


def _named(text: str) -> str:
    fragment = _fragment(text)
    rest = _FILLER_RE.sub("", text.strip())
    rest = rest[rest.find(fragment) + len(fragment):] if fragment else ""
    while (m := _NAMED_RE.match(rest)):
        fragment, rest = fragment + m.group(0), rest[m.end():]
    return fragment


def zh_answer(previous_assistant: str | None, text: str) -> tuple[str, str] | None:
    """(quote, statement) for a Chinese short answer opening the user's turn, read with the assistant's last
    question, or None."""
    asked = _asked(previous_assistant or "")
    if not asked or len(CJK_RE.findall(text)) > 40:
        return None
    said = _yes_no(asked, text) or _filled(asked, text)
    if said is None or sensitive_category(said[1]):
        return None
    return said


def _yes_no(asked: str, text: str) -> tuple[str, str] | None:
    answer = _FILLER_RE.sub("", text.strip())
    yes, no = _YES_RE.match(answer), _NO_RE.match(answer)
    if has := _HAS_RE.search(asked):
        verb, thing = has.group("v") or ("养" if "养没养" in has.group(0) else "有"), has.group("k")
        if no:
            return no.group(0).rstrip("，,。！!~～ "), f"用户没有{thing}" if verb == "有" else f"用户没有养{thing}"
        fragment = _named(answer[yes.end():] if yes else answer)
        if re.match(r"^(?:有|养了?)", fragment):  # "有两只猫": the answer has its own verb
            return fragment, f"用户{fragment}"
        if fragment and _NUMBER_RE.match(fragment):  # "有，一个儿子" → "用户有一个儿子"
            return fragment, f"用户{verb}{fragment}"
        return (yes.group(0).rstrip("，,。！!~～ "), f"用户{verb}{thing}") if yes else None
    if _MARRIED_RE.search(asked):
        if no:
            return no.group(0).rstrip("，,。！!~～ "), "用户还没有结婚"
        return (yes.group(0).rstrip("，,。！!~～ "), "用户结婚了") if yes else None
    if count := _COUNT_RE.search(asked):
        fragment = _fragment(answer)
        if re.fullmatch(r"(?:\d{1,2}|[一两二三四五六七八九十])[个只位条]?", fragment):
            number = fragment.rstrip("个只位条")
            return fragment, f"用户有{number}{count.group('cl')}{count.group('k')}"
        return None
    if yes_no := _YES_NO_RE.search(asked):
        verb, thing = yes_no.group("v"), yes_no.group("x")
        if re.search(r"[你您我这那]", thing):
            return None
        # "你吃辣吗？" → "不吃" / "吃啊": the answer repeats the question's verb
        said_no = no or re.match(rf"^(?:不|不太|从不|很少){verb}", answer)
        said_yes = yes or re.match(rf"^(?:很|挺|超|特别|当然)?{verb}", answer)
        if said_no and (said_no.group(0).startswith("不") or verb != "是"):
            return _cut(answer, said_no), f"用户不{verb}{thing}" if verb != "是" else f"用户不是{thing}"
        if said_yes and not said_yes.group(0).startswith(("有", "结")):
            return _cut(answer, said_yes), f"用户{verb}{thing}"
    return None


def _filled(asked: str, text: str) -> tuple[str, str] | None:
    fragment = _fragment(text)
    if not fragment or len(CJK_RE.findall(fragment)) + len(re.findall(r"[A-Za-z]+", fragment)) < 1 \
            or len(fragment) > 16 or _NOT_AN_ANSWER_RE.search(fragment):
        return None
    for pattern, template in _FRAMES:
        m = pattern.search(asked)
        if not m:
            continue
        statement = _statement(template, fragment, m.groupdict())
        return (fragment, statement) if statement else None
    return None


def _statement(template: str, fragment: str, groups: dict) -> str | None:
    if template == "用户{f}":  # an age: "28岁" / "28" → "用户28岁"
        if not _AGE_RE.match(fragment):
            return None
        age = re.sub(r"^今年|(?:了|啦)$", "", fragment)
        return f"用户{age if age.endswith('岁') else age + '岁'}"
    if template == "用户的工作是{f}":
        fragment = re.sub(r"^(?:是|我是)", "", fragment)
        if _ROLE_RE.match(fragment):
            return f"用户是{fragment}"
        if re.match(r"^(?:在|做|搞|干|教|开|当)", fragment):  # "做设计的" → "用户是做设计的", "在银行上班"
            return f"用户是{fragment}" if fragment.endswith("的") else f"用户{fragment}"
        return f"用户的工作是{fragment}"
    if template == "用户住在{f}" or template == "用户来自{f}":
        fragment = re.sub(r"^(?:住在|在|是|来自)|(?:人|的)$", "", fragment)
    if template == "用户在{f}工作":
        fragment = re.sub(r"^在|(?:工作|上班)$", "", fragment)
    if template == "用户姓{f}":
        fragment = re.sub(r"^(?:免贵)?(?:姓)?", "", fragment)
        return f"用户姓{fragment}" if 1 <= len(fragment) <= 2 else None
    if template == "用户叫{f}":
        fragment = re.sub(r"^(?:我叫|叫|我是)", "", fragment)
        if len(fragment) > 6:
            return None
    if template == "用户喜欢{f}" or template == "用户喜欢{v}{f}":
        fragment = re.sub(r"^(?:喜欢|爱)", "", fragment)
    statement = template.format(f=fragment, k=groups.get("k") or "", v=groups.get("v") or "")
    return statement if fragment else None
