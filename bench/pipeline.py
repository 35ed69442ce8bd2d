"""Driving the project the way a user does: import_chats, dream, export_user, recall — all commands."""
from __future__ import annotations

import io
import json
import time
from pathlib import Path

from django.core.management import call_command


def jsonl_write(sessions: list[dict], path: Path) -> Path:
    """Sessions in the import JSONL format (keys outside the format, like a generator's `kind`, dropped)."""
    keys = {"user", "external_id", "persona", "title", "started_at", "messages"}
    with open(path, "w", encoding="utf-8") as f:
        for session in sessions:
            f.write(json.dumps({k: v for k, v in session.items() if k in keys}, ensure_ascii=False) + "\n")
    return path


def chats_import(path: Path) -> tuple[float, str]:
    """`manage.py import_chats PATH --create-user`; returns (seconds, the command's summary line)."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    call_command("import_chats", str(path), "--create-user", stdout=out, stderr=err)
    return time.perf_counter() - started, out.getvalue().strip()


def dream(*args: str) -> tuple[float, str]:
    """`manage.py dream --now ARGS…`; returns (seconds, summary line). Progress bars go nowhere."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    call_command("dream", "--now", *args, stdout=out, stderr=err)
    return time.perf_counter() - started, out.getvalue().strip()


def user_export(username: str) -> dict:
    """`manage.py export_user USERNAME` parsed back (one JSON line)."""
    out = io.StringIO()
    call_command("export_user", username, stdout=out)
    return json.loads(out.getvalue().splitlines()[0])


def exports_all() -> dict[str, dict]:
    """`manage.py export_user --all`, by username."""
    out = io.StringIO()
    call_command("export_user", "--all", stdout=out)
    exported = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return {e["user"]["username"]: e for e in exported}


def recall_json(username: str, query: str, *, k: int = 10) -> dict:
    """`manage.py recall USERNAME QUERY --k K --json`: {"memory_md", "memory_md_ids", "results"}."""
    out = io.StringIO()
    call_command("recall", username, query, "--k", str(k), "--json", stdout=out)
    return json.loads(out.getvalue())


def source_message_ids(memory: dict) -> set[str]:
    return {s["message_external_id"] for s in memory.get("sources", []) if s.get("message_external_id")}
