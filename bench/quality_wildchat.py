"""7. WildChat triage and the facts users state about themselves, on real conversations after real dreaming.

Every hand-labelled conversation (dev + extra files, 363) is imported as one session (user
`wildchat`) with `import_chats` and dreamed with `dream --now --backfill --user wildchat`; the
decision is read from ChatSession.triage_kind. Skip = coding, document, translation, roleplay;
keep = personal, task. Baseline: keeping everything (what a memory system without triage does).

User facts kept: each labelled fact the user states about themself comes with its verbatim quote; it
is kept when a verified candidate (any status) or a memory is sourced from the user turn that holds
the quote — whatever the session's triage kind (a coding session is skipped as a task, but "I run an
Etsy shop" said in it is still the user's fact).

Every figure is given for the checking part (the table's "ours") and the tuning part (bench/split.py).
"""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone

from bench.pipeline import chats_import, dream, jsonl_write, user_export
from bench.report import Figure
from bench.split import CHECKING, PARTS, TUNING, part_of
from chat.models import ChatSession
from dreaming.engine.sensitive import sensitive_category

SKIP = {"coding", "document", "translation", "roleplay"}


def labelled_conversations(folder) -> list[tuple[dict, dict]]:
    """(conversation, label) for the dev and extra files, in file order."""
    pairs = []
    for stem in ("dev", "extra"):
        labels_path, convs_path = folder / f"triage_labels_{stem}.json", folder / f"wildchat_{stem}.jsonl"
        if not labels_path.exists() or not convs_path.exists():
            continue
        labels = {x["id"]: x for x in json.loads(labels_path.read_text())}
        pairs += [(conv, labels[conv["id"]]) for conv in map(json.loads, convs_path.read_text().splitlines()) if conv]
    return pairs


