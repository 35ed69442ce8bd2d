import json
import time
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from chat.models import ApiKey, ChatSession, Client, ClientUser, Message, Persona
from chat.services import api_key_use
from tests.factories import ChatSessionFactory, MessageFactory, api_key_create, client_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def secret():
    return api_key_create("test-client")[1]


def _user(username: str):
    return client_user(Client.objects.get(name="test-client"), username)


def _session(**fields):
    """A session of one of the test key's client's users."""
    if "user" not in fields:
        fields["user"] = _user(f"owner-{ChatSession.objects.count()}")
    return ChatSessionFactory(**fields)


@pytest.fixture
def api(client, secret):
    def call(method, path, body=None, *, token=secret, raw=None, content_type="application/json"):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        kwargs = {"content_type": content_type} if data is not None else {}
        return getattr(client, method)(f"/api/v1{path}", data, **kwargs, **headers) if data is not None else getattr(
            client, method
        )(f"/api/v1{path}", **headers)

    return call


# --- auth -------------------------------------------------------------------------------------

def test_it_refuses_a_request_without_a_key(api):
    response = api("get", "/users/alice/sessions", token=None)
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.json()["detail"]
    assert response["WWW-Authenticate"] == "Bearer"


def test_it_refuses_an_unknown_key(api):
    response = api("post", "/sessions", {"username": "alice", "create_user": True}, token="mc_not-a-real-key")
    assert response.status_code == 401
    assert not ClientUser.objects.filter(username="alice").exists()


def test_a_revoked_key_gets_401_and_changes_nothing(api, secret):
    from django.core.management import call_command

    call_command("create_api_key", "test-client", "--revoke", stdout=open("/dev/null", "w"))
    response = api("post", "/sessions", {"username": "alice", "create_user": True})
    assert response.status_code == 401
    assert not ClientUser.objects.filter(username="alice").exists()
    assert ApiKey.objects.get(name="test-client").revoked_at is not None


def test_a_valid_key_is_marked_used(api):
    _user("alice")
    assert api("get", "/users/alice/sessions").status_code == 200
    assert ApiKey.objects.get(name="test-client").last_used_at is not None


# --- sessions ---------------------------------------------------------------------------------

def test_it_creates_a_session_for_a_known_user(api):
    alice = _user("alice")
    response = api("post", "/sessions", {"username": "alice", "external_id": "s-1", "persona": "mika", "title": "Hi"})
    assert response.status_code == 201
    body = response.json()
    session = ChatSession.objects.get(pk=body["id"])
    assert (session.user, session.external_id, session.persona.slug, session.source) == (alice, "s-1", "mika", "api")
    assert body["triage"] == {"kind": "", "skipped": False, "reason": ""}
    assert body["message_count"] == 0


def test_creating_the_same_external_id_again_returns_the_existing_session(api):
    _user("alice")
    first = api("post", "/sessions", {"username": "alice", "external_id": "s-1"})
    again = api("post", "/sessions", {"username": "alice", "external_id": "s-1", "title": "changed"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    assert ChatSession.objects.count() == 1
    assert ChatSession.objects.get().title == ""


def test_an_unknown_user_is_404_unless_create_user(api):
    response = api("post", "/sessions", {"username": "bob"})
    assert response.status_code == 404
    assert "create_user" in response.json()["detail"]
    assert ChatSession.objects.count() == 0

    response = api("post", "/sessions", {"username": "bob", "create_user": True})
    assert response.status_code == 201
    bob = ClientUser.objects.get(username="bob").user
    assert not bob.has_usable_password()
    assert ChatSession.objects.get().user == bob


def test_a_rejected_session_creates_no_user_and_no_persona(api):
    response = api("post", "/sessions", {"username": "newbie", "create_user": True, "persona": "a--b"})
    assert response.status_code == 422
    assert "invalid persona 'a--b'" in response.json()["detail"]
    assert not ClientUser.objects.filter(username="newbie").exists()
    assert Persona.objects.count() == 0


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"username": ""}, "username"),
        ({"username": "has space"}, "username"),
        ({"username": "a" * 151}, "username"),
        ({"username": "alice", "persona": "Not A Slug"}, "persona"),
        ({"username": "alice", "external_id": "x" * 201}, "external_id"),
        ({"username": "alice", "title": "nul\u0000byte"}, "title"),
        ({"username": "alice", "started_at": "yesterday"}, "started_at"),
        ({"username": "alice", "started_at": "0001-01-01T00:00:00+14:00"}, "started_at"),
    ],
)
def test_invalid_session_input_is_422_with_the_field(api, payload, field):
    _user("alice")
    response = api("post", "/sessions", payload)
    assert response.status_code == 422
    assert any(field in err["loc"] for err in response.json()["detail"])
    assert ChatSession.objects.count() == 0


