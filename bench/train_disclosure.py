"""Train the learned "does this turn disclose something about the user" model on the tuning part of MSC.

    .venv/bin/python -m bench.train_disclosure --datasets ../shared/datasets

Every user turn (`bot_0`) of the MSC dev and validation dialogues whose `initial_data_id` falls in the
tuning part (bench/split.py) is an example; it discloses when its `persona_text` is not empty. The
L2 strength and the threshold are chosen by 5-fold cross-validation on that part, for how extract.py
uses the model: a turn the rules read nothing from keeps a first-person sentence when P(discloses)
reaches the threshold, so the threshold is the one that gives the best turn-level F1 of "the rules
read something, or the model says so" over the folds. The final model is trained on the whole tuning
part and written to dreaming/engine/data/disclosure_model.json with this command, the SHA-256 of the
training data and the cross-validated figures. The checking part is never read here: the bench
measures it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from unittest import mock

import numpy as np

from bench.train_triage import fit

MSC_FILES = ("msc/msc_personasummary_s1_dev.jsonl", "msc/msc_personasummary_s1_valid.jsonl")
FOLDS = 5
L2_GRID = (3e-4, 1e-3, 3e-3)
THRESHOLDS = np.arange(0.30, 0.91, 0.02)


def tuning_dialogues(root: Path) -> list[dict]:
    from bench.split import TUNING, part_of

    found = []
    for relative in MSC_FILES:
        path = root / relative
        if not path.exists():
            raise SystemExit(f"MSC file not found: {path}")
        found += [d for d in map(json.loads, path.read_text().splitlines()) if part_of(d["initial_data_id"]) == TUNING]
    return found


def turn_rows(dialogues: list[dict]) -> list[dict]:
    """One row per user turn: its text, the assistant's turn before it, whether it discloses (gold), whether
    the rules alone read a candidate from it, and whether the model may add one (short, English)."""
    from bench.diag_extract import session_candidates
    from dreaming.engine.disclosure_model import MAX_WORDS
    from dreaming.protocol import Turn
    from dreaming.providers.local import LocalDreamer

    dreamer, rows = LocalDreamer(), []
    with mock.patch("dreaming.engine.likely_reading.likely_disclosure", return_value=False):  # the rules alone
        for d in dialogues:
            turns = [Turn(seq=j, role="user" if t["id"] == "bot_0" else "assistant", content=t["text"])
                     for j, t in enumerate(d["dialog"]) if t["text"].strip()]
            read = {c.seq for c in session_candidates(dreamer, turns)[1]}
            previous = ""
            for j, t in enumerate(d["dialog"]):
                if t["id"] != "bot_0":
                    previous = t["text"]
                    continue
                rows.append({"id": d["initial_data_id"], "text": t["text"], "previous": previous,
                             "gold": bool((t.get("persona_text") or "").strip()), "read": j in read,
                             "eligible": len(t["text"].split()) <= MAX_WORDS})
    return rows


def turn_f1(predicted: np.ndarray, gold: np.ndarray) -> float:
    tp, fp, fn = (predicted & gold).sum(), (predicted & ~gold).sum(), (~predicted & gold).sum()
    return float(2 * tp / (2 * tp + fp + fn)) if tp else 0.0


def best_threshold(p: np.ndarray, read: np.ndarray, eligible: np.ndarray, gold: np.ndarray) -> tuple[float, float]:
    """(threshold, turn F1) of "the rules read something, or the turn is eligible and P ≥ threshold"."""
    scored = [(turn_f1(read | (eligible & (p >= t)), gold), -t) for t in THRESHOLDS]
    f1, t = max(scored)
    return round(-t, 2), f1


def cross_validate(x: np.ndarray, y: np.ndarray, ids: list[str], *, l2: float) -> np.ndarray:
    fold = np.array([int(hashlib.sha1(f"fold:{i}".encode()).hexdigest(), 16) % FOLDS for i in ids])
    p = np.zeros(len(y))
    for k in range(FOLDS):
        w, b = fit(x[fold != k], y[fold != k], l2=l2, classes=2)
        p[fold == k] = probability(x[fold == k], w, b)
    return p


def probability(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    from dreaming.engine.triage_model import softmax

    return softmax(x @ w + b)[:, 1]


def data_hash(dialogues: list[dict]) -> str:
    digest = hashlib.sha256()
    for d in sorted(dialogues, key=lambda d: d["initial_data_id"]):
        digest.update(json.dumps([d["initial_data_id"], [(t["id"], t["text"], t.get("persona_text") or "")
                                                          for t in d["dialog"]]]).encode("utf-8"))
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with msc/")
    parser.add_argument("--dim", type=int, default=4096, help="hashed n-gram buckets")
    parser.add_argument("--out", default="", help="model file (default: dreaming/engine/data/disclosure_model.json)")
    args = parser.parse_args(argv)
    from bench.runner import django_setup

    django_setup()
    from dreaming.engine.disclosure_model import MODEL_PATH, DisclosureModel, features

    started = time.perf_counter()
    dialogues = tuning_dialogues(Path(args.datasets))
    rows = turn_rows(dialogues)
    x = np.stack([features(r["text"], r["previous"], dim=args.dim) for r in rows])
    y = np.array([int(r["gold"]) for r in rows])
    gold, read, eligible = y.astype(bool), np.array([r["read"] for r in rows]), np.array([r["eligible"] for r in rows])
    results = []
    for l2 in L2_GRID:
        threshold, f1 = best_threshold(cross_validate(x, y, [r["id"] for r in rows], l2=l2), read, eligible, gold)
        results.append((f1, l2, threshold))
        print(f"l2 {l2:g}: cross-validated turn F1 {f1:.3f} at threshold {threshold}")
    f1, l2, threshold = max(results)
    w, b = fit(x, y, l2=l2, classes=2)
    command = "python -m bench.train_disclosure --datasets ../shared/datasets" + (f" --dim {args.dim}" if args.dim != 4096 else "")
    meta = {
        "command": command,
        "training_data": "MSC persona summary dev + valid, user turns of the tuning part (bench/split.py: "
                         "sha1(initial_data_id) last hex digit even); label: the turn has a persona_text",
        "training_data_sha256": data_hash(dialogues),
        "dialogues": len(dialogues), "turns": len(rows), "disclosing": int(y.sum()),
        "l2": l2,
        "decision": "a turn the rules read nothing from keeps its longest first-person sentence when it has at most "
                    "MAX_WORDS words and P(discloses) >= threshold",
        "rules_alone_turn_f1": round(turn_f1(read, gold), 4),
        "cross_validated_turn_f1": round(f1, 4),
        "trained_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    model = DisclosureModel(weights=w, bias=b, dim=args.dim, threshold=threshold, meta=meta)
    out = Path(args.out) if args.out else MODEL_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(model.to_json() + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size // 1024} KB): l2 {l2:g}, threshold {threshold}, turn F1 rules alone "
          f"{meta['rules_alone_turn_f1']:.3f} → {f1:.3f} cross-validated on {len(rows)} tuning turns, in "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