def _sample(pairs, size: int):
    """Up to `size` conversations, half from each part (file order), for the quick and smoke sizes."""
    if size >= len(pairs):
        return pairs
    return [p for part in PARTS for p in [q for q in pairs if part_of(q[0]["id"]) == part][: max(1, size // 2)]]


def run(ctx) -> list[Figure]:
    folder = ctx.dataset("wildchat_triage")
    if folder is None or not (folder / "wildchat_dev.jsonl").exists():
        ctx.notes.append("WildChat: wildchat_triage/ not found in the datasets folder — skipped")
        return []
    pairs = labelled_conversations(folder)
    pairs = _sample(pairs, ctx.pick(full=len(pairs), quick=60, smoke=4))
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    sessions = []
    for i, (conv, _) in enumerate(pairs):
        at = start + timedelta(hours=i)
        messages = [{"role": m["role"] if m["role"] in ("user", "assistant", "system") else "user", "content": m["content"],
                     "created_at": (at + timedelta(seconds=30 * j)).isoformat(), "external_id": f"m{j}"}
                    for j, m in enumerate(conv["messages"]) if (m.get("content") or "").strip()]
        sessions.append({"user": "wildchat", "external_id": str(conv["id"]), "started_at": messages[0]["created_at"],
                         "messages": messages})
    chats_import(jsonl_write(sessions, ctx.workdir / "wildchat.jsonl"))
    dream("--backfill", "--user", "wildchat")
    decided = dict(ChatSession.objects.filter(user__username="wildchat").values_list("external_id", "triage_kind"))
    reached = _sourced_turns(user_export("wildchat"))

    stats = {part: Counter() for part in PARTS}
    confusion = {part: Counter() for part in PARTS}
    errors, facts_missed = [], []
    for conv, label in pairs:
        part, gold = part_of(conv["id"]), label["kind"]
        predicted = decided.get(str(conv["id"])) or "none"
        s = stats[part]
        confusion[part][(gold, predicted)] += 1
        s["total"] += 1
        s["correct"] += (predicted in SKIP) == (gold in SKIP)
        s["kept_gold"] += gold not in SKIP
        if gold == "personal":
            s["personal"] += 1
            s["personal_kept"] += predicted not in SKIP
        if (predicted in SKIP) != (gold in SKIP):
            errors.append({"id": conv["id"], "part": part, "gold": gold, "predicted": predicted})
        for fact in label.get("user_facts") or []:
            turn = _turn_with_quote(conv, fact["quote"])
            s["facts"] += 1
            hit = turn is not None and (str(conv["id"]), turn) in reached
            s["facts_kept"] += hit
            if not hit:
                sensitive = sensitive_category(fact["quote"]) or ""
                s["facts_missed_sensitive"] += bool(sensitive)
                facts_missed.append({"id": conv["id"], "part": part, "kind": gold, "fact": fact["fact"], "sensitive": sensitive})

    ratio = lambda part, num, den, empty=0.0: stats[part][num] / stats[part][den] if stats[part][den] else empty  # noqa: E731
    accuracy = {p: ratio(p, "correct", "total") for p in PARTS}
    keep_all = {p: ratio(p, "kept_gold", "total") for p in PARTS}
    personal = {p: ratio(p, "personal_kept", "personal", 1.0) for p in PARTS}
    facts = {p: ratio(p, "facts_kept", "facts") for p in PARTS}
    ctx.details["wildchat"] = {
        "conversations": {p: stats[p]["total"] for p in PARTS}, "accuracy": accuracy, "personal_kept": personal,
        "user_facts_kept": facts, "user_facts": {p: stats[p]["facts"] for p in PARTS},
        "confusion": {p: matrix_of(confusion[p]) for p in PARTS}, "errors": errors, "facts_missed": facts_missed,
    }
    for part in PARTS:
        ctx.sections.append((f"WildChat triage, {part} part: hand label vs triage_kind ({stats[part]['total']} conversations)",
                             matrix_markdown(matrix_of(confusion[part]))))
    c, t = stats[CHECKING], stats[TUNING]
    misses = [e for e in errors if e["part"] == CHECKING]
    return [
        Figure("wildchat", "WildChat skip-decision accuracy (vs keep-everything)", accuracy[CHECKING], keep_all[CHECKING], "",
               "≥ 0.92", accuracy[CHECKING] >= 0.92, tuning=accuracy[TUNING],
               note=(f"checking part {c['total']} conversations, tuning part {t['total']}; checking misses: "
                     + (", ".join(f"{e['gold']}→{e['predicted']}" for e in misses) or "none"))),
        Figure("wildchat", "WildChat personal conversations kept", personal[CHECKING], 1.0, "", "= 1.0",
               c["personal_kept"] == c["personal"], tuning=personal[TUNING],
               note=f"checking {c['personal_kept']}/{c['personal']} kept, tuning {t['personal_kept']}/{t['personal']}"),
        Figure("wildchat", "WildChat facts users state about themselves that reach a candidate or memory", facts[CHECKING],
               None, "", "≥ 0.70", facts[CHECKING] >= 0.70, tuning=facts[TUNING],
               note=(f"hand-labelled facts with a quote: checking {c['facts_kept']}/{c['facts']}, tuning "
                     f"{t['facts_kept']}/{t['facts']} (of the missed, held back by design as sensitive: checking "
                     f"{c['facts_missed_sensitive']}, tuning {t['facts_missed_sensitive']}); kept = a verified candidate or a memory sourced from the user turn "
                     "holding the quote, whatever the session's triage kind")),
    ]


def _turn_with_quote(conv: dict, quote: str) -> str | None:
    """The external id ("m<j>") of the first user turn that holds the quote verbatim."""
    for j, m in enumerate(conv["messages"]):
        if m["role"] == "user" and quote and quote in (m.get("content") or ""):
            return f"m{j}"
    return None


def _sourced_turns(exported: dict) -> set[tuple[str, str]]:
    """(session external id, message external id) of every verified candidate and every memory source."""
    items = [source for memory in exported["memories"] for source in memory.get("sources", [])]
    items += [c for c in exported["candidates"] if c["status"] != "rejected_unverified"]
    return {(str(i["session_external_id"]), i["message_external_id"]) for i in items if i.get("message_external_id")}


def matrix_of(confusion: Counter) -> dict:
    golds = sorted({g for g, _ in confusion})
    predicted = sorted({p for _, p in confusion})
    return {"columns": predicted, "rows": {g: [confusion[(g, p)] for p in predicted] for g in golds}}


def matrix_markdown(matrix: dict) -> str:
    head = "| gold \\ predicted | " + " | ".join(matrix["columns"]) + " |"
    rule = "|---" * (len(matrix["columns"]) + 1) + "|"
    rows = [f"| {g} | " + " | ".join(str(n) for n in counts) + " |" for g, counts in matrix["rows"].items()]
    return "\n".join([head, rule, *rows])
