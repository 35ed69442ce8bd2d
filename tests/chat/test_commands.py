import io
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from chat.models import ApiKey, ChatSession, Message, Persona
from chat.services import api_key_use
from memcenter.management.commands import demo as demo_command

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


# --- API keys ---------------------------------------------------------------------------------

def test_create_api_key_shows_the_secret_once_and_stores_only_its_hash():
    out = run("create_api_key", "frontend")
    secret = out.strip().splitlines()[-1]
    key = ApiKey.objects.get(name="frontend")
    assert secret.startswith("mc_") and secret not in key.hashed_key and key.hashed_key == ApiKey.hash(secret)
    assert api_key_use(secret=secret).key == key


def test_create_api_key_refuses_a_duplicate_name_and_revoke_disables_the_key():
    secret = run("create_api_key", "frontend").strip().splitlines()[-1]
    with pytest.raises(CommandError, match="already exists"):
        run("create_api_key", "frontend")
    assert "revoked API key 'frontend'" in run("create_api_key", "frontend", "--revoke")
    assert api_key_use(secret=secret) is None
    with pytest.raises(CommandError, match="no API key named 'ghost'"):
        run("create_api_key", "ghost", "--revoke")
    assert ApiKey.objects.count() == 1


# --- models -----------------------------------------------------------------------------------

def test_a_session_is_idle_after_the_dream_idle_window(settings):
    from tests.factories import ChatSessionFactory

    settings.DREAM_IDLE_SECONDS = 1800
    now = timezone.now()
    session = ChatSessionFactory(last_active_at=now - timedelta(minutes=31))
    assert session.is_idle(now)
    session.last_active_at = now - timedelta(minutes=29)
    assert not session.is_idle(now)


def test_message_seq_and_external_id_are_unique_per_session():
    from django.db import IntegrityError, transaction

    from tests.factories import ChatSessionFactory, MessageFactory

    session = ChatSessionFactory()
    MessageFactory(session=session, seq=1, external_id="m-1")
    MessageFactory(session=ChatSessionFactory(), seq=1, external_id="m-1")  # another session: fine
    for kwargs in ({"seq": 1, "external_id": "m-2"}, {"seq": 2, "external_id": "m-1"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            MessageFactory(session=session, **kwargs)
    MessageFactory(session=session, seq=2, external_id="")
    MessageFactory(session=session, seq=3, external_id="")  # blank ids do not collide
    assert session.messages.count() == 3


# --- demo -------------------------------------------------------------------------------------

def _counts():
    return (get_user_model().objects.count(), ChatSession.objects.count(), Message.objects.count(), Persona.objects.count())


def test_demo_loads_users_and_conversations_and_is_idempotent():
    out = run("demo", "--no-dream")
    assert "demo / password: demo-memcenter" in out and "admin / password: admin-memcenter" in out
    first = _counts()
    out = run("demo", "--no-dream")
    assert _counts() == first
    assert "0 new sessions, 0 new messages" in out

    demo = get_user_model().objects.get(username="demo")
    admin = get_user_model().objects.get(username="admin")
    assert demo.check_password("demo-memcenter") and not demo.is_staff
    assert admin.is_staff and admin.is_superuser and admin.check_password("admin-memcenter")
    sessions = ChatSession.objects.filter(user=demo)
    assert sessions.count() >= 15 and sessions.filter(source="import").count() == sessions.count()
    assert sessions.filter(persona__slug="mika").count() >= 3
    contents = "\n".join(Message.objects.filter(session__user=demo).values_list("content", flat=True))
    for must in ("Shanghai", "Tokyo", "hunter2-Blue", "asthma", "Mochi", "```python", "翻译", "Stay in character",
                 "summarize this article", "东京"):
        assert must in contents, must
    now = timezone.now()
    first_start = sessions.order_by("started_at").first().started_at
    last_active = sessions.order_by("-last_active_at").first().last_active_at
    assert timedelta(days=35) < now - first_start < timedelta(days=50)
    assert timedelta(hours=6) < now - last_active < timedelta(days=3)  # idle, so a nightly run picks it up


def test_demo_dreams_through_the_dream_command_when_it_exists(monkeypatch):
    calls = []
    monkeypatch.setattr(demo_command, "get_commands", lambda: {"dream": "dreaming"})
    monkeypatch.setattr(demo_command, "call_command", lambda *args, **kwargs: calls.append(args))
    run("demo")
    assert calls == [("dream", "--now", "--backfill", "--user", "demo")]


def test_demo_says_so_when_dreaming_is_not_available(monkeypatch):
    monkeypatch.setattr(demo_command, "get_commands", lambda: {})
    assert "dreaming is not available yet" in run("demo")


def test_demo_file_is_valid_import_data_in_both_languages():
    parsed = list(demo_command.demo_sessions(now=timezone.now()))
    assert all(not isinstance(item, Exception) for _, item in parsed)
    texts = [m.content for _, s in parsed for m in s.messages]
    assert any(re.search(r"[\u4e00-\u9fff]", t) for t in texts) and any(re.search(r"[A-Za-z]{4}", t) for t in texts)
    ids = [s.external_id for _, s in parsed]
    assert len(ids) == len(set(ids))
    for line in demo_command.DEMO_FILE.read_text(encoding="utf-8").splitlines():
        assert {"external_id", "days_ago", "messages"} <= set(json.loads(line))
