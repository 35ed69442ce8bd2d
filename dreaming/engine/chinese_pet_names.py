"""A pet of the household named later in the sentence: "带我家柯基去江边散步，它叫豆豆" → 用户家的柯基叫豆豆.

The 我家 stands after a verb (带, 给, 陪), so no clause of the sentence is the user's, and the name comes with a
它; the sentence as a whole says whose pet it is and what it is called. One kind of pet only: "我家的猫和狗，它叫…"
does not say which one.
"""
from __future__ import annotations

import re

_PETS = (r"狗狗|小狗|狗|猫咪|小猫|猫|柯基|拉布拉多|金毛|泰迪|贵宾犬|哈士奇|二哈|比格|法斗|吉娃娃|腊肠犬|橘猫|布偶猫|英短|美短|"
         r"兔子|仓鼠|鹦鹉|乌龟")
_MY_PET_RE = re.compile(rf"我家(?:的)?(?:那只|这只|那条|这条)?(?P<pet>{_PETS})")
_NAMED_RE = re.compile(r"[，,]\s*(?:它|他|她)(?:的名字)?叫(?P<name>[\u4e00-\u9fffA-Za-z]{1,6}?)(?=[。！!，,~～\s]|$)")


def zh_pet_name(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for a household pet named with 它叫 later in the same sentence, or None."""
    pets = list(_MY_PET_RE.finditer(sentence))
    if not pets or len({p.group("pet") for p in pets}) != 1:
        return None
    named = _NAMED_RE.search(sentence, pets[-1].end())
    if not named or len(set(re.findall(_PETS, sentence[pets[0].start() : named.start()]))) > 1:
        return None
    return sentence[pets[0].start() : named.end()], f"用户家的{pets[0].group('pet')}叫{named.group('name')}"
