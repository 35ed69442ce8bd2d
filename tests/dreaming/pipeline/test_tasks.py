"""The django-q2 entry point: sweeps until nothing is claimable, bounded, and stops on an outage."""
from chat.models import ChatSession
from dreaming.models import DreamRun
from dreaming.protocol import ProviderUnavailable
from dreaming.tasks import light_sleep_task
from tests.support.light import FakeDreamer, messages_add, idle_session


def test_the_task_sweeps_until_every_idle_session_is_done(user, settings):
    settings.LLM_BACKEND = settings.EMBEDDING_BACKEND = "local"
    settings.DREAM_BATCH_SIZE = 2
    for i in range(5):
        messages_add(idle_session(user), ("user", f"I have {i + 2} cats at home."))

    summary = light_sleep_task()

    assert not ChatSession.objects.filter(dreamed_at__isnull=True).exists()
    runs = list(DreamRun.objects.filter(phase="light").order_by("started_at"))
    assert [r.sessions_claimed for r in runs] == [2, 2, 1]
    assert all(r.worker.startswith("q:") and r.status == "ok" for r in runs)
    assert "3 sweep(s), 5 claimed, 5 done" in summary


def test_the_task_is_bounded(user, settings):
    settings.LLM_BACKEND = settings.EMBEDDING_BACKEND = "local"
    settings.DREAM_BATCH_SIZE = 1
    settings.DREAM_TASK_MAX_SWEEPS = 2
    for _ in range(4):
        messages_add(idle_session(user), ("user", "I live in Lisbon."))
    light_sleep_task()
    assert DreamRun.objects.count() == 2
    assert ChatSession.objects.filter(dreamed_at__isnull=True).count() == 2  # left for the next tick


def test_the_task_stops_at_a_provider_outage(user, settings, monkeypatch):
    settings.EMBEDDING_BACKEND = "local"
    settings.DREAM_BATCH_SIZE = 1
    down = FakeDreamer(extract_error=ProviderUnavailable("connection refused"))
    monkeypatch.setattr("dreaming.pipeline.lanes.get_dreamer", lambda: down)
    for _ in range(3):
        messages_add(idle_session(user), ("user", "I live in Lisbon."))

    light_sleep_task()

    assert DreamRun.objects.count() == 1 and DreamRun.objects.get().status == "failed"
    assert len(down.tasks("extract")) == 1
    assert ChatSession.objects.filter(dreamed_at__isnull=True, claimed_at__isnull=True).count() == 3
