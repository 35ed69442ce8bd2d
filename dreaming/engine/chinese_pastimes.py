"""A pastime the user did, told in Chinese without saying it is a hobby: "下班以后去图书馆借了两本小说",
"晚上还弹了会儿吉他", "周末又和老乡打了场篮球", "今天给宝宝织了一顶小帽子".

A companion's user rarely says "我的爱好是看书"; they tell what they did, mostly with no 我. Each such clause
gives the pastime as a plain habit, "用户看书" / "用户弹吉他", the same words whichever way it was told, so
that the same pastime told in two sessions is one cluster that deep sleep counts twice. Told once it is an
inference and weighs little (extract.py caps its importance): it stays pending until it comes up again.

Narrow on purpose: a closed table of pastimes, each with the verb that does it (打篮球, not 篮球赛很精彩); a
clause about someone else (老伴给做了鱼汤, 吉他老师说…), a plan, a wish, a question or a "not" gives none;
nor does a clause that tells no doing (写字能静心 is an opinion): it needs 了, 过, 又, 去, 在 or a time.
"""
from __future__ import annotations

import re

from dreaming.engine.slots import concepts_in

# (what the clause says, the pastime as a habit). The habit names a lexicon concept where there is one,
# so it merges with "用户喜欢X" by concept, and the hobby bench reads it.
_N = r"[\d一二两三四五六七八九十半几]+"
_SOME = rf"(?:了|完了?|过)?(?:{_N})?(?:个|场|盘|局|把|套|次|圈|本|首|道|锅)?(?:一会儿?|会儿|一下午|一上午|一晚上|半天)?"
_PASTIMES: tuple[tuple[str, str], ...] = (
    (r"跑步|慢跑|晨跑|夜跑|跑(?:了)?(?:个|一个|一场)?(?:半马|全马|马拉松)|跑(?:了)?" + _N + r"(?:公里|千米|圈)", "用户跑步"),
    (rf"打{_SOME}(?P<ball>篮球|羽毛球|乒乓球|网球|排球)", "用户打{ball}"),
    (rf"踢{_SOME}(?:足球|球)", "用户踢足球"),
    (rf"弹{_SOME}(?:[^，。！!]{{0,4}}?)(?P<instrument>吉他|钢琴|尤克里里|古筝|琵琶)", "用户弹{instrument}"),
    (rf"(?:做|练|上){_SOME}(?:[^，。！!]{{0,6}}?)瑜伽", "用户练瑜伽"),
    (rf"游泳|游{_SOME}(?:米|圈)", "用户游泳"),
    (rf"钓{_SOME}(?:[\u4e00-\u9fff]{{0,3}}?)鱼|(?:去|在)[\u4e00-\u9fff]{{0,6}}钓鱼", "用户钓鱼"),
    (r"爬(?:了)?(?:[\u4e00-\u9fff]{0,3}?)山|登山|徒步", "用户爬山"),
    (r"攀岩(?!馆)|去(?:了)?攀岩馆", "用户攀岩"),
    (r"骑行|骑(?:了)?(?:[^，。！!]{0,4}?)(?<!电动)(?<!摩托)(?:自行车|单车|车)(?!送)", "用户骑行"),
    (rf"(?:打|练){_SOME}太极", "用户打太极拳"),
    (rf"写{_SOME}(?:[^，。！!]{{0,4}}?)(?:毛笔字|书法)|练{_SOME}(?:毛笔字|书法)|写写字|临{_SOME}[^，。！!]{{0,8}}?(?:帖|碑|《)",
     "用户练书法"),
    (rf"织{_SOME}(?:[^，。！!]{{0,6}}?)(?:毛衣|围巾|帽子|手套|毛线|袜子)", "用户织毛线"),
    (rf"拍{_SOME}(?:[^，。！!]{{0,6}}?)(?:街拍|日落|日出|风景|夜景|星空|人像)|街拍|(?:拿着|带着|扛着|背着)相机", "用户玩摄影"),
    (r"唱K|唱k|K歌|k歌|去KTV|去ktv", "用户唱歌"),
    (rf"(?:跳|练){_SOME}(?:[^，。！!]{{0,4}}?)(?:街舞|芭蕾|广场舞|拉丁舞|爵士舞|舞)", "用户跳舞"),
    (rf"(?:烤|做){_SOME}(?:[^，。！!]{{0,6}}?)(?:蛋糕|饼干|面包|蛋挞|曲奇|司康|泡芙)|烘焙", "用户做烘焙"),
    (rf"做{_SOME}(?:[一两几]?[道锅盘份桌])?(?:[\u4e00-\u9fff]{{0,4}}?)(?:鱼|菜|汤|排骨|红烧肉|饺子|包子)", "用户做饭"),
    (rf"看{_SOME}(?:[^，。！!]{{0,3}}?)电影|电影院", "用户看电影"),
    (rf"(?:看|读){_SOME}书|读{_SOME}(?:[^，。！!]{{0,6}}?)(?:小说|《)|借{_SOME}(?:[^，。！!]{{0,6}}?)(?:书|小说)|图书馆", "用户看书"),
    (rf"(?:打|玩){_SOME}(?:[^，。！!]{{0,4}}?)(?:游戏|王者荣耀|王者|吃鸡|原神|英雄联盟|LOL|Switch|switch)|玩{_SOME}《",
     "用户玩游戏"),
    # the verb 画, not 画家 / 画作 / 画展 / 漫画 ("学到了很多关于古代画家的画作的故事" paints nothing)
    (rf"(?<![漫图国油壁字名])画(?![家作展廊册面]){_SOME}(?:[^，。！!]{{0,4}}?)(?:画|素描|水彩|油画|国画|速写)", "用户画画"),
    (r"去(?:了)?健身房|健身|撸铁", "用户健身"),
    (r"滑雪|露营|冲浪|潜水", "用户{0}"),
)
# A pastime told once is an inference: under the pending bar alone, over it when another session tells it again.
PASTIME_IMPORTANCE = 0.2
_PASTIME_RES = tuple((re.compile(pattern), habit) for pattern, habit in _PASTIMES)

