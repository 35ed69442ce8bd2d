"""Dashboard numbers, the cost arithmetic, the staff-only page and `manage.py dream_report`."""
import json
import logging
from datetime import timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from dreaming.staff.charts import bar_chart, line_chart
from dreaming.models import DreamRun
from dreaming.pipeline.runs import run_log
from dreaming.staff.reports import report_build
from tests.factories import ChatSessionFactory, DreamRunFactory, LLMCallFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def now():
    return timezone.now()


@pytest.fixture
def known_runs(now):
    """Exact counters inside the 7-day window, plus a dry run and an old run that must not count."""
    deep_user = UserFactory(username="deep-dreamer")
    return {
        "light_ok": DreamRunFactory(
            phase="light", started_at=now - timedelta(days=1), finished_at=now - timedelta(days=1) + timedelta(seconds=40),
            sessions_claimed=6, sessions_done=5, sessions_skipped=2, skipped_by_kind={"coding": 2},
            candidates_created=8, unverified_rejected=2,
        ),
        "light_failed": DreamRunFactory(
            phase="light", status=DreamRun.Status.FAILED, started_at=now - timedelta(days=2),
            finished_at=now - timedelta(days=2) + timedelta(seconds=5), candidates_created=2, unverified_rejected=3,
            error="Traceback (most recent call last):\n  ...\nProviderUnavailable: <upstream> 502",
        ),
        "deep": DreamRunFactory(
            phase="deep", user=deep_user, started_at=now - timedelta(days=1, hours=2),
            finished_at=now - timedelta(days=1, hours=2) + timedelta(seconds=300), promoted=4, pending=3, superseded=1,
        ),
        "weekly": DreamRunFactory(
            phase="weekly", started_at=now - timedelta(days=3), finished_at=now - timedelta(days=3) + timedelta(seconds=90),
            merged=2, evicted=5,
        ),
        "dry": DreamRunFactory(phase="deep", dry_run=True, started_at=now - timedelta(days=1), promoted=100),
        "old": DreamRunFactory(phase="deep", started_at=now - timedelta(days=10), promoted=50, unverified_rejected=40),
    }


def test_totals_count_only_real_runs_in_the_window(known_runs, now):
    report = report_build(days=7, now=now)

    totals = report["totals"]
    assert (totals["runs"], totals["failed"]) == (4, 1)
    assert (totals["promoted"], totals["pending"], totals["superseded"], totals["merged"], totals["evicted"]) == (4, 3, 1, 2, 5)
    assert report["skipped_by_kind"] == {"coding": 2}
    # 5 rejected of 15 quotes seen; the old run's 40 rejections stay out.
    assert report["rejection"] == {"candidates_created": 10, "unverified_rejected": 5, "rate": pytest.approx(1 / 3)}


def test_outcomes_are_bucketed_by_day_with_empty_days_kept(known_runs, now):
    report = report_build(days=7, now=now)

    days = report["outcomes_per_day"]
    assert days[0]["day"] == timezone.localdate(now - timedelta(days=7))
    assert days[-1]["day"] == timezone.localdate(now)
    by_day = {row["day"]: row for row in days}
    deep_day = by_day[timezone.localdate(known_runs["deep"].started_at)]
    assert (deep_day["promoted"], deep_day["pending"], deep_day["superseded"]) == (4, 3, 1)
    assert sum(row["evicted"] for row in days) == 5
    assert sum(row["promoted"] for row in days) == 4  # not the dry run's 100


def test_slowest_runs_and_failures_list_the_right_runs(known_runs, now):
    report = report_build(days=7, now=now)

    assert [run.pk for run in report["slowest_runs"]][:3] == [
        known_runs["deep"].pk, known_runs["weekly"].pk, known_runs["light_ok"].pk
    ]
    assert [run.pk for run in report["failed_runs"]] == [known_runs["light_failed"].pk]
    assert "ProviderUnavailable" in report["failed_runs"][0].error


def test_rejection_rate_is_none_without_any_quotes(now):
    DreamRunFactory(phase="deep", promoted=1)

    assert report_build(days=7, now=now)["rejection"]["rate"] is None


