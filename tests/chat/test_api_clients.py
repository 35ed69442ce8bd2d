"""Clients own their users (issue #15): a key reaches only its own client's users.

The attacks: a web sign-up squatting a name the chat product will later send, and client B's key
used on client A's users, on every API route (the route list is checked against the OpenAPI schema,
so a new route without an attack here fails)."""
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client as HttpClient
from django.urls import reverse

from chat.models import ApiKey, ChatSession, Client, ClientUser, Message
from dreaming.models import Memory
from memcenter.api import api as ninja_api
from tests.factories import (
    ChatSessionFactory, MemoryFactory, MessageFactory, PersonaFactory, UserFactory, api_key_create, client_user,
)

pytestmark = pytest.mark.django_db


def _call(http, secret, method, path, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    if method == "post":
        return http.post(f"/api/v1{path}", json.dumps(body or {}), content_type="application/json", **headers)
    return http.get(f"/api/v1{path}", **headers)


def _victim_routes(username: str, session_id: int) -> list[tuple[str, str, str, dict | None]]:
    """(method, schema path, concrete path, body) for every route, aimed at one victim."""
    return [
        ("post", "/api/v1/sessions", "/sessions", {"username": username}),
        ("post", "/api/v1/sessions/{session_id}/messages", f"/sessions/{session_id}/messages",
         {"messages": [{"role": "user", "content": "I am in your conversation now."}]}),
        ("get", "/api/v1/sessions/{session_id}", f"/sessions/{session_id}", None),
        ("get", "/api/v1/users/{username}/sessions", f"/users/{username}/sessions", None),
        ("get", "/api/v1/users/{username}/memory.md", f"/users/{username}/memory.md", None),
        ("get", "/api/v1/users/{username}/recall", f"/users/{username}/recall?q=Milo", None),
        ("post", "/api/v1/users/{username}/login-link", f"/users/{username}/login-link", None),
    ]


def test_the_attack_table_covers_every_api_route():
    schema = ninja_api.get_openapi_schema()
    routes = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert routes == {(method, path) for method, path, _, _ in _victim_routes("x", 1)}


def _victim_with_history(user):
    session = ChatSessionFactory(user=user, external_id="private")
    MessageFactory(session=session, seq=1, content="I have a dog named Milo.")
    MemoryFactory(user=user, statement="User has a dog named Milo")
    return session


def _untouched(user, session):
    assert list(Message.objects.filter(session__user=user).values_list("content", flat=True)) == ["I have a dog named Milo."]
    assert list(ChatSession.objects.filter(user=user).values_list("pk", flat=True)) == [session.pk]
    assert user.last_login is None or user.last_login == get_user_model().objects.get(pk=user.pk).last_login


@pytest.mark.parametrize("route", range(7))
def test_client_b_cannot_reach_client_a_users_on_any_route(route):
    key_a, _ = api_key_create("client-a")
    _, secret_b = api_key_create("client-b")
    victim = client_user(key_a.client, "carl")
    session = _victim_with_history(victim)
    method, _, path, body = _victim_routes("carl", session.pk)[route]

    response = _call(HttpClient(), secret_b, method, path, body)

    assert response.status_code == 404, response.content
    assert "carl" not in response.content.decode() or "does not exist" in response.content.decode()
    assert "Milo" not in response.content.decode()
    _untouched(victim, session)
    assert not ClientUser.objects.filter(client__name="client-b").exists()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("route", range(7))
def test_no_key_reaches_a_web_account_even_by_its_exact_username(route):
    _, secret = api_key_create("chat-product")
    carl = UserFactory(username="carl@example.com")  # signed up on the web
    session = _victim_with_history(carl)
    method, _, path, body = _victim_routes("carl@example.com", session.pk)[route]

    response = _call(HttpClient(), secret, method, path, body)

    assert response.status_code == 404, response.content
    assert "Milo" not in response.content.decode()
    _untouched(carl, session)


def test_the_squatting_attack_gives_the_client_a_distinct_user():
    """A stranger signs up as carl@example.com; later the chat product creates its own carl@example.com.
    The product's user is a different account: the stranger sees none of it, and the product sees
    none of the stranger's."""
    squatter = UserFactory(username="carl@example.com")
    squatter_session = _victim_with_history(squatter)
    key, secret = api_key_create("chat-product")
    http = HttpClient()

    created = _call(http, secret, "post", "/sessions", {"username": "carl@example.com", "create_user": True,
                                                        "external_id": "real-carl-1"})
    assert created.status_code == 201, created.content
    assert created.json()["username"] == "carl@example.com"
    session_id = created.json()["id"]
    appended = _call(http, secret, "post", f"/sessions/{session_id}/messages",
                     {"messages": [{"role": "user", "content": "My sister is called Ana."}]})
    assert appended.status_code == 200

    real_carl = ClientUser.objects.get(client=key.client, username="carl@example.com").user
    assert real_carl.pk != squatter.pk and not real_carl.has_usable_password()
    assert ChatSession.objects.get(pk=session_id).user == real_carl
    _untouched(squatter, squatter_session)
    listed = _call(http, secret, "get", "/users/carl@example.com/sessions").json()
    assert [item["id"] for item in listed["items"]] == [session_id]
    # The squatter's memory center shows only the squatter's own conversation.
    page = HttpClient()
    page.force_login(squatter)
    conversations = page.get(reverse("memcenter:conversations")).content.decode()
    assert "Ana" not in conversations and "real-carl-1" not in conversations
    assert page.get(reverse("memcenter:conversation", args=[session_id])).status_code == 404


def test_two_clients_may_use_the_same_username_for_different_people():
    key_a, secret_a = api_key_create("client-a")
    key_b, secret_b = api_key_create("client-b")
    http = HttpClient()
    a = _call(http, secret_a, "post", "/sessions", {"username": "1001", "create_user": True})
    b = _call(http, secret_b, "post", "/sessions", {"username": "1001", "create_user": True})
    assert a.status_code == b.status_code == 201
    user_a = ClientUser.objects.get(client=key_a.client, username="1001").user
    user_b = ClientUser.objects.get(client=key_b.client, username="1001").user
    assert user_a != user_b
    assert _call(http, secret_a, "get", f"/sessions/{b.json()['id']}").status_code == 404
    assert [s["id"] for s in _call(http, secret_b, "get", "/users/1001/sessions").json()["items"]] == [b.json()["id"]]


def test_a_second_key_of_the_same_client_sees_the_same_users(capsys):
    call_command("create_api_key", "frontend-2026", "--client", "frontend", stdout=StringIO())
    out = StringIO()
    call_command("create_api_key", "frontend-2027", "--client", "frontend", stdout=out)
    secret = out.getvalue().strip().splitlines()[-1]
    assert "client 'frontend'" in out.getvalue()
    client = Client.objects.get(name="frontend")
    assert set(ApiKey.objects.filter(client=client).values_list("name", flat=True)) == {"frontend-2026", "frontend-2027"}
    client_user(client, "dana")
    assert _call(HttpClient(), secret, "get", "/users/dana/sessions").status_code == 200


def test_create_api_key_without_a_client_makes_a_client_of_its_own():
    call_command("create_api_key", "solo", stdout=StringIO())
    assert ApiKey.objects.get(name="solo").client.name == "solo"


def test_import_chats_with_a_client_creates_that_clients_users(tmp_path):
    api_key_create("frontend")
    web_ana = UserFactory(username="ana")
    path = tmp_path / "chats.jsonl"
    path.write_text(json.dumps({"user": "ana", "external_id": "c-1",
                                "messages": [{"role": "user", "content": "I live in Porto."}]}) + "\n")

    call_command("import_chats", str(path), "--client", "frontend", "--create-user", stdout=StringIO(), stderr=StringIO())

    imported = ClientUser.objects.get(client__name="frontend", username="ana").user
    assert imported != web_ana
    assert ChatSession.objects.get(external_id="c-1").user == imported
    assert not ChatSession.objects.filter(user=web_ana).exists()
    with pytest.raises(CommandError, match="no client named 'ghost'"):
        call_command("import_chats", str(path), "--client", "ghost", stdout=StringIO(), stderr=StringIO())


def test_the_chat_page_lists_only_the_users_own_personas():
    alice, bob = UserFactory(), UserFactory()
    ChatSessionFactory(user=alice, persona=PersonaFactory(slug="mika", name="Mika"))
    ChatSessionFactory(user=bob, persona=PersonaFactory(slug="secret-lover", name="Secret Lover"))
    page = HttpClient()
    page.force_login(alice)
    html = page.get(reverse("chat:page")).content.decode()
    assert "Mika" in html and "Secret Lover" not in html
    assert page.get(reverse("chat:page") + "?persona=secret-lover").status_code == 404
    response = page.post(reverse("chat:send"), {"message": "hi", "persona": "secret-lover"})
    assert response.status_code == 404
    assert not ChatSession.objects.filter(user=alice, persona__slug="secret-lover").exists()


def test_memory_md_of_another_users_persona_is_a_404():
    key, secret = api_key_create("frontend")
    carol = client_user(key.client, "carol")
    MemoryFactory(user=UserFactory(), persona=PersonaFactory(slug="luna"))
    MemoryFactory(user=carol, statement="User likes tea")
    response = _call(HttpClient(), secret, "get", "/users/carol/memory.md?persona=luna")
    assert response.status_code == 404
    assert Memory.objects.filter(user=carol).count() == 1


@pytest.mark.django_db(transaction=True)
def test_migration_0003_puts_existing_keys_and_api_users_into_one_default_client():
    from django.contrib.auth.hashers import make_password
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    def migrate(target):
        executor = MigrationExecutor(connection)
        executor.migrate([("chat", target)])
        return executor.loader.project_state([("chat", target)]).apps

    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("chat")[0][1]
    old = migrate("0002_foundation_api_rate_window")
    try:
        OldUser, OldKey = old.get_model("auth", "User"), old.get_model("chat", "ApiKey")
        OldKey.objects.create(name="frontend", prefix="mc_abcde", hashed_key="0" * 64)
        OldUser.objects.create(username="api-alice", password=make_password(None))  # made by create_user: true
        OldUser.objects.create(username="web-bob", password=make_password("a-long-pass-phrase-42"))
        OldUser.objects.create(username="staff", password=make_password(None), is_staff=True)
    finally:
        migrate(leaf)
    default = Client.objects.get(name="default")
    assert ApiKey.objects.get(name="frontend").client == default
    assert list(ClientUser.objects.values_list("client__name", "username", "user__username")) == [
        ("default", "api-alice", "api-alice")]

