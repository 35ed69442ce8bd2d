"""The learned half of session triage: a multinomial logistic regression over hashed n-grams.

The hand rules in dreaming/engine/triage.py see code fences, stack traces, roleplay markers; they
stop generalizing on the long tail (a coding question without code, a pasted essay with a short
request). This model reads the words of the user's turns (hashed unigrams and bigrams), a few
shape measures and the rules' own shares, and gives a probability for keep and each skip kind.

It is trained by `python -m bench.train_triage` on the tuning part of the WildChat dev sets only
(bench/split.py) and shipped as dreaming/engine/data/triage_model.json with its training command,
the hash of its training data and its figures. Pure NumPy: loading and predicting take milliseconds.
"""
from __future__ import annotations

import base64
import json
import math
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from dreaming.engine.language import CJK_RE
from dreaming.engine.triage import (
    _CODE_LINE_RE, _FIRST_PERSON_RE, SKIP_KINDS, SessionSignals, _first_person_density, _symbol_density,
)
from dreaming.protocol import TriageResult, Turn

MODEL_PATH = Path(__file__).resolve().parent / "data" / "triage_model.json"
CLASSES = ("keep", *SKIP_KINDS)
HEAD_CHARS = 3000  # of each user turn: the request comes first, a paste's bulk adds little
ASSISTANT_CHARS = 600

# Pasted or quoted material and code-like identifiers, as shares of the user's words: general shapes of
# a task session that do not depend on its topic words (snake_case, camelCase, dotted calls, file names,
# command-line flags, indexing).
_QUOTED_RE = re.compile(r'"[^"\n]{80,}"|“[^”]{80,}”|«[^»]{80,}»')
_IDENTIFIER_RE = re.compile(
    r"^[A-Za-z_]\w*(?:_[a-z0-9]\w*|[a-z][A-Z]\w*|\.[A-Za-z_]\w*\(?)|\w\.(?:py|js|ts|java|cpp|c|h|cs|go|rb|php|"
    r"html|css|json|yaml|yml|sql|sh|xml|csv)\b|^--?[a-z][\w-]+$|[\w\])]\[|\w\(\)?"
)
_TOKEN_RE = re.compile(r"[^\W\d_]+|\d+|```|[{}();=<>#*\[\]:\"/\\$@|&+-]", re.UNICODE)


def feature_slot(feature: str, dim: int) -> int:
    """Where a hashed feature counts in a vector of `dim` slots (the disclosure model hashes the same way)."""
    return zlib.crc32(feature.encode("utf-8")) % dim


def weights_encoded(weights: np.ndarray) -> str:
    """A model's weights as they are shipped: float16, little-endian, base64."""
    return base64.b64encode(weights.astype("<f2").tobytes()).decode("ascii")


def weights_decoded(data: dict, *, dtype) -> np.ndarray:
    """The weights of a shipped model's json (weights_encoded's inverse), in its shape."""
    raw = base64.b64decode(data["weights_float16_base64"])
    return np.frombuffer(raw, dtype="<f2").astype(dtype).reshape(data["shape"])


def _tokens(text: str) -> list[str]:
    tokens = []
    for token in _TOKEN_RE.findall(text.lower()):
        if CJK_RE.match(token):  # a run of Chinese characters: its characters and their pairs
            tokens.extend(token)
        else:
            tokens.append(token)
    return tokens


def dense_features(turns: list[Turn], found: SessionSignals) -> dict[str, float]:
    """Shape measures and the rules' reading, each roughly in 0..1."""
    user = [t.content for t in turns if t.role == "user" and t.content.strip()]
    assistant = [t.content for t in turns if t.role == "assistant"]
    text = "\n".join(user)
    lines = max(1, text.count("\n") + 1)
    words = max(1, len(re.findall(r"\w+", text)))
    rule_kind = found.rule_kind()
    chunks = text.split()
    pasted = sum(max(0, len(u) - 300) for u in user if len(u) > 500 and _first_person_density(u[200:]) < 0.02)
    features = {
        "pasted": pasted / max(1, len(text)),
        "quoted": sum(map(len, _QUOTED_RE.findall(text))) / max(1, len(text)),
        "identifiers": min(1.0, 5 * sum(bool(_IDENTIFIER_RE.search(c)) for c in chunks) / max(1, len(chunks))),
        "turns": math.log1p(len(user)) / 3,
        "length": math.log1p(len(text)) / 10,
        "first_person": min(1.0, 10 * len(_FIRST_PERSON_RE.findall(text)) / words),
        "symbols": min(1.0, 5 * _symbol_density(text)),
        "code_lines": min(1.0, len(_CODE_LINE_RE.findall(text)) / lines),
        "cjk": min(1.0, len(CJK_RE.findall(text)) / max(1, len(text))),
        "personal": float(bool(found.personal)),
        "assistant_code": float(any("```" in a for a in assistant)),
    }
    features.update(_turn_shape_features(user, assistant))
    for kind in SKIP_KINDS:
        features[f"share:{kind}"] = min(1.0, found.share(kind))
        features[f"rule:{kind}"] = float(rule_kind == kind)
        features[f"own:{kind}"] = sum(k == kind for k in found.own_kinds) / max(1, len(found.own_kinds))
    return features


