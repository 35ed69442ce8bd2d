import io
import json
from datetime import datetime
from datetime import timezone as dt_timezone

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from chat.models import ChatSession, Message, Persona
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def run_import(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_chats", *map(str, args), stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), str(exc)
    return out.getvalue(), err.getvalue(), None


def write_jsonl(path, lines):
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines) + "\n",
                    encoding="utf-8")
    return path


FULL_LINE = {
    "user": "alice", "external_id": "s-1", "persona": "mika", "started_at": "2025-05-01T09:00:00Z",
    "messages": [
        {"role": "user", "content": "I moved to Tokyo.", "created_at": "2025-05-01T09:00:00Z", "external_id": "m-1"},
        {"role": "assistant", "content": "Welcome!", "created_at": "2025-05-01T09:01:00Z", "external_id": "m-2"},
    ],
}


def test_jsonl_import_creates_sessions_messages_and_personas(tmp_path):
    alice = UserFactory(username="alice")
    path = write_jsonl(tmp_path / "chats.jsonl", [
        FULL_LINE,
        {"messages": [{"role": "user", "content": "plain openai line"}, {"role": "assistant", "content": "ok"}]},
    ])
    out, err, error = run_import(path, "--user", "alice")
    assert error is None, err
    assert "imported 2 new sessions" in out
    session = ChatSession.objects.get(external_id="s-1")
    assert (session.user, session.persona.slug, session.source) == (alice, "mika", "import")
    assert Persona.objects.filter(slug="mika").count() == 1
    assert session.started_at == datetime(2025, 5, 1, 9, tzinfo=dt_timezone.utc)
    assert session.last_active_at == datetime(2025, 5, 1, 9, 1, tzinfo=dt_timezone.utc)  # its last message time
    assert list(session.messages.values_list("seq", "role", "external_id")) == [(1, "user", "m-1"), (2, "assistant", "m-2")]
    plain = ChatSession.objects.exclude(pk=session.pk).get()
    assert plain.user == alice and plain.external_id.startswith("jsonl-")
    times = list(plain.messages.order_by("seq").values_list("created_at", flat=True))
    assert times[0] < times[1] and plain.last_active_at == times[1]


def test_reimporting_is_idempotent_and_appends_only_new_messages(tmp_path):
    UserFactory(username="alice")
    path = write_jsonl(tmp_path / "chats.jsonl", [FULL_LINE, {"messages": [{"role": "user", "content": "no ids"}]}])
    run_import(path, "--user", "alice")
    out, _, error = run_import(path, "--user", "alice")
    assert error is None
    assert "imported 0 new sessions" in out and "3 already there" in out
    assert (ChatSession.objects.count(), Message.objects.count()) == (2, 3)

    grown = dict(FULL_LINE, messages=FULL_LINE["messages"] + [
        {"role": "user", "content": "And I got a cat.", "created_at": "2025-05-01T09:05:00Z", "external_id": "m-3"}])
    write_jsonl(path, [grown])
    out, _, error = run_import(path, "--user", "alice")
    assert error is None and "updated 1" in out
    session = ChatSession.objects.get(external_id="s-1")
    assert list(session.messages.values_list("external_id", flat=True).order_by("seq")) == ["m-1", "m-2", "m-3"]
    assert session.last_active_at == datetime(2025, 5, 1, 9, 5, tzinfo=dt_timezone.utc)


def test_a_bad_line_is_reported_with_its_number_and_the_rest_imports(tmp_path):
    UserFactory(username="alice")
    path = tmp_path / "chats.jsonl"
    path.write_bytes(b"\n".join([
        json.dumps(FULL_LINE).encode(),
        b"{this is not json",
        json.dumps({"messages": [{"role": "robot", "content": "x"}]}).encode(),
        b"",
        b'{"messages": [{"role": "user", "content": "caf\xe9"}]}',
        json.dumps({"external_id": "s-5", "messages": [{"role": "user", "content": "fine"}]}).encode(),
        json.dumps({"user": "ghost", "messages": [{"role": "user", "content": "who"}]}).encode(),
    ]))
    out, err, error = run_import(path, "--user", "alice")
    assert error is not None and "4 lines failed" in error
    assert "line 2: not valid JSON" in err
    assert "line 3: messages[0].role must be one of" in err
    assert "line 5: not valid UTF-8" in err
    assert "line 7: user 'ghost' does not exist (pass --create-user" in err
    assert set(ChatSession.objects.values_list("external_id", flat=True)) == {"s-1", "s-5"}
    assert not get_user_model().objects.filter(username="ghost").exists()


def test_create_user_creates_line_users_and_the_default_user(tmp_path):
    path = write_jsonl(tmp_path / "c.jsonl", [
        {"user": "bob", "messages": [{"role": "user", "content": "hi"}]},
        {"messages": [{"role": "user", "content": "hello"}]},
    ])
    _, err, error = run_import(path, "--user", "carol")
    assert error == "user 'carol' does not exist (pass --create-user to create it)"
    assert ChatSession.objects.count() == 0
    _, err, error = run_import(path, "--user", "carol", "--create-user")
    assert error is None, err
    assert sorted(ChatSession.objects.values_list("user__username", flat=True)) == ["bob", "carol"]


