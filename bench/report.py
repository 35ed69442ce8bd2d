"""The report: one row per figure (ours | baseline | ratio/target | pass?), as Markdown and JSON."""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class Figure:
    """One measured figure next to its baseline from the same run.

    `passed` is None when the figure has no target (it is there to be read, not judged). A figure
    measured on a dev set has `ours` (and `passed`) from the checking part of it and `tuning` from the
    tuning part (bench/split.py), shown side by side in the report.
    """

    bench: str
    name: str
    ours: float | str | None
    baseline: float | str | None = None
    unit: str = ""
    target: str = ""
    passed: bool | None = None
    ratio: float | None = None
    note: str = ""
    tuning: float | None = None


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    sections: list[tuple[str, str]] = field(default_factory=list)

    def add(self, figures: list[Figure]) -> None:
        self.figures.extend(figures)

    def as_json(self) -> str:
        return json.dumps(
            {"meta": self.meta, "figures": [asdict(f) for f in self.figures], "notes": self.notes, "details": self.details},
            ensure_ascii=False, indent=2, default=str,
        )

    def table(self) -> str:
        lines = [
            "| figure | ours | baseline | ratio / target | pass? |",
            "|---|---|---|---|---|",
        ]
        for f in self.figures:
            ratio_target = " · ".join(x for x in (_ratio(f.ratio), f.target) if x)
            lines.append(
                f"| {f.name} | {_value(f.ours, f.unit)} | {_value(f.baseline, f.unit)} | {ratio_target or '—'} | {_passed(f.passed)} |"
            )
        return "\n".join(lines)

    def markdown(self) -> str:
        parts = ["# memcenter bench report", ""]
        if self.meta:
            parts.append(" · ".join(f"{k}: {v}" for k, v in self.meta.items()))
            parts.append("")
        parts.append(self.table())
        parts.append("")
        split = [f for f in self.figures if f.tuning is not None]
        if split:
            parts += ["## Tuning part vs checking part", "",
                      "Each dev set is split by a fixed hash of the item id (bench/split.py); rules and the learned "
                      "triage are tuned on the tuning part only. The main table's \"ours\" is the checking part.", "",
                      "| figure | tuning part | checking part | gap | target | pass? (checking) |", "|---|---|---|---|---|---|"]
            parts += [f"| {f.name} | {_value(f.tuning, f.unit)} | {_value(f.ours, f.unit)} | "
                      f"{_gap(f.tuning, f.ours)} | {f.target or '—'} | {_passed(f.passed)} |" for f in split]
            parts.append("")
        notes = [f"- **{f.name}**: {f.note}" for f in self.figures if f.note] + [f"- {n}" for n in self.notes]
        if notes:
            parts += ["## Notes", "", *notes, ""]
        for title, body in self.sections:
            parts += [f"## {title}", "", body, ""]
        return "\n".join(parts)

    def write(self, folder: Path) -> tuple[Path, Path]:
        md, js = folder / "report.md", folder / "report.json"
        md.write_text(self.markdown(), encoding="utf-8")
        js.write_text(self.as_json(), encoding="utf-8")
        return md, js


def _number(x: float) -> str:
    if x == 0 or math.isnan(x):
        return f"{x:g}"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    if abs(x) >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def _value(value, unit: str) -> str:
    if value is None or value == "":
        return "—"
    text = _number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    return f"{text} {unit}".strip() if unit else text


def _gap(tuning, checking) -> str:
    if not all(isinstance(x, (int, float)) for x in (tuning, checking)):
        return "—"
    return f"{checking - tuning:+.3f}"


def _ratio(ratio: float | None) -> str:
    return "" if ratio is None else f"{_number(ratio)}×"


def _passed(passed: bool | None) -> str:
    return "—" if passed is None else ("yes" if passed else "**NO**")


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]
