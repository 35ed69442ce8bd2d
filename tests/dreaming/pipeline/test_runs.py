"""DreamRun bookkeeping: counters added as the run closes, in as few statements as it takes."""
import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dreaming.models import DreamRun, Phase
from dreaming.pipeline.runs import run_add, run_finish, run_start

pytestmark = pytest.mark.django_db


def test_finishing_a_run_adds_its_counters_in_the_same_update_and_logs_the_user_without_reading_it_again(user, caplog):
    run = run_start(phase=Phase.DEEP, user=user, worker="w")
    run_add(run=run, promoted=2)

    with caplog.at_level(logging.INFO, logger="dreaming.pipeline.runs"), CaptureQueriesContext(connection) as captured:
        finished = run_finish(run=run, counters={"promoted": 3, "pending": 1, "users_processed": 1, "dropped": 0,
                                                 "skipped_by_kind": {"coding": 2}})

    assert (finished.status, finished.promoted, finished.pending, finished.users_processed) == (DreamRun.Status.OK, 5, 1, 1)
    assert finished.skipped_by_kind == {"coding": 2} and finished.finished_at is not None
    sql = [q["sql"].strip().replace('"', "") for q in captured]
    assert sum(s.startswith("UPDATE dreaming_dreamrun ") for s in sql) == 1  # counters, the per-kind dict and the close
    assert not any("FROM auth_user" in s for s in sql)
    assert len(sql) == 1  # reloaded by the UPDATE's RETURNING, not a second read
    assert f"user={user.get_username()}" in caplog.text and "promoted=5" in caplog.text


def test_adding_numbers_and_per_kind_counts_is_one_update_that_adds_to_what_is_there(user):
    run = run_start(phase=Phase.LIGHT, user=user)
    run_add(run=run, sessions_done=2, skipped_by_kind={"coding": 1}, sensitive_by_kind={"health": 1})

    with CaptureQueriesContext(connection) as captured:
        run_add(run=run, sessions_done=3, sessions_skipped=0, skipped_by_kind={"coding": 2, "document": 1, "roleplay": 0},
                sensitive_by_kind={"health": 1})
    with CaptureQueriesContext(connection) as nothing:
        run_add(run=run, sessions_done=0, skipped_by_kind={})

    run.refresh_from_db()
    assert (run.sessions_done, run.sessions_skipped) == (5, 0)
    assert run.skipped_by_kind == {"coding": 3, "document": 1} and run.sensitive_by_kind == {"health": 2}
    assert len(captured) == 1 and len(nothing) == 0


def test_a_failed_run_keeps_its_error_and_the_counters_it_was_given(user):
    run = run_start(phase=Phase.WEEKLY, user=user)

    finished = run_finish(run=run, error=ValueError("bad night"), counters={"decayed": 4})

    assert finished.status == DreamRun.Status.FAILED and finished.error == "ValueError: bad night"
    assert finished.decayed == 4
