import math
import time

import pytest

from dreaming.providers import get_embedder
from dreaming.providers.local_embedder import LocalEmbedder, text_features


def _cos(a, b):
    return sum(x * y for x, y in zip(a, b))


@pytest.fixture
def embedder():
    return LocalEmbedder(dimensions=512)


SIMILAR_AND_UNRELATED = [
    ("I have a dog named Milo", "User has a dog called Milo", "User works as a nurse in Berlin"),
    ("I moved to Berlin last year", "User moved to Berlin", "User likes spicy food"),
    ("I love hiking in the mountains", "User enjoys hiking", "User's sister is a teacher"),
    ("我住在上海", "用户住在上海", "用户喜欢吃辣的食物"),
    ("我喜欢打篮球", "用户喜欢打篮球", "用户的妈妈是一名医生"),
    ("我养了一只叫 Milo 的狗", "用户养了一只叫 Milo 的狗", "用户最近在学习日语"),
]


@pytest.mark.parametrize("anchor,similar,unrelated", SIMILAR_AND_UNRELATED)
def test_similar_statements_are_clearly_closer_than_unrelated_ones(embedder, anchor, similar, unrelated):
    a, s, u = embedder.embed([anchor, similar, unrelated])
    assert _cos(a, s) > 0.35
    assert _cos(a, u) < 0.15
    assert _cos(a, s) - _cos(a, u) > 0.3


def test_vectors_have_the_configured_dimension_and_unit_length(embedder):
    vectors = embedder.embed(["hello world", "你好世界", "", "   "], kind="query")
    assert [len(v) for v in vectors] == [512] * 4
    for v in vectors:
        # Even empty text gets a unit vector: a zero vector would make pgvector's cosine NaN.
        assert math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-9)


def test_it_is_deterministic_and_ignores_case_and_width(embedder):
    first = embedder.embed(["User Likes TEA"])[0]
    again = LocalEmbedder(dimensions=512).embed(["user likes tea"])[0]
    full_width = embedder.embed(["ｕｓｅｒ ｌｉｋｅｓ ｔｅａ"])[0]
    assert first == again
    assert _cos(first, full_width) == pytest.approx(1.0)


def test_cjk_text_yields_bigram_features_and_latin_text_char_grams():
    zh = text_features("我喜欢猫")
    assert "c2:喜欢" in zh and "c3:喜欢猫" in zh
    en = text_features("Cats")
    assert "w:cats" in en and "g3:<ca" in en and "g4:ats>" in en


def test_it_embeds_thousands_of_short_texts_per_second(embedder):
    texts = [f"User has a dog named Milo and likes hiking {i}" for i in range(1000)]
    texts += [f"用户住在上海，喜欢打篮球 {i}" for i in range(1000)]
    started = time.perf_counter()
    embedder.embed(texts)
    assert len(texts) / (time.perf_counter() - started) > 1000


def test_the_default_backend_is_the_local_embedder_with_the_configured_dimension(settings):
    settings.EMBEDDING_BACKEND = "local"
    settings.EMBEDDING_DIM = 64
    embedder = get_embedder()
    assert embedder.name == "local"
    assert len(embedder.embed(["x"])[0]) == 64


def test_it_refuses_a_tiny_dimension():
    with pytest.raises(ValueError):
        LocalEmbedder(dimensions=2)
