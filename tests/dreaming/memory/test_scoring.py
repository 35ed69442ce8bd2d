"""The score formula: one place, weights from settings, a visible breakdown."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.memory.scoring import ScoreInput, score_compute, score_decision, specificity, timeliness

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


def item(**overrides):
    fields = dict(statement="User has a dog named Milo", category="fact", importance=0.8, user_initiated=True,
                  distinct_sessions=1, last_said_at=NOW - timedelta(hours=3))
    return ScoreInput(**{**fields, **overrides})


def test_the_score_is_the_weighted_mean_of_its_visible_parts():
    score, breakdown = score_compute(item=item(), now=NOW)
    parts, weights = breakdown["parts"], breakdown["weights"]
    assert score == pytest.approx(sum(parts[k] * weights[k] for k in parts) / sum(weights.values()), abs=1e-4)
    assert parts["user_initiated"] == 1.0 and parts["recurrence"] == 0.0 and parts["feedback"] == 0.5
    assert breakdown["total"] == score and breakdown["sessions"] == 1


def test_weights_come_from_settings(settings):
    before, _ = score_compute(item=item(user_initiated=False), now=NOW)
    settings.DREAM_SCORE_WEIGHTS = {**settings.DREAM_SCORE_WEIGHTS, "user_initiated": 0.0}
    after, breakdown = score_compute(item=item(user_initiated=False), now=NOW)
    assert after > before and breakdown["weights"]["user_initiated"] == 0.0


def test_a_user_raised_detailed_statement_beats_a_passing_vague_one():
    strong, _ = score_compute(item=item(), now=NOW)
    vague, _ = score_compute(item=item(statement="User likes it", user_initiated=False, importance=0.3), now=NOW)
    assert score_decision(strong) == "promote" and score_decision(vague) == "dismiss"


def test_recurrence_in_another_session_lifts_a_pending_candidate_over_the_threshold():
    passing = item(statement="User likes jazz music", user_initiated=False, importance=0.6)
    once, _ = score_compute(item=passing, now=NOW)
    twice, _ = score_compute(item=ScoreInput(**{**passing.__dict__, "distinct_sessions": 2}), now=NOW)
    assert (score_decision(once), score_decision(twice)) == ("pending", "promote")


def test_fresh_events_matter_now_and_stale_plans_less():
    fresh = timeliness(statement="User ran a marathon", category="event", last_said_at=NOW - timedelta(days=1), now=NOW)
    stale = timeliness(statement="User ran a marathon", category="event", last_said_at=NOW - timedelta(days=60), now=NOW)
    stale_plan = timeliness(statement="User plans to run a marathon next week", category="event",
                            last_said_at=NOW - timedelta(days=60), now=NOW)
    old_fact = timeliness(statement="User has a sister", category="relation", last_said_at=NOW - timedelta(days=60), now=NOW)
    assert fresh > old_fact > stale > stale_plan
    assert stale == pytest.approx(0.25, abs=0.001) and stale_plan == pytest.approx(0.125, abs=0.001)


def test_specificity_rewards_names_numbers_and_detail_in_both_languages():
    assert specificity("User has a dog named Milo") > specificity("User likes it")
    assert specificity("用户养了一只叫米洛的狗") > specificity("用户喜欢茶")
