"""The bench runs end to end on tiny sizes and reports every figure next to its baseline.

Timings are never asserted here (they depend on the machine); counts that the product promises are:
queries and embedding calls on the chat path, one extraction call per kept session, none for a
session the rules skip.
"""
import pytest

from bench import quality_locomo, quality_memorybank, quality_msc, quality_wildchat, speed_context, speed_dreaming, speed_listpage
from bench.quality_locomo import BM25, bm25_hit, evidence_ids
from bench.report import Report
from bench.runner import BenchContext

pytestmark = pytest.mark.django_db


def _by_name(figures):
    return {f.name: f for f in figures}


def test_the_bench_runs_on_tiny_sizes_and_writes_a_report(tmp_path):
    ctx = BenchContext(datasets=tmp_path / "no-datasets", workdir=tmp_path, mode="smoke", progress=False)
    report = Report()
    for module in (speed_context, speed_dreaming, speed_listpage, quality_locomo, quality_msc, quality_wildchat, quality_memorybank):
        report.add(module.run(ctx))
    report.notes = ctx.notes
    figures = _by_name(report.figures)

    chat_queries = figures["Queries per chat turn (vs RAG)"]
    assert chat_queries.ours == 1 and chat_queries.passed is True
    embeds = figures["Embedding calls per chat turn (vs RAG)"]
    assert embeds.ours == 0 and embeds.baseline == 1  # the counter sees the RAG baseline's calls
    assert figures["Fake OpenAI: LLM calls per kept session (light sleep)"].ours == 1
    assert figures["Fake OpenAI: LLM calls per rule-skipped session"].ours == 0
    assert figures["Synthetic triage: personal + task sessions kept"].passed is True
    assert figures["Memory list page queries at 30 memories (max; vs 10)"].ours <= 15
    # Missing datasets are reported and skipped, not failed.
    assert not any(f.bench in ("locomo", "msc", "wildchat", "memorybank") for f in report.figures)
    assert sum("not found" in note for note in ctx.notes) == 4

    report.write(tmp_path)
    markdown = (tmp_path / "report.md").read_text()
    assert "| figure | ours | baseline | ratio / target | pass? |" in markdown
    assert "Import rate (import_chats; vs bare bulk insert)" in markdown
    assert '"figures"' in (tmp_path / "report.json").read_text()


def test_evidence_ids_tolerate_the_malformed_ones():
    assert evidence_ids(["D1:3", "D:11:26", "D8:6; D9:17"]) == {"D1:3", "D11:26", "D8:6", "D9:17"}


def test_bm25_gets_the_words_budget_and_no_more_turns_after_it():
    turns = ["I adopted a puppy named Rex", "The weather is nice", "Rex chewed my shoes again today"]
    ranking = BM25(turns).ranking("What is the name of the puppy?")
    assert ranking[0] == 0
    ids, lengths = ["D1:1", "D1:2", "D1:3"], [6, 4, 6]
    assert bm25_hit(ranking=ranking, turn_ids=ids, turn_words=lengths, budget=1, evidence={"D1:1"})
    # The evidence ranks last: with room for one turn only, BM25 misses it.
    assert not bm25_hit(ranking=ranking, turn_ids=ids, turn_words=lengths, budget=6, evidence={"D1:2"})
