import os
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop


@pytest.fixture
def user(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def other_user(db):
    from tests.factories import UserFactory

    return UserFactory()

pytest_plugins = ["tests.support.fake_openai"]


def _pg_dump(*, exclude_messages: bool) -> str:
    """Everything the database holds, as text (schema and data), by pgserver's own pg_dump; the user's
    own chat log (chat_message rows) left out when asked. Sees committed rows only: use it from
    django_db(transaction=True) tests."""
    import pgserver
    from django.db import connection

    binary = Path(pgserver.__file__).parent / "pginstall" / "bin" / "pg_dump"
    db = connection.settings_dict
    args = [str(binary), "-h", db["HOST"], "-U", db["USER"] or "postgres", "-d", db["NAME"]]
    if db.get("PORT"):
        args += ["-p", str(db["PORT"])]
    if exclude_messages:
        args.append("--exclude-table-data=chat_message")
    env = {**os.environ, "PGPASSWORD": db.get("PASSWORD") or ""}
    dump = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
    assert dump.returncode == 0, dump.stderr
    assert "COPY public.dreaming_memory" in dump.stdout  # really a dump of this database
    return dump.stdout


@pytest.fixture
def pg_dump():
    return _pg_dump


@pytest.fixture(autouse=True)
def _one_lane(settings):
    """Lanes run in threads with connections of their own, which cannot see a test's uncommitted rows:
    one lane unless a test (with transaction=True) asks for more."""
    settings.DREAM_MODEL_CONCURRENCY = 1


@pytest.fixture(autouse=True)
def _no_cached_cards():
    """The list page's card cache lives in the process: each test starts without another's cards."""
    from django.core.cache import caches

    caches["cards"].clear()
