"""Helpers for tests of the per-process caches that listen for Postgres notifications."""
import time

from django.db import connection

from dreaming.memory import context_cache
from dreaming.memory.context_cache import memory_md_cache


def eventually(check, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.002)
    return check()


def settle() -> None:
    """Wait until the listener has handled every notification committed so far.

    Postgres delivers notifications in commit order, so once a marker sent now has arrived, so
    has everything before it. Without this, the notification of a test's own setup could land in
    the middle of the test's first read, and the cache would (rightly) refuse to store that read.
    """
    cache = memory_md_cache()
    seen = cache.invalidated.get(0, -1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, '0')", [context_cache.CHANNEL])
    assert eventually(lambda: cache.invalidated.get(0, -1) > seen), "the marker notification never arrived"
