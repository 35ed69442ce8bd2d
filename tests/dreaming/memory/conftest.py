import pytest

from dreaming.memory.context_cache import memory_md_cache, memory_md_cache_stop, memory_md_cache_wait_live


@pytest.fixture
def live_cache(settings):
    settings.MEMORY_MD_CACHE = True
    assert memory_md_cache_wait_live(timeout=10), "the listener did not start"
    cache = memory_md_cache()
    yield cache
    listener = cache.listener
    memory_md_cache_stop()
    assert not listener.is_alive()


def statements_sent(captured) -> list[str]:
    """What each query Django saw was: its command, and for EXECUTE / PREPARE the statement's name
    (recall's pipeline sends several statements per round trip: the names say which)."""
    sent = []
    for query in captured.captured_queries:
        words = query["sql"].replace("(", " ").split()
        sent.append(" ".join(words[:2]) if words[0] in ("EXECUTE", "PREPARE") else words[0])
    return sent
