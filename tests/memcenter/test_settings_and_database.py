import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from memcenter.database import database_from_url
from memcenter.env import env_bool, env_int


def test_it_runs_on_postgres_with_pgvector(db):
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        assert cursor.fetchone() is not None


def test_bad_env_values_raise_a_readable_error(monkeypatch):
    monkeypatch.setenv("X_COUNT", "many")
    with pytest.raises(ImproperlyConfigured, match="X_COUNT must be a whole number"):
        env_int("X_COUNT", 1)
    monkeypatch.setenv("X_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG must be true/false"):
        env_bool("X_FLAG")


def test_database_url_must_be_postgres():
    with pytest.raises(ImproperlyConfigured, match="Postgres is the only database"):
        database_from_url("mysql://u:p@h/db")
    parsed = database_from_url("postgresql://bob:s%40cret@db.example:5433/mem?sslmode=require")
    assert (parsed["USER"], parsed["PASSWORD"], parsed["HOST"], parsed["PORT"], parsed["NAME"]) == (
        "bob", "s@cret", "db.example", "5433", "mem"
    )
    assert parsed["OPTIONS"] == {"sslmode": "require"}
