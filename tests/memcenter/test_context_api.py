import pytest
from django.core.management import CommandError, call_command

from dreaming.memory.context import memory_md_render
from dreaming.models import MemoryDocument
from tests.factories import MemoryFactory, MemorySourceFactory, PersonaFactory, api_key_create, client_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def key_and_secret():
    return api_key_create()


@pytest.fixture
def user(key_and_secret):
    """A user of the key's client, whom the client calls "carol"."""
    return client_user(key_and_secret[0].client, "carol")


@pytest.fixture
def auth(key_and_secret):
    return {"HTTP_AUTHORIZATION": f"Bearer {key_and_secret[1]}"}


def test_memory_md_requires_an_api_key(client, user):
    response = client.get("/api/v1/users/carol/memory.md")
    assert response.status_code == 401
    assert not MemoryDocument.objects.exists()


def test_memory_md_is_markdown_with_its_version(client, user, auth):
    MemoryFactory(user=user, statement="User has a dog named Milo", category="fact")
    memory_md_render(user=user)

    response = client.get("/api/v1/users/carol/memory.md", **auth)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["X-Memory-Version"] == "1"
    assert response["ETag"].endswith('-v1"')
    assert "## Facts\n- User has a dog named Milo" in response.content.decode()
    again = client.get("/api/v1/users/carol/memory.md", HTTP_IF_NONE_MATCH=response["ETag"], **auth)
    assert again.status_code == 304 and again.content == b""


def test_memory_md_for_a_persona_scope_is_rendered_on_first_request(client, user, auth):
    luna = PersonaFactory(slug="luna")
    MemoryFactory(user=user, statement="User calls Luna 'moon'", persona=luna)

    response = client.get("/api/v1/users/carol/memory.md?persona=luna", **auth)

    assert response.status_code == 200 and "moon" in response.content.decode()
    assert MemoryDocument.objects.filter(user=user, persona=luna, version=1).exists()


def test_unknown_user_or_persona_is_a_404_with_a_message(client, user, auth):
    response = client.get("/api/v1/users/nobody/memory.md", **auth)
    assert response.status_code == 404 and response.json() == {"detail": "user 'nobody' does not exist"}
    response = client.get("/api/v1/users/carol/memory.md?persona=ghost", **auth)
    assert response.status_code == 404 and "ghost" in response.json()["detail"]
    response = client.get("/api/v1/users/nobody/recall?q=dog", **auth)
    assert response.status_code == 404


def test_recall_endpoint_returns_ranked_results_with_sources(client, user, auth, settings):
    settings.EMBEDDING_BACKEND = "local"
    from dreaming.providers import get_embedder

    embedder = get_embedder()
    dog = MemoryFactory(user=user, statement="User has a dog named Milo", embedding=embedder.embed(["User has a dog named Milo"])[0])
    MemorySourceFactory(memory=dog, quote="my dog Milo")
    MemoryFactory(user=user, statement="User likes opera", embedding=embedder.embed(["User likes opera"])[0])

    response = client.get("/api/v1/users/carol/recall", {"q": "Milo", "k": 1}, **auth)

    assert response.status_code == 200
    body = response.json()
    assert body["query"] == "Milo" and len(body["results"]) == 1
    first = body["results"][0]
    assert first["id"] == dog.id and first["sources"][0]["quote"] == "my dog Milo"
    assert set(first["parts"]) == {"similarity", "text_match", "recency", "importance", "confidence"}
    dog.refresh_from_db()
    assert dog.recall_count == 1


def test_recall_endpoint_validates_its_parameters(client, user, auth):
    assert client.get("/api/v1/users/carol/recall?q=dog").status_code == 401
    assert client.get("/api/v1/users/carol/recall", **auth).status_code == 422
    assert client.get("/api/v1/users/carol/recall?q=dog&k=0", **auth).status_code == 422
    assert client.get("/api/v1/users/carol/recall?q=dog&k=500", **auth).status_code == 422
    response = client.get("/api/v1/users/carol/recall?q=%20%20", **auth)
    assert response.status_code == 422 and "blank" in response.json()["detail"]


def test_memory_md_command_prints_the_document(user, capsys):
    MemoryFactory(user=user, statement="User lives in Oslo", category="fact")
    call_command("memory_md", user.username)
    captured = capsys.readouterr()
    assert captured.out == "# Memory\n\n## Facts\n- User lives in Oslo\n"
    assert "v1" in captured.err and "1 memories" in captured.err
    with pytest.raises(CommandError, match="Unknown user 'nobody'"):
        call_command("memory_md", "nobody")
    with pytest.raises(CommandError, match="Unknown persona 'ghost'"):
        call_command("memory_md", user.username, "--persona", "ghost")


def test_memory_off_users_get_an_empty_memory_md_and_no_recall(client, user, auth):
    from dreaming.models import MemorySettings

    MemoryFactory(user=user, statement="User lives in Oslo")
    MemorySettings.objects.create(user=user, enabled=False)

    response = client.get("/api/v1/users/carol/memory.md", **auth)
    assert response.status_code == 200 and response.content == b""
    assert client.get("/api/v1/users/carol/recall?q=Oslo", **auth).json()["results"] == []
