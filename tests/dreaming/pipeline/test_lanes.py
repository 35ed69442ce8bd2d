"""Light sleep in several lanes of one worker: sessions shared out, each extracted once."""
import threading
import time

import pytest

from chat.models import ChatSession
from dreaming.models import Candidate
from dreaming.pipeline.lanes import lanes_for, light_sleep_lanes
from tests.support.light import FakeDreamer, FakeEmbedder, idle_session, messages_add


class SlowRemote(FakeDreamer):
    """A model that takes a while to answer extract; records how many calls were in flight at once."""

    calls_network = True

    def __init__(self):
        super().__init__()
        self.lock, self.active, self.most = threading.Lock(), 0, 0

    def extract(self, *, turns, ctx):
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
        time.sleep(0.05)
        try:
            return super().extract(turns=turns, ctx=ctx)
        finally:
            with self.lock:
                self.active -= 1


def test_the_local_engine_runs_one_lane_and_a_remote_model_several(settings):
    settings.DREAM_MODEL_CONCURRENCY = 8
    assert lanes_for(FakeDreamer()) == 1
    assert lanes_for(SlowRemote()) == 8


@pytest.mark.django_db(transaction=True)
def test_lanes_share_the_sessions_and_extract_each_kept_session_once(user, settings):
    settings.DREAM_MODEL_CONCURRENCY = 4
    settings.DREAM_BATCH_SIZE = 8
    sessions = [idle_session(user) for _ in range(12)]
    for i, session in enumerate(sessions):
        messages_add(session, ("user", f"I have {i + 2} cats at home."))
    dreamer = SlowRemote()

    runs = light_sleep_lanes(worker="w", dreamer=dreamer, embedder=FakeEmbedder())

    assert dreamer.most > 1  # several sessions' model calls were in flight at once
    extracted = [turns[0].content for _, turns, _ in dreamer.tasks("extract")]
    assert sorted(extracted) == sorted(f"I have {i + 2} cats at home." for i in range(12))  # once each
    assert not ChatSession.objects.filter(dreamed_at__isnull=True).exists()
    assert Candidate.objects.count() == 12
    assert {run.worker.rsplit("/", 1)[-1] for run in runs} <= {"1", "2", "3", "4"}
