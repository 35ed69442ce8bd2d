"""Train the learned triage model on the tuning part of the WildChat triage sets.

    .venv/bin/python -m bench.train_triage --datasets ../shared/datasets

Only conversations whose id falls in the tuning part (bench/split.py) are read. The L2 strength and
the skip threshold are chosen by 5-fold cross-validation, repeated over three splits, on that part
(the threshold: the middle of the most accurate run of thresholds that keep every personal
conversation of the folds; a tie in accuracy goes to the stronger L2); the final model is trained on the
whole tuning part and written to dreaming/engine/data/triage_model.json together with this command,
the SHA-256 of the training data and the cross-validated figures. The checking part is never read
here: the bench measures it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SKIP = {"coding", "document", "translation", "roleplay"}
FOLDS = 5
REPEATS = 3
L2_GRID = (1e-3, 3e-3, 1e-2, 3e-2)


def wildchat_conversations(folder: Path) -> list[tuple[dict, dict]]:
    """(conversation, label) for every labelled WildChat conversation (dev and extra files)."""
    pairs = []
    for stem in ("dev", "extra"):
        labels_path, convs_path = folder / f"triage_labels_{stem}.json", folder / f"wildchat_{stem}.jsonl"
        if not labels_path.exists():
            continue
        labels = {x["id"]: x for x in json.loads(labels_path.read_text())}
        for line in convs_path.read_text().splitlines():
            if line.strip():
                conv = json.loads(line)
                pairs.append((conv, labels[conv["id"]]))
    return pairs


def conversation_turns(conv: dict):
    """The turns the local engine sees in light sleep: system prompts are not the conversation."""
    from dreaming.protocol import Turn

    return [Turn(seq=i, role=m["role"], content=m["content"]) for i, m in enumerate(conv["messages"])
            if m["role"] in ("user", "assistant") and (m.get("content") or "").strip()]


def label_index(kind: str) -> int:
    from dreaming.engine.triage_model import CLASSES

    return CLASSES.index(kind if kind in SKIP else "keep")


def fit(x: np.ndarray, y: np.ndarray, *, l2: float, classes: int, weights: np.ndarray | None = None,
        steps: int = 400, lr: float = 0.05):
    """Multinomial logistic regression, full-batch Adam on mean (weighted) cross-entropy + l2/2·|W|²."""
    from dreaming.engine.triage_model import softmax

    w = np.zeros((x.shape[1], classes), dtype=np.float64)
    b = np.zeros(classes, dtype=np.float64)
    onehot = np.eye(classes)[y]
    each = np.ones((len(y), 1)) if weights is None else (weights / weights.mean())[:, None]
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    for step in range(1, steps + 1):
        error = (softmax(x @ w + b) - onehot) * each
        gw = x.T @ error / len(y) + l2 * w
        gb = error.mean(axis=0)
        for i, g in enumerate((gw, gb)):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            step_size = lr * (m[i] / (1 - 0.9**step)) / (np.sqrt(v[i] / (1 - 0.999**step)) + 1e-8)
            if i == 0:
                w -= step_size
            else:
                b -= step_size
    return w, b


def skip_probability(x, w, b) -> np.ndarray:
    from dreaming.engine.triage_model import softmax

    return 1.0 - softmax(x @ w + b)[:, 0]


def best_threshold(p_skip: np.ndarray, rule_skip: np.ndarray, guarded: np.ndarray, gold_skip: np.ndarray,
                   personal: np.ndarray) -> tuple[float, float]:
    """(threshold, accuracy) of "the rules skip, or P(skip) ≥ threshold unless guarded" (how
    dreaming.engine.triage_model.model_triage decides): the most accurate threshold that skips no
    personal conversation the rules keep."""
    p_skip = np.where(guarded, 0.0, p_skip)
    ceiling = p_skip[personal & ~rule_skip].max() if (personal & ~rule_skip).any() else 0.0
    scored = [(round(float(t), 2), float(((rule_skip | (p_skip >= t)) == gold_skip).mean()))
              for t in np.arange(0.2, 0.91, 0.02) if t > ceiling]
    if not scored:
        return 0.5, -1.0
    top = max(accuracy for _, accuracy in scored)
    # The middle of the best plateau, not its first step: a threshold on the edge of the folds'
    # scores moves with the next conversation.
    plateau = [t for t, accuracy in scored if accuracy >= top - 1e-9]
    return plateau[len(plateau) // 2], top


@dataclass(frozen=True)
class Extra:
    """Material added to every training fold and never scored: its features, kinds, weights, and the
    conversation each row comes from (a prefix of a tuning conversation leaves with its fold)."""

    x: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    groups: list[str]


def _folds(keys, repeat: int) -> np.ndarray:
    salt = "fold" if repeat == 0 else f"fold{repeat}"
    return np.array([int(hashlib.sha1(f"{salt}:{k}".encode()).hexdigest(), 16) % FOLDS for k in keys], dtype=int)


def cross_validate(x, y, ids, *, l2: float, classes: int, extra: Extra | None = None) -> np.ndarray:
    """Out-of-fold P(skip) of every conversation, averaged over REPEATS different 5-fold splits (each
    fixed by a hash of the id): one split of 170 conversations moves by a conversation or two."""
    p_skip = np.zeros(len(y))
    for repeat in range(REPEATS):
        fold = _folds(ids, repeat)
        extra_fold = _folds(extra.groups, repeat) if extra else None
        for k in range(FOLDS):
            train = fold != k
            xs, ys, ws = x[train], y[train], np.ones(int(train.sum()))
            if extra is not None:
                more = extra_fold != k
                xs, ys = np.vstack([xs, extra.x[more]]), np.concatenate([ys, extra.y[more]])
                ws = np.concatenate([ws, extra.weights[more]])
            w, b = fit(xs, ys, l2=l2, classes=classes, weights=ws)
            p_skip[fold == k] += skip_probability(x[fold == k], w, b) / REPEATS
    return p_skip


@dataclass(frozen=True)
class Labelled:
    """Labelled conversations as the model and the decision see them."""

    ids: list[str]
    x: np.ndarray
    y: np.ndarray  # index into CLASSES
    personal: np.ndarray  # labelled personal
    rule_skip: np.ndarray  # the rules skip it (final)
    guarded: np.ndarray  # the user talks about themself and no turn has a skip signal: kept whatever P(skip)


def labelled(pairs, *, dim: int) -> Labelled:
    from dreaming.engine.triage_model import features
    from dreaming.providers.local import session_reading

    turns = [conversation_turns(c) for c, _ in pairs]
    readings = [session_reading(t) for t in turns]
    return Labelled(
        ids=[c["id"] for c, _ in pairs],
        x=np.stack([features(t, r, dim=dim) for t, r in zip(turns, readings)]).astype(np.float64),
        y=np.array([label_index(lab["kind"]) for _, lab in pairs], dtype=int),
        personal=np.array([lab["kind"] == "personal" for _, lab in pairs], dtype=bool),
        rule_skip=np.array([r.rule_kind() is not None for r in readings], dtype=bool),
        guarded=np.array([bool(r.personal) and not any(r.own_kinds) for r in readings], dtype=bool),
    )


def best_setting(data: Labelled, *, extra: Extra | None = None, grid=L2_GRID, quiet: bool = False):
    """(accuracy, l2, threshold, accuracy at 0.5) of the most accurate L2 under cross-validation; a tie goes
    to the stronger regularization."""
    from dreaming.engine.triage_model import CLASSES

    results = []
    for l2 in grid:
        p_skip = cross_validate(data.x, data.y, data.ids, l2=l2, classes=len(CLASSES), extra=extra)
        threshold, accuracy = best_threshold(p_skip, data.rule_skip, data.guarded, data.y != 0, data.personal)
        at_half = float(((data.rule_skip | ((p_skip >= 0.5) & ~data.guarded)) == (data.y != 0)).mean())
        results.append((accuracy, l2, threshold, at_half))
        if not quiet:
            print(f"l2 {l2:g}: cross-validated accuracy {accuracy:.3f} at threshold {threshold} ({at_half:.3f} at 0.5)")
    return max(results)


def decided_skip(data: Labelled, w, b, threshold: float) -> np.ndarray:
    """How dreaming.engine.triage_model.model_triage decides: the rules' skip, or P(skip) ≥ threshold unless guarded."""
    return data.rule_skip | ((skip_probability(data.x, w, b) >= threshold) & ~data.guarded)


