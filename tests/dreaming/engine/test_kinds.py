"""engine/kinds.py: what a search word means offline — a concept, its kinds, a slot or group — in both languages."""
import pytest

from dreaming.engine.kinds import GROUPS, KINDS, kind_of, words_meaning
from dreaming.engine.slots import LEXICON, concepts_in, same_thing


@pytest.mark.parametrize("query,kinds", [
    ("dog", {"corgi", "golden retriever", "柯基", "哈士奇", "金毛", "泰迪"}),
    ("小狗", {"corgi", "柯基"}),
    ("cats", {"ragdoll", "布偶猫", "橘猫"}),
    ("coffee", {"flat white", "拿铁", "latte"}),
    ("tea", {"oolong", "抹茶"}),
    ("noodles", {"ramen", "螺蛳粉"}),
    ("my parrot", {"cockatiel", "玄凤"}),
])
def test_a_concept_means_its_kinds_in_both_languages(query, kinds):
    assert kinds <= set(words_meaning(query))


@pytest.mark.parametrize("query,members", [
    ("pet", {"dog", "猫", "parrot", "corgi", "布偶猫", "hamster"}),
    ("宠物", {"dog", "cat", "仓鼠"}),
    ("instruments", {"ukulele", "piano", "二胡", "flute"}),
    ("运动", {"tennis", "游泳", "volleyball", "marathon"}),
    ("siblings", {"sister", "弟弟"}),
])
def test_a_slot_or_group_word_means_every_member(query, members):
    assert members <= set(words_meaning(query))


def test_a_kind_means_only_itself_and_unknown_words_mean_nothing():
    assert words_meaning("corgi") == ()  # a dog is not always a corgi: the text search finds corgis
    assert words_meaning("hello there") == ()
    assert "cat" not in words_meaning("dog") and "piano" not in words_meaning("sport")


def test_every_kind_belongs_to_a_known_concept_or_group():
    grouped = {member for members in GROUPS.values() for member in members}
    assert set(KINDS) <= set(LEXICON) | grouped


def test_deep_sleep_still_tells_two_breeds_apart():
    # Kinds are for search only: LEXICON does not know them, so "a corgi" and "a husky" stay two things.
    assert concepts_in("User has a corgi") == frozenset()
    assert not same_thing("User has a corgi", "User has a husky")


def test_a_kind_knows_its_concept_and_nothing_else():
    assert kind_of("登山") == ("hobby:hiking",)
    assert kind_of("Marathon") == ("hobby:running",)
    assert kind_of("射击") == ("hobby:sport",)
    assert kind_of("跑步") == ()  # a concept's own name is not a kind of it
    assert kind_of("爬") == ()


@pytest.mark.parametrize("query, kinds", [
    ("hiking", {"登山", "mountaineering"}),
    ("跳舞", {"街舞", "ballet"}),
    ("singing", {"karaoke", "唱K"}),
    ("运动", {"射击", "潜水", "健身"}),
])
def test_chinese_hobbies_said_as_kinds_are_found_by_their_hobby(query, kinds):
    assert kinds <= set(words_meaning(query))
