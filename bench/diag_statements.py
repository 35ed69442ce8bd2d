"""How many active memories say nothing on their own (a diagnostic, not a benchmark figure).

    python -m bench.diag_statements --datasets ../shared/datasets               # import + dream, minutes
    python -m bench.diag_statements --datasets ../shared/datasets --dump F.json # also keep the statements
    python -m bench.diag_statements --from F.json                               # re-judge kept statements

LoCoMo (both speakers of every conversation), MSC and MemoryBank are imported and dreamed (`dream --backfill`,
local engine) on a database of its own (MEMCENTER_TEST_DB), as the quality benches do. Every *active* memory's
statement is then judged twice:

- `product`: dreaming.memory.scoring.vague_reason — the very check deep sleep uses to dismiss a candidate;
- `regex`: an independent, deliberately simple count (a bare pronoun as the last word, a capitalised name or
  "btw" after the last comma, an interjection after "User has", a Chinese statement ending in a bare pronoun),
  so the figure is not only graded by the rule that produced it.

`--from` re-reads statements dumped by an earlier run (e.g. before a change) with today's check, so a before /
after table can use one check for both columns.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

# The independent count: a few shapes any reader would call "says nothing on its own".
_REGEX_CHECKS = [
    ("pronoun at the end", re.compile(r"\b(?:it|that|this|them|these|those|one)\W*$", re.I)),
    ("name or btw after a comma", re.compile(r",\s*(?:btw|[A-Z][a-z]+)\W*$")),
    ("interjection as object", re.compile(r"^User (?:has|is|does) (?:[A-Z][a-z]+!?,|have fun|woo+hoo|wow|yay|haha)", re.I)),
    ("zh pronoun at the end", re.compile(r"^用户.*(?:这个|那个|它|他们|这些|那些)[了啊呀吧！!。~]*$")),
]


def regex_reason(statement: str) -> str | None:
    for name, pattern in _REGEX_CHECKS:
        if pattern.search(statement.strip()):
            return name
    return None


def _locomo_sessions(datasets: Path) -> dict[str, list[dict]]:
    from bench.quality_locomo import _sessions

    conversations = json.loads((datasets / "locomo" / "locomo_dev.json").read_text())
    by_user = {}
    for ci, conversation in enumerate(conversations):
        for side in ("a", "b"):
            username = f"locomo{ci}-{side}"
            by_user[username] = _sessions(conversation, speaker=conversation["conversation"][f"speaker_{side}"],
                                          username=username)[0]
    return by_user


def _msc_sessions(datasets: Path) -> dict[str, list[dict]]:
    """The same users and sessions as bench/quality_msc.py."""
    path = datasets / "msc" / "msc_personasummary_s1_dev.jsonl"
    dialogues = [json.loads(line)["dialog"] for line in path.read_text().splitlines() if line.strip()]
    start = datetime(2026, 2, 2, 10, 0, tzinfo=timezone.utc)
    by_user = {}
    for i, dialog in enumerate(dialogues):
        at = start + timedelta(minutes=10 * i)
        messages = [{"role": "user" if t["id"] == "bot_0" else "assistant", "content": t["text"],
                     "created_at": (at + timedelta(seconds=20 * j)).isoformat(), "external_id": f"t{j}"}
                    for j, t in enumerate(dialog) if t["text"].strip()]
        by_user[f"msc{i}"] = [{"user": f"msc{i}", "external_id": "dialogue", "started_at": messages[0]["created_at"],
                               "messages": messages}]
    return by_user


def _memorybank_sessions(datasets: Path) -> dict[str, list[dict]]:
    """The same users and sessions as bench/quality_memorybank.py."""
    data = json.loads((datasets / "memorybank_cn" / "memory_bank_cn_dev.json").read_text())
    from bench.quality_memorybank import person_sessions

    by_user: dict[str, list[dict]] = {}
    for i, (_, person) in enumerate(data.items()):
        sessions = person_sessions(username=f"memorybank{i}", person=person)
        if sessions:
            by_user[f"memorybank{i}"] = sessions
    return by_user


DATASETS = {"locomo": _locomo_sessions, "msc": _msc_sessions, "memorybank": _memorybank_sessions}


def dream_all(datasets: Path, *, only: list[str]) -> dict[str, list[dict]]:
    """{dataset: [{"user", "statement", "quote"}]} for every active memory, after import + dream on a fresh database."""
    from bench.runner import django_setup

    os.environ.setdefault("MEMCENTER_TEST_DB", "diag_statements")
    django_setup()
    from django.db import connection

    from bench.pipeline import chats_import, dream, jsonl_write

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    result: dict[str, list[dict]] = {}
    try:
        from dreaming.models import Memory

        with tempfile.TemporaryDirectory(prefix="diag-statements-") as tmp:
            for name in only:
                by_user = DATASETS[name](datasets)
                sessions = [s for user_sessions in by_user.values() for s in user_sessions]
                chats_import(jsonl_write(sessions, Path(tmp) / f"{name}.jsonl"))
                for username in by_user:
                    print(f"  dream --backfill --user {username}", file=sys.stderr, flush=True)
                    dream("--backfill", "--user", username)
                rows = Memory.objects.filter(user__username__in=list(by_user), status="active").order_by("user__username", "id")
                result[name] = [{"user": m.user.username, "statement": m.statement,
                                 "quotes": [s.quote for s in m.sources.all()]}
                                for m in rows.select_related("user").prefetch_related("sources")]
    finally:
        from dreaming.memory.context_cache import memory_md_cache_stop

        memory_md_cache_stop()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return result


def report(memories: dict[str, list[dict]], *, examples: int) -> dict:
    from dreaming.memory.scoring import vague_reason

    counts = {}
    print(f"{'dataset':11} {'active':>7} {'product':>8} {'regex':>6} {'either':>7}")
    for name, rows in memories.items():
        product = [(r, vague_reason(r["statement"])) for r in rows]
        regex = [(r, regex_reason(r["statement"])) for r in rows]
        bad_p = [(r, why) for r, why in product if why]
        bad_r = [(r, why) for r, why in regex if why]
        either = {r["statement"] + r["user"] for r, _ in bad_p} | {r["statement"] + r["user"] for r, _ in bad_r}
        counts[name] = {"active": len(rows), "product": len(bad_p), "regex": len(bad_r), "either": len(either)}
        print(f"{name:11} {len(rows):7d} {len(bad_p):8d} {len(bad_r):6d} {len(either):7d}")
    for name, rows in memories.items():
        flagged = [(r, vague_reason(r["statement"]), regex_reason(r["statement"])) for r in rows]
        flagged = [f for f in flagged if f[1] or f[2]]
        if not flagged:
            continue
        print(f"\n{name}: {len(flagged)} flagged (product / regex):")
        by_reason = Counter((f[1] or "-").split("'")[0] + " / " + (f[2] or "-") for f in flagged)
        for reason, n in by_reason.most_common():
            print(f"  {n:4d}  {reason}")
        for r, p, x in flagged[:examples]:
            print(f"    {r['user']}: {r['statement']!r}  [{p or '-'} | {x or '-'}]")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.diag_statements", description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="../shared/datasets", help="folder with locomo/, msc/, memorybank_cn/")
    parser.add_argument("--only", default="locomo,msc,memorybank", help="comma-separated datasets")
    parser.add_argument("--dump", help="write the active statements to this JSON file")
    parser.add_argument("--from", dest="source", help="judge statements dumped by an earlier run; dream nothing")
    parser.add_argument("--examples", type=int, default=40, help="flagged statements shown per dataset")
    parser.add_argument("--json", help="also write the counts to this file")
    args = parser.parse_args(argv)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in only if name not in DATASETS]
    if unknown:
        parser.error(f"unknown dataset(s): {', '.join(unknown)} (known: {', '.join(DATASETS)})")
    if args.source:
        if not Path(args.source).is_file():
            parser.error(f"no such file: {args.source}")
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
        import django

        django.setup()
        memories = {k: v for k, v in json.loads(Path(args.source).read_text()).items() if k in only}
    else:
        datasets = Path(args.datasets)
        if not datasets.is_dir():
            parser.error(f"datasets folder not found: {datasets}")
        memories = dream_all(datasets, only=only)
    if args.dump:
        Path(args.dump).write_text(json.dumps(memories, ensure_ascii=False, indent=1))
    counts = report(memories, examples=args.examples)
    if args.json:
        Path(args.json).write_text(json.dumps(counts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
