"""5. LoCoMo: does the context we give the chat model hold the evidence, compared with BM25 at equal size?

Each of the 4 dev conversations is imported twice, once per speaker taken as "the user" (their turns
→ role user, the other's → assistant, dia_id → message external_id, each session → one chat session
at its date), with `import_chats`; then `dream --now --backfill --user U` replays the history.
For every question of category 1–4 whose evidence includes a turn of that speaker, the context is
what the chat model would get: MEMORY.md + `recall --k 10 --json` for the question. It is a hit when
one of those memories has a source message (from `export_user`) that is an evidence turn, or one of
the recalled excerpts is an evidence turn; the note splits hits by kind (MEMORY.md, memory, excerpt).
The conversations are split in two halves by a fixed hash of their id (`conversation_half`: sha1,
last hex digit even = tuning); recall's fusion weights are tuned on the tuning half only
(bench/tune_recall_fusion.py), and both halves are reported.

Baseline: BM25 (Okapi, k1 1.2, b 0.75, lower-case words without stop words) over that speaker's raw
turns, given the same number of words as our context for that question: top-ranked turns are taken
while fewer words than ours have been taken (so BM25 may get up to one turn more). BM25 at fixed
250/500/1000 words is reported too, to compare with the dataset README's reference points.
Conversations are split by `sample_id` into a tuning and a checking part (bench/split.py); the
headline figure's "ours" is the checking part, with the tuning part beside it.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter, defaultdict
from datetime import datetime, timedelta, timezone

from bench.eval_engine import STOP_WORDS
from bench.pipeline import chats_import, dream, jsonl_write, recall_json, source_message_ids, user_export
from bench.report import Figure
from bench.split import CHECKING, PARTS, TUNING, part_of

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
FIXED_BUDGETS = (250, 500, 1000)
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


def evidence_ids(raw: list) -> set[str]:
    """Normalized dia_ids; tolerates the malformed ones ("D:11:26", "D8:6; D9:17")."""
    found = set()
    for item in raw or []:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def words(text: str) -> list[str]:
    return text.split()


def _terms(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower().replace("’", "'")) if w not in STOP_WORDS]


class BM25:
    def __init__(self, docs: list[str], *, k1: float = 1.2, b: float = 0.75):
        self.docs = [Counter(_terms(d)) for d in docs]
        self.lengths = [sum(c.values()) for c in self.docs]
        self.avg = sum(self.lengths) / max(1, len(self.lengths))
        df = Counter(t for d in self.docs for t in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b = k1, b

    def ranking(self, query: str) -> list[int]:
        terms = _terms(query)
        scores = []
        for i, doc in enumerate(self.docs):
            score = 0.0
            for t in terms:
                tf = doc.get(t, 0)
                if tf:
                    score += self.idf[t] * tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg))
            scores.append(score)
        return sorted(range(len(self.docs)), key=lambda i: (-scores[i], i))


def bm25_hit(*, ranking: list[int], turn_ids: list[str], turn_words: list[int], budget: int, evidence: set[str]) -> bool:
    taken = 0
    for i in ranking:
        if taken >= budget:
            return False
        if turn_ids[i] in evidence:
            return True
        taken += turn_words[i]
    return False


def _sessions(conversation: dict, *, speaker: str, username: str) -> tuple[list[dict], dict[str, str]]:
    conv = conversation["conversation"]
    sessions, speaker_of = [], {}
    numbers = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
    for n in numbers:
        turns = conv[f"session_{n}"]
        if not turns:
            continue
        at = datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)
        messages = []
        for j, turn in enumerate(turns):
            speaker_of[turn["dia_id"]] = turn["speaker"]
            if not (turn.get("text") or "").strip():
                continue
            messages.append({
                "role": "user" if turn["speaker"] == speaker else "assistant", "content": turn["text"],
                "created_at": (at + timedelta(seconds=30 * j)).isoformat(), "external_id": turn["dia_id"],
            })
        sessions.append({"user": username, "external_id": f"session_{n}", "started_at": messages[0]["created_at"],
                         "messages": messages})
    return sessions, speaker_of


def user_questions(conversation: dict, *, speaker: str, speaker_of: dict[str, str]):
    """The questions of categories 1–4 with evidence this speaker said, each with its evidence ids."""
    for qa in conversation["qa"]:
        if qa.get("category") not in CATEGORIES:
            continue
        evidence = evidence_ids(qa.get("evidence"))
        if any(speaker_of.get(e) == speaker for e in evidence):
            yield qa, evidence


def conversation_half(conversation: dict) -> str:
    """"tuning" or "checking", fixed by the conversation's id (sha1, last hex digit even = tuning):
    recall's fusion weights are tuned on the tuning half only; the checking half says whether they hold."""
    digest = hashlib.sha1(str(conversation.get("sample_id", "")).encode()).hexdigest()
    return "tuning" if int(digest[-1], 16) % 2 == 0 else "checking"