# Doing it, not talking about it: a past (了, 过, 完), again (又), going (去), at it (在), or a time of day or week.
_DONE_RE = re.compile(r"了|过|完|又|去|在|今天|昨天|前天|晚上|早上|下午|上午|中午|周末|每天|每周|每晚|睡前|下班|收工|放学|最近|第一次")
# A plan, a wish, a question, a "not", a condition, someone asked: nothing was done.
_NOT_DONE_RE = re.compile(
    r"打算|计划|准备|想|(?<![主需重])要|会不会|能不能|可以|应该|希望|下次|(?<![班工学课饭])以后|明天|下周|下个月|明年|将来|如果|要是|假如|"
    r"不|没|别|吗|呢|？|\?|什么|怎么|推荐|建议|你|您"
)
# Someone else in the clause, other than as company ("和老乡", "跟朋友一起", "带儿子"): their doing, not the user's.
_COMPANY_RE = re.compile(r"(?:和|跟|同|与|陪着?|带着?|给|为)[\u4e00-\u9fff]{1,6}?(?:一起)?(?=去|在|到|打|踢|弹|练|玩|看|钓|爬|骑|拍|唱|跳|做|上|织|烤|$)")
_SOMEONE_ELSE_RE = re.compile(
    r"他|她|它|老师|教练|医生|老伴|老公|老婆|丈夫|妻子|爸|妈|儿子|女儿|孩子|宝宝|哥|姐|弟|妹|同事|朋友|室友|同学|领导|老板|"
    r"经理|爷爷|奶奶|外公|外婆|孙|老乡|邻居|大家|别人|人家"
)


def _said_by_the_user(before: str) -> bool:
    """Whether what comes before the doing in the clause leaves the user the one who does it."""
    return not _SOMEONE_ELSE_RE.search(_COMPANY_RE.sub("", before))


# A statement that already tells the pastime as lasting ("用户最近迷上了烘焙", "用户每天早上都会去跑五公里").
# A time of day without a 了 is a habit too ("用户下午在家练书法"; not "用户晚上去跑步了").
_LASTING_RE = re.compile(r"喜欢|爱|迷上|热衷|痴迷|每天|每周|每晚|每个?周末|经常|常常|一直|平时|总是|一般|"
                         r"(?:早上|上午|中午|下午|晚上)(?![^，。]*了)")


def zh_pastimes(sentence: str, *, stated: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(quote, habit) for each pastime a clause of the sentence says the user did, one per pastime, none that a
    statement already read from the turn (`stated`) tells as lasting."""
    found: list[tuple[str, str]] = []
    named = {c for s in stated if _LASTING_RE.search(s) for c in concepts_in(s)}
    for clause in re.split(r"[，,。！!；;~～…]", sentence):
        quote = clause.strip()
        if not quote or _NOT_DONE_RE.search(quote) or not _DONE_RE.search(quote):
            continue
        for pattern, habit in _PASTIME_RES:
            m = pattern.search(quote)
            if not m or not _said_by_the_user(quote[: m.start()]):
                continue
            said = habit.format(m.group(0), **m.groupdict())
            concepts = {c for c in concepts_in(said) if c.startswith("hobby:")}
            told = any(_LASTING_RE.search(s) and pattern.search(s) for s in stated)
            if told or (concepts and concepts <= named) or any(said == h for _, h in found):
                continue
            found.append((quote, said))
            named |= concepts
            break
    return found
