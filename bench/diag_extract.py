"""Fast loop for the English extraction figures, per part (bench/split.py), without a database.

    python -m bench.diag_extract --datasets ../shared/datasets [--part tuning] [--show msc-fn|msc-empty|msc-fp|facts|candidates]

Mirrors light sleep's reading of a session with the local dreamer: sensitive clauses taken out and
secrets masked, triage; a skipped session keeps only the user's self-statements (self_statements.py),
a kept one the ten most important candidates. MSC: every dialogue of the dev and validation files,
fact P / R / F1 and turn F1 of the candidates (deep sleep may still merge or drop some; `make bench`
has the figures after it). WildChat: share of the hand-labelled user facts whose quote's turn gave a
candidate, and for each miss the first step that lost it (why_missed). `--show` prints the misses of the
chosen part, to read them as categories.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bench.eval_engine import _first_person, _gold_sentences, token_f1
from bench.runner import django_setup
from bench.split import PARTS, part_of
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.extract import extract_candidates
from dreaming.engine.selection import MAX_CANDIDATES
from dreaming.engine.language import words
from dreaming.engine.quotes import statement_unsupported
from dreaming.engine.self_statements import own_words, self_statements
from dreaming.engine.sensitive import redact_sensitive, sensitive_category
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
    elif show == "msc-empty":  # a gold turn that yields no item at all: the turn-level recall misses
        if gold and not preds:
            print(f"EMPTY {text!r}\n  gold: {gold}")
    elif show == "msc-fp":
        wrong = [p for p in preds if not any(token_f1(p, g) >= 0.5 for g in gold)]
        if wrong:
            print(f"TURN {text!r}\n  ours unmatched: {wrong}\n  gold: {gold}")


def wildchat(root: Path, dreamer: LocalDreamer, show: str | None, part_shown: str) -> dict:
    from bench.quality_wildchat import SKIP, _turn_with_quote, labelled_conversations

    kept = {p: 0 for p in PARTS}
    total = {p: 0 for p in PARTS}
    reasons = {p: Counter() for p in PARTS}
    decided = {p: Counter() for p in PARTS}  # skip decisions right / made, as the full bench counts them
    for conv, label in labelled_conversations(root / "wildchat_triage"):
        facts = label.get("user_facts") or []
        p = part_of(conv["id"])
        turns = _conversation_turns(conv)
        kind, found = session_candidates(dreamer, turns)
        decided[p]["all"] += 1
        decided[p]["right"] += (kind in SKIPPED_KINDS) == (label["kind"] in SKIP)
        sourced = {f"m{c.seq}" for c in found}
        for fact in facts:
            turn = _turn_with_quote(conv, fact["quote"])
            hit = turn is not None and turn in sourced
            total[p] += 1
            kept[p] += hit
            if hit:
                continue
            why = why_missed(turns, quote=fact["quote"], seq=int(turn[1:]) if turn else None, kind=kind)
            reasons[p][why.split(":")[0]] += 1
            if show == "facts" and p == part_shown:
                ours = [c.statement for c in found if turn and f"m{c.seq}" == turn]
                print(f"MISS [{label['kind']}→{kind}] {fact['fact']!r}\n  quote: {fact['quote']!r}\n  why: {why}\n  ours: {ours}")
    return {p: {"facts": total[p], "kept": kept[p] / total[p] if total[p] else 0.0, "reasons": reasons[p],
                "skip_accuracy": decided[p]["right"] / max(1, decided[p]["all"])} for p in PARTS}


def _conversation_turns(conv: dict) -> list[Turn]:
    """A WildChat conversation's messages as the engine's turns (seq = the message's index, as `m<seq>` in the labels)."""
    return [Turn(seq=j, role=m["role"] if m["role"] in ("user", "assistant") else "system", content=m["content"])
            for j, m in enumerate(conv["messages"]) if (m.get("content") or "").strip()]


def show_disclosures(root: Path, dreamer: LocalDreamer, part_shown: str) -> None:
    """Print the candidates self_disclosure.py adds or rewrites in the WildChat conversations of the part (the
    candidates with it, less those without it), to read as a user would."""
    from unittest import mock

    from bench.quality_wildchat import labelled_conversations

    added = 0
    for conv, label in labelled_conversations(root / "wildchat_triage"):
        if part_of(conv["id"]) != part_shown:
            continue
        turns = _conversation_turns(conv)
        with mock.patch("dreaming.engine.self_statements.self_disclosures", return_value=[]), \
                mock.patch("dreaming.engine.self_statements.without_request", side_effect=lambda c: c), \
                mock.patch("dreaming.providers.local.without_request", side_effect=lambda c: c):
            before = {(c.seq, c.statement) for c in session_candidates(dreamer, turns)[1]}
        kind, found = session_candidates(dreamer, turns)
        for c in found:
            if (c.seq, c.statement) not in before:
                added += 1
                print(f"[{label['kind']}→{kind}] {c.statement!r}  ({c.category} {c.importance})\n   quote: {c.quote!r}")
    print(f"{added} candidates from self_disclosure.py in the {part_shown} part")


def show_candidates(root: Path, dreamer: LocalDreamer) -> None:
    """Print every candidate of every labelled WildChat conversation, one per line with its part, the hand label
    and the triage kind, so a random sample can be read as the user would read their memories
    (`--show candidates | grep '^tuning' | shuf -n 25 --random-source=<(yes 29)`)."""
    from bench.quality_wildchat import labelled_conversations

    for conv, label in labelled_conversations(root / "wildchat_triage"):
        turns = _conversation_turns(conv)
        kind, found = session_candidates(dreamer, turns)
        for c in found:
            quote = " ".join(c.quote.split())[:160]
            print(f"{part_of(conv['id'])}\t{conv['id']}\t{label['kind']}→{kind}\t{c.statement!r}\tquote: {quote!r}")


def why_missed(turns: list[Turn], *, quote: str, seq: int | None, kind: str) -> str:
    """The first step of light sleep that lost a hand-labelled fact, as "<reason>: <detail>".

    In pipeline order: the bench's match (quote not verbatim in a user turn); the sensitive filter (the
    quote's words gone from the prepared turn); a skipped session's own-words cut (code, pasted text,
    fiction); no extraction rule firing on the turn; the self-statement filter of a skipped session; the
    ten-candidate limit of a kept one; the truth guard (verify: the quote does not support the statement).
    """
    if seq is None:
        return "quote not verbatim in a user turn (bench matching)"
    original = next(t for t in turns if t.seq == seq)
    prepared = next((t for t in _prepared(turns) if t.seq == seq), None)
    if prepared is None or _words_kept(quote, prepared.content) < 0.6:
        return f"sensitive filter: {sensitive_category(quote) or 'clause'} taken out"
    if kind in SKIPPED_KINDS:
        own = own_words(prepared, kind=kind)
        if _words_kept(quote, own) < 0.6:
            return f"skipped as {kind}: the quote is not in the user's own words (code, pasted text, fiction)"
        raw = [c for c in extract_candidates([replace(prepared, content=own)], limit=10_000) if c.seq == seq]
        if not raw:
            return f"skipped as {kind}: no extraction rule fired on the user's own words"
        return f"skipped as {kind}: self-statement filter rejected {[c.statement for c in raw][:3]}"
    everything = [c for c in extract_candidates(_prepared(turns), limit=10_000) if c.seq == seq]
    if not everything:
        return f"kept as {kind}: no extraction rule fired on the turn"
    unsupported = [c for c in everything
                   if statement_unsupported(statement=c.statement, quote=c.quote, message=original.content)]
    if len(unsupported) == len(everything):
        return f"truth guard: {[c.statement for c in unsupported][:3]}"
    return f"kept as {kind}: cut by the {MAX_CANDIDATES}-candidate limit {[c.statement for c in everything][:3]}"


def _words_kept(quote: str, text: str) -> float:
    """Share of the quote's words still in `text` (its characters, for a quote without Latin words)."""
    said, there = words(quote), set(words(text))
    if not said:
        said, there = [ch for ch in quote if ch.isalnum()], set(text)
    return sum(1 for w in said if w in there) / len(said) if said else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets")
    parser.add_argument("--part", default="tuning", choices=PARTS, help="the part whose misses --show prints")
    parser.add_argument("--show", choices=["msc-fn", "msc-empty", "msc-fp", "facts", "disclosures", "candidates"])
    parser.add_argument("--only", choices=["msc", "wildchat"])
    args = parser.parse_args()
    root = Path(args.datasets)
    if not root.is_dir():
        parser.error(f"datasets folder not found: {root}")
    django_setup()  # the bench modules read the dataset through the app's models' imports
    dreamer = LocalDreamer()
    if args.show == "disclosures":
        return show_disclosures(root, dreamer, args.part)
    if args.show == "candidates":
        return show_candidates(root, dreamer)
    if args.only != "wildchat":
        for name, s in msc(root, dreamer, args.show if args.show != "facts" else None, args.part).items():
            print(f"MSC {name:9} P {s['precision']:.3f} R {s['recall']:.3f} F1 {s['f1']:.3f} turn F1 {s['turn_f1']:.3f} "
                  f"(P {s['turn_p']:.3f} R {s['turn_r']:.3f}) "
                  f"({s['items']} items, {s['gold']} gold)")
    if args.only != "msc":
        for name, s in wildchat(root, dreamer, args.show if args.show == "facts" else None, args.part).items():
            why = ", ".join(f"{reason} {n}" for reason, n in s["reasons"].most_common())
            print(f"WildChat facts {name:9} {s['kept']:.3f} of {s['facts']}, skip accuracy {s['skip_accuracy']:.3f} — "
                  f"missed: {why}")


if __name__ == "__main__":
    main()
