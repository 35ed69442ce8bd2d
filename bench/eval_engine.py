"""Measure the local rules engine on the development datasets (no database needed).

    python -m bench.eval_engine --datasets ../shared/datasets

- MSC persona facts: bot_0 is the user. A gold fact (one sentence of that turn's persona_text) is
  found when a candidate extracted from the same turn has token-F1 >= 0.5 with it; precision likewise
  over candidates. Tokens: lower-case words without stop words, "User"/"The user" read as "I" (the
  third-person statement is read back in the first person: "User likes" → "I like").
- WildChat triage: skip-decision accuracy (skip = coding, document, translation, roleplay), share of
  personal conversations kept, confusion matrix.
- MemoryBank (Chinese): share of each user's comma-separated hobbies some extracted statement of that
  user names (bench/quality_memorybank.hobby_said: the same match as the `memorybank` row).
"""
from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path

from bench.quality_memorybank import hobbies_of, hobby_said
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn
from dreaming.engine.quotes import normalize_for_match

SKIP = {"coding", "document", "translation", "roleplay"}

# The NLTK English stop-word list (independent of the engine's own list).
STOP_WORDS = frozenset(
    """i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
    him his himself she she's her hers herself it it's its itself they them their theirs themselves what
    which who whom this that that'll these those am is are was were be been being have has had having do
    does did doing a an the and but if or because as until while of at by for with about against between
    into through during before after above below to from up down in out on off over under again further
    then once here there when where why how all any both each few more most other some such no nor not only
    own same so than too very s t can will just don don't should should've now d ll m o re ve y ain aren
    aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma
    mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won
    won't wouldn wouldn't""".split()
)


def _first_person(statement: str) -> str:
    """Read a third-person statement back as the user would say it ("User likes" → "I like")."""
    text = re.sub(r"\b(?:the user|user)'s\b", "my", statement, flags=re.I)
    text = re.sub(r"\b(?:the user|user)\b", "I", text, flags=re.I)
    text = re.sub(r"\bI is\b", "I am", text)
    text = re.sub(r"\bI has\b", "I have", text)
    text = re.sub(r"\bI does\b", "I do", text)
    text = re.sub(r"\bI doesn't\b", "I don't", text)

    def base(m: re.Match) -> str:
        adverbs, verb = m.group(1), m.group(2)
        if verb.endswith("ies") and len(verb) > 4:
            verb = verb[:-3] + "y"
        elif re.search(r"(?:sh|ch|x|z|ss|o)es$", verb):
            verb = verb[:-2]
        elif verb.endswith("s") and not verb.endswith("ss"):
            verb = verb[:-1]
        return f"I {adverbs}{verb}"

    text = re.sub(
        # the adverbs third_person.py leaves before the verb ("User both loves", "User much prefers")
        r"\bI ((?:(?:also|still|often|usually|always|never|now|even|sometimes|only|just|really|mostly|both|much|first|"
        r"rather|sure|kinda|totally|pretty much|very much|kind of|sort of) )*)"
        r"(?!(?:always|sometimes|was|has|is|does|its|us|yes|less|this|unless|perhaps)\b)([a-z]+s)\b",
        base,
        text,
    )
    text = re.sub(r"\btheir\b", "my", text)
    text = re.sub(r"\bthemself\b|\bthemselves\b", "myself", text)
    return text


_CONTRACTIONS = [(r"\bcan't\b", "can not"), (r"\bwon't\b", "will not"), (r"n't\b", " not"), (r"'m\b", " am"),
                 (r"'ve\b", " have"), (r"'ll\b", " will"), (r"'d\b", " would"), (r"'re\b", " are"), (r"'s\b", "")]


def _tokens(text: str) -> list[str]:
    text = text.lower().replace("’", "'")
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl, text)
    words = re.findall(r"[a-z0-9]+", text)
    return [w for w in words if w not in STOP_WORDS]


