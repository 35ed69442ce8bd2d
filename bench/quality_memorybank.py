"""8. MemoryBank (Chinese): hobby coverage after real dreaming.

Each of the 7 users' history is imported (one chat session per date; `query` → user, `response` →
assistant) with `import_chats` and dreamed with `dream --now --backfill --user U`. Coverage: the
share of the comma-separated hobbies that appear (substring after dreaming.engine.quotes.normalize_for_match)
in some memory statement of that user (`export_user`; active memories). Baseline: the same test on the
user's raw messages — how many hobbies the user ever names literally (the ceiling for substring match).
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from bench.pipeline import chats_import, dream, jsonl_write, user_export
from bench.report import Figure
from dreaming.engine.quotes import normalize_for_match


def person_sessions(*, username: str, person: dict) -> list[dict]:
    """One chat session per day of the person's history: their queries as the user's turns, a minute apart."""
    sessions = []
    for day, exchanges in sorted(person["history"].items()):
        at = datetime.fromisoformat(day).replace(hour=20, tzinfo=timezone.utc)
        messages = []
        for j, x in enumerate(exchanges):
            for role, text in (("user", x.get("query")), ("assistant", x.get("response"))):
                if text and text.strip():
                    messages.append({"role": role, "content": text, "external_id": f"{day}-{j}-{role[0]}",
                                     "created_at": (at + timedelta(seconds=60 * j + (role == "assistant"))).isoformat()})
        if messages:
            sessions.append({"user": username, "external_id": day, "started_at": messages[0]["created_at"], "messages": messages})
    return sessions


def run(ctx) -> list[Figure]:
    path = ctx.dataset("memorybank_cn/memory_bank_cn_dev.json")
    if path is None:
        ctx.notes.append("MemoryBank: memorybank_cn/memory_bank_cn_dev.json not found in the datasets folder — skipped")
        return []
    data = json.loads(path.read_text())
    users = []
    sessions = []
    for i, (name, person) in enumerate(data.items()):
        username = f"memorybank{i}"
        users.append((username, name, person))
        sessions.extend(person_sessions(username=username, person=person))
    chats_import(jsonl_write(sessions, ctx.workdir / "memorybank.jsonl"))
    total = found = found_pending = raw_found = 0
    missing: dict[str, list[str]] = {}
    for username, name, person in users:
        dream("--backfill", "--user", username)
        exported = user_export(username)
        statements = [normalize_for_match(m["statement"]) for m in exported["memories"] if m["status"] == "active"]
        pending = [normalize_for_match(c["statement"]) for c in exported["candidates"] if c["status"] == "pending"]
        raw = [normalize_for_match(m["content"]) for s in exported["sessions"] for m in s["messages"] if m["role"] == "user"]
        hobbies = [h.strip() for h in re.split(r"[，,、]", person["meta_information"]["hobbies"]) if h.strip()]
        for hobby in hobbies:
            key = normalize_for_match(hobby)
            total += 1
            hit = any(key in s for s in statements)
            found += hit
            found_pending += hit or any(key in s for s in pending)
            raw_found += any(key in s for s in raw)
            if not hit:
                missing.setdefault(name, []).append(hobby)
    coverage = found / total if total else 0.0
    ceiling = raw_found / total if total else 0.0
    ctx.details["memorybank"] = {"users": len(users), "hobbies": total, "coverage": coverage,
                                 "coverage_with_pending": found_pending / total if total else 0.0,
                                 "raw_mention_ceiling": ceiling, "missing": missing}
    return [Figure(
        "memorybank", "MemoryBank hobby coverage in memories (vs named in raw messages)", coverage, ceiling, "", "≥ 0.80",
        coverage >= 0.80,
        note=(f"{len(users)} users, {total} hobbies; with pending candidates {found_pending / total if total else 0:.2f}; "
              "missing: " + "; ".join(f"{n}: {', '.join(h)}" for n, h in missing.items())),
    )]
