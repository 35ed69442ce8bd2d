"""Tolerant reading of model answers (pure functions: no server, no database)."""
import pytest

import json
from datetime import datetime, timezone as dt_timezone

from dreaming.protocol import CompareAnswer, ExtractedCandidate, SessionInfo, SessionReading
from dreaming.providers import MemoryRef, Turn, UnusableAnswer
from dreaming.providers.parsing import answer_parse, compare_parse, json_from_answer, session_reading_parse
from dreaming.providers.prompts import (
    ANSWERS,
    COMPARE_SYSTEM,
    EXTRACT_SYSTEM,
    MERGE_SYSTEM,
    NARRATE_SYSTEM,
    REPLY_SYSTEM,
    SCHEMAS,
    compare_messages,
    extract_messages,
    transcript_render,
)
from dreaming.engine.credentials import mask_secrets


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
    reading = session_reading_parse('[{"quote": "I like tea", "statement": "User likes tea.", "category": "preference"}]',
                                    turns=turns)
    [candidate] = reading.candidates
    assert reading.kind == "normal"
    assert (candidate.category, candidate.seq, candidate.importance, candidate.user_initiated) == ("preference", 1, 0.5, True)


@pytest.mark.parametrize("raw,expected", [("fact", "fact"), ("PREFERENCE", "preference"), (" emotion ", "emotion"),
                                          ("relationship", "relation"), ("hobby", "fact"), (None, "fact"), (3, "fact")])
def test_categories_are_normalized_and_unknown_ones_collapse_to_fact(raw, expected):
    assert ExtractedCandidate(quote="q", statement="s", category=raw).category == expected


@pytest.mark.parametrize("raw,expected", [(0.4, 0.4), (1.5, 0.15), (8, 0.8), (42, 1.0), (-1, 0.0), ("0.3", 0.3),
                                          ("very", 0.5), (None, 0.5), (float("nan"), 0.5)])
def test_importance_is_clamped_to_zero_one(raw, expected):
    assert ExtractedCandidate(quote="q", statement="s", importance=raw).importance == pytest.approx(expected)


def test_the_reading_carries_the_kind_and_a_skip_kind_carries_no_candidates():
    item = {"quote": "I like tea", "statement": "User likes tea."}
    assert session_reading_parse('{"kind": "poetry", "reason": "r"}', turns=[]).kind == "normal"
    coding = session_reading_parse(json.dumps({"kind": "Coding", "candidates": [item]}), turns=[])
    assert (coding.kind, coding.candidates) == ("coding", [])
    with pytest.raises(UnusableAnswer):
        session_reading_parse('{"reason": "forgot everything"}', turns=[])


def test_extract_keeps_at_most_ten_candidates_most_important_first_as_given():
    items = [{"quote": f"I have {i} cats", "statement": f"User has {i} cats."} for i in range(30)]
    reading = session_reading_parse(json.dumps({"candidates": items}), turns=[])
    assert [c.quote for c in reading.candidates] == [f"I have {i} cats" for i in range(10)]


def test_extract_drops_seq_pointing_at_an_assistant_turn():
    turns = [Turn(seq=1, role="assistant", content="Do you like tea?"), Turn(seq=2, role="user", content="yes")]
    [candidate] = session_reading_parse(
        '{"candidates": [{"seq": 1, "quote": "Do you like tea", "statement": "User likes tea."}]}', turns=turns
    ).candidates
    assert candidate.seq is None


def test_compare_aliases_duplicates_and_a_missing_verdict_waits():
    memories = [MemoryRef(id=5, statement="User lives in Porto.", category="fact")]
    result = compare_parse('{"results": [{"index": "0", "relation": "Contradict", "memory_id": "5"},'
                           '{"index": 0, "relation": "new"}, {"index": 1, "relation": "maybe"}]}',
                           statements=["a", "b"], memories=memories)
    assert [(c.relation, c.memory_id) for c in result] == [("contradicts", 5), ("wait", None)]


def test_compare_adds_detail_carries_the_new_wording_and_an_unknown_id_waits():
    memories = [MemoryRef(id=5, statement="User has a dog.", category="relation")]
    result = compare_parse(json.dumps({"results": [
        {"index": 0, "relation": "adds detail", "memory_id": 5, "statement": "User has a dog named Milo."},
        {"index": 1, "relation": "reinforces", "memory_id": 99}]}), statements=["a", "b"], memories=memories)
    assert [(c.relation, c.memory_id, c.statement) for c in result] == [
        ("adds_detail", 5, "User has a dog named Milo."), ("wait", None, None)]


def test_merge_and_narrate_answers_need_their_text():
    from dreaming.protocol import MergeAnswer, NarrateAnswer

    assert answer_parse(MergeAnswer, '{"statement": " User likes tea. "}').statement == "User likes tea."
    with pytest.raises(UnusableAnswer):
        answer_parse(NarrateAnswer, '{"narrative": ""}')


def test_every_schema_sent_is_the_strict_form_of_its_answer_model():
    for task, model in ANSWERS.items():
        schema = SCHEMAS[task]
        assert schema["additionalProperties"] is False
        assert schema["required"] == list(model.model_fields)
    item = SCHEMAS["extract"]["$defs"]["ExtractedCandidate"]
    assert item["required"] == ["seq", "quote", "statement", "category", "importance", "user_initiated"]
    assert item["properties"]["category"]["enum"] == ["fact", "preference", "event", "emotion", "relation"]
    assert CompareAnswer.model_validate({"results": []}).results == []


def test_the_shape_hint_for_plain_servers_is_valid_json_that_validates():
    system = extract_messages([Turn(seq=1, role="user", content="hi")])[0]["content"]
    assert SessionReading.model_validate(json.loads(system.rsplit("like: ", 1)[1])).candidates[0].category == "fact"
    system = compare_messages(["a"], [MemoryRef(id=1, statement="b", category="fact")])[0]["content"]
    assert CompareAnswer.model_validate(json.loads(system.rsplit("like: ", 1)[1])).results[0].relation == "new"


def test_the_request_carries_the_date_each_turns_time_and_marks_context_turns():
    at = datetime(2026, 3, 10, 20, 0, tzinfo=dt_timezone.utc)
    turns = [Turn(seq=1, role="user", content="I live in Bristol.", created_at=at),
             Turn(seq=2, role="assistant", content="Nice.", created_at=at.replace(minute=1)),
             Turn(seq=3, role="user", content="I have a rabbit.", created_at=at.replace(minute=2))]
    system, user = extract_messages(turns, info=SessionInfo(new_from_seq=2, started_at=at))
    assert "Session date: 2026-03-10 (Tuesday)" in user["content"]
    assert "[seq=1 20:00 context] user: I live in Bristol." in user["content"]
    assert "[seq=3 20:02] user: I have a rabbit." in user["content"]
    assert "may quote: seq 3." in user["content"]
    for word in ("MOST IMPORTANT FIRST", "contact details", "government ids", "orientation", "political", "ethnicity"):
        assert word in system["content"]


def test_fixed_prompts_survive_secret_masking_unchanged():
    for prompt in (EXTRACT_SYSTEM, COMPARE_SYSTEM, MERGE_SYSTEM, NARRATE_SYSTEM, REPLY_SYSTEM):
        assert mask_secrets(prompt) == prompt


def test_long_turns_are_clipped_in_the_transcript():
    rendered = transcript_render([Turn(seq=1, role="user", content="x" * 10_000),
                                  Turn(seq=2, role="assistant", content="y" * 10_000)])
    assert rendered.count("x") == 4000 and rendered.count("y") == 800
    assert rendered.count("[truncated]") == 2
