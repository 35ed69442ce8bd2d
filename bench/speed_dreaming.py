"""2. Dreaming throughput, and the import rate (4.) on the same sessions.

Local engine: 5,782 synthetic sessions (bench/synth.py: mixed kinds, EN + ZH, 4–30 turns) are
imported with `import_chats`, then `dream --now --phase light` and `--phase deep` run on them in a
process of their own (bench/dream_process.py), whose peak RSS is reported with the SQL statements
each phase sent per session; `--profile` adds a cProfile summary of each phase to the report.
Baseline: the rules engine alone on a sample of the same sessions (triage + extract in memory, no
database), i.e. what the pipeline around the engine costs.

Fake OpenAI: a subset (other users) is dreamed with the remote dreamer against the in-process fake
server, one `light_sleep_sweep(session_ids=[pk])` per session so each DreamRun's LLMCall rows belong to
exactly one session. Counted per session: LLM calls (LLMCall rows, one per session read: its kind and
its candidates), their tokens and the prompt characters sent; sessions are grouped by what happened
(kept / skipped by the free rule pre-check / skipped by the model). mem0's 10-message cost
conversation (datasets/peers) is dreamed the same way and set beside mem0 2.2.1's figures.
"""
from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict

from django.contrib.auth import get_user_model
from django.db.models import Sum

from bench.dream_process import dream_subprocess
from bench.fake_llm import fake_openai_backend
from bench.pipeline import chats_import, jsonl_write
from bench.report import Figure
from bench.synth import generate_sessions
from chat.models import ChatSession, Message
from dreaming.pipeline.deep import deep_sleep_all
from dreaming.providers.local import LocalDreamer
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import LLMCall
from dreaming.protocol import Turn

FULL_SESSIONS = 5782
SKIP_KINDS = {"document", "coding", "translation", "roleplay"}


def _engine_only_rate(sessions: list[dict]) -> float:
    engine = LocalDreamer()
    started = time.perf_counter()
    for session in sessions:
        turns = [Turn(seq=i + 1, role=m["role"], content=m["content"]) for i, m in enumerate(session["messages"])]
        engine.read_session(turns=turns)
    return len(sessions) / (time.perf_counter() - started)


class _Rollback(Exception):
    pass


def _insert_floor(sessions: list[dict]) -> float:
    """Messages/s of a bare bulk insert of the same data (the floor under any import), rolled back."""
    from datetime import datetime

    from django.db import transaction

    user = get_user_model()(username="bench-floor")
    started = time.perf_counter()
    try:
        with transaction.atomic():
            user.save()
            rows = []
            for s in sessions:
                at = datetime.fromisoformat(s["started_at"])
                rows.append(ChatSession(user=user, external_id="floor-" + s["external_id"], source="import", started_at=at, last_active_at=at))
            created = ChatSession.objects.bulk_create(rows, batch_size=1000)
            Message.objects.bulk_create(
                [Message(session=c, seq=j + 1, role=m["role"], content=m["content"], external_id=m["external_id"],
                         created_at=datetime.fromisoformat(m["created_at"]))
                 for c, s in zip(created, sessions) for j, m in enumerate(s["messages"])],
                batch_size=2000,
            )
            elapsed = time.perf_counter() - started
            raise _Rollback
    except _Rollback:
        pass
    return sum(len(s["messages"]) for s in sessions) / elapsed


def _triage_breakdown(*, sessions: list[dict], prefix_user: str) -> tuple[Counter, dict]:
    kind_of = {s["external_id"]: s["kind"] for s in sessions}
    confusion: Counter = Counter()
    for external_id, triage_kind in ChatSession.objects.filter(
        user__username__startswith=prefix_user, external_id__in=list(kind_of)
    ).values_list("external_id", "triage_kind"):
        confusion[(kind_of[external_id], triage_kind or "none")] += 1
    by_kind: dict[str, dict] = defaultdict(lambda: {"sessions": 0, "skipped": 0})
    for (kind, predicted), n in confusion.items():
        by_kind[kind]["sessions"] += n
        by_kind[kind]["skipped"] += n if predicted in SKIP_KINDS else 0
    return confusion, dict(by_kind)


