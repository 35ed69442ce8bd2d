"""A short answer to the assistant's direct question about the user's own life is self-disclosure.

"你结婚了吗？" → "结了，去年结的" gives 用户结婚了; "Are you married?" → "Yes" gives "User is married". The
statement takes its words from the question, so it is not "in the user's own words" (language.in_own_words),
yet the user told it about themself as surely as if they had volunteered it. This holds for the facts of a
life (marriage, family, job, home, age, diet), not for a taste echoed back ("I love hiking. Do you?" → "Me
too!"), and not for a hedge ("tokyo maybe").
"""
from __future__ import annotations

import re

# Where the user is from, said as what they are: "我是四川人", "用户是东北人" (not "是个好人", "是老实人", "是外人").
ORIGIN_ZH = r"是(?![个一这那好坏老男女穷富病外什大小年新])[\u4e00-\u9fff]{2,3}人(?![员士家物们生类])"

# The facts of a life, as light sleep words them ("User is married", "User has two kids", 用户不吃香菜).
_LIFE_FACT_EN_RE = re.compile(
    r"\b(?:married|divorced|engaged|widowed|single|husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|"
    r"kids?|child(?:ren)?|sons?|daughters?|brothers?|sisters?|siblings?|parents?|grandchild(?:ren)?|"
    r"works? (?:as|at|in|for|from)|job|career|profession|student|retired|unemployed|"
    r"is (?:a|an) [\w -]*?(?:nurse|doctor|teacher|chef|engineer|developer|programmer|lawyer|accountant|"
    r"designer|manager|student|writer|artist|driver|farmer|pilot|scientist|researcher|consultant|"
    r"[a-z]+(?:er|or|ist|ian))\b(?! fan| lover)|"
    r"lives? (?:in|at|with|near|alone)|living in|moved to|(?:is|comes) from|grew up|born|years old|"
    r"vegetarian|vegan|(?:doesn't|does not|can't|cannot|never) (?:eat|drink|have)|eats? (?:meat|fish|pork|beef)|"
    r"allergic|lactose|gluten)\b",
    re.IGNORECASE,
)
_LIFE_FACT_ZH_RE = re.compile(
    r"结婚|离婚|单身|已婚|未婚|老公|老婆|丈夫|妻子|对象|男朋友|女朋友|孩子|儿子|女儿|哥哥|姐姐|弟弟|妹妹|父母|"
    r"工作|上班|职业|当老师|是老师|是医生|是护士|学生|退休|住在|老家|来自|出生|岁|不吃|吃素|素食|过敏|不喝|忌口|" + ORIGIN_ZH
)
# An echo of what the assistant said of itself, and a hedge: neither is the user telling their life.
_ECHO_RE = re.compile(
    r"^\W*(?:me too|me neither|me either|same(?: here)?|ditto|so (?:do|am|have|did) i|i do too|i am too|mine too)\b|"
    r"^\W*(?:我也|同感|一样|彼此)",
    re.IGNORECASE,
)
# A taste is not a fact of a life even when its object is one ("I love them" → "User loves their kids").
_TASTE_RE = re.compile(r"^User (?:really |also )?(?:loves?|likes?|enjoys?|hates?|prefers?|adores?)\b|^用户(?:很|也|非常)?(?:喜欢|爱|讨厌)")
_HEDGE_RE = re.compile(r"\b(?:maybe|perhaps|probably|possibly|might|not sure|i guess|i think)\b|也许|可能|大概|或许|不确定",
                       re.IGNORECASE)


def about_own_life(statement: str) -> bool:
    """The statement tells a fact of the user's life: marriage, family, job, home, age or diet."""
    return bool(_LIFE_FACT_EN_RE.search(statement) or _LIFE_FACT_ZH_RE.search(statement))


def answers_about_own_life(*, quote: str, statement: str) -> bool:
    """The quote answers a question about the user's life, not echoing the assistant and not hedging."""
    if _TASTE_RE.search(statement) or _ECHO_RE.search(quote) or _HEDGE_RE.search(quote):
        return False
    return about_own_life(statement)
