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
