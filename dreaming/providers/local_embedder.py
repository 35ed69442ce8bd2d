"""Offline embedder: signed feature hashing of word and character n-grams (EN + ZH).

No download, no torch: a statement becomes a bag of features, each feature is hashed with blake2b
into one of `dimensions` buckets with a +/- sign (so collisions cancel out on average instead of
piling up), and the vector is L2-normalized so a dot product is a cosine.

Features:
- Latin words (and digits): the word itself, plus char 3-/4-grams of the padded word "<word>", so
  "moved"/"moving" and "dog"/"dogs" share features.
- CJK runs (Chinese has no spaces): char bigrams and trigrams (roughly words and short phrases),
  plus single chars at a low weight.
- Very common function words ("the", "i", 我, 的 ...) are down-weighted: they occur in every
  statement and would otherwise make unrelated sentences look alike.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Literal

import numpy as np

from dreaming.engine.language import EAST_ASIAN_CHARS

_CJK = EAST_ASIAN_CHARS
_TOKEN_RE = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+", re.UNICODE)
_CJK_RE = re.compile(rf"[{_CJK}]")

_LATIN_STOPWORDS = frozenset(
    """a an the and or but of to in on at for with from by as is am are was were be been being
    i me my mine you your he him his she her it its we our they them their this that these those
    do does did have has had will would can could should so very just not no yes really also
    user users""".split()
)
_CJK_STOPCHARS = frozenset("我你他她它的了是在和也很都就有着吗呢吧啊个这那一不人用户")

_WORD_WEIGHT = 1.0
_LATIN_GRAM_WEIGHT = 0.5
_CJK_UNIGRAM_WEIGHT = 0.3
_CJK_BIGRAM_WEIGHT = 1.0
_CJK_TRIGRAM_WEIGHT = 0.7
_STOP_WEIGHT = 0.1


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").lower()


def text_features(text: str) -> dict[str, float]:
    """Weighted n-gram features of one text (exposed for tests and debugging)."""
    features: dict[str, float] = {}

    def add(feature: str, weight: float) -> None:
        features[feature] = features.get(feature, 0.0) + weight

    for token in _TOKEN_RE.findall(_normalize(text)):
        if _CJK_RE.match(token):
            for ch in token:
                add("c1:" + ch, _STOP_WEIGHT if ch in _CJK_STOPCHARS else _CJK_UNIGRAM_WEIGHT)
            for i in range(len(token) - 1):
                gram = token[i : i + 2]
                stop = gram[0] in _CJK_STOPCHARS and gram[1] in _CJK_STOPCHARS
                add("c2:" + gram, _STOP_WEIGHT if stop else _CJK_BIGRAM_WEIGHT)
            for i in range(len(token) - 2):
                add("c3:" + token[i : i + 3], _CJK_TRIGRAM_WEIGHT)
            continue
        if token in _LATIN_STOPWORDS:
            add("w:" + token, _STOP_WEIGHT)
            continue
        add("w:" + token, _WORD_WEIGHT)
        padded = f"<{token}>"
        for n in (3, 4):
            for i in range(len(padded) - n + 1):
                add(f"g{n}:" + padded[i : i + n], _LATIN_GRAM_WEIGHT)
    return features


@lru_cache(maxsize=200_000)
def _bucket(feature: str, dimensions: int) -> tuple[int, float]:
    # blake2b is stable across processes and Python versions (unlike hash()), so stored vectors
    # stay comparable with query vectors computed after a restart.
    digest = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
    return (digest >> 1) % dimensions, (1.0 if digest & 1 else -1.0)


class LocalEmbedder:
    name = "local"
    model = "local-ngram-v1"
    calls_network = False  # offline and free: light sleep embeds a whole batch in one call (no user to bill)

    def __init__(self, dimensions: int = 512):
        if dimensions < 8:
            raise ValueError(f"LocalEmbedder needs at least 8 dimensions, got {dimensions}")
        self.dimensions = dimensions

    def embed_one(self, text: str) -> np.ndarray:
        # An empty text still gets a unit vector: a zero vector makes pgvector's cosine distance NaN.
        features = text_features(text) or {"empty": 1.0}
        vector = np.zeros(self.dimensions, dtype=np.float64)
        buckets = [_bucket(f, self.dimensions) for f in features]
        index = np.fromiter((b[0] for b in buckets), dtype=np.int64, count=len(buckets))
        signed = np.fromiter(
            (b[1] * w for b, w in zip(buckets, features.values())), dtype=np.float64, count=len(buckets)
        )
        np.add.at(vector, index, signed)
        norm = np.linalg.norm(vector)
        return vector / norm if norm > 0 else vector

    def embed(
        self, texts: list[str], *, kind: Literal["document", "query"] = "document", ctx=None
    ) -> list[list[float]]:
        # kind does not matter for a symmetric bag-of-features model; it is part of the protocol.
        vectors = [self.embed_one(text).tolist() for text in texts]
        if ctx is not None and ctx.run_id is not None and texts:
            from dreaming.providers.accounting import dream_run_add_embedding_calls

            dream_run_add_embedding_calls(run_id=ctx.run_id)
        return vectors
