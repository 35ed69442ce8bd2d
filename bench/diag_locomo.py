"""What became of each LoCoMo evidence turn spoken by the user (a diagnostic, not a benchmark figure).

    python -m bench.diag_locomo --datasets ../shared/datasets              # engine only, no database, seconds
    python -m bench.diag_locomo --datasets ../shared/datasets --pipeline   # import + dream on a database of its own

For every question of category 1–4 whose evidence includes a turn of the speaker taken as the user
(the same questions as bench/quality_locomo.py), each such evidence turn is put in one bucket:

- engine only: `sensitive` (held back whole, as light sleep does), `no candidate`, `cut` (a candidate,
  but not among the session's ten most important), `candidate`;
- --pipeline: `sensitive`, `no candidate`, `pending`, `expired`, `dismissed` (with the scoring reason),
  `merged`, `promoted` (then the memory's status: active / archived / superseded).

A question takes the best bucket of its evidence turns. The no-candidate turns are then grouped by
their shape (a photo, a question back, a third party as subject, a subordinate opening, …) so the
biggest language patterns without a rule stand out; `-v` prints them all, `--examples N` N per shape.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_ENGINE_ORDER = ["candidate", "cut", "sensitive", "no candidate"]
_PIPELINE_ORDER = ["active", "superseded", "archived", "merged", "pending", "expired", "dismissed", "sensitive",
                   "no candidate"]


def _views(conversations: list) -> list[tuple[str, str, dict]]:
    return [(f"locomo{ci}-{side}", c["conversation"][f"speaker_{side}"], c)
            for ci, c in enumerate(conversations) for side in ("a", "b")]


def _questions(conversation: dict, *, speaker: str, speaker_of: dict[str, str]):
    from bench.quality_locomo import evidence_ids

    for qa in conversation["qa"]:
        if qa.get("category") not in CATEGORIES:
            continue
        evidence = evidence_ids(qa.get("evidence"))
        own = sorted(e for e in evidence if speaker_of.get(e) == speaker)
        if own:
            yield qa, own


# The shapes of a turn that gave nothing, most telling first. Heuristic, for reading the misses only.
_SHAPES = [
    ("photo / look at this", re.compile(r"\b(?:pic|pics|picture|photo|photos|snap|shot|here'?s|here is|this is|"
                                        r"check (?:it|this) out|look at)\b", re.I)),
    ("subordinate opening", re.compile(r"^\W*(?:after|when|since|while|before|once|as soon as|ever since|"
                                       r"because|although|though|if)\b", re.I)),
    ("third party subject", re.compile(r"^\W*(?:(?:oh|yeah|yes|wow|haha|aw+|well),?\s+)*(?:he|she|they|his|her|"
                                       r"their|(?!(?:It|That|This|There|What|How)\b)[A-Z][a-z]+ (?:is|was|has|had|and|loves|likes|said))\b")),
    ("pronoun / this opening", re.compile(r"^\W*(?:(?:oh|yeah|yes|wow|haha|aw+|well),?\s+)*(?:it|it's|that|that's|"
                                          r"this|these|those)\b", re.I)),
    ("dropped subject", re.compile(r"^\W*(?:(?:yeah|yes|well|oh),?\s+)*(?:just\s+|been\s+|still\s+)?"
                                   r"[a-z]+(?:ing|ed)\b", re.I)),
    ("we / our", re.compile(r"\b(?:we|we're|we've|our|us)\b", re.I)),
    ("first person not read", re.compile(r"\b(?:I|I'm|I've|I'd|my|me|mine)\b")),
]


def turn_shape(text: str) -> str:
    first_person = re.search(r"\b(?:I|I'm|I've|my|me|we|our)\b", text, re.I)
    if text.rstrip().endswith("?") and not first_person:
        return "question back"
    for name, pattern in _SHAPES:
        if pattern.search(text):
            return name
    return "other"


def engine_buckets(conversations: list) -> dict[tuple[str, str], dict]:
    """(view, dia_id) → {"bucket", "statements"} from the local engine alone, prepared as light sleep does."""
    from datetime import datetime, timedelta, timezone

    from dreaming.engine.extract import extract_candidates
    from dreaming.engine.selection import MAX_CANDIDATES, most_important
    from dreaming.protocol import Turn
    from dreaming.engine.credentials import mask_secrets
    from dreaming.engine.sensitive import sensitive_category

    result = {}
    for view, speaker, conversation in _views(conversations):
        conv = conversation["conversation"]
        for key in sorted((k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1])):
            if not conv[key]:
                continue
            at = datetime.strptime(conv[f"{key}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)
            turns, ids, held = [], {}, set()
            for j, t in enumerate(conv[key]):
                if not (t.get("text") or "").strip():
                    continue
                role = "user" if t["speaker"] == speaker else "assistant"
                category = sensitive_category(t["text"])
                if role == "user" and category:
                    held.add(t["dia_id"])
                    continue
                if category in ("health", "religion"):
                    continue
                ids[j] = t["dia_id"]
                turns.append(Turn(seq=j, role=role, content=mask_secrets(t["text"]),
                                  created_at=at + timedelta(seconds=30 * j)))
            everything = extract_candidates(turns, limit=10_000)
            kept = {id(c) for c in most_important(everything, limit=MAX_CANDIDATES)}
            for dia in held:
                result[(view, dia)] = {"bucket": "sensitive", "statements": []}
            for c in everything:
                entry = result.setdefault((view, ids[c.seq]), {"bucket": "cut", "statements": []})
                entry["statements"].append(c.statement)
                if id(c) in kept:
                    entry["bucket"] = "candidate"
    return result


def pipeline_buckets(conversations: list, *, keepdb: bool, reuse: bool) -> dict[tuple[str, str], dict]:
    """Import + `dream --backfill` per view on a database of its own (as bench/quality_locomo.py does), then
    read each evidence turn's candidates and memories."""
    import os
    import tempfile

    from bench.runner import django_setup

    os.environ.setdefault("MEMCENTER_TEST_DB", "diag_locomo")
    django_setup()
    from django.db import connection

    old_name = connection.settings_dict["NAME"]
    test_name = connection.settings_dict["TEST"]["NAME"]
    if reuse:
        connection.close()
        connection.settings_dict["NAME"] = test_name
    else:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    try:
        if not reuse:
            from bench.pipeline import chats_import, dream, jsonl_write
            from bench.quality_locomo import _sessions

            with tempfile.TemporaryDirectory(prefix="diag-locomo-") as tmp:
                for view, speaker, conversation in _views(conversations):
                    sessions, _ = _sessions(conversation, speaker=speaker, username=view)
                    chats_import(jsonl_write(sessions, Path(tmp) / f"{view}.jsonl"))
                    print(f"  dream --backfill --user {view}", file=sys.stderr, flush=True)
                    dream("--backfill", "--user", view)
        return _read_database(conversations)
    finally:
        if not reuse:
            from dreaming.memory.context_cache import memory_md_cache_stop

            memory_md_cache_stop()
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=keepdb)


