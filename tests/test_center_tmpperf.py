import time, pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from dreaming.services import memory_forget, memory_forget_all
from dreaming.models import Memory, Tombstone
from tests.test_center_perf import _many_memories
pytestmark = pytest.mark.django_db
def test_t(user):
    _many_memories(user, 5000)
    m = Memory.objects.filter(user=user, status="active").first()
    t=time.perf_counter()
    with CaptureQueriesContext(connection) as ctx:
        memory_forget(memory=m, by=user)
    print("\nforget one", round((time.perf_counter()-t)*1000), "ms", len(ctx.captured_queries), "queries")
    t=time.perf_counter()
    r = memory_forget_all(user=user, by=user)
    print("forget all", round((time.perf_counter()-t)*1000), "ms", r.memories, Tombstone.objects.count())