def run(ctx) -> list[Figure]:
    figures: list[Figure] = []
    count = ctx.pick(full=FULL_SESSIONS, quick=600, smoke=20)
    sessions = generate_sessions(count=count, users=50, seed=7)
    path = jsonl_write(sessions, ctx.workdir / "dreaming.jsonl")
    messages = sum(len(s["messages"]) for s in sessions)
    ctx.log(f"importing {count} sessions ({messages} messages)")
    import_seconds, import_summary = chats_import(path)
    ctx.log(import_summary)
    floor = _insert_floor(sessions[: min(len(sessions), 1000)])
    figures.append(Figure(
        "dreaming", "Import rate (import_chats; vs bare bulk insert)", messages / import_seconds, floor, "messages/s",
        ratio=(messages / import_seconds) / floor,
        note=(f"{count} sessions, {messages} messages in {import_seconds:.1f} s ({count / import_seconds:.0f} sessions/s); "
              "baseline = ORM bulk_create of the sessions and messages of a 1,000-session sample, no parsing, "
              "validation or idempotency checks (rolled back)"),
    ))

    figures += _dreaming_local(ctx, sessions)

    confusion, by_kind = _triage_breakdown(sessions=sessions, prefix_user="bench")
    skip_total = sum(v["sessions"] for k, v in by_kind.items() if k in SKIP_KINDS)
    skip_hit = sum(v["skipped"] for k, v in by_kind.items() if k in SKIP_KINDS)
    keep_total = sum(v["sessions"] for k, v in by_kind.items() if k not in SKIP_KINDS)
    keep_lost = sum(v["skipped"] for k, v in by_kind.items() if k not in SKIP_KINDS)
    ctx.details["dreaming_triage"] = {
        "by_generated_kind": by_kind,
        "confusion": {f"{g}->{p}": n for (g, p), n in sorted(confusion.items())},
    }
    from bench.quality_wildchat import matrix_markdown, matrix_of

    ctx.sections.append((
        f"Synthetic sessions: generator's kind vs triage ({count} sessions, local engine)",
        matrix_markdown(matrix_of(confusion)),
    ))
    figures.append(Figure(
        "dreaming", "Synthetic triage: skip-kind sessions skipped", skip_hit / skip_total if skip_total else 0.0, None, "",
        note="per generated kind (skipped/sessions): " + ", ".join(
            f"{k} {v['skipped']}/{v['sessions']}" for k, v in sorted(by_kind.items())),
    ))
    figures.append(Figure(
        "dreaming", "Synthetic triage: personal + task sessions kept", 1 - keep_lost / keep_total if keep_total else 1.0,
        None, "", "= 1.0", keep_lost == 0,
    ))
    figures += _fake_openai(ctx)
    return figures


