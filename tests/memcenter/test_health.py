"""GET /healthz: database, django-q2 scheduler heartbeat and each phase's last successful run."""
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone
from django_q.models import Schedule

from dreaming.models import DreamRun
from memcenter import health
from tests.factories import DreamRunFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client):
    """The details below are for staff (the public sees only the status: tested at the end)."""
    client.force_login(UserFactory(is_staff=True))
    return client


@pytest.fixture(autouse=True)
def running_scheduler(db):
    """The dreaming migration creates schedules at migrate time; a live cluster keeps them ahead of now."""
    Schedule.objects.update(next_run=timezone.now() + timedelta(minutes=1))


def _finished(phase, ago, **kw):
    now = timezone.now()
    return DreamRunFactory(phase=phase, started_at=now - ago - timedelta(seconds=10), finished_at=now - ago, **kw)


def test_a_fresh_install_is_ok_and_says_never_run(client):
    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "ok" and body["database"] == {"status": "ok"}
    assert {phase: entry["status"] for phase, entry in body["phases"].items()} == {
        "light": "never_run", "deep": "never_run", "weekly": "never_run"
    }
    assert body["queue"]["status"] == "ok" and body["queue"]["schedules"] >= 1
    assert response["Cache-Control"].startswith("max-age=0")


def test_no_schedules_is_reported_but_not_a_problem(client):
    Schedule.objects.all().delete()

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["queue"]["status"] == "no_schedules"


def test_recent_runs_of_every_phase_are_ok(client):
    _finished("light", timedelta(minutes=10))
    _finished("deep", timedelta(hours=25))
    _finished("weekly", timedelta(days=7))

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 200 and body["status"] == "ok"
    assert body["phases"]["light"]["age_seconds"] == pytest.approx(600, abs=5)
    assert body["phases"]["light"]["max_age_seconds"] == 900  # 3 × DREAM_SWEEP_SECONDS (300)


@pytest.mark.parametrize(("phase", "ago"), [
    ("light", timedelta(minutes=16)), ("deep", timedelta(hours=27)), ("weekly", timedelta(days=9)),
])
def test_an_overdue_phase_makes_it_degraded_and_503(client, phase, ago):
    _finished(phase, ago)

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "degraded"
    assert body["phases"][phase]["status"] == "overdue"
    assert body["problems"] == [f"{phase} overdue"]


@override_settings(DREAM_SWEEP_SECONDS=60)
def test_the_light_limit_follows_the_sweep_interval(client):
    _finished("light", timedelta(minutes=4))

    assert client.get("/healthz").json()["phases"]["light"]["status"] == "overdue"


def test_failed_and_dry_runs_are_not_successes(client):
    _finished("deep", timedelta(hours=30))
    _finished("deep", timedelta(hours=1), status=DreamRun.Status.FAILED, error="Traceback\nRuntimeError: disk full")
    _finished("deep", timedelta(hours=1), dry_run=True)
    _finished("light", timedelta(minutes=1), status=DreamRun.Status.FAILED, error="boom")

    body = client.get("/healthz").json()

    assert body["phases"]["deep"]["status"] == "overdue"
    assert body["phases"]["deep"]["last_failure"]["error"] == "RuntimeError: disk full"
    assert body["phases"]["light"]["status"] == "never_run"
    assert body["phases"]["light"]["last_failure"]["error"] == "boom"


def test_a_stopped_scheduler_makes_it_degraded(client):
    schedule = Schedule.objects.create(func="dreaming.tasks.ops_probe", schedule_type=Schedule.MINUTES, minutes=5,
                                       next_run=timezone.now() + timedelta(minutes=2))
    assert client.get("/healthz").json()["queue"]["status"] == "ok"

    Schedule.objects.filter(pk=schedule.pk).update(next_run=timezone.now() - timedelta(hours=1))
    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["queue"]["status"] == "stale" and body["queue"]["scheduler_lag_seconds"] >= 3600
    assert body["problems"] == ["django-q scheduler stale"]


class _BrokenConnection:
    def cursor(self):
        raise OperationalError("could not connect to server: Connection refused")


def test_a_database_failure_is_down_and_503(client, monkeypatch):
    # The outside edge: the driver cannot reach Postgres.
    monkeypatch.setattr(health, "connection", _BrokenConnection())

    response = client.get("/healthz")

    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "down"
    assert "Connection refused" in body["database"]["error"]
    assert "phases" not in body  # nothing else is checked without a database


def test_only_database_ignores_overdue_dreaming(client):
    _finished("light", timedelta(hours=5))

    response = client.get("/healthz", {"only": "database"})

    assert response.status_code == 200
    assert response.json()["status"] == "ok" and "phases" not in response.json()
    assert client.get("/healthz").status_code == 503


def test_healthz_rejects_other_methods(client):
    assert client.post("/healthz").status_code == 405


def test_runs_left_running_past_the_task_timeout_are_reported_as_stuck(client):
    now = timezone.now()
    DreamRunFactory(phase="light", status=DreamRun.Status.RUNNING, finished_at=None, started_at=now - timedelta(hours=2))
    DreamRunFactory(phase="light", status=DreamRun.Status.RUNNING, finished_at=None, started_at=now - timedelta(seconds=5))
    _finished("light", timedelta(minutes=1))

    body = client.get("/healthz").json()

    assert body["phases"]["light"]["stuck_runs"] == 1
    assert body["phases"]["deep"]["stuck_runs"] == 0
    assert body["status"] == "ok"  # informational: the next sweep still ran


def test_the_public_sees_only_the_status_and_a_token_holder_sees_details(settings):
    from django.test import Client

    _finished("light", timedelta(hours=5))  # overdue: degraded, with details worth hiding
    public = Client().get("/healthz")
    assert public.status_code == 503 and public.json() == {"status": "degraded"}
    assert Client().get("/healthz", HTTP_AUTHORIZATION="Bearer guess").json() == {"status": "degraded"}
    settings.HEALTHZ_TOKEN = "monitor-token-0123456789"
    assert Client().get("/healthz", HTTP_AUTHORIZATION="Bearer wrong").json() == {"status": "degraded"}
    detailed = Client().get("/healthz", HTTP_AUTHORIZATION="Bearer monitor-token-0123456789").json()
    assert detailed["phases"]["light"]["status"] == "overdue" and "queue" in detailed
    signed_in = Client()
    signed_in.force_login(UserFactory())  # not staff
    assert signed_in.get("/healthz").json() == {"status": "degraded"}
