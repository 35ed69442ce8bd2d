"""The facts workload (bench/workload_facts.py): deterministic, and judged through the real pipeline."""
import pytest

from bench import workload_facts
from bench.runner import BenchContext


def test_the_workload_is_the_same_for_the_same_seed_and_has_every_kind_of_fact():
    first, again = workload_facts.workload(users=12), workload_facts.workload(users=12)
    texts = [[f.text for s in p.sessions for f in s] for p in first]
    assert texts == [[f.text for s in p.sessions for f in s] for p in again]
    kinds = {f.kind for p in first for s in p.sessions for f in s}
    assert kinds == {"distinct", "repeat", "change"}
    assert any(p.chinese for p in first) and any(not p.chinese for p in first)
    for plan in first:
        pets = [f for f in plan.sessions[0] + plan.sessions[1] if f.key.startswith("pet:")]
        assert len(pets) == 2 and pets[0].values != pets[1].values  # the same kind of pet, two names


@pytest.mark.django_db
def test_the_workload_runs_on_tiny_sizes_and_reports_three_rows(tmp_path):
    ctx = BenchContext(datasets=tmp_path, workdir=tmp_path, mode="smoke", progress=False)
    figures = {f.name: f for f in workload_facts.run(ctx)}
    assert set(figures) == set(workload_facts.LABELS.values())
    for figure in figures.values():
        assert 0.0 <= figure.ours <= 1.0 and figure.passed is not None
    details = ctx.details["facts_workload"]
    assert details["users"] == 3 and details["distinct"]["n"] >= 3 * 6
    assert figures["Facts workload: distinct facts kept as memories"].passed is True
