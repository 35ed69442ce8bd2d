"""The bench reads a statement back in the user's words (bench/eval_engine._first_person) to match it against
MSC's first-person persona sentences: an adverb the engine leaves before the verb must not keep the verb
conjugated."""
import pytest

from bench.eval_engine import _first_person


@pytest.mark.parametrize("statement, said", [
    ("User both loves the color grey", "I both love the color grey"),
    ("User much prefers tea", "I much prefer tea"),
    ("User first watched it in 2019", "I first watched it in 2019"),
    ("User loves tea", "I love tea"),
])
def test_an_adverb_before_the_verb_is_read_back_with_the_plain_verb(statement, said):
    assert _first_person(statement) == said