def _dreaming_local(ctx, sessions: list[dict]) -> list[Figure]:
    """Light then deep sleep with the local engine, in a `dream` process of their own (its peak RSS)."""
    count = len(sessions)
    ctx.log("light + deep sleep (local engine), in a process of their own")
    dreamed = dream_subprocess("light", "deep", profile=30 if ctx.profile else 0)
    light, deep = dreamed.seconds("light"), dreamed.seconds("deep")
    for phase in ("light", "deep"):
        ctx.log(dreamed.summary(phase))
    total = light + deep
    sample = sessions[: min(len(sessions), 1000)]
    engine_rate = _engine_only_rate(sample)
    per_session = {phase: dreamed.statements(phase) / count for phase in ("light", "deep")}
    ctx.details["dreaming_statements"] = {phase: dreamed.phases[phase]["statements"] for phase in ("light", "deep")}
    if ctx.profile:
        for phase in ("light", "deep"):
            ctx.sections.append((f"Profile of {phase} sleep ({count} sessions, cProfile, top 30 by cumulative time)",
                                 "```\n" + dreamed.phases[phase]["profile"].strip() + "\n```"))
    figures = [
        Figure(
            "dreaming", "Dreaming throughput, light + deep (local engine)", count / total, engine_rate, "sessions/s",
            ratio=(count / total) / engine_rate,
            note=(f"{count} sessions of 50 users: light {light:.1f} s, deep {deep:.1f} s, total {total:.1f} s; "
                  f"SQL statements per session: light {per_session['light']:.2f}, deep {per_session['deep']:.2f}; "
                  f"baseline = the rules engine alone (triage + extract in memory, {len(sample)}-session sample)"),
        ),
        Figure("dreaming", "Dreaming total time for the sessions (local engine)", total, None, "s",
               note=f"light: {dreamed.summary('light')} | deep: {dreamed.summary('deep')}"),
    ]
    if dreamed.peak_rss_mb is not None:
        figures.insert(1, Figure(
            "dreaming", "Dreaming process peak RSS, light + deep (local engine)", dreamed.peak_rss_mb, None, "MB",
            "≤ 300 MB", dreamed.peak_rss_mb <= 300,
            note=f"{count} sessions; ru_maxrss of the `dream` child process (Django, engine and data included)",
        ))
    return figures


MEM0_CHARS = {"one batched add()": 34_859, "one add() per user turn": 173_708}  # datasets/peers/README.md
MEM0_TARGET_CHARS = 6_000


def _prompt_chars(requests) -> int:
    return sum(len(m.get("content") or "") for r in requests for m in r.messages)


def _light_one(fake, pk: int) -> dict:
    """Light sleep on one session against the fake server: its LLM calls by task, tokens, prompt characters."""
    before = len(fake.chat_requests)
    run = light_sleep_sweep(session_ids=[pk], batch_size=1)
    calls = Counter(LLMCall.objects.filter(run=run).exclude(task="embed").values_list("task", flat=True))
    tokens = LLMCall.objects.filter(run=run).exclude(task="embed").aggregate(p=Sum("prompt_tokens"), c=Sum("completion_tokens"))
    return {"calls": sum(calls.values()), "by_task": dict(calls), "tokens": (tokens["p"] or 0) + (tokens["c"] or 0),
            "chars": _prompt_chars(fake.chat_requests[before:])}


