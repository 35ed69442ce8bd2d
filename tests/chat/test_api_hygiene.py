"""API hygiene (issue #15): times are ISO strings within Postgres' offsets, page parameters never
crash, every status code a route returns is in the OpenAPI schema, and errors are JSON with debug off."""
import json

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from chat.models import ChatSession, Message
from memcenter.api import api as ninja_api
from tests.factories import ChatSessionFactory, MessageFactory, UserFactory, api_key_create, client_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    key, secret = api_key_create("hygiene")
    client_user(key.client, "alice")
    http = HttpClient()

    def post(path, body):
        return http.post(f"/api/v1{path}", json.dumps(body), content_type="application/json",
                         HTTP_AUTHORIZATION=f"Bearer {secret}")

    post.client = key.client
    return post


def _field_named(response, field):
    assert response.status_code == 422, response.content
    detail = response.json()["detail"]
    assert any(field in [str(part) for part in issue["loc"]] for issue in detail), detail


@pytest.mark.parametrize("offset", ["+17:27", "-16:00", "+23:59"])
def test_a_time_offset_postgres_cannot_keep_is_a_422_naming_the_field(api, offset):
    _field_named(api("/sessions", {"username": "alice", "started_at": f"2000-06-03T22:16:40{offset}"}), "started_at")
    session = api("/sessions", {"username": "alice"}).json()["id"]
    response = api(f"/sessions/{session}/messages",
                   {"messages": [{"role": "user", "content": "hi", "created_at": f"2000-06-03T22:16:40{offset}"}]})
    _field_named(response, "created_at")
    assert Message.objects.count() == 0


def test_the_largest_offset_postgres_keeps_is_accepted(api):
    response = api("/sessions", {"username": "alice", "started_at": "2000-06-03T22:16:40+15:59"})
    assert response.status_code == 201
    assert ChatSession.objects.get().started_at.isoformat() == "2000-06-03T06:17:40+00:00"


@pytest.mark.parametrize("value", [0, 1700000000, 1.5, "1700000000", True, "yesterday"])
def test_a_number_where_a_time_belongs_is_a_422(api, value):
    _field_named(api("/sessions", {"username": "alice", "started_at": value}), "started_at")
    assert not ChatSession.objects.exists()


def test_page_parameters_that_look_like_digits_do_not_crash(client):
    user = UserFactory()
    session = ChatSessionFactory(user=user)
    MessageFactory(session=session, seq=1)
    client.force_login(user)
    for value in ("²", "①", "-1", "99999999999999999999999", "7_0"):
        assert client.get(reverse("memcenter:conversation", args=[session.pk]), {"m": value}).status_code == 200
    client.force_login(UserFactory(is_staff=True))
    for value in ("①", "²", "0", "366", "x"):
        response = client.get(reverse("dreaming:dashboard"), {"days": value})
        assert response.status_code == 200 and "from 1 to 365" in response.content.decode()


def test_every_route_documents_its_error_codes_with_the_error_schema():
    schema = ninja_api.get_openapi_schema()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            expected = {"400", "401", "422", "429"} | ({"404"} if "{" in path else set())
            expected |= {"413"} if method == "post" and path.endswith(("/sessions", "/messages")) else set()
            assert expected <= set(map(str, responses)), (method, path, sorted(responses))
            for code in expected:
                ref = responses[int(code) if int(code) in responses else code]["content"]["application/json"]["schema"]
                assert ref == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, code)
    assert "detail" in schema["components"]["schemas"]["ErrorOut"]["properties"]


def test_an_unexpected_error_is_json_with_debug_off(api, settings, monkeypatch, caplog):
    settings.DEBUG = False
    from chat import selectors

    def broken(**kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(selectors, "session_get", broken)
    response = api("/sessions/1/messages", {"messages": [{"role": "user", "content": "hi"}]})
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"detail": "internal server error; it was logged"}
    assert "database on fire" not in response.content.decode()
    assert "database on fire" in caplog.text
