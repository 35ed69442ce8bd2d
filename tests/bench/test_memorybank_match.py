"""bench/quality_memorybank.py: a hobby is found when a statement names it — its words, a word of the same
hobby in the lexicon, the thing of a verb-object hobby — and not when a statement is merely near it."""
import pytest

from bench.quality_memorybank import hobby_said
from dreaming.engine.quotes import normalize_for_match


def _said(hobby: str, *statements: str) -> bool:
    return hobby_said(hobby, [normalize_for_match(s) for s in statements])


@pytest.mark.parametrize("hobby, statement", [
    ("游泳", "用户每周都去游泳"),  # the hobby's own characters
    ("阅读", "用户很喜欢看书"),  # the same hobby in the lexicon
    ("登山", "用户周末经常去爬山"),  # 登山 is a kind of hiking: hiking's own names say it
    ("跑步", "用户去年跑了一次马拉松"),  # a kind of running says running
    ("看话剧", "用户上周去看了一场话剧"),  # the thing of a verb-object hobby
    ("打网球", "用户喜欢网球"),
])
def test_a_statement_that_names_the_hobby_covers_it(hobby, statement):
    assert _said(hobby, statement)


@pytest.mark.parametrize("hobby, statement", [
    ("阅读", "用户买了一本心理学的书"),  # near reading, but does not say it
    ("潜水", "用户最近开始学习射击"),  # two kinds of sport are two hobbies
    ("长跑", "用户喜欢游泳"),
    ("品茶", "用户喜欢喝奶茶"),  # 茶 alone is one character: no verb-object shortcut
    ("跳舞", "User enjoys dance music"),  # the statements are Chinese: English lexicon words are not read
])
def test_a_statement_near_the_hobby_does_not_cover_it(hobby, statement):
    assert not _said(hobby, statement)


def test_a_hobby_of_two_things_needs_both():
    assert not _said("唱歌跳舞", "用户喜欢唱歌")
    assert _said("唱歌跳舞", "用户喜欢唱歌", "用户每周去跳街舞")
