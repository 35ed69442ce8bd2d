"""Skip the task, keep the person: a session skipped as coding / document / translation / roleplay
makes no model call and keeps its kind and reason, but what the user plainly says about themself in
their own words still becomes a candidate — never a line of code, pasted text or fiction."""
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from chat.models import Message
from dreaming.providers.local import LocalDreamer
from dreaming.engine.self_statements import own_words, self_statements
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate
from dreaming.protocol import CallContext, SessionReading, Turn
from tests.factories import ChatSessionFactory


class SkippingDreamer:
    """A remote-style (paid) dreamer that reads every session as `kind` and counts its calls."""

    name = "fake"
    paid = True
    reads_memory_md = False

    def __init__(self, kind):
        self.kind, self.extract_calls = kind, 0

    def read_session(self, *, turns, ctx, info=None):
        self.extract_calls += 1
        return SessionReading(kind=self.kind, reason=f"{self.kind}: fake")


class OneVectorEmbedder:
    name = "fake"

    def embed(self, texts, *, kind="document", ctx=None):
        return [[1.0] + [0.0] * (settings.EMBEDDING_DIM - 1) for _ in texts]


def _idle_session_with(user, turns):
    now = timezone.now()
    session = ChatSessionFactory(user=user, started_at=now - timedelta(hours=3), last_active_at=now - timedelta(hours=2))
    for seq, (role, content) in enumerate(turns, start=1):
        Message.objects.create(session=session, seq=seq, role=role, content=content,
                               created_at=session.started_at + timedelta(minutes=seq))
    return session

CODING_TURN = (
    "I work as a backend engineer at a fintech startup. Why does this throw?\n"
    "```python\ndef total(rows):\n    return sum(r.amount for r in rows) / len(rows)\n```\n"
    "Traceback (most recent call last):\n  File \"ledger.py\", line 2, in total\nZeroDivisionError: division by zero"
)


def _statements(turns, kind):
    return [c.statement for c in self_statements(turns, kind=kind)]


def test_a_coding_session_still_yields_the_users_job():
    turns = [Turn(seq=0, role="user", content=CODING_TURN), Turn(seq=1, role="assistant", content="rows is empty.")]
    assert LocalDreamer().triage(turns=turns, ctx=CallContext()).kind == "coding"
    assert _statements(turns, "coding") == ["User works as a backend engineer at a fintech startup"]


def test_nothing_is_taken_from_code_or_an_error_message():
    code = "```python\n# I am the parser and I live in utils\nmy_name = 'parser'\n```\nI am getting a TypeError here"
    assert own_words(Turn(seq=0, role="user", content=code), kind="coding") == "I am getting a TypeError here"
    assert _statements([Turn(seq=0, role="user", content=code)], "coding") == []


def test_only_the_request_before_a_pasted_essay_is_read():
    essay = ("I'm preparing for IELTS. Please correct my essay:\n"
             "I believe that technology makes our life better. I have lived in three countries and I work as a pilot.")
    found = _statements([Turn(seq=0, role="user", content=essay)], "document")
    assert found == ["User is preparing for IELTS"]


def test_my_shop_named_in_a_request_is_the_users():
    request = "Translate into French:\nOur clipart is hand painted. This is for my Etsy shop."
    assert _statements([Turn(seq=0, role="user", content="Write ten titles for my Etsy shop listings")], "document") == [
        "User has an Etsy shop"
    ]
    # …but not when it sits in the text pasted to be translated.
    assert _statements([Turn(seq=0, role="user", content=request)], "translation") == []


def test_fictions_first_person_is_not_the_user_but_out_of_character_words_are():
    turns = [
        Turn(seq=0, role="user", content="Let's roleplay. You are Luna, an elf. I play Kael, a knight. I am a knight of the north."),
        Turn(seq=2, role="user", content="*draws sword* I live in the castle of Eldor. (OOC: I'm a nurse, so keep the injuries realistic)"),
    ]
    assert _statements(turns, "roleplay") == ["User is a nurse"]


def test_photo_captions_in_brackets_are_not_roleplay():
    turns = [
        Turn(seq=0, role="user", content="[shares a photo of a golden retriever on a beach]\nThis is Max on our trip last week!"),
        Turn(seq=1, role="assistant", content="He looks so happy!"),
        Turn(seq=2, role="user", content="[image: a sunset over the pier]\nWe stayed until the sun went down. I love that beach."),
    ]
    assert LocalDreamer().triage(turns=turns, ctx=CallContext()).kind == "normal"


def test_light_sleep_keeps_the_skip_and_stores_only_the_self_statement(user):
    session = _idle_session_with(user, [("user", CODING_TURN), ("assistant", "rows is empty; guard the division.")])
    dreamer = SkippingDreamer("coding")

    run = light_sleep_sweep(dreamer=dreamer, embedder=OneVectorEmbedder())

    session.refresh_from_db()
    assert session.skipped and session.triage_kind == "coding" and "code fence" in session.triage_reason
    assert dreamer.extract_calls == 0  # no model call for a skipped session
    candidates = list(Candidate.objects.filter(session=session))
    assert [(c.statement, c.status) for c in candidates] == [
        ("User works as a backend engineer at a fintech startup", Candidate.Status.PENDING)
    ]
    assert candidates[0].quote in candidates[0].message.content and candidates[0].message.seq == 1
    run.refresh_from_db()
    assert run.sessions_skipped == 1 and run.candidates_created == 1


def test_a_skipped_session_without_self_statements_stores_nothing(user):
    session = _idle_session_with(user, [("user", "Fix this:\n```js\nconst a = b.map(x => x * 2)\n```"), ("assistant", "ok")])
    light_sleep_sweep(dreamer=SkippingDreamer("coding"), embedder=OneVectorEmbedder())
    session.refresh_from_db()
    assert session.skipped and session.triage_kind == "coding"
    assert not Candidate.objects.filter(session=session).exists()


def test_talking_about_role_playing_games_as_a_hobby_is_not_roleplay():
    turns = [
        Turn(seq=0, role="user", content="I'm playing some role playing games online today. I love the internet!"),
        Turn(seq=1, role="assistant", content="Which games do you play?"),
        Turn(seq=2, role="user", content="Mostly fantasy ones. Next weekend I'm going to a live action role playing event."),
    ]
    assert LocalDreamer().triage(turns=turns, ctx=CallContext()).kind == "normal"
