"""The learned "does this turn tell something about the user" model (issue #16) and what extract.py does
with it: a short turn no rule read keeps a first-person sentence when the model says it discloses."""
import json
import time
from unittest import mock

import numpy as np
import pytest

from dreaming.engine import disclosure_model as dm
from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn


def _model(p_discloses: float) -> dm.DisclosureModel:
    """A model that gives every turn the same probability (its weights zero, its bias the log-odds)."""
    weights = np.zeros((64 + len(dm.DENSE), 2))
    logit = float(np.log(p_discloses / (1 - p_discloses)))
    return dm.DisclosureModel(weights=weights, bias=np.array([0.0, logit]), dim=64, threshold=0.5, meta={})


def _statements(said: str, *, p: float, before: str = "Nice. What do you do for fun?") -> list[str]:
    turns = [Turn(seq=0, role="assistant", content=before), Turn(seq=1, role="user", content=said)]
    with mock.patch.object(dm, "disclosure_model", return_value=_model(p)):
        return [c.statement for c in extract_candidates(turns)]


def test_the_shipped_model_loads_in_milliseconds_and_says_how_it_was_trained():
    dm.disclosure_model.cache_clear()
    started = time.perf_counter()
    model = dm.disclosure_model()
    assert time.perf_counter() - started < 0.5
    assert model.meta["command"].startswith("python -m bench.train_disclosure")
    assert len(model.meta["training_data_sha256"]) == 64 and "tuning part" in model.meta["training_data"]
    assert 0.3 <= model.threshold <= 0.9


def test_the_shipped_model_tells_a_disclosure_from_small_talk():
    model = dm.disclosure_model()
    said = model.probability("The closest that I get to athletics is ping pong", "Do you play any sports?")
    small_talk = model.probability("Haha that is funny. What else do you like?", "I told a joke.")
    assert said > model.threshold > small_talk


def test_a_model_file_that_does_not_fit_its_features_is_refused():
    data = json.loads(_model(0.9).to_json())
    assert dm.DisclosureModel.from_json(json.dumps(data)).probability("I like tea") == pytest.approx(0.9, abs=1e-3)
    with pytest.raises(ValueError, match="shape"):
        dm.DisclosureModel.from_json(json.dumps({**data, "dim": 128}))
    with pytest.raises(ValueError, match="features"):
        dm.DisclosureModel.from_json(json.dumps({**data, "dense": ["length"]}))


def test_a_turn_no_rule_reads_keeps_its_first_person_sentence_when_the_model_says_it_discloses():
    said = "That's cool! The closest that I get to athletics is ping pong."
    assert _statements(said, p=0.9) == ["The closest that User gets to athletics is ping pong"]
    assert _statements(said, p=0.1) == []


def test_the_my_of_a_sentence_that_does_not_start_with_the_user_is_the_users():
    assert _statements("Very nice! A librarian was my mother's profession.", p=0.9, before="I grew up in a library.") == [
        "A librarian was User's mother's profession"]


@pytest.mark.parametrize("said", [
    "I am sorry. I am glad you are safe now",  # about the other side
    "Hi there I'm a single guy? What about you?",  # questions
    "Ok then. Tell me when.",  # nothing said about the user
    "I beat cancer last year and I love it.",  # a health detail is never kept
    " ".join(["I really like this long story about my trip"] * 6),  # a long turn: not persona chat
])
def test_the_model_never_makes_a_statement_of_what_is_not_the_user_or_is_sensitive(said):
    assert not [s for s in _statements(said, p=0.99) if "cancer" in s or "you" in s.lower() or "single" in s
                or "trip" in s or "Tell" in s]


def test_a_turn_a_rule_already_read_gets_nothing_more():
    assert _statements("I have two dogs. The closest that I get to athletics is ping pong.", p=0.99) == [
        "User has two dogs"]


@pytest.mark.parametrize("said", [
    "Diagnosed with diabetes last year, sadly.",  # no "I": the sensitive rules' first-person reading misses it
    "Chemo every Tuesday since March.",
    "A devout Christian since childhood.",
])
def test_a_sensitive_piece_never_becomes_a_statement_whoever_it_seems_to_name(said):
    assert _statements(said, p=0.99, before="How have things been?") == []
