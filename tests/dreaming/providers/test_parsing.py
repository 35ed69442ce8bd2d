"""Tolerant reading of model answers (pure functions: no server, no database)."""
import pytest

from dreaming.providers import MemoryRef, Turn, UnusableAnswer
from dreaming.providers.parsing import (
    category_normalize,
    compare_parse,
    extract_parse,
    importance_clamp,
    json_from_answer,
    statement_parse,
    triage_parse,
)
from dreaming.providers.prompts import (
    COMPARE_SYSTEM,
    EXTRACT_SYSTEM,
    MERGE_SYSTEM,
    NARRATE_SYSTEM,
    REPLY_SYSTEM,
    TRIAGE_SYSTEM,
    transcript_render,
)
from dreaming.engine.sensitive import mask_secrets


@pytest.mark.parametrize("answer", [
    '{"a": 1}',
    '  \n{"a": 1}\n',
    'Here it is:\n```json\n{"a": 1}\n```',
    '```\n{"a": 1}\n```',
    'The answer is {"a": 1} as requested.',
    'noise { not json } then {"a": 1}',
])
def test_json_is_found_strict_fenced_or_as_the_first_balanced_object(answer):
    assert json_from_answer(answer) == {"a": 1}


def test_braces_inside_strings_do_not_break_the_balance():
    assert json_from_answer('x {"reason": "a } b {", "kind": "normal"} y') == {"reason": "a } b {", "kind": "normal"}


@pytest.mark.parametrize("answer", [None, "", "   ", "I think the user is nice.", '{"candidates": [{"quote": "I',
                                    "[1, 2", "42"])
def test_answers_without_a_json_object_are_unusable(answer):
    with pytest.raises(UnusableAnswer):
        json_from_answer(answer)


def test_a_bare_list_is_accepted_as_the_items():
    turns = [Turn(seq=1, role="user", content="I like tea")]
    [candidate] = extract_parse('[{"quote": "I like tea", "statement": "User likes tea.", "category": "preference"}]',
                                turns=turns)
    assert (candidate.category, candidate.seq, candidate.importance, candidate.user_initiated) == ("preference", 1, 0.5, True)


@pytest.mark.parametrize("raw,expected", [("fact", "fact"), ("PREFERENCE", "preference"), (" emotion ", "emotion"),
                                          ("relationship", "relation"), ("hobby", "fact"), (None, "fact"), (3, "fact")])
def test_categories_are_normalized_and_unknown_ones_collapse_to_fact(raw, expected):
    assert category_normalize(raw) == expected


@pytest.mark.parametrize("raw,expected", [(0.4, 0.4), (1.5, 0.15), (8, 0.8), (42, 1.0), (-1, 0.0), ("0.3", 0.3),
                                          ("very", 0.5), (None, 0.5), (float("nan"), 0.5)])
def test_importance_is_clamped_to_zero_one(raw, expected):
    assert importance_clamp(raw) == pytest.approx(expected)


def test_triage_unknown_kind_is_normal_and_missing_kind_is_unusable():
    assert triage_parse('{"kind": "poetry", "reason": "r"}') == ("normal", "r")
    assert triage_parse('{"kind": "Coding"}') == ("coding", "")
    with pytest.raises(UnusableAnswer):
        triage_parse('{"reason": "forgot the kind"}')


def test_extract_needs_a_list_of_candidates():
    with pytest.raises(UnusableAnswer):
        extract_parse('{"candidates": "none"}', turns=[])
    assert extract_parse('{"candidates": []}', turns=[]) == []


def test_extract_drops_seq_pointing_at_an_assistant_turn():
    turns = [Turn(seq=1, role="assistant", content="Do you like tea?"), Turn(seq=2, role="user", content="yes")]
    [candidate] = extract_parse('{"candidates": [{"seq": 1, "quote": "Do you like tea", "statement": "User likes tea."}]}',
                                turns=turns)
    assert candidate.seq is None


def test_compare_aliases_and_duplicates():
    memories = [MemoryRef(id=5, statement="User lives in Porto.", category="fact")]
    result = compare_parse('{"results": [{"index": "0", "relation": "Contradict", "memory_id": "5"},'
                           '{"index": 0, "relation": "new"}, {"index": 1, "relation": "maybe"}]}',
                           statements=["a", "b"], memories=memories)
    assert [(c.relation, c.memory_id) for c in result] == [("contradicts", 5), ("new", None)]


def test_statement_parse_requires_the_key():
    assert statement_parse('{"statement": " User likes tea. "}', key="statement") == "User likes tea."
    with pytest.raises(UnusableAnswer):
        statement_parse('{"narrative": ""}', key="narrative")


def test_fixed_prompts_survive_secret_masking_unchanged():
    for prompt in (TRIAGE_SYSTEM, EXTRACT_SYSTEM, COMPARE_SYSTEM, MERGE_SYSTEM, NARRATE_SYSTEM, REPLY_SYSTEM):
        assert mask_secrets(prompt) == prompt


def test_long_turns_are_clipped_in_the_transcript():
    rendered = transcript_render([Turn(seq=1, role="user", content="x" * 10_000),
                                  Turn(seq=2, role="assistant", content="y" * 10_000)])
    assert rendered.count("x") == 4000 and rendered.count("y") == 800
    assert rendered.count("[truncated]") == 2