def test_a_body_that_is_not_json_or_not_utf8_is_400(api):
    assert api("post", "/sessions", raw=b"{not json").status_code == 400
    response = api("post", "/sessions", raw=b'{"username": "al\xff\xfeice", "create_user": true}')
    assert response.status_code == 400
    assert "Cannot parse request body" in response.json()["detail"]
    assert get_user_model().objects.count() == 0


# --- messages ---------------------------------------------------------------------------------

def test_appending_assigns_seqs_in_order_and_moves_last_active_at(api):
    session = _session(external_id="s-1")
    old_active = session.last_active_at
    response = api("post", f"/sessions/{session.pk}/messages", {"messages": [
        {"role": "user", "content": "I have a dog named Milo.", "external_id": "m-1"},
        {"role": "assistant", "content": "Nice!", "external_id": "m-2"},
        {"role": "user", "content": "He is three."},
    ]})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["appended"], body["duplicates"]) == (3, 0)
    assert [m["seq"] for m in body["messages"]] == [1, 2, 3]
    stored = list(session.messages.order_by("seq").values_list("seq", "role", "external_id"))
    assert stored == [(1, "user", "m-1"), (2, "assistant", "m-2"), (3, "user", "")]
    times = list(session.messages.order_by("seq").values_list("created_at", flat=True))
    assert times == sorted(times) and len(set(times)) == 3  # filled times stay strictly in order
    session.refresh_from_db()
    assert session.last_active_at > old_active
    assert session.last_active_at == times[-1]


def test_appending_is_idempotent_on_external_id(api):
    session = _session()
    batch = {"messages": [
        {"role": "user", "content": "one", "external_id": "m-1"},
        {"role": "user", "content": "two", "external_id": "m-2"},
    ]}
    api("post", f"/sessions/{session.pk}/messages", batch)
    retry = api("post", f"/sessions/{session.pk}/messages", {"messages": batch["messages"] + [
        {"role": "user", "content": "three", "external_id": "m-3"},
        {"role": "user", "content": "three again", "external_id": "m-3"},
    ]})
    assert retry.status_code == 200
    body = retry.json()
    assert (body["appended"], body["duplicates"]) == (1, 3)
    assert [(m["seq"], m["duplicate"]) for m in body["messages"]] == [(1, True), (2, True), (3, False), (3, True)]
    assert list(session.messages.values_list("content", flat=True).order_by("seq")) == ["one", "two", "three"]


def test_explicit_times_are_kept_and_naive_times_are_utc(api):
    session = _session(last_active_at=datetime(2024, 1, 1, tzinfo=dt_timezone.utc))
    api("post", f"/sessions/{session.pk}/messages", {"messages": [
        {"role": "user", "content": "hello", "created_at": "2024-03-01T10:00:00"},
        {"role": "user", "content": "later", "created_at": "2024-03-01T12:00:00+02:00"},
    ]})
    times = list(session.messages.order_by("seq").values_list("created_at", flat=True))
    assert times == [datetime(2024, 3, 1, 10, tzinfo=dt_timezone.utc), datetime(2024, 3, 1, 10, 0, tzinfo=dt_timezone.utc)]
    session.refresh_from_db()
    assert session.last_active_at == datetime(2024, 3, 1, 10, tzinfo=dt_timezone.utc)


def test_appending_to_a_dreamed_session_keeps_it_dreamed_and_adds_after_processed_seq(api):
    session = _session(dreamed_at=timezone.now() - timedelta(minutes=5), processed_seq=1)
    MessageFactory(session=session, seq=1, external_id="m-1")
    response = api("post", f"/sessions/{session.pk}/messages", {"messages": [{"role": "user", "content": "new part"}]})
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.dreamed_at is not None and session.processed_seq == 1
    assert session.messages.get(seq=2).content == "new part"
    assert session.last_active_at > session.dreamed_at


