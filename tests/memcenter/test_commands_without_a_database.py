"""A command run before `migrate`, or against a database that is not there, ends with one readable line and a
non-zero exit, never a traceback."""
import re
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.memcenter.test_production import _clean_env, _test_database_url

ROOT = Path(__file__).resolve().parents[2]


def _named(name: str) -> str:
    """The test database's URL with another database name."""
    return urlunsplit(urlsplit(_test_database_url())._replace(path=f"/{name}"))


def _manage(*args, database_url: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=_clean_env(DATABASE_URL=database_url, DJANGO_DEBUG="1"))


@pytest.fixture
def empty_database(db):
    from django.db import connection

    settings = connection.settings_dict
    name = f"memcenter_empty_{uuid.uuid4().hex[:8]}"
    params = dict(host=settings["HOST"], port=settings["PORT"] or None, user=settings["USER"],
                  password=settings["PASSWORD"] or None, dbname="postgres", autocommit=True)
    with psycopg.connect(**params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield _named(name)
    with psycopg.connect(**params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_command_before_migrate_says_to_migrate_in_one_line(empty_database, tmp_path):
    chats = tmp_path / "chats.jsonl"
    chats.write_text('{"user": "ada", "messages": [{"role": "user", "content": "I have a dog named Milo"}]}\n')
    result = _manage("import_chats", str(chats), "--create-user", database_url=empty_database)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    said = re.findall(r"error: [^\r\n]*", result.stderr)  # tqdm's bar may share its line
    assert len(said) == 1 and said[0].startswith("error: the database has no memcenter tables yet") and "migrate" in said[0]


def test_a_database_that_is_not_there_is_one_line(db):
    missing = _named(f"memcenter_missing_{uuid.uuid4().hex[:8]}")
    result = _manage("export_user", "ada", database_url=missing)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("error: cannot use the database:") and "does not exist" in result.stderr
