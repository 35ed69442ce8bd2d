"""Isolation: a sweep over the URL resolver and the OpenAPI schema, so a new URL without protection
fails here without anyone remembering to add a test for it.

Pages: anonymous → login redirect; another user's object id → 404 and the object untouched; every
POST without a CSRF token → 403; staff pages refuse non-staff. API: no key, an unknown key and a
revoked key → 401 on every operation in the schema.
"""
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from chat.models import ChatSession
from dreaming.models import Candidate, Feedback, Memory
from tests.factories import (
    CandidateFactory,
    ChatSessionFactory,
    MemoryFactory,
    MemorySourceFactory,
    MessageFactory,
    UserFactory,
    api_key_create,
)

pytestmark = pytest.mark.django_db

# Reachable without logging in, on purpose. Anything else must send anonymous visitors to log in.
PUBLIC = {
    "login", "logout", "password_reset", "password_reset_done", "password_reset_confirm",
    "password_reset_complete", "set_language", "healthz", "memcenter:signup", "admin:login", "admin:logout",
    "memcenter:login_link",  # a one-time link is its own credential (tests/test_login_links.py)
}
STAFF_NAMESPACES = ("dreaming", "admin")
# Page URLs that take an object id, and the kind of object: each is checked against another user's.
OBJECT_ROUTES = {
    "memcenter:memory_detail": "memory",
    "memcenter:memory_feedback": "memory",
    "memcenter:memory_edit": "memory",
    "memcenter:memory_delete": "memory",
    "memcenter:candidate_confirm": "candidate",
    "memcenter:candidate_dismiss": "candidate",
    "memcenter:conversation": "session",
    "memcenter:conversation_delete": "session",
    "chat:session": "session",
}
SECRET_WORD = "Xanthippe"  # only the victim's data holds it


def _page_routes() -> list[tuple[str, str, dict]]:
    """(name, namespace, converters) of every page URL (the API is swept from its schema)."""
    routes = []

    def walk(patterns, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, ":".join(p for p in (namespace, pattern.namespace) if p))
            elif isinstance(pattern, URLPattern):
                converters = getattr(pattern.pattern, "converters", {})
                name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name
                routes.append((name, namespace, converters, str(pattern.pattern)))

    walk(get_resolver().url_patterns, "")
    return [r for r in routes if r[1] != "api"]


def _url(name: str, converters: dict, *, pk: int = 999999) -> str:
    kwargs = {key: (pk if type(conv).__name__ == "IntConverter" else "x") for key, conv in converters.items()}
    return reverse(name, kwargs=kwargs)


def _concrete(routes):
    """Named routes we can build; unnamed ones may only live in the admin (its catch-all redirects)."""
    for name, namespace, converters, raw in routes:
        if name is None:
            assert namespace == "admin", f"unnamed URL pattern {raw!r}: name it so the isolation sweep can check it"
            continue
        if namespace == "admin" and (converters or re.search(r"[\^$(]", raw)):
            continue  # admin object URLs: Django's admin_view guards all of them the same way as its index
        yield name, namespace, converters


@pytest.fixture
def victim(db):
    victim = UserFactory()
    session = ChatSessionFactory(user=victim)
    message = MessageFactory(session=session, content=f"My cat is called {SECRET_WORD}.")
    memory = MemoryFactory(user=victim, statement=f"User's cat is called {SECRET_WORD}")
    MemorySourceFactory(memory=memory, message=message, quote=f"My cat is called {SECRET_WORD}")
    candidate = CandidateFactory(user=victim, session=session, message=message,
                                 quote=f"My cat is called {SECRET_WORD}", statement=f"User has a cat {SECRET_WORD}")
    return {"user": victim, "memory": memory, "candidate": candidate, "session": session}


def _snapshot(victim) -> tuple:
    memory = Memory.objects.filter(pk=victim["memory"].pk).values_list("statement", "status", "confidence").first()
    candidate = Candidate.objects.filter(pk=victim["candidate"].pk).values_list("status", "statement").first()
    session = ChatSession.objects.filter(pk=victim["session"].pk).values_list("title", flat=True).first()
    return memory, candidate, session, ChatSession.objects.get(pk=victim["session"].pk).messages.count(), \
        Feedback.objects.count()


def test_every_page_sends_anonymous_visitors_to_log_in(client):
    checked = 0
    for name, namespace, converters in _concrete(_page_routes()):
        if name in PUBLIC:
            continue
        url = _url(name, converters)
        if namespace == "admin":  # the admin's own login, not the memory center's
            assert client.get(url).status_code == 302
            continue
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code == 302, f"{method.upper()} {url} ({name}) gave {response.status_code} to anonymous"
            location = response["Location"]
            if "login" not in location:  # a plain redirect (staff/ → staff/dreaming/) must end at a login
                location = client.get(location, follow=True).redirect_chain[-1][0]
            assert "login" in location, (name, location)
            checked += 1
    assert checked >= 40


