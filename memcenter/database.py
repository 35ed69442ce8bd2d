"""Where the database lives: DATABASE_URL, or an embedded Postgres with pgvector (pgserver).

The embedded server is shared by every process that uses the same data directory (web, the
django-q2 cluster, management commands, tests): the first one starts it, the others attach, and
it stops when the last one exits.
"""
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured


def database_from_url(url: str) -> dict:
    parts = urlparse(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// or postgresql:// (Postgres is the only database), got {parts.scheme!r}"
        )
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    host = query.pop("host", None) or parts.hostname or ""
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(parts.port or ""),
        "OPTIONS": query,
    }


def embedded_database_url(pgdata: Path) -> str:
    import warnings

    # platformdirs warns when XDG_RUNTIME_DIR is unset (as in CI); pgserver's /tmp fallback is fine.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import pgserver  # imported here so a DATABASE_URL deployment never loads it

    pgdata.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pgdata)
    server = pgserver.get_server(pgdata, cleanup_mode="stop")
    return server.get_uri()


def _forget_dead_handles(pgdata: Path) -> None:
    """Drop processes that died without exiting cleanly (kill -9) from pgserver's handle list.

    pgserver stops Postgres when the last registered process exits; a killed process never
    unregisters, and then the server would outlive everyone (and CI would leave it running).
    """
    import json

    import psutil
    from pgserver.postgres_server import PostgresServer

    handles = pgdata / ".handle_pids.json"
    with PostgresServer._lock:
        if not handles.exists():
            return
        try:
            pids = json.loads(handles.read_text())
        except (OSError, ValueError):
            pids = []
        alive = [pid for pid in pids if psutil.pid_exists(pid)]
        if alive != pids:
            handles.write_text(json.dumps(alive))