def token_f1(pred: str, gold: str) -> float:
    p, g = _tokens(pred), _tokens(gold)
    if not p or not g:
        return 0.0
    common = sum((Counter(p) & Counter(g)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def _gold_sentences(persona_text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", persona_text or "") if s.strip()]


def eval_msc(path: Path, dreamer: LocalDreamer) -> dict:
    ctx = CallContext(phase="light")
    extracted = matched = gold_total = gold_found = 0
    turn_tp = turn_fp = turn_fn = 0
    base_extracted = base_matched = base_found = 0
    sessions = 0
    started = time.perf_counter()
    for line in path.read_text().splitlines():
        dialog = json.loads(line)["dialog"]
        turns = [
            Turn(seq=i, role="user" if t["id"] == "bot_0" else "assistant", content=t["text"])
            for i, t in enumerate(dialog)
        ]
        candidates = dreamer.extract(turns=turns, ctx=ctx)
        sessions += 1
        by_seq: dict[int, list[str]] = {}
        for c in candidates:
            by_seq.setdefault(c.seq, []).append(_first_person(c.statement))
        for i, t in enumerate(dialog):
            if t["id"] != "bot_0":
                continue
            gold = _gold_sentences(t.get("persona_text") or "")
            preds = by_seq.get(i, [])
            extracted += len(preds)
            matched += sum(any(token_f1(p, g) >= 0.5 for g in gold) for p in preds)
            gold_total += len(gold)
            gold_found += sum(any(token_f1(p, g) >= 0.5 for p in preds) for g in gold)
            turn_tp += bool(preds) and bool(gold)
            turn_fp += bool(preds) and not gold
            turn_fn += (not preds) and bool(gold)
            # Baseline from the dataset README: every first-person sentence, verbatim.
            base = [s for s in re.split(r"(?<=[.!?])\s+", t["text"]) if re.search(r"\b(?:I|my|I'm)\b", s, re.I)]
            base_extracted += len(base)
            base_matched += sum(any(token_f1(p, g) >= 0.5 for g in gold) for p in base)
            base_found += sum(any(token_f1(p, g) >= 0.5 for p in base) for g in gold)
    elapsed = time.perf_counter() - started
    precision = matched / extracted if extracted else 0.0
    recall = gold_found / gold_total if gold_total else 0.0
    turn_p = turn_tp / (turn_tp + turn_fp) if turn_tp + turn_fp else 0.0
    turn_r = turn_tp / (turn_tp + turn_fn) if turn_tp + turn_fn else 0.0
    base_p = base_matched / base_extracted if base_extracted else 0.0
    base_r = base_found / gold_total if gold_total else 0.0
    return {
        "dialogues": sessions,
        "gold_facts": gold_total,
        "extracted": extracted,
        "fact_precision": precision,
        "fact_recall": recall,
        "fact_f1": _f1(precision, recall),
        "turn_precision": turn_p,
        "turn_recall": turn_r,
        "turn_f1": _f1(turn_p, turn_r),
        "baseline_verbatim_f1": _f1(base_p, base_r),
        "baseline_verbatim_precision": base_p,
        "baseline_verbatim_recall": base_r,
        "sessions_per_second": sessions / elapsed if elapsed else 0.0,
    }


def eval_wildchat(folder: Path, dreamer: LocalDreamer) -> dict:
    """Skip accuracy on every labelled conversation (dev + extra), overall and per part (bench/split.py)."""
    from bench.quality_wildchat import labelled_conversations
    from bench.split import PARTS, part_of

    ctx = CallContext(phase="light")
    correct = total = personal = personal_kept = 0
    by_part = {part: Counter() for part in PARTS}
    confusion: Counter = Counter()
    errors = []
    for conv, label in labelled_conversations(folder):
        gold = label["kind"]
        turns = [
            Turn(seq=i, role=m["role"] if m["role"] in ("user", "assistant") else "system", content=m["content"])
            for i, m in enumerate(conv["messages"])
        ]
        result = dreamer.triage(turns=turns, ctx=ctx)
        predicted_skip = result.kind in SKIP
        total += 1
        correct += predicted_skip == (gold in SKIP)
        part = by_part[part_of(conv["id"])]
        part["total"] += 1
        part["correct"] += predicted_skip == (gold in SKIP)
        confusion[(gold, result.kind)] += 1
        if gold == "personal":
            personal += 1
            personal_kept += not predicted_skip
        if predicted_skip != (gold in SKIP):
            errors.append({"id": conv["id"], "gold": gold, "predicted": result.kind, "reason": result.reason})
    return {
        "conversations": total,
        "skip_accuracy": correct / total if total else 0.0,
        "skip_accuracy_by_part": {k: v["correct"] / v["total"] if v["total"] else 0.0 for k, v in by_part.items()},
        "personal_kept": personal_kept / personal if personal else 1.0,
        "confusion": {f"{g}->{p}": n for (g, p), n in sorted(confusion.items())},
        "errors": errors,
    }


def eval_memorybank(path: Path, dreamer: LocalDreamer) -> dict:
    data = json.loads(path.read_text())
    ctx = CallContext(phase="light")
    hobbies_total = hobbies_found = candidates = 0
    missing = {}
    for name, user in data.items():
        statements = []
        for day, exchanges in sorted(user["history"].items()):
            turns = []
            for x in exchanges:
                turns.append(Turn(seq=len(turns), role="user", content=x["query"]))
                turns.append(Turn(seq=len(turns), role="assistant", content=x["response"]))
            found = dreamer.extract(turns=turns, ctx=ctx)
            candidates += len(found)
            statements.extend(normalize_for_match(c.statement) for c in found)
        for hobby in hobbies_of(user):
            hobbies_total += 1
            if hobby_said(hobby, statements):
                hobbies_found += 1
            else:
                missing.setdefault(name, []).append(hobby)
    return {
        "users": len(data),
        "candidates": candidates,
        "hobbies": hobbies_total,
        "hobby_coverage": hobbies_found / hobbies_total if hobbies_total else 0.0,
        "missing": missing,
    }


def run(datasets_path: str | Path) -> dict:
    root = Path(datasets_path)
    dreamer = LocalDreamer()
    return {
        "msc": eval_msc(root / "msc" / "msc_personasummary_s1_dev.jsonl", dreamer),
        "wildchat": eval_wildchat(root / "wildchat_triage", dreamer),
        "memorybank": eval_memorybank(root / "memorybank_cn" / "memory_bank_cn_dev.json", dreamer),
    }


def _print_table(results: dict, *, verbose: bool) -> None:
    msc, wild, bank = results["msc"], results["wildchat"], results["memorybank"]
    rows = [
        ("MSC fact precision", msc["fact_precision"], None),
        ("MSC fact recall", msc["fact_recall"], None),
        ("MSC fact F1", msc["fact_f1"], 0.60),
        ("MSC turn F1", msc["turn_f1"], None),
        ("MSC verbatim baseline F1", msc["baseline_verbatim_f1"], None),
        ("WildChat skip accuracy", wild["skip_accuracy"], 0.92),
        ("WildChat personal kept", wild["personal_kept"], 1.0),
        ("MemoryBank hobby coverage", bank["hobby_coverage"], 0.80),
    ]
    print(f"{'metric':32} {'value':>7} {'target':>7}  ok")
    for label, value, target in rows:
        ok = "" if target is None else ("yes" if value >= target else "NO")
        print(f"{label:32} {value:7.3f} {'' if target is None else f'{target:7.2f}':>7}  {ok}")
    print(f"MSC: {msc['dialogues']} dialogues, {msc['gold_facts']} gold facts, {msc['extracted']} extracted, "
          f"{msc['sessions_per_second']:.0f} sessions/s")
    print("WildChat confusion (gold->predicted): " + ", ".join(f"{k} {v}" for k, v in wild["confusion"].items()))
    if verbose:
        for e in wild["errors"]:
            print("  triage miss:", e)
        print("MemoryBank missing hobbies:", bank["missing"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with msc/, wildchat_triage/, memorybank_cn/")
    parser.add_argument("--json", action="store_true", help="print the full results as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="list triage errors and missing hobbies")
    args = parser.parse_args()
    if not Path(args.datasets).is_dir():
        parser.error(f"datasets folder not found: {args.datasets}")
    results = run(args.datasets)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    else:
        _print_table(results, verbose=args.verbose)


if __name__ == "__main__":
    main()