def data_hash(pairs) -> str:
    digest = hashlib.sha256()
    for conv, label in sorted(pairs, key=lambda p: p[0]["id"]):
        digest.update(json.dumps([conv, label["kind"]], sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with wildchat_triage/")
    parser.add_argument("--dim", type=int, default=4096, help="hashed n-gram buckets")
    parser.add_argument("--out", default="", help="model file (default: dreaming/engine/data/triage_model.json)")
    args = parser.parse_args(argv)
    folder = Path(args.datasets) / "wildchat_triage"
    if not (folder / "triage_labels_dev.json").exists():
        parser.error(f"no WildChat triage labels under {folder}")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    import django

    django.setup()
    from bench.split import TUNING, part_of
    from dreaming.engine.triage_model import CLASSES, MODEL_PATH, TriageModel

    started = time.perf_counter()
    pairs = [(c, lab) for c, lab in wildchat_conversations(folder) if part_of(c["id"]) == TUNING]
    data = labelled(pairs, dim=args.dim)
    accuracy, l2, threshold, _ = best_setting(data)
    w, b = fit(data.x, data.y, l2=l2, classes=len(CLASSES))
    gold_skip = data.y != 0
    train_accuracy = float((decided_skip(data, w, b, threshold) == gold_skip).mean())
    rules_accuracy = float((data.rule_skip == gold_skip).mean())
    command = "python -m bench.train_triage --datasets ../shared/datasets" + (f" --dim {args.dim}" if args.dim != 4096 else "")
    meta = {
        "command": command,
        "training_data": "WildChat triage dev + extra, tuning part (bench/split.py: sha1(id) last hex digit even)",
        "training_data_sha256": data_hash(pairs),
        "conversations": len(pairs),
        "by_kind": {k: int(sum(lab["kind"] == k for _, lab in pairs)) for k in sorted({lab["kind"] for _, lab in pairs})},
        "l2": l2,
        "decision": "skip when the rules skip, or P(skip) >= threshold unless the user talks about themself "
                    "and no user turn has a skip signal of its own",
        "rules_alone_accuracy": round(rules_accuracy, 4),
        "cross_validated_accuracy": round(accuracy, 4),
        "training_accuracy": round(train_accuracy, 4),
        "trained_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    model = TriageModel(weights=w.astype(np.float32), bias=b.astype(np.float32), dim=args.dim, threshold=threshold, meta=meta)
    out = Path(args.out) if args.out else MODEL_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(model.to_json() + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size // 1024} KB): l2 {l2:g}, threshold {threshold}, cross-validated accuracy "
          f"{accuracy:.3f} on {len(pairs)} tuning conversations, in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
