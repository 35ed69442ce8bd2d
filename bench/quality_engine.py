"""Diagnostic: the rules engine alone on the same datasets (bench/eval_engine.py, no database).

Not a product figure — the product figures above go through import, light and deep sleep. Putting
the engine's own extraction next to them shows where a quality gap comes from: extraction (the
engine misses it) or the pipeline after it (deep sleep does not keep it, recall does not find it).
"""
from __future__ import annotations

from bench.eval_engine import run as engine_run
from bench.report import Figure


def run(ctx) -> list[Figure]:
    needed = ["msc/msc_personasummary_s1_dev.jsonl", "wildchat_triage/wildchat_dev.jsonl", "memorybank_cn/memory_bank_cn_dev.json"]
    if any(ctx.dataset(path) is None for path in needed):
        ctx.notes.append("Engine diagnostic: MSC / WildChat / MemoryBank data not all found — skipped")
        return []
    results = engine_run(ctx.datasets)
    msc, wild, bank = results["msc"], results["wildchat"], results["memorybank"]
    ctx.details["engine_alone"] = {
        "msc": {k: v for k, v in msc.items()}, "wildchat": {k: v for k, v in wild.items() if k != "errors"},
        "memorybank": {k: v for k, v in bank.items() if k != "missing"},
    }
    return [
        Figure("engine", "Engine alone (diagnostic): MSC fact F1 of extracted candidates", msc["fact_f1"],
               msc["baseline_verbatim_f1"], "", note=f"P {msc['fact_precision']:.2f} / R {msc['fact_recall']:.2f}, turn F1 {msc['turn_f1']:.2f}"),
        Figure("engine", "Engine alone (diagnostic): WildChat skip accuracy", wild["skip_accuracy_by_part"]["checking"], None,
               "", tuning=wild["skip_accuracy_by_part"]["tuning"], note=f"{wild['conversations']} conversations (dev + extra)"),
        Figure("engine", "Engine alone (diagnostic): MemoryBank hobby coverage of extracted candidates", bank["hobby_coverage"], None, ""),
    ]
