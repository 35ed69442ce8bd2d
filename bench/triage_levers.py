"""What more training material or fewer features would do to the learned triage model, on both parts.

    DJANGO_DEBUG=1 .venv/bin/python -m bench.triage_levers --datasets ../shared/datasets [--l2 0.01] [--only prefixes]

Each lever is chosen exactly as bench/train_triage.py chooses the shipped model (5-fold CV ×3 on the WildChat
tuning part picks the L2 and the threshold; added material sits in every training fold and is never scored),
then trained on the whole tuning part and measured on the checking part, which only the bench and this script
read. One line per lever: the CV accuracy on the tuning part, the checking accuracy and its misses, and the
mean (sd) of the checking misses over bootstrap resamples of the tuning part — one conversation moves a single
figure by 0.005, so a lever is worth shipping only when it moves more than that spread.

Levers (all trained on the tuning part; the added material never comes from the checking part):
- base: the shipped setting (hashed n-grams and the dense features)
- dense: the dense features alone (the hashed n-grams dropped)
- prefixes: every tuning conversation also cut before up to MAX_CUTS of its later user turns (a
  conversation's cuts weigh one conversation together): earlier views of the same labelled session
- dialogues: personal chat with a known kind — MSC validation dialogues (the first 250, `bot_0` as the user;
  the MSC dev file stays unseen), LoCoMo sessions (speaker_a), MemoryBank days — at weight 0.3
- synthetic: 300 bench/synth.py sessions (seed 101; the synthetic triage check uses seed 7), weight 0.3
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bench.train_triage import (
    L2_GRID, Extra, Labelled, best_setting, conversation_turns, decided_skip, fit, label_index, labelled,
    wildchat_conversations,
)

LEVERS = ("base", "dense", "prefixes", "dialogues", "synthetic")
MAX_CUTS = 4
BOOTSTRAPS = 10


def prefixes(pairs) -> list[tuple[dict, dict, float]]:
    """(conversation cut before a later user turn, its label, weight): up to MAX_CUTS cuts per conversation."""
    out = []
    for conv, label in pairs:
        turns = conversation_turns(conv)
        cuts = [i for i, t in enumerate(turns) if t.role == "user"][1:]
        cuts = [cuts[int(i * len(cuts) / MAX_CUTS)] for i in range(MAX_CUTS)] if len(cuts) > MAX_CUTS else cuts
        out += [({"id": f"{conv['id']}@{c}", "group": conv["id"], "turns": turns[:c]}, label, 1 / len(cuts)) for c in cuts]
    return out


def dialogues(root: Path) -> list[list[tuple[str, str]]]:
    """Personal chat from the other dev sets, as (role, text) turns, the user's turns first in each pair."""
    sessions = []
    for line in (root / "msc" / "msc_personasummary_s1_valid.jsonl").read_text().splitlines()[:250]:
        sessions.append([("user" if t["id"] == "bot_0" else "assistant", t["text"]) for t in json.loads(line)["dialog"]])
    for conv in json.loads((root / "locomo" / "locomo_dev.json").read_text()):
        talk = conv["conversation"]
        for key, turns in talk.items():
            if key.startswith("session_") and isinstance(turns, list):
                sessions.append([("user" if t["speaker"] == talk["speaker_a"] else "assistant", t["text"]) for t in turns])
    for person in json.loads((root / "memorybank_cn" / "memory_bank_cn_dev.json").read_text()).values():
        for day in person["history"].values():
            sessions.append([pair for q in day for pair in (("user", q["query"]), ("assistant", q["response"]))])
    return sessions


def synthetic() -> list[tuple[list[tuple[str, str]], str]]:
    from bench.synth import generate_sessions

    return [([(m["role"], m["content"]) for m in s["messages"]], s["kind"]) for s in generate_sessions(count=300, seed=101)]