# Structure of the conversation, not its topic: how the user's words are spread over turns, how they
# compare with the assistant's, whether they come in lines and lists, in which script.
_IMPERATIVE_RE = re.compile(
    r"^\W*(?:please |pls |can you |could you )?(?:write|give|make|create|generate|rewrite|continue|translate|"
    r"explain|summari[sz]e|fix|list|describe|tell|provide|show|act|imagine|pretend|add|change|improve|correct|"
    r"answer|help|do|use|put|convert|paraphrase|compose|draft)\b", re.IGNORECASE)
_LIST_LINE_RE = re.compile(r"^\s*(?:[-*•]|\d+[.)]|[a-z][.)])\s", re.MULTILINE)
_SCRIPT_NAME_RE = re.compile(r"^\s*(?:\*\*)?[A-Z][\w' -]{1,25}(?:\*\*)?:(?:\*\*)?\s", re.MULTILINE)
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
_LETTER_RE = re.compile(r"[^\W\d_]")
_YOU_RE = re.compile(r"\b(?:you|your|you're|yourself)\b", re.IGNORECASE)


def _script(text: str) -> str:
    letters = max(1, len(_LETTER_RE.findall(text)))
    if len(CJK_RE.findall(text)) / letters > 0.3:
        return "cjk"
    return "cyrillic" if len(_CYRILLIC_RE.findall(text)) / letters > 0.3 else "latin"


def _turn_shape_features(user: list[str], assistant: list[str]) -> dict[str, float]:
    """Shares of the user's turns and lines, each in 0..1."""
    n = max(1, len(user))
    text, replies = "\n".join(user), "\n".join(assistant)
    lines = [line for line in text.splitlines() if line.strip()] or [""]
    words = max(1, len(re.findall(r"\w+", text)))
    letters = max(1, len(_LETTER_RE.findall(text)))
    return {
        "user_share": len(text) / max(1, len(text) + len(replies)),
        "first_turn_share": len(user[0]) / max(1, len(text)) if user else 0.0,
        "short_followups": sum(len(u) < 80 for u in user[1:]) / max(1, n - 1),
        "questions": sum("?" in u or "？" in u for u in user) / n,
        "imperatives": sum(bool(_IMPERATIVE_RE.search(u)) for u in user) / n,
        "list_lines": len(_LIST_LINE_RE.findall(text)) / len(lines),
        "line_length": min(1.0, len(text) / len(lines) / 400),
        "second_person": min(1.0, 10 * len(_YOU_RE.findall(text)) / words),
        "cyrillic": len(_CYRILLIC_RE.findall(text)) / letters,
        "digits": min(1.0, 5 * sum(c.isdigit() for c in text) / max(1, len(text))),
        "script_switch": float(bool(user and assistant) and _script(text) != _script(replies)),
        "assistant_script_lines": min(1.0, len(_SCRIPT_NAME_RE.findall(replies)) / max(1, replies.count("\n") + 1) * 5),
        "assistant_length": math.log1p(len(replies) / max(1, len(assistant))) / 10,
    }


def features(turns: list[Turn], found: SessionSignals, *, dim: int) -> np.ndarray:
    """One session as a vector: L2-normalised log counts of hashed n-grams, then the dense features."""
    dense = dense_features(turns, found)
    vector = np.zeros(dim + len(dense), dtype=np.float32)
    for turn in turns:
        if turn.role == "user":
            prefix, text = "u", turn.content[:HEAD_CHARS]
        elif turn.role == "assistant":
            prefix, text = "a", turn.content[:ASSISTANT_CHARS]
        else:
            continue
        tokens = _tokens(text)
        for i, token in enumerate(tokens):
            vector[feature_slot(f"{prefix}:{token}", dim)] += 1
            if i:
                vector[feature_slot(f"{prefix}:{tokens[i - 1]} {token}", dim)] += 1
    hashed = np.log1p(vector[:dim])
    norm = float(np.linalg.norm(hashed))
    if norm:
        vector[:dim] = hashed / norm
    vector[dim:] = [dense[name] for name in sorted(dense)]
    return vector


