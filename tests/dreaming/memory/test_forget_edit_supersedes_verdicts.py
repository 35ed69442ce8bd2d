"""An edit supersedes earlier verdicts: a Doubt on the old words neither marks nor lowers the new ones."""
from datetime import datetime
from datetime import timezone as dt_timezone

import pytest

from dreaming.memory.context import memory_md_get
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.memory.feedback import latest_verdict, latest_verdicts
from dreaming.models import Feedback
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.services import (
    USER_SET_CONFIDENCE,
    feedback_record,
    memory_update_statement,
)
from tests.factories import MemoryFactory
from tests.support.deep import ScriptedDreamer

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 3, 0, tzinfo=dt_timezone.utc)


def test_a_doubt_given_before_an_edit_is_not_applied_after_it(user):
    memory = MemoryFactory(user=user, statement="User became an aunt", confidence=0.7)
    feedback_record(memory=memory, by=user, verdict="doubt")
    assert "(unsure)" in memory_md_get(user=user).content  # the doubt shows at once...

    memory_update_statement(memory=memory, by=user, statement="User became an aunt in November")

    assert "(unsure)" not in memory_md_get(user=user).content  # ...and goes with the old words
    run = deep_sleep_user(user=user, now=NOW, dreamer=ScriptedDreamer(), embedder=LocalEmbedder(dimensions=512))
    memory.refresh_from_db()
    assert run.feedback_applied == 0
    assert memory.confidence == pytest.approx(USER_SET_CONFIDENCE) and memory.user_set
    assert not Feedback.objects.filter(memory=memory).exists()
    assert "(unsure)" not in memory_md_get(user=user).content


def test_an_applied_agree_before_an_edit_no_longer_counts_but_a_verdict_after_it_does(user):
    memory = MemoryFactory(user=user, statement="User likes tea")
    Feedback.objects.create(user=user, memory=memory, verdict="agree", applied_at=NOW)
    assert latest_verdict(memory_id=memory.pk) == "agree"

    memory_update_statement(memory=memory, by=user, statement="User likes green tea")
    assert latest_verdict(memory_id=memory.pk) is None

    feedback_record(memory=memory, by=user, verdict="doubt")
    assert latest_verdict(memory_id=memory.pk) is None  # not applied yet: deep sleep's view
    assert latest_verdict(memory_id=memory.pk, applied_only=False) == "doubt"
    assert latest_verdicts(user=user, applied_only=False) == {memory.pk: "doubt"}


def test_latest_verdicts_takes_the_newest_per_memory_and_only_the_users_own(user, other_user):
    mine, theirs = MemoryFactory(user=user), MemoryFactory(user=other_user)
    first = Feedback.objects.create(user=user, memory=mine, verdict="doubt", applied_at=NOW)
    Feedback.objects.create(user=user, memory=mine, verdict="agree", applied_at=NOW)
    Feedback.objects.create(user=other_user, memory=theirs, verdict="reject", applied_at=NOW)
    Feedback.objects.filter(pk=first.pk).update(created_at=datetime(2026, 1, 1, tzinfo=dt_timezone.utc))

    assert latest_verdicts(user=user) == {mine.pk: "agree"}