def test_missing_file_and_bad_persona_are_clear(tmp_path):
    assert run_import(tmp_path / "nope.jsonl", "--user", "x")[2] is not None
    UserFactory(username="alice")
    path = write_jsonl(tmp_path / "c.jsonl", [{"persona": "Bad Slug!", "messages": [{"role": "user", "content": "hi"}]}])
    _, err, error = run_import(path, "--user", "alice")
    assert error and "line 1: invalid persona 'Bad Slug!'" in err
    assert ChatSession.objects.count() == 0 and Persona.objects.count() == 0


def _node(node_id, parent, children, role=None, text=None, t=None, **extra):
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role}, "create_time": t,
                   "content": {"content_type": extra.pop("content_type", "text"), "parts": [text] if text is not None else []},
                   "metadata": extra.pop("metadata", {}), "recipient": extra.pop("recipient", "all")}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


CHATGPT_EXPORT = [
    {
        "id": "conv-1", "title": "Moving", "create_time": 1714550400.0, "current_node": "a2",
        "mapping": {
            "root": _node("root", None, ["sys"]),
            "sys": _node("sys", "root", ["u1"], role="system", text="You are ChatGPT"),
            "u1": _node("u1", "sys", ["a1-old", "ctx"], role="user", text="I live in Osaka now.", t=1714550400.0),
            "a1-old": _node("a1-old", "u1", [], role="assistant", text="An abandoned branch", t=1714550401.0),
            "ctx": _node("ctx", "u1", ["a1"], role="user", text="hidden", t=1714550402.0,
                         metadata={"is_visually_hidden_from_conversation": True}),
            "a1": _node("a1", "ctx", ["tool"], role="assistant", text="Osaka is lovely!", t=1714550403.0),
            "tool": _node("tool", "a1", ["empty"], role="tool", text="search results", t=1714550404.0),
            "empty": _node("empty", "tool", ["a2"], role="assistant", text="", t=1714550405.0),
            "a2": _node("a2", "empty", [], role="user", text="Thanks, I love takoyaki.", t=1714550406.0),
        },
    },
    {"id": "conv-2", "title": "Nothing", "mapping": {"root": _node("root", None, [])}, "current_node": "root"},
    {"id": "conv-3", "title": "broken"},
]


def test_chatgpt_export_follows_the_current_branch_and_skips_hidden_parts(tmp_path):
    UserFactory(username="alice")
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(CHATGPT_EXPORT), encoding="utf-8")
    out, err, error = run_import(path, "--user", "alice", "--format", "chatgpt")
    assert error is not None and "1 conversation failed" in error
    assert "conversation 3: a conversation must be an object with a 'mapping'" in err
    assert "1 empty skipped" in out
    session = ChatSession.objects.get()
    assert (session.external_id, session.title, session.source) == ("conv-1", "Moving", "import")
    assert list(session.messages.values_list("role", "content", "external_id").order_by("seq")) == [
        ("user", "I live in Osaka now.", "u1"),
        ("assistant", "Osaka is lovely!", "a1"),
        ("user", "Thanks, I love takoyaki.", "a2"),
    ]
    assert session.last_active_at == datetime.fromtimestamp(1714550406.0, tz=dt_timezone.utc)

    out, _, _ = run_import(path, "--user", "alice", "--format", "chatgpt")
    assert (ChatSession.objects.count(), Message.objects.count()) == (1, 3)
    assert "3 already there" in out


def test_a_file_that_is_not_a_chatgpt_export_is_one_clear_error(tmp_path):
    UserFactory(username="alice")
    path = tmp_path / "conversations.json"
    path.write_text('{"not": "a list"}')
    _, _, error = run_import(path, "--user", "alice", "--format", "chatgpt")
    assert "is a JSON list of conversations" in error
    assert ChatSession.objects.count() == 0


def test_progress_goes_to_stderr(tmp_path):
    UserFactory(username="alice")
    path = write_jsonl(tmp_path / "c.jsonl", [{"external_id": f"s-{i}", "messages": [{"role": "user", "content": "hi"}]}
                                              for i in range(20)])
    _, err, error = run_import(path, "--user", "alice")
    assert error is None
    assert "100%" in err and "20/20" in err  # a tqdm bar on stderr
    assert ChatSession.objects.count() == 20


def _line(external_id, *texts, user=None, persona=None, ids=True):
    line = {"external_id": external_id, "messages": [
        {"role": "user", "content": text, **({"external_id": f"{external_id}-{i}"} if ids else {})} for i, text in enumerate(texts)]}
    if user:
        line["user"] = user
    if persona:
        line["persona"] = persona
    return line


