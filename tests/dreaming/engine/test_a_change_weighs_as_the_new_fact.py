"""A lasting change the user states ("I don't teach anymore") weighs as the new fact beside it does."""
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def test_no_longer_teaching_weighs_as_the_new_job():
    turns = [Turn(seq=0, role="assistant", content="How's school?"),
             Turn(seq=1, role="user", content="Actually I don't teach anymore. I work at a library now.")]
    found = {c.statement: c.importance for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}
    assert found["User doesn't teach anymore"] >= found["User works at a library now"]
