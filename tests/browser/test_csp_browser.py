"""Under the strict Content-Security-Policy, in a real browser: a login link lands on the memory
center with htmx working and no violation, and /api/docs draws Swagger UI from this site alone."""
import json

import pytest
from django.test import Client as HttpClient
from playwright.sync_api import expect

from tests.factories import MemoryFactory, api_key_create, client_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _watch_violations(page) -> list[str]:
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text) if "Content Security Policy" in message.text else None)
    page.on("request", lambda request: seen.append(f"outside request {request.url}")
            if not request.url.startswith(("http://localhost", "data:")) else None)
    return seen


def test_a_login_link_opens_the_memory_center_with_no_csp_violation(page, live_server):
    key, secret = api_key_create("chat-product")
    carl = client_user(key.client, "carl")
    MemoryFactory(user=carl, statement="User has a dog named Milo", confidence=0.8)
    answer = HttpClient().post("/api/v1/users/carl/login-link", HTTP_AUTHORIZATION=f"Bearer {secret}",
                               HTTP_HOST=live_server.url.split("//")[1])
    url = json.loads(answer.content)["url"]
    violations = _watch_violations(page)

    page.goto(url)

    expect(page.get_by_text("You have a dog named Milo")).to_be_visible()  # the memory center speaks to its owner
    assert page.evaluate("typeof htmx") == "object"  # the vendored script ran
    assert page.locator(".confidence__fill").evaluate("el => getComputedStyle(el).width") != "0px"
    page.goto(url)  # the second time: a page that says so
    expect(page.get_by_text("already used")).to_be_visible()
    assert violations == []


def test_api_docs_render_offline_under_the_csp(page, live_server):
    violations = _watch_violations(page)
    page.goto(f"{live_server.url}/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("memcenter API", timeout=15_000)
    expect(page.get_by_text("/api/v1/users/{username}/login-link").first).to_be_visible()
    assert [v for v in violations if "outside request" in v] == []
    assert not [v for v in violations if "script" in v.lower()], violations