def softmax(scores: np.ndarray) -> np.ndarray:
    scores = scores - scores.max(axis=-1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class TriageModel:
    weights: np.ndarray  # (features, classes)
    bias: np.ndarray  # (classes,)
    dim: int
    threshold: float  # P(skip) from which a session is skipped
    meta: dict

    def probabilities(self, turns: list[Turn], found: SessionSignals) -> dict[str, float]:
        x = features(turns, found, dim=self.dim)
        return dict(zip(CLASSES, softmax(x @ self.weights + self.bias).tolist()))

    def to_json(self) -> str:
        return json.dumps({
            "meta": self.meta, "classes": list(CLASSES), "dim": self.dim, "threshold": self.threshold,
            "shape": list(self.weights.shape), "bias": [round(float(b), 6) for b in self.bias],
            "weights_float16_base64": weights_encoded(self.weights),
        }, indent=1)

    @classmethod
    def from_json(cls, text: str) -> TriageModel:
        data = json.loads(text)
        if tuple(data.get("classes", ())) != CLASSES:
            raise ValueError(f"triage model classes {data.get('classes')} are not {list(CLASSES)}")
        weights = weights_decoded(data, dtype=np.float32)
        if weights.shape != (data["dim"] + len(dense_features([], _EMPTY)), len(CLASSES)):
            raise ValueError(f"triage model weights have shape {weights.shape}, which does not fit its features")
        return cls(weights=weights, bias=np.asarray(data["bias"], dtype=np.float32), dim=int(data["dim"]),
                   threshold=float(data["threshold"]), meta=data.get("meta", {}))


# Fewer characters than this in all the user's turns cannot hold a pasted document.
SHORTEST_DOCUMENT = 300

_EMPTY = SessionSignals(covered={k: 0.0 for k in SKIP_KINDS}, signals={k: [] for k in SKIP_KINDS}, total=0.0,
                        personal=[], own_kinds=[])


@lru_cache(maxsize=1)
def triage_model() -> TriageModel | None:
    """The shipped model, loaded once per process; None when the file is absent (rules alone)."""
    if not MODEL_PATH.exists():
        return None
    return TriageModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))


def model_triage(model: TriageModel, turns: list[Turn], found: SessionSignals) -> TriageResult:
    """The session's kind: what the rules skip stays skipped (their skips are precise: a code fence, a
    translation request); a session where the user talks about themself and no user turn shows a task
    signal is kept; of the rest, a session is skipped when the model's P(skip) reaches its threshold,
    as the likeliest skip kind. The reason names the rules' signals and the probability."""
    p = model.probabilities(turns, found)
    skip = 1.0 - p["keep"]
    ruled = found.rule_kind()
    if ruled is None and found.personal and not any(found.own_kinds):
        # The user talks about themself and no turn of theirs shows a task signal: never skipped on
        # word statistics alone.
        return TriageResult(kind="normal", reason=(f"personal: the user talks about themself (turn "
                                                   f"{', '.join(str(s) for s in found.personal[:3])}); model P(skip) {skip:.2f}"))
    if ruled is not None:
        return TriageResult(kind=ruled, reason=(f"{ruled} ({found.share(ruled):.0%} of the user's words): "
                                                f"{', '.join(found.signals[ruled][:4])}; model P(skip) {skip:.2f}"))
    if skip < model.threshold:
        why = (f"personal: the user talks about themself (turn {', '.join(str(s) for s in found.personal[:3])})"
               if found.personal else "task or conversation")
        return TriageResult(kind="normal", reason=f"{why}; model P(skip) {skip:.2f}")
    # Fiction hides the user's own first person (self_statements.own_words), so it takes a sign of fiction: "I'm a
    # teacher in Texas, give me ideas for a lesson" is a task the model may skip, never a role play.
    kind = max((k for k in SKIP_KINDS if k != "roleplay" or found.signals["roleplay"]), key=lambda k: p[k])
    said = sum(len(t.content) for t in turns if t.role == "user")
    if kind == "document" and said < SHORTEST_DOCUMENT and not found.signals["document"]:
        # "sad news, Max passed away last week": a line or two is no pasted document, whatever its words
        return TriageResult(kind="normal", reason=f"too short to be a document ({said} characters); model P(skip) {skip:.2f}")
    signals = ", ".join(found.signals[kind][:4]) or "word use"
    return TriageResult(kind=kind, reason=f"{kind} (model P(skip) {skip:.2f}, {found.share(kind):.0%} of the user's words): {signals}")