def extra_of(lever: str, root: Path, tuning_pairs, dim: int) -> Extra | None:
    """The added training material of a lever, as features (None: the tuning part alone)."""
    from dreaming.protocol import Turn

    def turns_of(talk):
        return [Turn(seq=i, role=role, content=text) for i, (role, text) in enumerate(talk) if text.strip()]

    if lever == "prefixes":
        rows = [(cut["turns"], label["kind"], weight, cut["group"]) for cut, label, weight in prefixes(tuning_pairs)]
    elif lever == "dialogues":
        rows = [(turns_of(talk), "personal", 0.3, f"dialogue{i}") for i, talk in enumerate(dialogues(root))]
    elif lever == "synthetic":
        rows = [(turns_of(talk), kind, 0.3, f"synthetic{i}") for i, (talk, kind) in enumerate(synthetic())]
    else:
        return None
    x = _features([turns for turns, *_ in rows], dim=dim)
    return Extra(x=x, y=np.array([label_index(kind) for _, kind, _, _ in rows], dtype=int),
                 weights=np.array([w for *_, w, _ in rows], dtype=float), groups=[g for *_, g in rows])


def _features(sessions, *, dim: int) -> np.ndarray:
    from dreaming.engine.triage_model import features
    from dreaming.providers.local import session_reading

    return np.stack([features(turns, session_reading(turns), dim=dim) for turns in sessions]).astype(np.float64)


def without_ngrams(data: Labelled, dim: int) -> Labelled:
    return Labelled(ids=data.ids, x=data.x[:, dim:], y=data.y, personal=data.personal, rule_skip=data.rule_skip,
                    guarded=data.guarded)


def measure(tuning: Labelled, checking: Labelled, *, extra: Extra | None, grid, seed: int = 0) -> dict:
    """CV on the tuning part, then the checking part: one model on the whole tuning part, and BOOTSTRAPS models
    on resamples of it (at the same L2 and threshold) for the spread of the checking misses."""
    from dreaming.engine.triage_model import CLASSES

    cv, l2, threshold, _ = best_setting(tuning, extra=extra, grid=grid, quiet=True)

    def checking_misses(rows: np.ndarray) -> int:
        xs, ys, ws = tuning.x[rows], tuning.y[rows], np.ones(len(rows))
        if extra is not None:
            xs, ys, ws = np.vstack([xs, extra.x]), np.concatenate([ys, extra.y]), np.concatenate([ws, extra.weights])
        w, b = fit(xs, ys, l2=l2, classes=len(CLASSES), weights=ws)
        return int((decided_skip(checking, w, b, threshold) != (checking.y != 0)).sum())

    misses = checking_misses(np.arange(len(tuning.y)))
    rng = np.random.default_rng(seed)
    spread = [checking_misses(rng.integers(0, len(tuning.y), len(tuning.y))) for _ in range(BOOTSTRAPS)]
    return {"cv": cv, "l2": l2, "threshold": threshold, "checking": 1 - misses / len(checking.y), "misses": misses,
            "bootstrap_mean": float(np.mean(spread)), "bootstrap_sd": float(np.std(spread))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets")
    parser.add_argument("--dim", type=int, default=4096, help="hashed n-gram buckets, as the trainer's --dim")
    parser.add_argument("--l2", type=float, action="append", help="L2 strengths to choose from (default: the trainer's grid)")
    parser.add_argument("--only", choices=LEVERS, action="append", help="levers to measure (default: all)")
    args = parser.parse_args(argv)
    root = Path(args.datasets)
    if not (root / "wildchat_triage" / "triage_labels_dev.json").exists():
        parser.error(f"no WildChat triage labels under {root / 'wildchat_triage'}")
    from bench.runner import django_setup

    django_setup()
    from bench.split import CHECKING, TUNING, part_of

    pairs = wildchat_conversations(root / "wildchat_triage")
    tuning_pairs = [(c, lab) for c, lab in pairs if part_of(c["id"]) == TUNING]
    tuning = labelled(tuning_pairs, dim=args.dim)
    checking = labelled([(c, lab) for c, lab in pairs if part_of(c["id"]) == CHECKING], dim=args.dim)
    for lever in args.only or LEVERS:
        extra = extra_of(lever, root, tuning_pairs, args.dim)
        if lever == "dense":
            s = measure(without_ngrams(tuning, args.dim), without_ngrams(checking, args.dim), extra=None,
                        grid=args.l2 or L2_GRID)
        else:
            s = measure(tuning, checking, extra=extra, grid=args.l2 or L2_GRID)
        print(f"{lever:10} CV {s['cv']:.3f} (l2 {s['l2']:g}, threshold {s['threshold']}) | checking {s['checking']:.3f} "
              f"({s['misses']} misses; bootstrap {s['bootstrap_mean']:.1f} ± {s['bootstrap_sd']:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
