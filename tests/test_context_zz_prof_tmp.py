import cProfile, pstats, time
import pytest
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.recall import recall
from tests.factories import MemoryFactory, MemorySourceFactory
E = LocalEmbedder(512)
@pytest.mark.django_db
def test_prof(user):
    for i in range(150):
        m = MemoryFactory(user=user, statement=f"User likes thing {i} in Paris", embedding=E.embed([f"User likes thing {i} in Paris"])[0])
        MemorySourceFactory(memory=m)
    for _ in range(5): recall(user=user, query="what does the user like in Paris", embedder=E)
    p = cProfile.Profile(timer=time.process_time); p.enable()
    for _ in range(100): recall(user=user, query="what does the user like in Paris", embedder=E)
    p.disable(); pstats.Stats(p).sort_stats("tottime").print_stats(14)
