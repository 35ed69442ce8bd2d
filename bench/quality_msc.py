"""6. MSC persona facts: fact-level precision / recall / F1 and turn-level F1 after real dreaming.

The dialogues of the dev file (120, MSC test split) and of the validation file (500) are split by
their `initial_data_id` into a tuning and a checking part (bench/split.py); every figure is given for
both (the table's "ours" is the checking part). Each dialogue is one user (`bot_0` → role user,
`bot_1` → assistant; message external id `t<index>`), imported with `import_chats` and dreamed with `dream --now --backfill --user U`. What
we learned is read back with `export_user`: every memory (any status) and every pending candidate,
each attached to the turn(s) it is sourced from. A gold fact (a sentence of that turn's persona_text)
is found when an item sourced from the same turn has token-F1 ≥ 0.5 with it (lower-case, stop words
dropped, "User"/"The user" read as "I" — the helpers of bench/eval_engine.py); precision likewise
over the items. Turn level: a turn is predicted when some item comes from it, gold when it has a
persona_text. Baseline (dataset README): every first-person sentence of the turn, verbatim. The notes also
give the figures with the candidates deep sleep dismissed counted in: the gap between the two is scoring's,
not extraction's.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from bench.eval_engine import _first_person, _gold_sentences, token_f1
from bench.pipeline import chats_import, dream, jsonl_write, source_message_ids, user_export
from bench.report import Figure
from bench.split import CHECKING, PARTS, TUNING, part_of

FILES = ("msc/msc_personasummary_s1_dev.jsonl", "msc/msc_personasummary_s1_valid.jsonl")


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def _scores(items_by_turn: dict[int, list[str]], gold_by_turn: dict[int, list[str]]) -> dict:
    items = matched = gold_total = found = tp = fp = fn = 0
    for turn in set(items_by_turn) | set(gold_by_turn):
        preds, gold = items_by_turn.get(turn, []), gold_by_turn.get(turn, [])
        items += len(preds)
        matched += sum(any(token_f1(p, g) >= 0.5 for g in gold) for p in preds)
        gold_total += len(gold)
        found += sum(any(token_f1(p, g) >= 0.5 for p in preds) for g in gold)
        tp += bool(preds) and bool(gold)
        fp += bool(preds) and not gold
        fn += (not preds) and bool(gold)
    precision = matched / items if items else 0.0
    recall = found / gold_total if gold_total else 0.0
    turn_p = tp / (tp + fp) if tp + fp else 0.0
    turn_r = tp / (tp + fn) if tp + fn else 0.0
    return {"items": items, "gold": gold_total, "precision": precision, "recall": recall, "f1": _f1(precision, recall),
            "turn_f1": _f1(turn_p, turn_r), "turn_p": turn_p, "turn_r": turn_r}


def _in_part(items: dict[tuple, list[str]], part: list[str], name: str) -> dict[tuple, list[str]]:
    """The items of the dialogues (keys (dialogue index, turn)) that belong to part `name`."""
    return {key: value for key, value in items.items() if part[key[0]] == name}


def _dialogues(ctx) -> list[tuple[str, list[dict]]]:
    """(initial_data_id, dialog) of every dialogue of the MSC files found; for the quick and smoke
    sizes, the first few of each part."""
    found = []
    for relative in FILES:
        path = ctx.dataset(relative)
        if path is not None:
            found += [(d["initial_data_id"], d["dialog"]) for d in map(json.loads, path.read_text().splitlines()) if d]
    size = ctx.pick(full=len(found), quick=40, smoke=4)
    if size < len(found):
        found = [d for part in PARTS for d in [x for x in found if part_of(x[0]) == part][: size // 2]]
    return found


def run(ctx) -> list[Figure]:
    if ctx.dataset(FILES[0]) is None:
        ctx.notes.append("MSC: msc/msc_personasummary_s1_dev.jsonl not found in the datasets folder — skipped")
        return []
    ids_and_dialogues = _dialogues(ctx)
    dialogues = [d for _, d in ids_and_dialogues]
    part = [part_of(i) for i, _ in ids_and_dialogues]
    start = datetime(2026, 2, 2, 10, 0, tzinfo=timezone.utc)
    sessions = []
    for i, dialog in enumerate(dialogues):
        at = start + timedelta(minutes=10 * i)
        messages = [{"role": "user" if t["id"] == "bot_0" else "assistant", "content": t["text"],
                     "created_at": (at + timedelta(seconds=20 * j)).isoformat(), "external_id": f"t{j}"}
                    for j, t in enumerate(dialog) if t["text"].strip()]
        sessions.append({"user": f"msc{i}", "external_id": "dialogue", "started_at": messages[0]["created_at"], "messages": messages})
    chats_import(jsonl_write(sessions, ctx.workdir / "msc.jsonl"))
    ctx.log(f"dream --backfill for {len(dialogues)} users")
    ours_items: dict[tuple, list[str]] = {}
    base_items: dict[tuple, list[str]] = {}
    dismissed_items: dict[tuple, list[str]] = {}  # what deep sleep let go: tells extraction from scoring
    gold: dict[tuple, list[str]] = {}
    for i, dialog in enumerate(dialogues):
        dream("--backfill", "--user", f"msc{i}")
        exported = user_export(f"msc{i}")
        for memory in exported["memories"]:
            for source in source_message_ids(memory):
                ours_items.setdefault((i, source), []).append(_first_person(memory["statement"]))
        for candidate in exported["candidates"]:
            if candidate["status"] in ("pending", "dismissed") and candidate.get("message_external_id"):
                kept = ours_items if candidate["status"] == "pending" else dismissed_items
                kept.setdefault((i, candidate["message_external_id"]), []).append(_first_person(candidate["statement"]))
        for j, turn in enumerate(dialog):
            if turn["id"] != "bot_0":
                continue
            sentences = _gold_sentences(turn.get("persona_text") or "")
            if sentences:
                gold[(i, f"t{j}")] = sentences
            verbatim = [s for s in re.split(r"(?<=[.!?])\s+", turn["text"]) if re.search(r"\b(?:I|my|I'm)\b", s, re.I)]
            if verbatim:
                base_items[(i, f"t{j}")] = verbatim
    scores = {}
    for name in PARTS:
        ours_part, base_part, gold_part = (_in_part(items, part, name) for items in (ours_items, base_items, gold))
        with_dismissed = {k: ours_part.get(k, []) + v for k, v in _in_part(dismissed_items, part, name).items()}
        scores[name] = {"dialogues": part.count(name), "ours": _scores(ours_part, gold_part),
                        "baseline_verbatim": _scores(base_part, gold_part),
                        "with_dismissed_candidates": _scores({**ours_part, **with_dismissed}, gold_part)}
    ctx.details["msc"] = {"dialogues": len(dialogues), **scores}
    ours, base, tuned = scores[CHECKING]["ours"], scores[CHECKING]["baseline_verbatim"], scores[TUNING]["ours"]
    note = (f"checking part {scores[CHECKING]['dialogues']} dialogues, {ours['gold']} gold facts, {ours['items']} items "
            f"(memories of any status + pending candidates), P {ours['precision']:.2f} / R {ours['recall']:.2f}; tuning part "
            f"{scores[TUNING]['dialogues']} dialogues, P {tuned['precision']:.2f} / R {tuned['recall']:.2f}; baseline = verbatim "
            f"first-person sentences P {base['precision']:.2f} / R {base['recall']:.2f} (checking); counting the candidates deep sleep "
            f"dismissed too, fact F1 {scores[CHECKING]['with_dismissed_candidates']['f1']:.3f} / turn F1 "
            f"{scores[CHECKING]['with_dismissed_candidates']['turn_f1']:.3f} (checking)")
    return [
        Figure("msc", "MSC persona fact F1 (vs verbatim sentences)", ours["f1"], base["f1"], "", "≥ 0.60", ours["f1"] >= 0.60,
               note=note, tuning=tuned["f1"]),
        Figure("msc", "MSC fact precision", ours["precision"], base["precision"], "", tuning=tuned["precision"]),
        Figure("msc", "MSC fact recall", ours["recall"], base["recall"], "", tuning=tuned["recall"]),
        Figure("msc", "MSC turn-level self-disclosure F1 (vs verbatim sentences)", ours["turn_f1"], base["turn_f1"], "",
               "≥ 0.92", ours["turn_f1"] >= 0.92, tuning=tuned["turn_f1"]),
    ]
