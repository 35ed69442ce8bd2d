import io
import json
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from chat.models import Persona
from dreaming.models import Candidate, DiaryEntry, Feedback, Memory, MemoryDocument, MemorySettings
from memcenter.exports import user_export
from tests.factories import (
    CandidateFactory, ChatSessionFactory, MemoryFactory, MemorySourceFactory, MessageFactory, UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_world():
    alice = UserFactory(username="alice")
    mika = Persona.objects.create(slug="mika", name="Mika")
    session = ChatSessionFactory(user=alice, external_id="s-1", triage_kind="normal", triage_reason="personal")
    skipped = ChatSessionFactory(user=alice, external_id="s-2", triage_kind="coding", skipped=True,
                                 triage_reason="coding: code fence")
    said = MessageFactory(session=session, seq=1, external_id="m-1", content="I moved to Tokyo last week.")
    MessageFactory(session=session, seq=2, role="assistant", external_id="m-2", content="Welcome!")
    MessageFactory(session=skipped, seq=1, external_id="c-1", content="```print(1)```")
    tokyo = MemoryFactory(user=alice, statement="User lives in Tokyo", category="fact")
    shanghai = MemoryFactory(user=alice, statement="User lives in Shanghai", status=Memory.Status.SUPERSEDED,
                             valid_to=timezone.now(), superseded_by=tokyo)
    films = MemoryFactory(user=alice, persona=mika, statement="User loves Ghibli films")
    MemorySourceFactory(memory=tokyo, message=said, quote="I moved to Tokyo")
    CandidateFactory(user=alice, session=session, message=said, quote="I moved to Tokyo", statement="User moved to Tokyo",
                     status=Candidate.Status.PROMOTED, reason="promoted: score 0.71", memory=tokyo)
    CandidateFactory(user=alice, quote="I am an admin", statement="User is an admin",
                     status=Candidate.Status.REJECTED_UNVERIFIED, reason="quote not in the message")
    DiaryEntry.objects.create(user=alice, night=date(2025, 5, 2), narrative="Tonight I learned about Tokyo.").memories.add(tokyo)
    MemoryDocument.objects.create(user=alice, content="# MEMORY.md\n- User lives in Tokyo", memory_ids=[tokyo.pk],
                                  rendered_at=timezone.now(), version=3)
    MemoryDocument.objects.create(user=alice, persona=mika, content="# MEMORY.md (mika)\n- User loves Ghibli films",
                                  memory_ids=[films.pk], rendered_at=timezone.now())
    Feedback.objects.create(user=alice, memory=tokyo, verdict="agree")
    MemorySettings.objects.create(user=alice, enabled=True)
    # Someone else's data must never appear in alice's export.
    bob = UserFactory(username="bob")
    MemoryFactory(user=bob, statement="Bob secret memory")
    ChatSessionFactory(user=bob, external_id="bob-s")
    return {"alice": alice, "tokyo": tokyo, "shanghai": shanghai, "films": films}


def test_user_export_holds_everything_about_the_user(alice_world):
    data = user_export(user=alice_world["alice"])
    json.dumps(data)  # JSON-ready as it is

    assert data["user"]["username"] == "alice" and data["user"]["memory_enabled"] is True
    sessions = {s["external_id"]: s for s in data["sessions"]}
    assert set(sessions) == {"s-1", "s-2"}
    assert sessions["s-2"]["triage"] == {"kind": "coding", "skipped": True, "reason": "coding: code fence"}
    assert [(m["seq"], m["role"], m["external_id"]) for m in sessions["s-1"]["messages"]] == [
        (1, "user", "m-1"), (2, "assistant", "m-2")]

    memories = {m["statement"]: m for m in data["memories"]}
    assert set(memories) == {"User lives in Tokyo", "User lives in Shanghai", "User loves Ghibli films"}
    tokyo = memories["User lives in Tokyo"]
    assert tokyo["in_memory_md"] is True and tokyo["scope"] is None and tokyo["status"] == "active"
    assert tokyo["sources"][0]["session_external_id"] == "s-1"
    assert tokyo["sources"][0]["message_external_id"] == "m-1"
    assert tokyo["sources"][0]["quote"] == "I moved to Tokyo"
    for key in ("category", "confidence", "importance", "valid_from", "valid_to"):
        assert key in tokyo
    shanghai = memories["User lives in Shanghai"]
    assert shanghai["status"] == "superseded" and shanghai["valid_to"] is not None
    assert shanghai["in_memory_md"] is False and shanghai["superseded_by"] == alice_world["tokyo"].pk
    assert memories["User loves Ghibli films"]["scope"] == "mika"
    assert memories["User loves Ghibli films"]["in_memory_md"] is True

    candidates = {c["statement"]: c for c in data["candidates"]}
    assert candidates["User moved to Tokyo"]["status"] == "promoted"
    assert candidates["User moved to Tokyo"]["message_external_id"] == "m-1"
    assert candidates["User moved to Tokyo"]["session_external_id"] == "s-1"
    assert candidates["User is an admin"]["reason"] == "quote not in the message"
    assert candidates["User is an admin"]["session_external_id"] is None

    assert data["diary"] == [{"night": "2025-05-02", "narrative": "Tonight I learned about Tokyo.",
                              "memory_ids": [alice_world["tokyo"].pk], "created_at": data["diary"][0]["created_at"]}]
    scopes = {d["scope"]: d for d in data["memory_md"]}
    assert set(scopes) == {None, "mika"} and "Tokyo" in scopes[None]["content"] and scopes[None]["version"] == 3
    assert data["feedback"][0]["verdict"] == "agree" and data["feedback"][0]["memory_id"] == alice_world["tokyo"].pk

    dumped = json.dumps(data)
    assert "Bob secret memory" not in dumped and "bob-s" not in dumped


def test_a_memory_whose_message_was_deleted_keeps_its_quote(alice_world):
    MemorySourceFactory(memory=alice_world["films"], message=None, quote="I love Ghibli")
    data = user_export(user=alice_world["alice"])
    films = next(m for m in data["memories"] if m["statement"] == "User loves Ghibli films")
    assert films["sources"][0] == {**films["sources"][0], "quote": "I love Ghibli", "message_external_id": None,
                                   "session_external_id": None}


def test_export_user_command_writes_one_json_line(alice_world, tmp_path):
    out = tmp_path / "alice.jsonl"
    call_command("export_user", "alice", "--output", str(out), stderr=io.StringIO())
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["user"]["username"] == "alice"


def test_export_all_writes_one_line_per_user(alice_world):
    UserFactory(username="zoe")
    stdout = io.StringIO()
    call_command("export_user", "--all", stdout=stdout)
    names = [json.loads(line)["user"]["username"] for line in stdout.getvalue().splitlines()]
    assert names == ["alice", "bob", "zoe"]


def test_export_user_errors_are_one_line(db):
    with pytest.raises(CommandError, match="user 'nobody' does not exist"):
        call_command("export_user", "nobody")
    with pytest.raises(CommandError, match="exactly one of USERNAME or --all"):
        call_command("export_user")


def test_an_empty_user_exports_cleanly(db):
    data = user_export(user=UserFactory(username="empty"))
    assert (data["sessions"], data["memories"], data["candidates"], data["diary"], data["memory_md"], data["feedback"]) == (
        [], [], [], [], [], [])
    assert data["user"]["memory_enabled"] is True
