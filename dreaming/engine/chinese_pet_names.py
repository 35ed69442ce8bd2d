"""A pet of the household named later in the sentence: "带我家柯基去江边散步，它叫豆豆" → 用户家的柯基叫豆豆.

The 我家 stands after a verb (带, 给, 陪), so no clause of the sentence is the user's, and the name comes with a
它; the sentence as a whole says whose pet it is and what it is called. One kind of pet only: "我家的猫和狗，它叫…"
does not say which one.
"""
from __future__ import annotations

import re

from dreaming.engine.kinds import KINDS
from dreaming.engine.language import CJK_RE
from dreaming.engine.slots import LEXICON

# The Chinese words of the pets the lexicon and its kinds know (longest first: 小狗 before 狗); not 马, whose 我家马上
# is "my family will soon".
_PETS = "|".join(sorted({w for concept, said in [*LEXICON.items(), *KINDS.items()] if concept.startswith("pet:")
                         for w in said if CJK_RE.match(w) and w != "马"}, key=lambda w: (-len(w), w)))
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
