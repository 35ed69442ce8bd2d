"""Diagnostic: would a learned item-level filter raise MSC fact F1? (issue #16; kept as a measurement, not shipped)

    python -m bench.diag_item_filter --datasets ../shared/datasets

Every candidate the local engine extracts from an MSC dialogue (bench.diag_extract's reading) is an example;
its label is whether it matches a gold persona sentence of its turn (token-F1 ≥ 0.5, bench/quality_msc.py).
Features: hashed unigrams, bigrams and opening of the statement read back in the first person, and dense
measures (importance, items of the turn, position, lengths, the disclosure model's P(turn discloses), whether
the other side asked, "User's …", a question turn, the quote being the whole turn). A logistic regression
(bench.train_triage.fit) is trained on the tuning part; the L2 strength and the threshold below which an
item is dropped are chosen by 5-fold cross-validation over the tuning dialogues (train_disclosure's folds)
for the best fact F1. Then the model trained on the whole tuning part filters the checking part at that
threshold. Prints both parts' fact F1 before and after, and what was dropped.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np

L2_GRID = (1e-3, 3e-3, 1e-2)
THRESHOLDS = np.arange(0.0, 0.5, 0.02)
_TOKEN_RE = re.compile(r"[a-z]+(?:'[a-z]+)?")


def candidate_rows(root: Path) -> list[dict]:
    """One row per user turn of every MSC dialogue: part, dialogue id, text, previous turn, gold, candidates."""
    from bench.diag_extract import session_candidates
    from bench.eval_engine import _first_person, _gold_sentences
    from bench.quality_msc import FILES
    from bench.split import part_of
    from dreaming.protocol import Turn
    from dreaming.providers.local import LocalDreamer

    dreamer, rows = LocalDreamer(), []
    for relative in FILES:
        for d in map(json.loads, (root / relative).read_text().splitlines()):
            turns = [Turn(seq=j, role="user" if t["id"] == "bot_0" else "assistant", content=t["text"])
                     for j, t in enumerate(d["dialog"]) if t["text"].strip()]
            found = session_candidates(dreamer, turns)[1]
            for j, t in enumerate(d["dialog"]):
                if t["id"] == "bot_0":
                    rows.append({"part": part_of(d["initial_data_id"]), "id": d["initial_data_id"], "text": t["text"],
                                 "previous": d["dialog"][j - 1]["text"] if j else "",
                                 "gold": _gold_sentences(t.get("persona_text") or ""),
                                 "items": [(c.statement, c.quote, c.importance, _first_person(c.statement))
                                           for c in found if c.seq == j]})
    return rows


def item_features(row: dict, item: tuple, position: int, *, dim: int, p_discloses: float) -> np.ndarray:
    from dreaming.engine.triage_model import feature_slot

    statement, quote, importance, spoken = item
    vector = np.zeros(dim + 12)
    tokens = _TOKEN_RE.findall(spoken.lower())
    for i, token in enumerate(tokens):
        vector[feature_slot(f"s:{token}", dim)] += 1
        if i:
            vector[feature_slot(f"s:{tokens[i - 1]} {token}", dim)] += 1
    for token in tokens[:3]:
        vector[feature_slot(f"o:{token}", dim)] += 1
    hashed = np.log1p(vector[:dim])
    vector[:dim] = hashed / (np.linalg.norm(hashed) or 1.0)
    vector[dim:] = [importance, len(row["items"]) / 3, position / 3, len(tokens) / 10, len(row["text"].split()) / 30,
                    p_discloses, float("?" in row["previous"][-200:]), float(statement.startswith("User's")),
                    float(row["text"].rstrip().endswith("?")), float(quote.strip() == row["text"].strip()),
                    len(spoken.split()) / 5, float(bool(row["previous"]))]
    return vector


def fact_f1(rows: list[dict], keep) -> float:
    from bench.quality_msc import _scores

    items = {i: [it[3] for k, it in enumerate(r["items"]) if keep(i, k)] for i, r in enumerate(rows)}
    return _scores(items, {i: r["gold"] for i, r in enumerate(rows) if r["gold"]})["f1"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets")
    parser.add_argument("--dim", type=int, default=2048)
    args = parser.parse_args(argv)
    from bench.runner import django_setup

    django_setup()
    from bench.eval_engine import token_f1
    from bench.train_disclosure import cross_validate, probability
    from bench.train_triage import fit
    from dreaming.engine.disclosure_model import disclosure_model

    model = disclosure_model()
    rows = candidate_rows(Path(args.datasets))
    parts = {name: [r for r in rows if r["part"] == name] for name in ("tuning", "checking")}
    data = {}
    for name, part in parts.items():
        keys = [(i, k) for i, r in enumerate(part) for k in range(len(r["items"]))]
        x = np.stack([item_features(part[i], part[i]["items"][k], k, dim=args.dim,
                                    p_discloses=model.probability(part[i]["text"], part[i]["previous"]) if model else 0.5)
                      for i, k in keys])
        y = np.array([int(any(token_f1(part[i]["items"][k][3], g) >= 0.5 for g in part[i]["gold"])) for i, k in keys])
        data[name] = (keys, x, y, [part[i]["id"] for i, _ in keys])
    keys, x, y, ids = data["tuning"]
    best = (fact_f1(parts["tuning"], lambda i, k: True), None, 0.0)
    print(f"tuning fact F1, all items: {best[0]:.3f}")
    for l2 in L2_GRID:
        p = cross_validate(x, y, ids, l2=l2)
        for t in THRESHOLDS:
            dropped = {keys[j] for j in np.flatnonzero(p < t)}
            f1 = fact_f1(parts["tuning"], lambda i, k: (i, k) not in dropped)
            if f1 > best[0] + 1e-9:
                best = (f1, l2, float(t))
        print(f"l2 {l2:g}: best cross-validated tuning fact F1 so far {best[0]:.3f} (l2 {best[1]}, threshold {best[2]:.2f})")
    if best[1] is None:
        print("no threshold raises the tuning part's fact F1: nothing to apply")
        return 0
    w, b = fit(x, y, l2=best[1], classes=2)
    keys, xc, yc, _ = data["checking"]
    pc = probability(xc, w, b)
    dropped = {keys[j] for j in np.flatnonzero(pc < best[2])}
    print(f"checking fact F1: {fact_f1(parts['checking'], lambda i, k: True):.3f} → "
          f"{fact_f1(parts['checking'], lambda i, k: (i, k) not in dropped):.3f}; dropped {len(dropped)} of {len(keys)} "
          f"items, {float(yc[pc < best[2]].mean()) if dropped else 0:.2f} of them matching gold")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
