"""The fixed tuning/checking split every bench uses, the report that shows both parts, and the shipped
triage model: where it comes from, how fast it loads, and that a broken file is refused."""
import json
import time

import pytest

from bench.report import Figure, Report
from bench.split import CHECKING, TUNING, part_of
from dreaming.engine.triage_model import MODEL_PATH, TriageModel


def test_the_split_is_a_fixed_hash_of_the_id():
    # sha1("conv-26") ends in an odd hex digit, sha1("conv-30") in an even one: fixed once, forever.
    assert part_of("conv-26") == CHECKING and part_of("conv-30") == TUNING
    assert [part_of(f"item-{i}") for i in range(200)] == [part_of(f"item-{i}") for i in range(200)]
    assert 60 < sum(part_of(f"item-{i}") == TUNING for i in range(200)) < 140


def test_an_empty_id_is_refused():
    with pytest.raises(ValueError, match="non-empty string"):
        part_of("")


def test_the_report_shows_the_tuning_and_checking_parts_side_by_side(tmp_path):
    report = Report()
    report.add([Figure("wildchat", "Skip accuracy", 0.81, 0.6, "", "≥ 0.92", False, tuning=0.95),
                Figure("api", "Latency", 12.0, unit="ms")])
    markdown = report.markdown()
    assert "## Tuning part vs checking part" in markdown
    assert "| Skip accuracy | 0.950 | 0.810 | -0.140 | ≥ 0.92 | **NO** |" in markdown
    assert "| Latency |" not in markdown.split("## Tuning part vs checking part")[1]


def test_the_shipped_triage_model_records_its_training_and_loads_in_milliseconds():
    text = MODEL_PATH.read_text(encoding="utf-8")
    meta = json.loads(text)["meta"]
    assert meta["command"].startswith("python -m bench.train_triage")
    assert len(meta["training_data_sha256"]) == 64 and "tuning part" in meta["training_data"]
    started = time.perf_counter()
    model = TriageModel.from_json(text)
    assert time.perf_counter() - started < 0.5
    assert 0.0 < model.threshold < 1.0


def test_a_model_file_for_other_classes_is_refused():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    data["classes"] = ["keep", "coding"]
    with pytest.raises(ValueError, match="classes"):
        TriageModel.from_json(json.dumps(data))


def _always_skipping_model():
    """A model whose P(skip) is 0.8 for every session (equal scores over five classes), threshold 0.5."""
    import numpy as np

    from dreaming.engine.triage_model import _EMPTY, CLASSES, dense_features

    features = 64 + len(dense_features([], _EMPTY))
    return TriageModel(weights=np.zeros((features, len(CLASSES)), dtype=np.float32),
                       bias=np.zeros(len(CLASSES), dtype=np.float32), dim=64, threshold=0.5, meta={})


def test_the_model_decides_what_the_rules_leave_open_but_never_a_personal_chat(monkeypatch):
    from dreaming.providers import local as dreamer
    from dreaming.providers.local import LocalDreamer
    from dreaming.protocol import Turn

    monkeypatch.setattr(dreamer, "triage_model", _always_skipping_model)
    task = [Turn(seq=0, role="user", content="What is the capital of France?"), Turn(seq=1, role="assistant", content="Paris.")]
    result = LocalDreamer().triage(turns=task)
    assert result.kind != "normal" and "model P(skip) 0.80" in result.reason
    personal = [Turn(seq=0, role="user", content="My sister lives in Lisbon and I visit her every summer."),
                Turn(seq=1, role="assistant", content="Nice!")]
    assert LocalDreamer().triage(turns=personal).kind == "normal"


def test_the_pre_check_before_a_remote_model_trusts_the_rules_not_the_model(monkeypatch):
    from dreaming.providers import local as dreamer
    from dreaming.protocol import Turn
    from dreaming.pipeline.triage_rules import triage_precheck

    monkeypatch.setattr(dreamer, "triage_model", _always_skipping_model)
    task = [Turn(seq=0, role="user", content="What is the capital of France?"), Turn(seq=1, role="assistant", content="Paris.")]
    assert triage_precheck(turns=task) is None
    code = [Turn(seq=0, role="user", content="Fix it:\n```python\nimport os\nprint(os.getcwd()\n```\nSyntaxError: '(' was never closed")]
    assert triage_precheck(turns=code).kind == "coding"


def test_the_model_reads_pasted_text_and_code_identifiers_as_shares_of_the_users_words():
    from dreaming.engine.triage import session_signals
    from dreaming.engine.triage_model import dense_features
    from dreaming.protocol import Turn

    def shape(text):
        turns = [Turn(seq=0, role="user", content=text)]
        return dense_features(turns, session_signals(turns))

    article = "Summarize this:\n" + "The committee reviewed the annual budget and the new harbour plans. " * 20
    code_talk = "why does df.groupby() fail on user_id when I call load_data.py --verbose with myList[0]?"
    chat = "My sister visited last weekend and we went hiking by the lake, it was lovely."
    assert shape(article)["pasted"] > 0.5 and shape(chat)["pasted"] == 0.0
    assert shape(code_talk)["identifiers"] > 0.5 and shape(chat)["identifiers"] == 0.0
    quoted = 'Fix the grammar of "' + "we was going to the market yesterday and buyed some apples " * 3 + '"'
    assert shape(quoted)["quoted"] > 0.5 and shape(chat)["quoted"] == 0.0


def test_the_model_reads_the_shape_of_the_turns_not_their_topic():
    from dreaming.engine.triage import session_signals
    from dreaming.engine.triage_model import dense_features
    from dreaming.protocol import Turn

    def shape(*texts):
        turns = [Turn(seq=i, role="user" if i % 2 == 0 else "assistant", content=t) for i, t in enumerate(texts)]
        return dense_features(turns, session_signals(turns))

    story = shape("Write a scene in the tavern.", "Mira: \"Welcome!\"\nTom: \"Ale, please.\"\nMira: \"Coming up.\"",
                  "continue", "Tom: \"Thanks.\"\nMira: \"Anything else?\"", "more", "Tom: \"No.\"")
    chat = shape("How was your week? Mine was busy, we moved flats.", "Moving is tiring! How is the new place?",
                 "Bigger than the old one, and the neighbours seem friendly. Do you think I should invite them over?",
                 "That sounds like a lovely idea.")
    assert story["short_followups"] == 1.0 and chat["short_followups"] == 0.0
    assert story["assistant_script_lines"] > 0.5 and chat["assistant_script_lines"] == 0.0
    assert story["imperatives"] > chat["imperatives"] and chat["questions"] == 1.0
    assert shape("Переведи на английский: мама мыла раму", "Mom washed the frame")["script_switch"] == 1.0
    assert chat["script_switch"] == 0.0


def test_a_line_or_two_is_never_a_pasted_document_whatever_the_model_says(monkeypatch):
    import numpy as np

    from dreaming.engine.triage_model import CLASSES
    from dreaming.providers import local as dreamer
    from dreaming.providers.local import LocalDreamer
    from dreaming.protocol import Turn

    def documents():
        model = _always_skipping_model()
        model.bias[CLASSES.index("document")] = 1.0  # the likeliest skip kind is a document
        return model

    monkeypatch.setattr(dreamer, "triage_model", documents)
    short = [Turn(seq=0, role="user", content="sad news, Max passed away last week. I'm devastated.")]
    result = LocalDreamer().triage(turns=short)
    assert result.kind == "normal" and "too short to be a document" in result.reason
    long = [Turn(seq=0, role="user", content="Summary of the quarterly results. " * 20)]
    assert LocalDreamer().triage(turns=long).kind == "document"
