"""Tune recall's fusion weights on LoCoMo's tuning half (a tool, not a benchmark figure).

    python -m bench --only locomo --keepdb --datasets ../shared/datasets   # once: import + dream, keep the db
    python -m bench.tune_recall_fusion --datasets ../shared/datasets        # then, as often as needed

Reads the kept `bench_memcenter` database (migrating it first), computes each question's memory
ranking and excerpt candidates ONCE, then replays dreaming/memory/recall.py's fusion for every
point of a small grid and prints, per half (bench/quality_locomo.py's conversation_half), our hit
rate and BM25's at the same words. Choose on the tuning half; read the checking half only to see
whether the choice holds.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections import defaultdict
from pathlib import Path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tune_recall_fusion")
    parser.add_argument("--datasets", default="../shared/datasets")
    parser.add_argument("--database", default="bench_memcenter")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--excerpts-beyond-k", type=int, default=None, help="recall's EXCERPTS_BEYOND_K (default: as set)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False
    connection.settings_dict["NAME"] = args.database
    call_command("migrate", verbosity=0)

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from bench.pipeline import source_message_ids, user_export
    from bench.quality_locomo import BM25, _sessions, bm25_hit, conversation_half, user_questions, words
    from dreaming.memory import recall as R
    from dreaming.memory.context import memory_md_get, memory_md_render
    from dreaming.memory.excerpts import excerpt_candidates
    from dreaming.providers import get_embedder

    if args.excerpts_beyond_k is not None:
        R.EXCERPTS_BEYOND_K = args.excerpts_beyond_k
    conversations = json.loads((Path(args.datasets) / "locomo" / "locomo_dev.json").read_text())
    embedder = get_embedder()
    now = timezone.now()
    questions = []  # (half, category, evidence, sources, md_words, md_hit, memories, excerpts, bm25 ranking, turn_ids, turn_words)
    for ci, conversation in enumerate(conversations):
        half = conversation_half(conversation)
        for side in ("a", "b"):
            speaker = conversation["conversation"][f"speaker_{side}"]
            username = f"locomo{ci}-{side}"
            user = get_user_model().objects.get(username=username)
            sessions, speaker_of = _sessions(conversation, speaker=speaker, username=username)
            exported = user_export(username)
            sources = {m["id"]: source_message_ids(m) for m in exported["memories"]}
            document = memory_md_get(user=user, persona=None) or memory_md_render(user=user, persona=None)
            turns = [m for s in sessions for m in s["messages"] if m["role"] == "user"]
            turn_ids = [m["external_id"] for m in turns]
            turn_words = [len(words(m["content"])) for m in turns]
            bm25 = BM25([m["content"] for m in turns])
            for qa, evidence in user_questions(conversation, speaker=speaker, speaker_of=speaker_of):
                question = str(qa["question"])
                vector = embedder.embed([question], kind="query")[0]
                memories = R._memories_ranked(user_id=user.pk, persona_id=None, query=question, vector=vector,
                                              exclude_ids=list(document.memory_ids), now=now)[: 3 * args.k]
                excerpts = excerpt_candidates(user_id=user.pk, persona_id=None, query=question, limit=R.excerpts_wanted(args.k))
                md_hit = any(sources.get(i, set()) & evidence for i in document.memory_ids)
                questions.append((half, qa["category"], evidence, sources, len(words(document.content)), md_hit,
                                  memories, excerpts, bm25.ranking(question), turn_ids, turn_words, set(document.memory_ids),
                                  question))
        print(f"conversation {ci} ({half}) loaded: {len(questions)} questions so far", file=sys.stderr)

    grid = {  # the wording first: it changes slowest (the statements are rebuilt when it does)
        # dreaming/memory/excerpts.py: fewer words per excerpt leave BM25 fewer words too
        "EXCERPT_MAX_WORDS": [40, 60],
        "CONTEXT_BELOW_WORDS": [0, 8],
        "RRF_K": [2.0, 5.0, 10.0, 30.0],
        "EXCERPT_WEIGHT": [0.5, 1.0, 1.5, 2.0, 3.0],
        "EXCERPT_VECTOR_WEIGHT": [0.0, 0.5],
        "SKIP_EXCERPTS_OF_MEMORY_MD": [True, False],
    }
    from dreaming.memory import excerpts as E

    current = {name: getattr(E if name in ("EXCERPT_MAX_WORDS", "CONTEXT_BELOW_WORDS") else R, name) for name in grid}
    rows = []
    worded = None
    for values in itertools.product(*grid.values()):
        for name, value in zip(grid, values):
            setattr(E if name in ("EXCERPT_MAX_WORDS", "CONTEXT_BELOW_WORDS") else R, name, value)
        if worded != (E.EXCERPT_MAX_WORDS, E.CONTEXT_BELOW_WORDS):
            worded = (E.EXCERPT_MAX_WORDS, E.CONTEXT_BELOW_WORDS)
            for question in questions:
                for excerpt in question[7]:
                    excerpt.statement, excerpt.quote = E.excerpt_statement(excerpt, query=question[12])
        tally = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # half → n, ours, bm25, n1hop, ours1hop, bm25 1hop
        for half, category, evidence, sources, md_words, md_hit, memories, excerpts, ranking, turn_ids, turn_words, md_ids, _ in questions:
            memories = [R.RecallResult(id=m.id, statement=m.statement, category=m.category, score=m.score, parts=dict(m.parts))
                        for m in memories]
            top = R.recall_fuse(memories=memories, excerpts=excerpts, k=args.k, memory_md_ids=md_ids)
            hit = md_hit or any(
                (sources.get(r.id, set()) if r.kind == "memory" else source_message_ids({"sources": r.sources})) & evidence
                for r in top
            )
            budget = md_words + sum(len(words(r.statement)) for r in top)
            base = bm25_hit(ranking=ranking, turn_ids=turn_ids, turn_words=turn_words, budget=budget, evidence=evidence)
            for key in (half, "all"):
                t = tally[key]
                t[0] += 1; t[1] += hit; t[2] += base
                if category == 4:
                    t[3] += 1; t[4] += hit; t[5] += base
        rows.append((dict(zip(grid, values)), {k: v[:] for k, v in tally.items()}))

    def margin(t):  # the worse of overall and single-hop margins over BM25
        return min((t[1] - t[2]) / t[0], (t[4] - t[5]) / max(1, t[3]))

    # How good is each ranking alone? Evidence among the first 10 excerpts vs BM25's first 10 turns.
    for depth in (5, 10, 20):
        fts = sum(any(source_message_ids({"sources": [e.source("")]}) & q[2] for e in q[7][:depth]) for q in questions)
        base = sum(any(q[9][i] in q[2] for i in q[8][:depth]) for q in questions)
        single = [q for q in questions if q[1] == 4]
        fts1 = sum(any(source_message_ids({"sources": [e.source("")]}) & q[2] for e in q[7][:depth]) for q in single)
        base1 = sum(any(q[9][i] in q[2] for i in q[8][:depth]) for q in single)
        print(f"top {depth}: excerpts {fts / len(questions):.3f} (1hop {fts1 / len(single):.3f}) vs BM25 turns "
              f"{base / len(questions):.3f} (1hop {base1 / len(single):.3f})")
    rows.sort(key=lambda row: -margin(row[1]["tuning"]))
    for params, tally in rows[:25] + [row for row in rows[25:] if row[0] == current]:
        line = ("(current) " if params == current else "") + " ".join(f"{k}={v}" for k, v in params.items())
        for key in ("tuning", "checking", "all"):
            t = tally[key]
            line += (f" | {key} {t[1] / t[0]:.3f} vs {t[2] / t[0]:.3f} 1hop {t[4] / max(1, t[3]):.3f} vs {t[5] / max(1, t[3]):.3f}")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