def _read_database(conversations: list) -> dict[tuple[str, str], dict]:
    from chat.models import Message
    from dreaming.models import Candidate
    from dreaming.engine.sensitive import sensitive_category

    result = {}
    for view, _, _ in _views(conversations):
        for m in Message.objects.filter(session__user__username=view, role="user"):
            if sensitive_category(m.content):
                result[(view, m.external_id)] = {"bucket": "sensitive", "statements": []}
        rows = Candidate.objects.filter(user__username=view).values_list(
            "message__external_id", "status", "reason", "statement", "memory__status")
        for dia, status, reason, statement, memory_status in rows:
            if status == "promoted" or (status == "merged" and memory_status):
                bucket = memory_status or "merged"
            elif status == "dismissed" and reason.startswith("Expired"):
                bucket = "expired"
            else:
                bucket = status
            entry = result.setdefault((view, dia), {"bucket": bucket, "statements": []})
            if _PIPELINE_ORDER.index(bucket) < _PIPELINE_ORDER.index(entry["bucket"]):
                entry["bucket"] = bucket
            entry["statements"].append(f"[{bucket}] {statement}" + (f" — {reason}" if bucket == "dismissed" else ""))
    return result


def report(conversations: list, buckets: dict, *, order: list[str], examples: int, verbose: bool) -> dict:
    by_category: dict[str, Counter] = defaultdict(Counter)
    turn_buckets: Counter = Counter()
    lost: dict[str, list[str]] = defaultdict(list)
    waiting: dict[str, list[str]] = defaultdict(list)  # a candidate, but not (or no longer) a usable one
    seen_turns = set()
    for view, speaker, conversation in _views(conversations):
        conv = conversation["conversation"]
        text_of, speaker_of = {}, {}
        for key, turns in conv.items():
            if re.fullmatch(r"session_\d+", key):
                for t in turns:
                    text_of[t["dia_id"]], speaker_of[t["dia_id"]] = t.get("text") or "", t["speaker"]
        for qa, own in _questions(conversation, speaker=speaker, speaker_of=speaker_of):
            got = [buckets.get((view, dia), {"bucket": "no candidate"})["bucket"] for dia in own]
            best = min(got, key=order.index)
            by_category[CATEGORIES[qa["category"]]][best] += 1
            by_category["all"][best] += 1
            for dia, bucket in zip(own, got):
                if (view, dia) in seen_turns:
                    continue
                seen_turns.add((view, dia))
                turn_buckets[bucket] += 1
                if bucket == "no candidate":
                    lost[turn_shape(text_of[dia])].append(f"{view} {dia}: {text_of[dia]}")
                elif bucket not in order[:1] and bucket != "sensitive":
                    statements = buckets[(view, dia)]["statements"]
                    waiting[bucket].append(f"{view} {dia}: {text_of[dia]}\n          → " + "\n          → ".join(statements))
    print("Questions by the best bucket of their evidence turns (spoken by the user):")
    header = f"{'category':12} {'n':>4} " + " ".join(f"{b[:11]:>11}" for b in order)
    print(header)
    for name in ["all", *CATEGORIES.values()]:
        counts = by_category.get(name, Counter())
        print(f"{name:12} {sum(counts.values()):4d} " + " ".join(f"{counts[b]:11d}" for b in order))
    print("\nEvidence turns (each once):", ", ".join(f"{b} {turn_buckets[b]}" for b in order if turn_buckets[b]))
    for bucket, items in waiting.items():
        print(f"\nEvidence turns whose best candidate is {bucket} ({len(items)}):")
        for line in items if verbose else items[:examples]:
            print(f"        {line[:600]}")
    print(f"\nNo-candidate turns by shape ({sum(len(v) for v in lost.values())}):")
    for shape, items in sorted(lost.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(items):4d}  {shape}")
        for line in items if verbose else items[:examples]:
            print(f"        {line[:220]}")
    return {"questions": {k: dict(v) for k, v in by_category.items()}, "turns": dict(turn_buckets),
            "no_candidate_by_shape": {k: len(v) for k, v in lost.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.diag_locomo", description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with locomo/locomo_dev.json")
    parser.add_argument("--pipeline", action="store_true", help="import + dream on a database (minutes), not the engine alone")
    parser.add_argument("--keepdb", action="store_true", help="with --pipeline: keep the database to look around")
    parser.add_argument("--reuse", action="store_true", help="with --pipeline: read a database kept by --keepdb, dream nothing")
    parser.add_argument("--examples", type=int, default=5, help="no-candidate turns shown per shape")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every no-candidate turn")
    parser.add_argument("--json", help="also write the counts to this file")
    args = parser.parse_args(argv)
    path = Path(args.datasets) / "locomo" / "locomo_dev.json"
    if not path.is_file():
        parser.error(f"LoCoMo file not found: {path}")
    conversations = json.loads(path.read_text())
    if args.pipeline:
        buckets = pipeline_buckets(conversations, keepdb=args.keepdb, reuse=args.reuse)
        order = _PIPELINE_ORDER
    else:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
        os.environ.setdefault("DJANGO_DEBUG", "1")
        django.setup()
        buckets = engine_buckets(conversations)
        order = _ENGINE_ORDER
    counts = report(conversations, buckets, order=order, examples=args.examples, verbose=args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(counts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
