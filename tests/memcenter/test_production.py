"""Production settings and `serve --prod` (issue #15): secure by default outside debug and tests."""
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client as HttpClient
from django.urls import reverse

from tests.factories import UserFactory
from tests.support.processes import process_descendants, process_parent

ROOT = Path(settings.BASE_DIR)
EXAMPLE = ROOT / "deploy" / "production.env.example"


def _example_env() -> dict[str, str]:
    values = {}
    for line in EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def _clean_env(**extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in _example_env() and k not in ("MEMCENTER_TESTING", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(extra)
    return env


def _manage(*args, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


# --- settings ----------------------------------------------------------------------------------

def test_check_deploy_is_silent_with_the_production_example():
    env = _clean_env(**{**_example_env(), "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)})
    result = _manage("check", "--deploy", "--fail-level", "DEBUG", env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in result.stderr and "?:" not in result.stderr


def test_the_production_example_lists_the_production_settings():
    names = set(_example_env())
    for name in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "SECURE_PROXY_SSL_HEADER",
                 "SECURE_HSTS_SECONDS", "WEB_CONCURRENCY", "Q_WORKERS", "MEMCENTER_SIGNUP_ENABLED", "HEALTHZ_TOKEN",
                 "MEMCENTER_PUBLIC_URL", "LOGIN_FAILURE_LIMIT"):
        assert name in names, name
    readme = (ROOT / "README.md").read_text()
    assert [name for name in names if f"`{name}`" not in readme] == []


@pytest.mark.parametrize("secret", ["changeme", "x" * 60, "short-but-random-Qw3", "django-insecure-" + "a1b2c3d4e5" * 5])
def test_a_weak_secret_key_is_refused_outside_debug_and_tests(secret):
    result = _manage("check", env=_clean_env(DJANGO_SECRET_KEY=secret, DJANGO_DEBUG="0"))
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is too weak" in result.stderr
    assert _manage("check", env=_clean_env(DJANGO_SECRET_KEY=secret, DJANGO_DEBUG="1")).returncode == 0


@pytest.mark.parametrize("env, named", [({"DJANGO_DEBUG": "0"}, "DJANGO_SECRET_KEY must be set"),
                                        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be true/false")])
def test_a_missing_or_malformed_setting_is_one_readable_line(env, named):
    result = _manage("export_user", "ada", env={k: v for k, v in _clean_env(**env).items() if k != "DJANGO_SECRET_KEY"})
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"error: {named}")


@pytest.mark.django_db
def test_pages_carry_a_strict_csp_and_signed_in_pages_are_never_stored(client):
    anonymous = client.get(reverse("login"))
    policy = anonymous["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "frame-ancestors 'none'" in policy
    client.force_login(UserFactory())
    for name in ("memcenter:memories", "memcenter:conversations", "memcenter:settings", "chat:page"):
        cache_control = client.get(reverse(name))["Cache-Control"]
        assert "private" in cache_control and "no-store" in cache_control, (name, cache_control)


def test_templates_have_no_inline_script_or_style():
    offenders = []
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")", r"<style", r"\sstyle=",
                        r"\son[a-z]+=", r"javascript:", r"\shx-on"):
            if re.search(pattern, text):
                offenders.append((template.name, pattern))
    assert offenders == []


@pytest.mark.django_db
def test_api_docs_serve_swagger_from_this_site(client):
    page = client.get("/api/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn" not in html.lower() and "https://" not in html
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert any("swagger-ui-bundle" in a for a in assets) and any("swagger-ui.css" in a for a in assets)
    assert "script-src 'self'" in page["Content-Security-Policy"]


@pytest.mark.django_db
def test_login_is_locked_after_repeated_failures_even_with_the_right_password(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    victim = UserFactory(username="victim")
    for _ in range(3):
        client.post(reverse("login"), {"username": "victim", "password": "wrong"}, REMOTE_ADDR="10.0.0.9")
    locked = client.post(reverse("login"), {"username": "victim", "password": "pw-for-tests-123"}, REMOTE_ADDR="10.0.0.9")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address, or another account from this address, is not locked out.
    other = HttpClient()
    response = other.post(reverse("login"), {"username": "victim", "password": "pw-for-tests-123"}, REMOTE_ADDR="10.0.0.10")
    assert response.status_code == 302 and other.session["_auth_user_id"] == str(victim.pk)


# --- serve --prod ------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _test_database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    auth = f"{quote(db['USER'])}:{quote(db['PASSWORD'])}"
    if db["HOST"].startswith("/"):
        return f"postgresql://{auth}@/{db['NAME']}?host={quote(db['HOST'])}" + (f"&port={db['PORT']}" if db["PORT"] else "")
    return f"postgresql://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def _get(url: str, **headers):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.slow
def test_serve_prod_runs_gunicorn_and_two_clusters_with_static_files_and_debug_off(
    transactional_db, tmp_path, settings, monkeypatch
):
    from django_q.conf import Conf
    from django_q.models import Task
    from django_q.tasks import async_task

    port = _free_port()
    settings.SECRET_KEY = secrets.token_urlsafe(50)
    monkeypatch.setattr(Conf, "SECRET_KEY", settings.SECRET_KEY)  # tasks are signed: the clusters check it
    env = _clean_env(
        DATABASE_URL=_test_database_url(), DJANGO_DEBUG="0", DJANGO_SECRET_KEY=settings.SECRET_KEY,
        SECURE_SSL_REDIRECT="0", WEB_CONCURRENCY="2", Q_CLUSTERS="2", Q_WORKERS="1", STATIC_ROOT=str(tmp_path / "static"),
    )
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve", "--prod", "--addr", f"127.0.0.1:{port}"],
                             env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline, status = time.monotonic() + 60, None
        while time.monotonic() < deadline and status != 200:
            try:
                status = _get(f"{base}/healthz?only=database")[0]
            except OSError:
                time.sleep(0.3)
        assert status == 200, (tmp_path / "serve.log").read_text()[-3000:]

        status, headers, body = _get(f"{base}/accounts/login/")
        assert status == 200 and "Content-Security-Policy" in headers
        css = re.search(r'href="(/static/memcenter/app\.[0-9a-f]{12}\.css)"', body.decode())
        assert css, "the page links the hashed (manifest) name"
        status, headers, body = _get(base + css.group(1), **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("Content-Encoding") == "gzip"
        assert "max-age=315360000" in headers["Cache-Control"]
        assert _get(f"{base}/static/ninja/swagger-ui-bundle.js")[0] == 200
        missing = _get(f"{base}/no-such-page/")
        assert missing[0] == 404 and b"Traceback" not in missing[2] and b"DEBUG = True" not in missing[2]

        async_task("math.floor", 2.5, task_name="serve-prod-probe")
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not Task.objects.filter(name="serve-prod-probe").exists():
            time.sleep(0.5)
        assert Task.objects.get(name="serve-prod-probe").result == 2

        family = process_descendants(serve.pid)
        children = [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ") for pid in family
                    if process_parent(pid) == serve.pid]
        assert sum(b"gunicorn" in c for c in children) == 1
        assert sum(c.rstrip().endswith(b"qcluster") for c in children) == 2
        gunicorn_master = next(pid for pid in family if process_parent(pid) == serve.pid
                               and b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes())
        assert sum(process_parent(pid) == gunicorn_master for pid in family) == 2  # WEB_CONCURRENCY workers
    finally:
        family = process_descendants(serve.pid)
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(timeout=30)
        finally:
            for pid in family | process_descendants(serve.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if serve.poll() is None:
                serve.kill()
                serve.wait()
            log.close()


def test_the_memory_md_listener_can_bypass_a_transaction_pooler(settings):
    from dreaming.memory.context_cache import _listener_params

    settings.MEMORY_MD_LISTEN_URL = "postgresql://listener:secret@postgres-direct:5433/memcenter"
    params = _listener_params()
    assert (params["host"], params["port"], params["dbname"], params["user"]) == ("postgres-direct", "5433", "memcenter", "listener")
    assert params["application_name"] == "memcenter memory-md listener" and params["keepalives"] == 1
    settings.MEMORY_MD_LISTEN_URL = ""
    assert _listener_params()["dbname"] != "memcenter" or _listener_params()["host"] != "postgres-direct"
