"""The learned half of "does this chat turn tell something about the user": a logistic regression over
hashed n-grams of one short English user turn.

The hand rules of extract.py read clauses they recognise; in persona chat a turn that discloses often
says it in a shape no rule knows ("The closest that I get to athletics is ping pong", "Tend them with my
red tractor"). This model gives the probability that a turn discloses something; extract.py keeps a
first-person sentence of a turn no rule read when the probability reaches the model's threshold.

Trained by `python -m bench.train_disclosure` on the tuning part of the MSC dev and validation files
only (bench/split.py) and shipped as dreaming/engine/data/disclosure_model.json with its training
command, the hash of its training data and its figures. Pure NumPy: loading and predicting take
milliseconds.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from dreaming.engine.triage_model import feature_slot, softmax, weights_decoded, weights_encoded

MODEL_PATH = Path(__file__).resolve().parent / "data" / "disclosure_model.json"
CLASSES = ("other", "discloses")
# Longer turns are requests, pastes or stories: the model was trained on persona chat's short turns.
MAX_WORDS = 40

_TOKEN_RE = re.compile(r"[a-z]+(?:'[a-z]+)?|[?!.]")
_FIRST_PERSON_RE = re.compile(r"\b(?:i|my|i'm|im|me|mine|i've|i'd|i'll|myself|we|our|us)\b", re.IGNORECASE)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")
_YES_NO_RE = re.compile(r"\W*(?:yes|yeah|yep|no|nope|nah|sure)\b", re.IGNORECASE)
DENSE = ("first_person_sentence", "first_person_sentences", "first_person_density", "all_questions", "length",
         "asked", "yes_no")


def _statement_sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_RE.split(text.strip()) if s]


def features(text: str, previous: str, *, dim: int) -> np.ndarray:
    """One user turn as a vector: L2-normalised log counts of hashed unigrams, bigrams and sentence
    openings (a question's apart from a statement's), then the dense measures of DENSE."""
    vector = np.zeros(dim + len(DENSE), dtype=np.float64)
    tokens = _TOKEN_RE.findall(text.lower())
    for i, token in enumerate(tokens):
        vector[feature_slot(f"u:{token}", dim)] += 1
        if i:
            vector[feature_slot(f"u:{tokens[i - 1]} {token}", dim)] += 1
    sentences = _statement_sentences(text)
    for sentence in sentences:
        kind = "q" if sentence.rstrip().endswith("?") else "s"
        for token in _TOKEN_RE.findall(sentence.lower())[:3]:
            vector[feature_slot(f"{kind}:^{token}", dim)] += 1
    hashed = np.log1p(vector[:dim])
    norm = float(np.linalg.norm(hashed))
    if norm:
        vector[:dim] = hashed / norm
    own = [s for s in sentences if _FIRST_PERSON_RE.search(s) and not s.rstrip().endswith("?")]
    words = max(1, len(tokens))
    vector[dim:] = [
        float(bool(own)), len(own) / max(1, len(sentences)), min(1.0, 5 * len(_FIRST_PERSON_RE.findall(text)) / words),
        float(bool(sentences) and all(s.rstrip().endswith("?") for s in sentences)), math.log1p(words) / 5,
        float("?" in previous[-300:]), float(bool(_YES_NO_RE.match(text))),
    ]
    return vector


@dataclass(frozen=True)
class DisclosureModel:
    weights: np.ndarray  # (features, classes)
    bias: np.ndarray  # (classes,)
    dim: int
    threshold: float  # P(discloses) from which a turn no rule read keeps a first-person sentence
    meta: dict

    def probability(self, text: str, previous: str = "") -> float:
        x = features(text, previous, dim=self.dim)
        return float(softmax(x @ self.weights + self.bias)[1])

    def to_json(self) -> str:
        return json.dumps({
            "meta": self.meta, "classes": list(CLASSES), "dim": self.dim, "threshold": self.threshold,
            "dense": list(DENSE), "shape": list(self.weights.shape), "bias": [round(float(b), 6) for b in self.bias],
            "weights_float16_base64": weights_encoded(self.weights),
        }, indent=1)

    @classmethod
    def from_json(cls, text: str) -> DisclosureModel:
        data = json.loads(text)
        if tuple(data.get("classes", ())) != CLASSES or tuple(data.get("dense", ())) != DENSE:
            raise ValueError(f"disclosure model classes {data.get('classes')} / features {data.get('dense')} "
                             f"are not {list(CLASSES)} / {list(DENSE)}")
        weights = weights_decoded(data, dtype=np.float64)
        if weights.shape != (data["dim"] + len(DENSE), len(CLASSES)):
            raise ValueError(f"disclosure model weights have shape {weights.shape}, which does not fit its features")
        return cls(weights=weights, bias=np.asarray(data["bias"], dtype=np.float64), dim=int(data["dim"]),
                   threshold=float(data["threshold"]), meta=data.get("meta", {}))


@lru_cache(maxsize=1)
def disclosure_model() -> DisclosureModel | None:
    """The shipped model, loaded once per process; None when the file is absent (rules alone)."""
    if not MODEL_PATH.exists():
        return None
    return DisclosureModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))


def likely_disclosure(text: str, previous: str = "") -> bool:
    """The shipped model says this short English turn tells something about the user."""
    model = disclosure_model()
    if model is None or len(text.split()) > MAX_WORDS:
        return False
    return model.probability(text, previous) >= model.threshold

