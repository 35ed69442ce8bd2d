"""7. WildChat triage on real conversations, after real dreaming.

Each of the 64 hand-labelled dev conversations is imported as one session (user `wildchat`) with
`import_chats` and dreamed with `dream --now --backfill --user wildchat`; the decision is read from
ChatSession.triage_kind. Skip = coding, document, translation, roleplay; keep = personal, task.
Baseline: keeping everything (what a memory system without triage does).
"""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone

from bench.pipeline import chats_import, dream, jsonl_write
from bench.report import Figure
from chat.models import ChatSession

SKIP = {"coding", "document", "translation", "roleplay"}


def run(ctx) -> list[Figure]:
    folder = ctx.dataset("wildchat_triage")
    if folder is None or not (folder / "wildchat_dev.jsonl").exists():
        ctx.notes.append("WildChat: wildchat_triage/ not found in the datasets folder — skipped")
        return []
    labels = {x["id"]: x["kind"] for x in json.loads((folder / "triage_labels_dev.json").read_text())}
    conversations = [json.loads(line) for line in (folder / "wildchat_dev.jsonl").read_text().splitlines() if line.strip()]
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    sessions = []
    for i, conv in enumerate(conversations):
        at = start + timedelta(hours=i)
        messages = [{"role": m["role"] if m["role"] in ("user", "assistant", "system") else "user", "content": m["content"],
                     "created_at": (at + timedelta(seconds=30 * j)).isoformat(), "external_id": f"m{j}"}
                    for j, m in enumerate(conv["messages"]) if (m.get("content") or "").strip()]
        sessions.append({"user": "wildchat", "external_id": str(conv["id"]), "started_at": messages[0]["created_at"],
                         "messages": messages})
    chats_import(jsonl_write(sessions, ctx.workdir / "wildchat.jsonl"))
    dream("--backfill", "--user", "wildchat")
    decided = dict(ChatSession.objects.filter(user__username="wildchat").values_list("external_id", "triage_kind"))
    confusion: Counter = Counter()
    correct = personal = personal_kept = 0
    errors = []
    for conv in conversations:
        gold, predicted = labels[conv["id"]], decided.get(str(conv["id"])) or "none"
        confusion[(gold, predicted)] += 1
        correct += (predicted in SKIP) == (gold in SKIP)
        if gold == "personal":
            personal += 1
            personal_kept += predicted not in SKIP
        if (predicted in SKIP) != (gold in SKIP):
            errors.append({"id": conv["id"], "gold": gold, "predicted": predicted})
    total = len(conversations)
    keep_all = sum(1 for conv in conversations if labels[conv["id"]] not in SKIP) / total
    accuracy = correct / total
    matrix = matrix_of(confusion)
    ctx.details["wildchat"] = {"conversations": total, "accuracy": accuracy, "confusion": matrix, "errors": errors}
    ctx.sections.append((f"WildChat triage: hand label vs triage_kind ({total} conversations)", matrix_markdown(matrix)))
    return [
        Figure("wildchat", "WildChat skip-decision accuracy (vs keep-everything)", accuracy, keep_all, "", "≥ 0.92",
               accuracy >= 0.92, note=f"{total} conversations; misses: " + (", ".join(f"{e['gold']}→{e['predicted']}" for e in errors) or "none")),
        Figure("wildchat", "WildChat personal conversations kept", personal_kept / personal if personal else 1.0, 1.0, "",
               "= 1.0", personal_kept == personal, note=f"{personal_kept}/{personal} kept"),
    ]


def matrix_of(confusion: Counter) -> dict:
    golds = sorted({g for g, _ in confusion})
    predicted = sorted({p for _, p in confusion})
    return {"columns": predicted, "rows": {g: [confusion[(g, p)] for p in predicted] for g in golds}}


def matrix_markdown(matrix: dict) -> str:
    head = "| gold \\ predicted | " + " | ".join(matrix["columns"]) + " |"
    rule = "|---" * (len(matrix["columns"]) + 1) + "|"
    rows = [f"| {g} | " + " | ".join(str(n) for n in counts) + " |" for g, counts in matrix["rows"].items()]
    return "\n".join([head, rule, *rows])
