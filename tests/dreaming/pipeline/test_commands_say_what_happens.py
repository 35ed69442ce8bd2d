"""Commands say what happened and what waits, in one line per phase with right plurals; imports fail readably."""
import io
import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from chat.models import ChatSession
from dreaming.models import MemorySettings
from tests.factories import ChatSessionFactory, MessageFactory, UserFactory

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*map(str, args), stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), str(exc)
    return out.getvalue(), err.getvalue(), None


def test_dream_now_says_what_waits_and_why_on_one_light_line(settings):
    settings.LLM_BACKEND, settings.EMBEDDING_BACKEND = "local", "local"
    now = timezone.now()
    busy = UserFactory()
    for _ in range(3):  # still active: they wait to be idle
        MessageFactory(session=ChatSessionFactory(user=busy, last_active_at=now), content="I have a dog named Milo")
    quiet = UserFactory()
    MemorySettings.objects.create(user=quiet, enabled=False)
    MessageFactory(session=ChatSessionFactory(user=quiet, last_active_at=now - timedelta(days=1)), content="hello")
    done = ChatSessionFactory(user=UserFactory(), last_active_at=now - timedelta(days=1))
    MessageFactory(session=done, content="I live in Lyon")

    _out, err, error = run("dream", "--now", "--phase", "light")

    assert error is None
    light = [line for line in err.splitlines() if line.startswith("light")]
    assert light == [("light    1 session dreamed; 3 sessions wait to be idle (30 min without a message); "
                      "1 session waits because memory is off for their user")]
    assert "(s)" not in err
    assert ChatSession.objects.get(pk=done.pk).dreamed_at is not None


def test_import_with_an_empty_file_fails_with_one_readable_line(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    _out, _err, error = run("import_chats", empty, "--user", "ada", "--create-user")
    assert error == f"{empty}: nothing to import (the file is empty)"
    assert not ChatSession.objects.exists()


def test_import_reads_a_file_that_starts_with_a_utf8_bom(tmp_path):
    path = tmp_path / "notepad.jsonl"
    line = {"messages": [{"role": "user", "content": "我住在上海"}, {"role": "assistant", "content": "好"}]}
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(line, ensure_ascii=False).encode("utf-8") + b"\n")
    out, err, error = run("import_chats", path, "--user", "ada", "--create-user")
    assert error is None, err
    assert "imported 1 new session," in out and "2 messages added" in out
    assert ChatSession.objects.get().messages.first().content == "我住在上海"


def test_import_format_help_has_an_example(capsys):
    from chat.management.commands.import_chats import Command

    parser = Command().create_parser("manage.py", "import_chats")
    text = parser.format_help()
    assert '{"user": "ada"' in text and "conversations.json" in text and "Example:" in text
