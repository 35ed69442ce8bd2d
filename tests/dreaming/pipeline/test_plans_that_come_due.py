"""A plan waits for the time its words give; once due, a plan to start a job is the job, and it replaces the job the
user had (EN and Chinese)."""
from datetime import date, datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine.plans_due import job_plan_taken, plan_due
from dreaming.models import Memory
from dreaming.pipeline.weekly import weekly_consolidate_user
from dreaming.providers.local_embedder import LocalEmbedder
from tests.factories import MemoryFactory
from tests.support.deep import ScriptedDreamer

SAID = datetime(2026, 9, 1, 10, 0, tzinfo=dt_timezone.utc)


def _memory(user, *, at=SAID, **fields):
    return MemoryFactory(user=user, first_seen=at, last_seen=at, valid_from=at, **fields)


def _weekly(user, now):
    return weekly_consolidate_user(user=user, now=now, dreamer=ScriptedDreamer(), embedder=LocalEmbedder(dimensions=512),
                                   dry_run=False)


@pytest.mark.parametrize(("plan", "due", "taken"), [
    ("User is starting at Google next month as a designer", date(2026, 10, 1),
     "User started working at Google as a designer in October 2026"),
    ("User will start a new job as a nurse next week", date(2026, 9, 7),
     "User started working as a nurse in the week of 7 September 2026"),
    ("用户下个月去一家互联网公司做财务", date(2026, 10, 1), "用户2026年10月起在一家互联网公司做财务"),
    ("用户明年要到腾讯上班", date(2027, 1, 1), "用户2027年起在腾讯上班"),
])
def test_a_job_plan_is_due_when_its_words_say_and_becomes_the_job(plan, due, taken):
    when = plan_due(plan, said=SAID.date())
    assert when[0] == due
    assert job_plan_taken(plan, when=when[1]) == taken


@pytest.mark.parametrize("plan", ["User is starting a pottery class next month", "User is moving to Tokyo next month",
                                  "User is joining Toastmasters next month", "用户下个月去北京旅游"])
def test_a_plan_that_is_not_a_job_does_not_become_one(plan):
    assert job_plan_taken(plan, when="in October 2026") is None


@pytest.mark.django_db
@pytest.mark.parametrize(("old_job", "plan", "became"), [
    ("User works as an accountant at a bank", "User is starting at Google next month as a designer",
     "User started working at Google as a designer in October 2026"),
    ("用户在一家银行做会计", "用户下个月去一家互联网公司做财务", "用户2026年10月起在一家互联网公司做财务"),
])
def test_a_job_plan_once_due_replaces_the_old_job(user, old_job, plan, became):
    old = _memory(user, at=SAID - timedelta(days=30), statement=old_job, category="fact")
    planned = _memory(user, statement=plan, category="event", importance=0.4)
    other = _memory(user, at=SAID - timedelta(days=30), statement="User has a dog named Milo", category="relation")

    _weekly(user, now=datetime(2026, 9, 20, 4, tzinfo=dt_timezone.utc))  # past the window, not yet due
    planned.refresh_from_db(); old.refresh_from_db()
    assert planned.statement == plan and planned.status == Memory.Status.ACTIVE
    assert old.status == Memory.Status.ACTIVE

    _weekly(user, now=datetime(2026, 10, 4, 4, tzinfo=dt_timezone.utc))
    planned.refresh_from_db(); old.refresh_from_db(); other.refresh_from_db()
    assert planned.statement == became and planned.status == Memory.Status.ACTIVE and planned.category == "fact"
    assert "plan_corrected" not in planned.score_breakdown  # the job is in MEMORY.md, not history
    assert old.status == Memory.Status.SUPERSEDED and old.superseded_by_id == planned.pk
    assert other.status == Memory.Status.ACTIVE


@pytest.mark.django_db
def test_a_minor_plan_waits_for_its_month_before_it_expires(user):
    planned = _memory(user, statement="User will buy a new phone next month", category="event", importance=0.3)
    _weekly(user, now=datetime(2026, 9, 20, 4, tzinfo=dt_timezone.utc))
    planned.refresh_from_db()
    assert planned.status == Memory.Status.ACTIVE
    _weekly(user, now=datetime(2026, 10, 4, 4, tzinfo=dt_timezone.utc))
    planned.refresh_from_db()
    assert planned.status == Memory.Status.ARCHIVED


def test_a_chinese_plan_said_without_a_subject_after_the_users_job_is_the_users():
    from dreaming.protocol import CallContext, Turn
    from dreaming.providers.local import LocalDreamer

    def said(text):
        turns = [Turn(seq=0, role="user", content=text, created_at=SAID)]
        return [c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())]

    assert "用户下个月去一家互联网公司做财务" in said("我在一家银行做会计。下个月去一家互联网公司做财务。")
    assert not any("北京" in s for s in said("我妹妹在上海工作。下个月去北京。"))  # the sister's, not the user's
    assert job_plan_taken("下个月用户去一家互联网公司做财务", when="2026年10月") == "用户2026年10月起在一家互联网公司做财务"
