"""Bad input: a fuzzer over the API schema, and hostile bodies and import files. Every one gets a
clear 4xx or an error line, and nothing else is lost."""
import json

import pytest
import schemathesis
from django.core.management import CommandError, call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings as hypothesis_settings

from chat.models import ChatSession, Client, Message
from memcenter.wsgi import application
from tests.factories import ChatSessionFactory, MessageFactory, api_key_create, client_user

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
FUZZ_EXAMPLES = 40


@pytest.fixture
def fuzz_key(db, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 100_000
    key, secret = api_key_create("fuzzer")
    client_user(key.client, "alice")
    # Called straight through WSGI, Django would close the test's DB connection after each request
    # (Django's own test Client switches this off the same way).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield secret
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


SERVER_ERRORS = []


@schema.parametrize()
@hypothesis_settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
def test_the_api_never_answers_a_server_error_to_generated_input(case, fuzz_key):
    response = case.call(headers={"Authorization": f"Bearer {fuzz_key}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:300]}"
    # 4xx answers say what was wrong: a JSON body with a detail, never an HTML error page.
    if response.status_code >= 400 and response.status_code != 405:  # 405: a method the route lacks
        assert "detail" in response.json(), response.text[:300]


@pytest.fixture
def api(client, db):
    secret = api_key_create("hostile-client")[1]

    def post(path, raw: bytes, content_type="application/json"):
        return client.generic("POST", f"/api/v1{path}", raw, content_type=content_type,
                              HTTP_AUTHORIZATION=f"Bearer {secret}")

    return post


@pytest.fixture
def existing(db):
    hostile = Client.objects.get_or_create(name="hostile-client")[0]  # the `api` fixture's key's client
    session = ChatSessionFactory(user=client_user(hostile, "alice"), external_id="keep-me")
    MessageFactory(session=session, seq=1, content="I have a dog named Milo.")
    return session


def _nothing_else_changed(session):
    assert ChatSession.objects.count() == 1
    assert list(Message.objects.values_list("session_id", "seq", "content")) == [
        (session.pk, 1, "I have a dog named Milo.")]


@pytest.mark.parametrize("raw, status", [
    (b"\xff\xfe{\"messages\": []}", 400),                                  # invalid UTF-8
    (b"{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"", 400),        # truncated JSON
    (b"[" * 100_000 + b"]" * 100_000, 400),                                  # nesting bomb
    (b"\x00\x01\x02 binary garbage", 400),
    (json.dumps({"messages": [{"role": "user", "content": "x\u0000y"}]}).encode(), 422),  # NUL: Postgres refuses it
    (json.dumps({"messages": [{"role": "user", "content": "\ud800"}]}).encode(), 422),   # lone surrogate
    (json.dumps({"messages": [{"role": "user", "content": 5}]}).encode(), 422),
])
def test_a_hostile_body_is_a_clear_4xx_and_loses_nothing(api, existing, raw, status):
    response = api(f"/sessions/{existing.pk}/messages", raw)
    assert response.status_code in (400, 413, 422), (response.status_code, response.content[:200])
    assert response.json()["detail"]
    _nothing_else_changed(existing)


def test_an_oversize_body_and_a_huge_message_are_413_and_lose_nothing(api, existing, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
    body = json.dumps({"messages": [{"role": "user", "content": "a" * 200_000}]}).encode()
    response = api(f"/sessions/{existing.pk}/messages", body)
    assert response.status_code == 413 and "too large" in response.json()["detail"]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
    huge = {"messages": [{"role": "user", "content": "fine"}, {"role": "user", "content": "b" * 2_000_000}]}
    response = api(f"/sessions/{existing.pk}/messages", json.dumps(huge).encode())
    assert response.status_code == 413 and response.json()["detail"]
    _nothing_else_changed(existing)  # the good message of the same batch was not stored either


def test_a_malformed_import_file_reports_each_bad_line_and_keeps_the_good_ones(tmp_path, existing, capsys):
    good = {"external_id": "fresh", "messages": [{"role": "user", "content": "I live in Porto."}]}
    path = tmp_path / "nasty.jsonl"
    path.write_bytes(b"\n".join([
        json.dumps(good).encode(),
        b"\xff\xfe not utf-8 at all",
        b"{\"messages\": [",
        b"[" * 50_000 + b"]" * 50_000,
        b"\x00\x00\x00\x00",
        json.dumps({"messages": [{"role": "user", "content": "x\u0000y"}]}).encode(),
        json.dumps({"messages": "nope"}).encode(),
        json.dumps({"external_id": "huge", "messages": [{"role": "user", "content": "z" * 3_000_000}]}).encode(),
    ]))

    with pytest.raises(CommandError) as failure:
        call_command("import_chats", str(path), "--user", "alice", "--client", "hostile-client")

    message = str(failure.value)
    assert "\n" not in message and "failed" in message  # one readable line
    err = capsys.readouterr().err
    for number in range(2, 8):
        assert f"line {number}:" in err, (number, err[-2000:])
    assert "Traceback" not in err
    fresh = ChatSession.objects.get(external_id="fresh")
    assert list(fresh.messages.values_list("content", flat=True)) == ["I live in Porto."]
    assert list(existing.messages.values_list("content", flat=True)) == ["I have a dog named Milo."]
    # A 3 MB message is either refused with its line number or stored whole (never cut silently).
    if "line 8:" not in err:
        assert len(Message.objects.get(session__external_id="huge").content) == 3_000_000
    else:
        assert not ChatSession.objects.filter(external_id="huge").exists()
