"""What is left of a sentence when the user's clause is only part of it: an "I" that opens a relative clause ("The
poem I wrote has been …"), a clause of place ("Where I grew up, …"). The sentences are invented."""
import pytest

from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(text: str, *, asked: str = "How have you been?") -> set[str]:
    turns = [Turn(seq=0, role="assistant", content=asked), Turn(seq=1, role="user", content=text)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("text, cut", [
    ("The poem I entered in the county contest has been on my mind all week.", "User entered in the county contest"),
    ("The quilt I started in spring does not look like much yet.", "User started in spring does not"),
    ("I mean where I grew up squirrels do not come near houses.", "User grew up squirrels"),
    ("Honestly, where I live the buses don't run after ten.", "User lives the buses"),
])
def test_an_i_inside_a_noun_phrase_or_a_clause_of_place_is_not_read_as_the_sentence(text, cut):
    assert not any(s.startswith(cut) for s in _statements(text))


@pytest.mark.parametrize("text, kept", [
    ("Yes it stinks losing I also enjoy lawn bowling", "User enjoys lawn bowling"),
    ("On top of that I just bought a new van", "User bought a new van"),
    ("I volunteer at the shelter where I adopted my dog.", "User volunteers at the shelter where they adopted their dog"),
])
def test_a_late_i_that_is_the_sentence_still_stands(text, kept):
    assert kept in _statements(text)
