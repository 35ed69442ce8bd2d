"""Log in, log out, sign up, password reset; Chinese and English pages."""
import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db


def test_login_page_and_logging_in(client, user):
    page = client.get(reverse("login"))
    assert page.status_code == 200 and 'name="username"' in page.content.decode()
    response = client.post(reverse("login"), {"username": user.username, "password": "pw-for-tests-123"})
    assert response.status_code == 302 and response["Location"] == reverse("memcenter:memories")


def test_a_wrong_password_shows_an_error(client, user):
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})
    assert response.status_code == 200 and "form-errors" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post(client, user):
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("memcenter:memories")).status_code == 302


def test_signup_is_off_by_default_and_make_run_turns_it_on():
    import os
    import subprocess
    import sys

    from django.conf import settings as project

    env = {k: v for k, v in os.environ.items() if k != "MEMCENTER_SIGNUP_ENABLED"}
    env.update(DJANGO_SETTINGS_MODULE="memcenter.settings", MEMCENTER_TESTING="1")
    probe = "import django; django.setup(); from django.conf import settings; print(settings.MEMCENTER_SIGNUP_ENABLED)"
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=project.BASE_DIR, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr[-500:]
    run_recipe = (project.BASE_DIR / "Makefile").read_text().split("\nrun:")[1].split("\n\n")[0]
    assert "MEMCENTER_SIGNUP_ENABLED=1" in run_recipe and "manage.py serve" in run_recipe


def test_signup_creates_a_user_and_logs_in(client, settings):
    settings.MEMCENTER_SIGNUP_ENABLED = True
    page = client.get(reverse("memcenter:signup"))
    assert page.status_code == 200
    response = client.post(reverse("memcenter:signup"), {
        "username": "newbie", "email": "newbie@example.com",
        "password1": "a-long-pass-phrase-42", "password2": "a-long-pass-phrase-42",
    })
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get(reverse("memcenter:memories")).status_code == 200


def test_signup_with_mismatched_passwords_shows_errors(client, settings):
    settings.MEMCENTER_SIGNUP_ENABLED = True
    response = client.post(reverse("memcenter:signup"), {"username": "x", "password1": "a-long-pass-phrase-42", "password2": "other"})
    assert response.status_code == 400 and "field__errors" in response.content.decode()
    assert not get_user_model().objects.filter(username="x").exists()


def test_signup_can_be_turned_off(client, settings):
    settings.MEMCENTER_SIGNUP_ENABLED = False
    assert client.get(reverse("memcenter:signup")).status_code == 404
    assert client.post(reverse("memcenter:signup"), {"username": "x"}).status_code == 404
    assert reverse("memcenter:signup") not in client.get(reverse("login")).content.decode()


def test_password_reset_sends_a_link(client, user):
    assert client.get(reverse("password_reset")).status_code == 200
    response = client.post(reverse("password_reset"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body and user.email in mail.outbox[0].body
    assert mail.outbox[0].subject == "Reset your memcenter password"


def test_pages_follow_the_browser_language(client, user):
    client.force_login(user)
    MemoryFactory(user=user, statement="用户住在上海")
    html = client.get(reverse("memcenter:memories"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert 'lang="zh-hans"' in html and "我记得的关于你的事" in html and "可信度" in html and "你住在上海" in html
    english = client.get(reverse("memcenter:memories"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "What I remember about you" in english


def test_the_language_switch_sets_chinese(client, user):
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": reverse("memcenter:settings")})
    assert response.status_code == 302
    html = client.get(reverse("memcenter:settings")).content.decode()
    assert "设置" in html and "忘掉一切" in html


def test_every_page_renders_in_chinese(client, user):
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "zh-hans"})
    for name in ("memcenter:memories", "memcenter:pending", "memcenter:diary", "memcenter:memory_md",
                 "memcenter:settings", "memcenter:conversations", "memcenter:memory_add"):
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert "记忆" in response.content.decode(), name