def test_cost_per_user_per_month_uses_memory_calls_and_dreamed_users(now):
    u1, u2, u3, u4 = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    LLMCallFactory(user=u1, phase="light", cost_usd=Decimal("0.120000"), prompt_tokens=1000, completion_tokens=200,
                   at=now - timedelta(days=1))
    LLMCallFactory(user=u2, phase="deep", task="compare", cost_usd=Decimal("0.080000"), prompt_tokens=500,
                   completion_tokens=100, at=now - timedelta(days=2))
    LLMCallFactory(user=None, phase="light", task="triage", cost_usd=Decimal("0.050000"), at=now - timedelta(days=3))
    # The demo chat page's replies are not memory cost, and u3 only chatted: not a dreamed user.
    LLMCallFactory(user=u3, phase="chat", task="reply", cost_usd=Decimal("1.000000"), at=now - timedelta(days=1))
    LLMCallFactory(user=u1, phase="light", cost_usd=Decimal("5.000000"), at=now - timedelta(days=10))
    # u4 was dreamed by the free local engine: no calls, still a user the system worked for.
    ChatSessionFactory(user=u4, dreamed_at=now - timedelta(hours=5))
    DreamRunFactory(phase="deep", user=u1, started_at=now - timedelta(days=1))

    cost = report_build(days=7, now=now)["cost"]

    assert cost["total_cost_usd"] == Decimal("1.250000")
    assert cost["memory_cost_usd"] == Decimal("0.250000")
    assert cost["users_dreamed"] == 3
    # 0.25 / 3 users × 30 / 7 days = 0.357142857… → 0.357143
    assert cost["per_user_per_month_usd"] == Decimal("0.357143")


def test_cost_per_user_is_none_when_nobody_was_dreamed(now):
    LLMCallFactory(user=None, phase="light", cost_usd=Decimal("0.5"), at=now - timedelta(hours=1))

    cost = report_build(days=7, now=now)["cost"]
    assert cost["per_user_per_month_usd"] is None
    assert cost["memory_cost_usd"] == Decimal("0.5")


def test_llm_usage_is_summed_per_day_and_per_phase(now):
    now = now.replace(hour=12)  # "an hour ago" is today and "a day ago" yesterday, whenever the suite runs
    LLMCallFactory(phase="light", cost_usd=Decimal("0.010000"), prompt_tokens=100, completion_tokens=10, at=now - timedelta(days=1))
    LLMCallFactory(phase="light", cost_usd=Decimal("0.020000"), prompt_tokens=200, completion_tokens=20, at=now - timedelta(days=1))
    LLMCallFactory(phase="deep", status="error", cost_usd=Decimal("0"), at=now - timedelta(hours=1))

    report = report_build(days=7, now=now)

    day = {row["day"]: row for row in report["llm_per_day"]}[timezone.localdate(now - timedelta(days=1))]
    assert (day["calls"], day["prompt_tokens"], day["completion_tokens"], day["cost_usd"]) == (2, 300, 30, Decimal("0.03"))
    phases = {row["phase"]: row for row in report["llm_by_phase"]}
    assert (phases["light"]["calls"], phases["light"]["errors"]) == (2, 0)
    assert (phases["deep"]["calls"], phases["deep"]["errors"]) == (1, 1)


def test_triage_breakdown_counts_sessions_dreamed_in_the_window(now):
    for kind, n in (("normal", 3), ("coding", 2), ("roleplay", 1), ("empty", 1)):
        for _ in range(n):
            ChatSessionFactory(triage_kind=kind, dreamed_at=now - timedelta(days=1))
    ChatSessionFactory(triage_kind="document", dreamed_at=now - timedelta(days=30))  # outside
    ChatSessionFactory(triage_kind="", dreamed_at=None)  # not dreamed yet

    triage = report_build(days=7, now=now)["triage"]

    assert triage == {"normal": 3, "document": 0, "coding": 2, "translation": 0, "roleplay": 1, "empty": 1}


# --- the page -----------------------------------------------------------------------------


@pytest.fixture
def staff_client(client):
    staff = UserFactory(username="ops-staff", is_staff=True)
    client.force_login(staff)
    return client