@pytest.mark.parametrize(
    "messages",
    [
        [],
        [{"role": "robot", "content": "hi"}],
        [{"role": "user", "content": ""}],
        [{"role": "user"}],
        [{"role": "user", "content": "a\u0000b"}],
        [{"role": "user", "content": "ok", "created_at": "not a time"}],
    ],
)
def test_invalid_messages_are_422_and_nothing_is_stored(api, messages):
    session = _session()
    response = api("post", f"/sessions/{session.pk}/messages", {"messages": messages})
    assert response.status_code == 422
    assert response.json()["detail"]
    assert Message.objects.count() == 0


def test_a_lone_surrogate_is_422_not_500(api):
    session = _session()
    raw = b'{"messages": [{"role": "user", "content": "bad \\ud800 text"}]}'
    response = api("post", f"/sessions/{session.pk}/messages", raw=raw)
    assert response.status_code == 422
    assert Message.objects.count() == 0


def test_an_oversize_batch_is_413_with_the_limit(api, settings):
    settings.API_MAX_MESSAGES_PER_REQUEST = 3
    session = _session()
    response = api("post", f"/sessions/{session.pk}/messages",
                   {"messages": [{"role": "user", "content": f"m{i}"} for i in range(4)]})
    assert response.status_code == 413
    assert "limit is 3" in response.json()["detail"]
    assert Message.objects.count() == 0


def test_an_oversize_message_is_413_and_the_batch_is_not_stored(api, settings):
    settings.API_MAX_MESSAGE_CHARS = 100
    session = _session()
    response = api("post", f"/sessions/{session.pk}/messages", {"messages": [
        {"role": "user", "content": "fine"}, {"role": "user", "content": "x" * 101},
    ]})
    assert response.status_code == 413
    assert "message 1 has 101 characters" in response.json()["detail"]
    assert Message.objects.count() == 0


def test_appending_to_a_missing_session_is_404(api):
    response = api("post", "/sessions/999999/messages", {"messages": [{"role": "user", "content": "hi"}]})
    assert response.status_code == 404
    assert "session 999999 not found" in response.json()["detail"]
    assert api("get", f"/sessions/{2**63}").status_code == 422


def test_the_ingestion_path_never_touches_memory(api, monkeypatch):
    import dreaming.providers as providers

    def boom(*args, **kwargs):
        raise AssertionError("the chat path must not reach a provider")

    monkeypatch.setattr(providers, "get_dreamer", boom)
    monkeypatch.setattr(providers, "get_embedder", boom)
    session = _session()
    assert api("post", f"/sessions/{session.pk}/messages", {"messages": [{"role": "user", "content": "hi"}]}).status_code == 200
    from dreaming.models import Candidate, LLMCall, Memory

    assert (Candidate.objects.count(), Memory.objects.count(), LLMCall.objects.count()) == (0, 0, 0)


# --- reading ----------------------------------------------------------------------------------

def test_reading_a_session_shows_messages_triage_and_dream_state(api):
    session = _session(triage_kind="coding", skipped=True, triage_reason="coding: code fence",
                                 dreamed_at=timezone.now(), persona=Persona.objects.create(slug="mika", name="Mika"))
    for seq in (1, 2, 3):
        MessageFactory(session=session, seq=seq, content=f"msg {seq}")
    body = api("get", f"/sessions/{session.pk}").json()
    assert body["triage"] == {"kind": "coding", "skipped": True, "reason": "coding: code fence"}
    assert body["dreamed_at"] is not None and body["persona"] == "mika"
    assert [m["content"] for m in body["messages"]] == ["msg 1", "msg 2", "msg 3"]
    assert body["message_count"] == 3 and body["has_more"] is False

    page = api("get", f"/sessions/{session.pk}?after_seq=1&limit=1").json()
    assert [m["seq"] for m in page["messages"]] == [2] and page["has_more"] is True