def _fake_openai(ctx) -> list[Figure]:
    count = ctx.pick(full=300, quick=60, smoke=6)
    sessions = generate_sessions(count=count, users=10, seed=21)
    for s in sessions:
        s["user"] = s["user"].replace("bench", "benchllm")
        s["external_id"] = s["external_id"].replace("bench-", "benchllm-")
    chats_import(jsonl_write(sessions, ctx.workdir / "fake_llm.jsonl"))
    kind_of = {s["external_id"]: s["kind"] for s in sessions}
    pks = list(ChatSession.objects.filter(user__username__startswith="benchllm").values_list("pk", "external_id"))
    groups: dict[str, list[dict]] = defaultdict(list)
    ctx.log(f"light sleep with the fake OpenAI server, {len(pks)} sessions one by one")
    # One log line per run is for the workers' logs (the `dream` command quiets it the same way).
    logging.getLogger("dreaming.pipeline.runs").setLevel(logging.WARNING)
    with fake_openai_backend() as fake:
        for pk, external_id in pks:
            row = _light_one(fake, pk)
            session = ChatSession.objects.get(pk=pk)
            if not session.skipped:
                group = "kept"
            elif session.triage_reason.startswith("rule pre-check"):
                group = "rule-skipped"
            else:
                group = "model-skipped"
            groups[group].append({**row, "kind": kind_of[external_id]})
        users = list(get_user_model().objects.filter(username__startswith="benchllm"))
        deep_run = deep_sleep_all(users=users)
        http_requests = len(fake.chat_requests)
        mem0 = _mem0_conversation(ctx, fake)
    kept, rule, model = groups["kept"], groups["rule-skipped"], groups["model-skipped"]
    mean = lambda rows, key: sum(r[key] for r in rows) / len(rows) if rows else 0.0  # noqa: E731
    all_rows = kept + rule + model
    ctx.details["fake_openai"] = {
        "sessions": len(all_rows), "kept": len(kept), "rule_skipped": len(rule), "model_skipped": len(model),
        "kept_calls": mean(kept, "calls"), "kept_prompt_chars": mean(kept, "chars"), "kept_tokens": mean(kept, "tokens"),
        "rule_skipped_calls": mean(rule, "calls"),
        "rule_skipped_kinds": dict(Counter(r["kind"] for r in rule)),
        "model_skipped_kinds": dict(Counter(r["kind"] for r in model)),
        "deep_sleep": {"users": len(users), "llm_calls": deep_run.llm_calls,
                       "tokens": deep_run.prompt_tokens + deep_run.completion_tokens},
        "http_chat_requests": http_requests, "mem0_conversation": mem0,
    }
    one_call = bool(kept) and all(r["calls"] == 1 for r in kept)
    rule_zero = all(r["calls"] == 0 for r in rule)
    note_groups = (f"{len(all_rows)} sessions: {len(kept)} kept, {len(rule)} skipped by the rule pre-check "
                   f"({dict(Counter(r['kind'] for r in rule))}), {len(model)} skipped by the model")
    figures = [
        Figure("dreaming", "Fake OpenAI: LLM calls per kept session (light sleep)", mean(kept, "calls"), None, "",
               "= 1 (every session)", one_call, note=note_groups),
        Figure("dreaming", "Fake OpenAI: LLM calls per rule-skipped session", mean(rule, "calls"), None, "", "= 0",
               rule_zero if rule else None),
        Figure("dreaming", "Fake OpenAI: prompt characters per kept session", mean(kept, "chars"), None, "chars",
               note=(f"{mean(kept, 'tokens'):.0f} tokens per kept session as the fake counts them (~4 chars each); "
                     f"deep sleep for {len(users)} users: {deep_run.llm_calls} calls, "
                     f"{deep_run.prompt_tokens + deep_run.completion_tokens} tokens")),
    ]
    if mem0:
        figures.append(Figure(
            "dreaming", "Fake OpenAI: prompt characters for mem0's 10-message conversation (light sleep)",
            mem0["chars"], MEM0_CHARS["one batched add()"], "chars", f"≤ {MEM0_TARGET_CHARS:,}",
            mem0["chars"] <= MEM0_TARGET_CHARS,
            ratio=mem0["chars"] / MEM0_CHARS["one batched add()"],
            note=(f"{mem0['calls']} LLM call(s); mem0 2.2.1: " + ", ".join(f"{v:,} ({k})" for k, v in MEM0_CHARS.items())
                  + "; baseline column = mem0's batched add"),
        ))
    return figures


def _mem0_conversation(ctx, fake) -> dict | None:
    """mem0's cost-comparison conversation (datasets/peers), dreamed like any other session."""
    path = ctx.dataset("peers/mem0_cost_conversation.jsonl")
    if path is None:
        ctx.notes.append("peers/mem0_cost_conversation.jsonl is missing from the datasets folder: mem0 figure skipped")
        return None
    import json

    session = json.loads(path.read_text().splitlines()[0])
    session = {**session, "user": "benchllm-mem0", "external_id": "benchllm-mem0-conv0",
               "started_at": session["messages"][0]["created_at"]}
    chats_import(jsonl_write([session], ctx.workdir / "mem0.jsonl"))
    pk = ChatSession.objects.get(external_id="benchllm-mem0-conv0").pk
    return _light_one(fake, pk)
