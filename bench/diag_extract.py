"""Fast loop for the English extraction figures, per part (bench/split.py), without a database.

    python -m bench.diag_extract --datasets ../shared/datasets [--part tuning] [--show msc-fn|msc-fp|facts]

Mirrors light sleep's reading of a session with the local dreamer: sensitive clauses taken out and
secrets masked, triage; a skipped session keeps only the user's self-statements (self_statements.py),
a kept one the ten most important candidates. MSC: every dialogue of the dev and validation files,
fact P / R / F1 and turn F1 of the candidates (deep sleep may still merge or drop some; `make bench`
has the figures after it). WildChat: share of the hand-labelled user facts whose quote's turn gave a
candidate. `--show` prints the misses of the chosen part, to read them as categories.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.eval_engine import _first_person, _gold_sentences, token_f1
from bench.runner import django_setup
from bench.split import PARTS, part_of
from dreaming.engine.self_statements import self_statements
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.sensitive import redact_sensitive
from dreaming.protocol import SKIPPED_KINDS, SessionInfo, Turn
from dreaming.providers.local import LocalDreamer


def _prepared(turns: list[Turn]) -> list[Turn]:
    """The turns as light sleep's turns_prepare leaves them (sensitive clauses out, secrets masked)."""
    out = []
    for t in turns:
        text = redact_sensitive(t.content, anyone=t.role != "user").text
        if text.strip():
            out.append(Turn(seq=t.seq, role=t.role, content=mask_secrets(text), created_at=t.created_at))
    return out


def session_candidates(dreamer: LocalDreamer, turns: list[Turn]):
    turns = _prepared(turns)
    reading = dreamer.read_session(turns=turns, info=SessionInfo(new_from_seq=-1))  # seqs here start at 0
    if reading.kind in SKIPPED_KINDS:
        return reading.kind, self_statements(turns, kind=reading.kind)
    return reading.kind, list(reading.candidates)


def msc(root: Path, dreamer: LocalDreamer, show: str | None, part_shown: str) -> dict:
    from bench.quality_msc import FILES as MSC_FILES
    from bench.quality_msc import _scores

    items: dict[tuple, list[str]] = {}
    gold: dict[tuple, list[str]] = {}
    part: list[str] = []
    for relative in MSC_FILES:
        for line in (root / relative).read_text().splitlines():
            d = json.loads(line)
            i = len(part)
            part.append(part_of(d["initial_data_id"]))
            turns = [Turn(seq=j, role="user" if t["id"] == "bot_0" else "assistant", content=t["text"])
                     for j, t in enumerate(d["dialog"]) if t["text"].strip()]
            _, found = session_candidates(dreamer, turns)
            for c in found:
                items.setdefault((i, c.seq), []).append(_first_person(c.statement))
            for j, t in enumerate(d["dialog"]):
                sentences = _gold_sentences(t.get("persona_text") or "") if t["id"] == "bot_0" else []
                if sentences:
                    gold[(i, j)] = sentences
                if show and part[i] == part_shown and t["id"] == "bot_0":
                    _show_msc(show, t["text"], items.get((i, j), []), sentences)
    return {name: _scores({k: v for k, v in items.items() if part[k[0]] == name},
                          {k: v for k, v in gold.items() if part[k[0]] == name}) for name in PARTS}


def _show_msc(show: str, text: str, preds: list[str], gold: list[str]) -> None:
    if show == "msc-fn":
        missed = [g for g in gold if not any(token_f1(p, g) >= 0.5 for p in preds)]
        if missed:
            print(f"TURN {text!r}\n  gold missed: {missed}\n  ours: {preds}")
    elif show == "msc-fp":
        wrong = [p for p in preds if not any(token_f1(p, g) >= 0.5 for g in gold)]
        if wrong:
            print(f"TURN {text!r}\n  ours unmatched: {wrong}\n  gold: {gold}")


def wildchat(root: Path, dreamer: LocalDreamer, show: str | None, part_shown: str) -> dict:
    from bench.quality_wildchat import _turn_with_quote, labelled_conversations

    kept = {p: 0 for p in PARTS}
    total = {p: 0 for p in PARTS}
    for conv, label in labelled_conversations(root / "wildchat_triage"):
        facts = label.get("user_facts") or []
        if not facts:
            continue
        p = part_of(conv["id"])
        turns = [Turn(seq=j, role=m["role"] if m["role"] in ("user", "assistant") else "system", content=m["content"])
                 for j, m in enumerate(conv["messages"]) if (m.get("content") or "").strip()]
        kind, found = session_candidates(dreamer, turns)
        sourced = {f"m{c.seq}" for c in found}
        for fact in facts:
            turn = _turn_with_quote(conv, fact["quote"])
            hit = turn is not None and turn in sourced
            total[p] += 1
            kept[p] += hit
            if show == "facts" and p == part_shown and not hit:
                ours = [c.statement for c in found if turn and f"m{c.seq}" == turn]
                print(f"MISS [{label['kind']}→{kind}] {fact['fact']!r}\n  quote: {fact['quote']!r}\n  ours: {ours}")
    return {p: {"facts": total[p], "kept": kept[p] / total[p] if total[p] else 0.0} for p in PARTS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets")
    parser.add_argument("--part", default="tuning", choices=PARTS, help="the part whose misses --show prints")
    parser.add_argument("--show", choices=["msc-fn", "msc-fp", "facts"])
    parser.add_argument("--only", choices=["msc", "wildchat"])
    args = parser.parse_args()
    root = Path(args.datasets)
    if not root.is_dir():
        parser.error(f"datasets folder not found: {root}")
    django_setup()  # the bench modules read the dataset through the app's models' imports
    dreamer = LocalDreamer()
    if args.only != "wildchat":
        for name, s in msc(root, dreamer, args.show if args.show != "facts" else None, args.part).items():
            print(f"MSC {name:9} P {s['precision']:.3f} R {s['recall']:.3f} F1 {s['f1']:.3f} turn F1 {s['turn_f1']:.3f} "
                  f"({s['items']} items, {s['gold']} gold)")
    if args.only != "msc":
        for name, s in wildchat(root, dreamer, args.show if args.show == "facts" else None, args.part).items():
            print(f"WildChat facts {name:9} {s['kept']:.3f} of {s['facts']}")


if __name__ == "__main__":
    main()