def test_another_users_object_is_a_404_everywhere_and_stays_untouched(victim):
    intruder = Client()
    intruder.force_login(UserFactory())
    before = _snapshot(victim)
    routes = [r for r in _concrete(_page_routes()) if any(type(c).__name__ == "IntConverter" for c in r[2].values())]
    for name, namespace, converters in routes:
        if namespace in STAFF_NAMESPACES:
            continue
        assert name in OBJECT_ROUTES, f"{name} takes an object id: add it to OBJECT_ROUTES so ownership is checked"
        url = _url(name, converters, pk=victim[OBJECT_ROUTES[name]].pk)
        codes = {}
        for method, kwargs in (("get", {}), ("post", {"confirm": "on", "verdict": "reject", "statement": "hacked"})):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                codes[(method, bool(headers))] = getattr(intruder, method)(url, kwargs, **headers).status_code
        # 405 is fine for a method the view does not take; anything that is not 404/405 is a leak.
        assert set(codes.values()) <= {404, 405} and 404 in codes.values(), (name, codes)
    assert _snapshot(victim) == before
    assert {name for name, _, _ in routes if name in OBJECT_ROUTES} == set(OBJECT_ROUTES)


def test_no_page_shows_another_users_words(victim):
    intruder = Client()
    intruder.force_login(UserFactory())
    pages = [(name, conv) for name, namespace, conv in _concrete(_page_routes())
             if not conv and namespace not in STAFF_NAMESPACES and name not in ("logout",)]
    for name, converters in pages:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = intruder.get(_url(name, converters), **headers)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            assert SECRET_WORD.encode() not in body, f"{name} shows another user's data"
    assert len(pages) >= 12


def test_every_post_without_a_csrf_token_is_refused(victim):
    owner = Client(enforce_csrf_checks=True)
    owner.force_login(victim["user"])
    before = _snapshot(victim)
    checked = []
    for name, namespace, converters in _concrete(_page_routes()):
        pk = victim[OBJECT_ROUTES[name]].pk if name in OBJECT_ROUTES else 1
        url = _url(name, converters, pk=pk)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = owner.post(url, {"confirm": "on", "verdict": "reject", "statement": "x", "message": "hi"},
                                  **headers)
            assert response.status_code == 403, f"POST {url} ({name}) without a CSRF token gave {response.status_code}"
        checked.append(name)
    assert _snapshot(victim) == before
    assert "memcenter:memory_delete" in checked and "chat:send" in checked and "memcenter:forget_all" in checked


def test_staff_pages_refuse_a_logged_in_non_staff_user(victim):
    member = Client()
    member.force_login(victim["user"])
    staff_routes = [(n, c) for n, ns, c in _concrete(_page_routes()) if ns in STAFF_NAMESPACES and n not in PUBLIC]
    assert any(n.startswith("dreaming:") for n, _ in staff_routes) and ("admin:index", {}) in staff_routes
    for name, converters in staff_routes:
        response = member.get(_url(name, converters))
        assert response.status_code in (302, 403, 404), (name, response.status_code)
        if response.status_code == 302:
            assert "login" in response["Location"] or name == "dreaming:index", (name, response["Location"])
            if name == "dreaming:index":  # a redirect to the dashboard, which must refuse in turn
                assert member.get(response["Location"]).status_code == 302
    staff = UserFactory(is_staff=True)
    member.force_login(staff)
    assert member.get(reverse("dreaming:dashboard")).status_code == 200  # the check above can fail


def _api_operations(client) -> list[tuple[str, str]]:
    schema = client.get("/api/openapi.json").json()
    operations = []
    for path, methods in schema["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "1", path)
        operations += [(method.upper(), concrete) for method in methods if method in ("get", "post", "put", "patch", "delete")]
    return operations


def test_every_api_operation_refuses_no_key_an_unknown_key_and_a_revoked_key(client):
    key, revoked_secret = api_key_create("revoked-client")
    key.revoked_at = timezone.now()
    key.save()
    _, good_secret = api_key_create("good-client")
    operations = _api_operations(client)
    assert len(operations) >= 6
    for method, path in operations:
        for auth in ({}, {"HTTP_AUTHORIZATION": "Bearer mc_not-a-real-key"},
                     {"HTTP_AUTHORIZATION": f"Bearer {revoked_secret}"}, {"HTTP_AUTHORIZATION": revoked_secret}):
            response = client.generic(method, path, b"{}", content_type="application/json", **auth)
            assert response.status_code == 401, f"{method} {path} with {auth or 'no key'}: {response.status_code}"
        # The good key gets past authentication (the check above can fail).
        response = client.generic(method, path, b"{}", content_type="application/json",
                                  HTTP_AUTHORIZATION=f"Bearer {good_secret}")
        assert response.status_code != 401, (method, path)
