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


def statements_sent(captured) -> list[tuple[str, ...]]:
    """The queries Django saw, one tuple per query (a round trip), of its statements: each one's
    command, and for EXECUTE / PREPARE the statement's name."""
    sent = []
    for query in captured.captured_queries:
        statements = []
        for statement in query["sql"].split(";\n"):
            words = statement.replace("(", " ").split()
            statements.append(" ".join(words[:2]) if words[0] in ("EXECUTE", "PREPARE") else words[0])
        sent.append(tuple(statements))
    return sent