def test_listing_a_users_sessions_is_most_recent_first_and_only_theirs(api):
    alice = _user("alice")
    now = timezone.now()
    old = _session(user=alice, last_active_at=now - timedelta(days=2))
    new = _session(user=alice, last_active_at=now - timedelta(hours=1))
    ChatSessionFactory()  # a web account's: never listed
    body = api("get", "/users/alice/sessions?limit=10").json()
    assert body["count"] == 2
    assert [s["id"] for s in body["items"]] == [new.pk, old.pk]
    assert api("get", "/users/nobody/sessions").status_code == 404


def test_openapi_schema_lists_the_ingestion_endpoints(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/v1/sessions", "/api/v1/sessions/{session_id}/messages", "/api/v1/sessions/{session_id}",
            "/api/v1/users/{username}/sessions"} <= set(paths)


# --- rate limit -------------------------------------------------------------------------------

def test_the_rate_limit_answers_429_with_retry_after(api, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 3
    _user("alice")
    if datetime.now().second >= 57:  # keep the burst inside one window
        time.sleep(4)
    codes = [api("get", "/users/alice/sessions").status_code for _ in range(3)]
    refused = api("get", "/users/alice/sessions")
    assert codes == [200, 200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "3 requests per minute" in refused.json()["detail"]


def test_the_rate_limit_is_per_key(api, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 1
    _user("alice")
    _, other = api_key_create("other-client", client=Client.objects.get(name="test-client"))
    if datetime.now().second >= 57:
        time.sleep(4)
    assert api("get", "/users/alice/sessions").status_code == 200
    assert api("get", "/users/alice/sessions").status_code == 429
    assert api("get", "/users/alice/sessions", token=other).status_code == 200


def test_the_rate_window_resets_each_minute(secret, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 2
    t0 = datetime(2030, 1, 1, 12, 0, 10, tzinfo=dt_timezone.utc)
    uses = [api_key_use(secret=secret, now=t0 + timedelta(seconds=s)) for s in (0, 1, 2)]
    assert [u.over_limit for u in uses] == [False, False, True]
    assert uses[2].retry_after == 48
    fresh = api_key_use(secret=secret, now=t0 + timedelta(seconds=55))
    assert fresh.window_count == 1 and not fresh.over_limit
    assert api_key_use(secret="mc_wrong", now=t0) is None


# --- hostile input never gives a 500 ----------------------------------------------------------

@pytest.mark.parametrize(
    "method, path, raw",
    [
        ("post", "/sessions", b"[]"),
        ("post", "/sessions", b"null"),
        ("post", "/sessions", b'"just a string"'),
        ("post", "/sessions", b'{"username": 12345678901234567890}'),
        ("post", "/sessions", b'{"username": "alice", "started_at": "9999-12-31T23:59:59-14:00"}'),
        ("post", "/sessions", b'{"username": "\\u0000"}'),
        ("post", "/sessions/1/messages", b'{"messages": "not a list"}'),
        ("post", "/sessions/1/messages", b'{"messages": [null]}'),
        ("post", "/sessions/1/messages", b'{"messages": [{"role": "user", "content": 5}]}'),
        ("post", "/sessions/1/messages", b'{"messages": [{"role": "user", "content": "x", "external_id": "\\u0000"}]}'),
        ("post", "/sessions/1/messages", b'\xef\xbb\xbf{"messages": []}'),
        ("get", "/users/%00/sessions", None),
        ("get", "/users/alice/sessions?limit=-1", None),
        ("get", "/users/alice/sessions?offset=99999999999999999999", None),
        ("get", "/sessions/-1", None),
        ("get", "/sessions/abc", None),
        ("get", "/sessions/1?after_seq=-5", None),
    ],
)
def test_hostile_input_gets_a_4xx_with_a_message(api, method, path, raw):
    _user("alice")
    _session(id=1)
    response = api(method, path, raw=raw) if raw is not None else api(method, path)
    assert 400 <= response.status_code < 500, response.content
    assert response.json()["detail"]
    assert Message.objects.count() == 0


def test_a_body_over_the_upload_limit_is_413(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    session = _session()
    response = api("post", f"/sessions/{session.pk}/messages", {"messages": [{"role": "user", "content": "x" * 5000}]})
    assert response.status_code == 413
    assert "too large" in response.json()["detail"]
    assert Message.objects.count() == 0
