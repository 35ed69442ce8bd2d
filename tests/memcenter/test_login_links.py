"""Login links: the chat product opens the memory center for its logged-in user, once."""
import json
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import signing
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from memcenter.login_links import SALT, login_link_create
from tests.factories import UserFactory, api_key_create, client_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def product():
    key, secret = api_key_create("chat-product")
    return key.client, secret


def _ask(secret, username):
    return HttpClient().post(f"/api/v1/users/{username}/login-link", HTTP_AUTHORIZATION=f"Bearer {secret}")


def _open(url, browser=None):
    browser = browser or HttpClient()
    return browser, browser.get(urlsplit(url).path)


def _signed_in_as(browser):
    return browser.session.get(SESSION_KEY)


def test_a_link_signs_the_user_in_and_lands_on_the_memory_center(product):
    client, secret = product
    carl = client_user(client, "carl")
    response = _ask(secret, "carl")
    assert response.status_code == 200
    body = response.json()
    assert body["url"].startswith("http://testserver/accounts/link/")
    expires = timezone.datetime.fromisoformat(body["expires_at"])
    assert timedelta(minutes=9) < expires - timezone.now() <= timedelta(minutes=10)

    browser, landed = _open(body["url"])

    assert landed.status_code == 302 and landed["Location"] == reverse("memcenter:memories")
    assert _signed_in_as(browser) == str(carl.pk)
    assert browser.get(reverse("memcenter:memories")).status_code == 200


def test_a_link_works_once(product):
    client, secret = product
    client_user(client, "carl")
    url = _ask(secret, "carl").json()["url"]
    _open(url)

    browser, again = _open(url)

    assert again.status_code == 400
    assert "already used" in again.content.decode()
    assert _signed_in_as(browser) is None


def test_an_expired_link_signs_nobody_in(product, settings):
    client, secret = product
    carl = client_user(client, "carl")
    settings.LOGIN_LINK_SECONDS = 60
    payload = signing.loads(login_link_create(user=carl).token, salt=SALT)
    # The same payload, well signed two minutes ago.
    data = signing.b64_encode(json.dumps(payload, separators=(",", ":")).encode()).decode()
    old_stamp = signing.b62_encode(int(timezone.now().timestamp()) - 120)
    value = f"{data}:{old_stamp}"
    token = f"{value}:{signing.TimestampSigner(salt=SALT).signature(value)}"
    assert signing.loads(token, salt=SALT) == payload  # well signed, only old

    browser, response = _open(reverse("memcenter:login_link", args=[token]))

    assert response.status_code == 400 and "expired" in response.content.decode()
    assert _signed_in_as(browser) is None
    carl.refresh_from_db()
    assert carl.last_login is None


def test_a_tampered_link_signs_nobody_in(product):
    client, secret = product
    carl = client_user(client, "carl")
    other = client_user(client, "dana")
    url = _ask(secret, "carl").json()["url"]
    token = urlsplit(url).path.split("/")[-2]
    data, stamp, signature = token.split(":")
    forged_data = signing.b64_encode(json.dumps({"u": other.pk, "l": ""}, separators=(",", ":")).encode()).decode()

    for bad in (f"{forged_data}:{stamp}:{signature}", token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "nonsense"):
        browser, response = _open(reverse("memcenter:login_link", args=[bad]))
        assert response.status_code == 400 and "not valid" in response.content.decode()
        assert _signed_in_as(browser) is None
    carl.refresh_from_db(), other.refresh_from_db()
    assert carl.last_login is None and other.last_login is None


def test_another_clients_user_gets_no_link_and_a_link_opens_only_its_own_user(product):
    client, secret = product
    _, other_secret = api_key_create("other-product")
    carl = client_user(client, "carl")
    assert _ask(other_secret, "carl").status_code == 404
    web_user = UserFactory(username="carl@example.com")
    assert _ask(secret, "carl@example.com").status_code == 404  # web accounts get no links

    # Someone else signed in on this browser: the link switches it to carl, with a fresh session.
    browser = HttpClient()
    browser.force_login(web_user)
    before = browser.session.session_key
    _, response = _open(_ask(secret, "carl").json()["url"], browser)
    assert response.status_code == 302
    assert _signed_in_as(browser) == str(carl.pk) and browser.session.session_key != before


def test_a_sign_in_in_between_makes_an_older_link_stale(product):
    client, secret = product
    client_user(client, "carl")
    first = _ask(secret, "carl").json()["url"]
    second = _ask(secret, "carl").json()["url"]
    _open(second)
    browser, response = _open(first)
    assert response.status_code == 400 and _signed_in_as(browser) is None


def test_the_public_url_setting_builds_the_link(product, settings):
    client, secret = product
    client_user(client, "carl")
    settings.MEMCENTER_PUBLIC_URL = "https://memory.example.com/"
    assert _ask(secret, "carl").json()["url"].startswith("https://memory.example.com/accounts/link/")