def users_load(ctx, conversations: list[dict], *, import_and_dream: bool = True) -> list[tuple]:
    """(username, speaker, conversation, sessions, speaker_of) per speaker view; imports and dreams them."""
    users = []
    for ci, conversation in enumerate(conversations):
        for side in ("a", "b"):
            speaker = conversation["conversation"][f"speaker_{side}"]
            username = f"locomo{ci}-{side}"
            sessions, speaker_of = _sessions(conversation, speaker=speaker, username=username)
            if import_and_dream:
                chats_import(jsonl_write(sessions, ctx.workdir / f"{username}.jsonl"))
            users.append((username, speaker, conversation, sessions, speaker_of))
    if import_and_dream:
        for username, *_ in users:
            ctx.log(f"dream --backfill --user {username}")
            dream("--backfill", "--user", username)
    return users


def run(ctx) -> list[Figure]:
    path = ctx.dataset("locomo/locomo_dev.json")
    if path is None:
        ctx.notes.append("LoCoMo: locomo/locomo_dev.json not found in the datasets folder — skipped")
        return []
    conversations = json.loads(path.read_text())
    conversations = conversations[: ctx.pick(full=len(conversations), quick=1)]
    return evaluate(ctx, users_load(ctx, conversations))


def evaluate(ctx, users: list[tuple], *, recall_context=None) -> list[Figure]:
    """The figures for already imported and dreamed users. `recall_context(username, question)` →
    the `recall --json` payload (default: the command itself)."""
    recall_context = recall_context or (lambda username, question: recall_json(username, question, k=10))
    ours_hits: dict[int, list[bool]] = defaultdict(list)
    bm25_hits: dict[int, list[bool]] = defaultdict(list)
    fixed_hits: dict[int, list[bool]] = defaultdict(list)
    # per half ("tuning" / "checking"): (category, ours, bm25) per question
    by_half: dict[str, list[tuple[int, bool, bool]]] = defaultdict(list)
    context_words, memory_counts = [], []
    parts = Counter()  # where the hits came from
    ceiling: dict[int, list[bool]] = defaultdict(list)  # per category: some active memory from an evidence turn
    by_part = {part: {"ours": [], "bm25": []} for part in PARTS}
    for username, speaker, conversation, sessions, speaker_of in users:
        exported = user_export(username)
        sources = {m["id"]: source_message_ids(m) for m in exported["memories"]}
        active_sources = set().union(*(sources[m["id"]] for m in exported["memories"] if m["status"] == "active"))
        memory_counts.append(sum(1 for m in exported["memories"] if m["status"] == "active"))
        turns = [m for s in sessions for m in s["messages"] if m["role"] == "user"]
        turn_ids = [m["external_id"] for m in turns]
        turn_words = [len(words(m["content"])) for m in turns]
        bm25 = BM25([m["content"] for m in turns])
        half = conversation_half(conversation)
        for qa, evidence in user_questions(conversation, speaker=speaker, speaker_of=speaker_of):
            question = str(qa["question"])
            context = recall_context(username, question)
            md_hit = any(sources.get(i, set()) & evidence for i in context["memory_md_ids"])
            memory_hit = any(sources.get(r["id"], set()) & evidence for r in context["results"] if r.get("kind", "memory") == "memory")
            excerpt_hit = any(source_message_ids(r) & evidence for r in context["results"] if r.get("kind") == "excerpt")
            hit = md_hit or memory_hit or excerpt_hit
            parts["memory_md"] += md_hit
            parts["memory"] += memory_hit
            parts["excerpt"] += excerpt_hit
            parts["excerpt_only"] += excerpt_hit and not (md_hit or memory_hit)
            parts["any_active_memory"] += bool(active_sources & evidence)
            category = qa["category"]
            ceiling[category].append(bool(active_sources & evidence))
            # learned but not in the context: what ranking (MEMORY.md order, recall) lost
            parts["learned_not_in_context"] += bool(active_sources & evidence) and not hit
            parts["excerpt_results"] += sum(1 for r in context["results"] if r.get("kind") == "excerpt")
            parts["memory_results"] += sum(1 for r in context["results"] if r.get("kind", "memory") == "memory")
            budget = len(words(context["memory_md"])) + sum(len(words(r["statement"])) for r in context["results"])
            ranking = bm25.ranking(question)
            bm25_hit_now = bm25_hit(ranking=ranking, turn_ids=turn_ids, turn_words=turn_words, budget=budget, evidence=evidence)
            ours_hits[category].append(hit)
            bm25_hits[category].append(bm25_hit_now)
            by_half[half].append((category, hit, bm25_hit_now))
            part = by_part[part_of(conversation["sample_id"])]
            part["ours"].append(hit)
            part["bm25"].append(bm25_hit_now)
            for size in FIXED_BUDGETS:
                fixed_hits[size].append(bm25_hit(ranking=ranking, turn_ids=turn_ids, turn_words=turn_words, budget=size, evidence=evidence))
            context_words.append(budget)

    share = lambda values: sum(values) / len(values) if values else 0.0  # noqa: E731
    all_ours = [h for v in ours_hits.values() for h in v]
    mean_words = sum(context_words) / max(1, len(context_words))
    median_words = sorted(context_words)[len(context_words) // 2] if context_words else 0
    halves = {
        half: {
            "questions": len(rows),
            "ours": share([o for _, o, _ in rows]), "bm25": share([b for _, _, b in rows]),
            "single_hop_questions": sum(1 for c, _, _ in rows if c == 4),
            "single_hop_ours": share([o for c, o, _ in rows if c == 4]),
            "single_hop_bm25": share([b for c, _, b in rows if c == 4]),
        }
        for half, rows in sorted(by_half.items())
    }
    ctx.details["locomo"] = {
        "users": len(users), "questions": len(all_ours), "mean_context_words": mean_words,
        "median_context_words": median_words,
        "active_memories_per_user": memory_counts,
        "per_category": {CATEGORIES[c]: {"questions": len(ours_hits[c]), "ours": share(ours_hits[c]), "bm25": share(bm25_hits[c]),
                                         "ceiling": share(ceiling[c])}
                         for c in sorted(ours_hits)},
        "halves": halves,
        "bm25_fixed": {str(size): share(fixed_hits[size]) for size in FIXED_BUDGETS},
        "hits_from": dict(parts),
        "by_part": {part: {"questions": len(v["ours"]), "ours": share(v["ours"]), "bm25": share(v["bm25"])}
                    for part, v in by_part.items()},
    }
    ours, base = share(by_part[CHECKING]["ours"]), share(by_part[CHECKING]["bm25"])
    figures = [Figure(
        "locomo", "LoCoMo evidence recall, MEMORY.md + recall k=10 (vs BM25, same words)", ours, base, "",
        "≥ BM25 + 0.10", ours >= base + 0.10, tuning=share(by_part[TUNING]["ours"]) if by_part[TUNING]["ours"] else None,
        note=(f"checking part {len(by_part[CHECKING]['ours'])} questions (BM25 {base:.2f}); {len(all_ours)} questions (cat. 1–4, evidence spoken by the user) over {len(users)} user views; "
              f"context {mean_words:.0f} words on average (median {median_words}); hits by kind: an evidence memory in MEMORY.md "
              f"for {parts['memory_md']} questions, a recalled memory for {parts['memory']}, a recalled excerpt for "
              f"{parts['excerpt']} ({parts['excerpt_only']} of them found only by an excerpt); recall returned "
              f"{parts['memory_results']} memories and {parts['excerpt_results']} excerpts in all; some active memory of the "
              f"user was sourced from an evidence turn for {parts['any_active_memory']} (the ceiling without excerpts; "
              f"{parts['learned_not_in_context']} of them learned but not in the context); active memories per user {memory_counts}; "
              + "; ".join(f"{half} half (sha1 of the conversation id) {h['ours']:.3f} vs BM25 {h['bm25']:.3f}, single-hop "
                          f"{h['single_hop_ours']:.3f} vs {h['single_hop_bm25']:.3f} (n={h['questions']}/{h['single_hop_questions']})"
                          for half, h in halves.items())
              + "; BM25 at fixed " + ", ".join(f"{size} words {share(fixed_hits[size]):.2f}" for size in FIXED_BUDGETS)
              + " (README reference: 0.61 / 0.69 / 0.75)"),
    )]
    for half, h in halves.items():
        figures.append(Figure("locomo", f"LoCoMo {half} half (n={h['questions']})", h["ours"], h["bm25"], "",
                              "≥ BM25 + 0.10", h["ours"] >= h["bm25"] + 0.10))
    for category in sorted(ours_hits):
        figures.append(Figure(
            "locomo", f"LoCoMo {CATEGORIES[category]} (cat. {category}, n={len(ours_hits[category])})",
            share(ours_hits[category]), share(bm25_hits[category]), "",
            *(("≥ BM25 + 0.10", share(ours_hits[category]) >= share(bm25_hits[category]) + 0.10) if category == 4 else ()),
        ))
    return figures