def test_dashboard_shows_the_numbers_and_svg_charts_to_staff(staff_client, known_runs):
    response = staff_client.get(reverse("dreaming:dashboard"))

    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<svg") == 4
    assert 'id="stat-runs">4<' in html
    assert 'id="stat-promoted">4<' in html
    assert 'id="stat-rejection">33.3 %<' in html
    assert "ProviderUnavailable: &lt;upstream&gt; 502" in html  # the failure, escaped
    assert "<upstream>" not in html
    assert f"#{known_runs['dry'].pk}" in html  # recent runs list everything, dry runs marked


def test_dashboard_escapes_user_names_and_rejects_a_bad_window(staff_client, now):
    DreamRunFactory(phase="deep", user=UserFactory(username="<b>x</b>"), started_at=now - timedelta(hours=1))

    response = staff_client.get(reverse("dreaming:dashboard"), {"days": "lots"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
    assert "must be a whole number" in html
    assert response.context["days"] == 7


def test_dashboard_is_staff_only(client, user):
    url = reverse("dreaming:dashboard")
    assert client.get(url).status_code == 302  # anonymous → login

    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    assert client.get("/staff/").status_code == 302


def test_charts_escape_labels_and_titles():
    svg = bar_chart(title='Title "<x>"', labels=["<script>", "b&c"], series={"n<1>": [1, 2], "m": [0, 3]})
    line = line_chart(title="L", labels=["</svg>"], series={"cost": [Decimal("1.5")]})

    assert svg.startswith("<svg") and svg.count("<rect") >= 4
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "b&amp;c" in svg and "n&lt;1&gt;" in svg
    assert line.count("</svg>") == 1 and "&lt;/svg&gt;" in line
    assert "<polyline" in line


# --- the command and the run log ------------------------------------------------------------


def test_dream_report_prints_the_same_numbers_as_text_and_json(known_runs, now):
    LLMCallFactory(user=known_runs["deep"].user, phase="deep", cost_usd=Decimal("0.070000"), at=now - timedelta(hours=3))

    text = StringIO()
    call_command("dream_report", "--days", "7", stdout=text)
    out = text.getvalue()
    assert "Runs: 4 (1 failed)" in out
    assert "Unverified-quote rejection: 33.3% (5 rejected, 10 kept)" in out
    assert "promoted 4, pending 3, superseded 1, merged 2, evicted 5" in out
    # 0.07 / 1 user × 30 / 7 = 0.3 exactly
    assert "Estimated cost per user per month: $0.300000" in out
    assert "ProviderUnavailable: <upstream> 502" in out

    raw = StringIO()
    call_command("dream_report", "--json", stdout=raw)
    data = json.loads(raw.getvalue())
    assert data["totals"]["runs"] == 4
    assert data["cost"]["per_user_per_month_usd"] == "0.300000"
    assert data["rejection"]["rate"] == pytest.approx(1 / 3)
    assert data["failed_runs"][0]["id"] == known_runs["light_failed"].pk
    assert data["window"]["days"] == 7


def test_dream_report_rejects_a_bad_window():
    with pytest.raises(CommandError, match="--days must be between 1 and 365"):
        call_command("dream_report", "--days", "0", stdout=StringIO())


def test_run_log_writes_one_key_value_line(caplog, known_runs):
    with caplog.at_level(logging.INFO, logger="dreaming.pipeline.runs"):
        run_log(known_runs["light_ok"])
        run_log(known_runs["light_failed"])

    ok, failed = caplog.records
    assert ok.levelno == logging.INFO and failed.levelno == logging.WARNING
    line = ok.getMessage()
    assert line.startswith("dream_run ")
    assert f"id={known_runs['light_ok'].pk} phase=light status=ok" in line
    assert "candidates_created=8 unverified_rejected=2" in line and "duration_seconds=40.0" in line
    assert 'error="ProviderUnavailable: <upstream> 502"' in failed.getMessage()
    assert failed.dream_run["status"] == "failed"


def test_audit_summary_counts_staff_labels(now):
    from tests.factories import CandidateFactory

    CandidateFactory(audit="correct")
    CandidateFactory(audit="correct")
    CandidateFactory(audit="extraction_error")
    CandidateFactory()

    audit = report_build(days=7, now=timezone.now())["audit"]

    assert (audit["correct"], audit["extraction_error"], audit["labelled"]) == (2, 1, 3)
    assert audit["precision"] == pytest.approx(2 / 3)