def test_batches_store_the_same_as_one_session_at_a_time(tmp_path):
    from chat import importers
    from chat.services import session_import

    alice = UserFactory(username="alice")
    lines = [
        _line("a", "one", "two", persona="mika"),
        {"messages": [{"role": "user", "content": 5}]},  # bad line between batches
        _line("b", "three"),
        _line("a", "one", "two", "four", persona="mika"),  # the same conversation again, grown, in the same batch
        _line("c", "x", "y", "y", ids=False),
        _line("d", "last", persona="mika"),
    ]
    path = write_jsonl(tmp_path / "c.jsonl", lines)
    seen = []
    report = importers.import_run(
        importers.jsonl_sessions(path.read_bytes().splitlines()), default_username="alice", batch_sessions=3,
        on_item=seen.append,
    )
    assert report.errors == [(2, "content must be a string or a list of text parts")]
    assert (report.sessions_created, report.sessions_updated, report.messages_appended, report.messages_duplicate) == (4, 1, 8, 2)
    assert sorted(seen) == [1, 2, 3, 4, 5, 6]
    a = ChatSession.objects.get(external_id="a")
    assert list(a.messages.order_by("seq").values_list("seq", "content")) == [(1, "one"), (2, "two"), (3, "four")]
    assert a.persona.slug == "mika" and Persona.objects.count() == 1
    c = ChatSession.objects.get(external_id="c")
    assert list(c.messages.order_by("seq").values_list("content", flat=True)) == ["x", "y", "y"]  # no ids: all kept
    assert c.last_active_at == c.messages.order_by("-seq").first().created_at > c.started_at

    # Stored one session at a time, the same lines give the same rows.
    bob = UserFactory(username="bob")
    for line in (lines[0], lines[2], lines[3], lines[4], lines[5]):
        parsed = importers.jsonl_session(line)
        session_import(user=bob, messages=parsed.messages, external_id=parsed.external_id, persona_slug=parsed.persona_slug)
    shape = lambda user: sorted(
        Message.objects.filter(session__user=user).values_list("session__external_id", "seq", "role", "content", "external_id"))
    assert shape(alice) == shape(bob)


def test_a_reimport_in_batches_appends_only_what_is_new_in_a_few_queries(tmp_path, django_assert_max_num_queries):
    UserFactory(username="alice")
    lines = [_line(f"s-{i}", "hello", "there") for i in range(60)]
    path = write_jsonl(tmp_path / "c.jsonl", lines)
    with django_assert_max_num_queries(20):  # users once, then a handful of statements per batch of 500
        _, err, error = run_import(path, "--user", "alice")
    assert error is None, err
    lines[7] = _line("s-7", "hello", "there", "again")
    write_jsonl(path, lines)
    with django_assert_max_num_queries(20):
        out, _, error = run_import(path, "--user", "alice")
    assert error is None
    assert "0 new sessions, updated 1, unchanged 59; 1 message added, 120 already there" in out
    grown = ChatSession.objects.get(external_id="s-7")
    assert list(grown.messages.order_by("seq").values_list("seq", "content")) == [(1, "hello"), (2, "there"), (3, "again")]
    assert grown.last_active_at == grown.messages.get(seq=3).created_at
    assert Message.objects.count() == 121


def test_a_batch_that_meets_a_concurrent_import_is_stored_one_session_at_a_time(tmp_path, monkeypatch):
    from django.db import IntegrityError

    from chat import importers
    from chat.services import NewMessage, session_import

    alice = UserFactory(username="alice")
    real = importers.sessions_import

    def raced(*, sessions, now):
        # Another import stored conversation "b" (first message only) while this batch was on its way.
        session_import(user=alice, messages=[NewMessage("user", "three", None, "b-0")], external_id="b")
        monkeypatch.setattr(importers, "sessions_import", real)
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(importers, "sessions_import", raced)
    path = write_jsonl(tmp_path / "c.jsonl", [_line("a", "one"), _line("b", "three", "four")])
    out, err, error = run_import(path, "--user", "alice")
    assert error is None, err
    assert "imported 1 new session, updated 1" in out and "2 messages added, 1 already there" in out
    assert list(ChatSession.objects.get(external_id="b").messages.order_by("seq").values_list("content", flat=True)) == ["three", "four"]


def test_a_message_over_the_size_limit_fails_its_line_and_the_rest_imports(tmp_path, settings):
    settings.API_MAX_MESSAGE_CHARS = 100
    path = write_jsonl(tmp_path / "c.jsonl", [
        _line("ok-1", "fine"),
        _line("big", "fine too", "x" * 101, user="newcomer", persona="newpersona"),
        _line("ok-2", "x" * 100),
    ])
    _, err, error = run_import(path, "--user", "alice", "--create-user")
    assert error is not None and "1 line failed" in error
    assert "line 2: messages[1].content has 101 characters; the limit is 100 (API_MAX_MESSAGE_CHARS)" in err
    assert set(ChatSession.objects.values_list("external_id", flat=True)) == {"ok-1", "ok-2"}
    assert not get_user_model().objects.filter(username="newcomer").exists()  # a refused line creates nothing
    assert not Persona.objects.exists()
