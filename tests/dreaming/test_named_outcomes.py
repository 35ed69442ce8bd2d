"""An outcome said without its object ("I got the job!") is named by the one interview or application told before."""
from datetime import datetime, timezone as dt_timezone

import pytest

from dreaming.engine.outcomes import outcome_named
from dreaming.models import Memory
from tests.support import night

DAY0 = datetime(2026, 3, 2, 19, tzinfo=dt_timezone.utc)


def said_on(user, day: int, *lines: str):
    night.said_on(user, DAY0, day, *lines)


@pytest.mark.django_db
def test_the_job_got_is_the_role_interviewed_for(user):
    said_on(user, 0, "I got an interview at Amazon for a PM role!! I'm so nervous.")
    said_on(user, 14, "I got the job!")

    got = Memory.objects.get(user=user, status=Memory.Status.ACTIVE, statement__startswith="User got the")
    assert got.statement == "User got the PM role at Amazon"
    named_by = got.score_breakdown["named_by"]
    assert named_by["said"] == "User got the job" and "interview at Amazon" in named_by["statement"]
    assert got.sources.get().quote == "I got the job"  # the user's words stay as said


@pytest.mark.django_db
def test_of_two_interviews_the_job_got_stays_as_said(user):
    said_on(user, 0, "I got an interview at Amazon for a PM role!!", "I also have a job interview with Google next week.")
    said_on(user, 14, "I got the job!")

    assert Memory.objects.filter(user=user, statement="User got the job").exists()


@pytest.mark.parametrize("statement, earlier, named", [
    ("User got the job", ["User has a job interview with Google next week"], "User got the job at Google"),
    ("User got the job", ["User applied for a marketing job at Nike"], "User got the marketing job at Nike"),
    ("User got accepted", ["User applied to Stanford for grad school"], "User was accepted to Stanford for grad school"),
    ("用户拿到offer了", ["用户下周要去腾讯面试产品经理"], "用户拿到了腾讯产品经理的offer"),
    ("用户被录取了", ["用户申请了香港大学的研究生"], "用户被香港大学录取了，读研究生"),
])
def test_an_unnamed_outcome_takes_the_pursuit_before(statement, earlier, named):
    assert outcome_named(statement, ["User lives in Chicago", *earlier]) == (named, 1)


@pytest.mark.parametrize("statement, earlier", [
    ("User got the job", ["User is a data analyst at a logistics company"]),  # no pursuit on record
    ("User got the offer from Google", ["User applied for a marketing job at Nike"]),  # it names its own
    ("User got accepted", ["User has a job interview with Google next week"]),  # an interview admits no one
])
def test_no_pursuit_or_a_named_outcome_is_left_as_said(statement, earlier):
    assert outcome_named(statement, earlier) is None


@pytest.mark.django_db
def test_an_engagement_keeps_the_name_of_the_girlfriend_it_replaces(user):
    said_on(user, 0, "My girlfriend Priya is a pharmacist.")
    said_on(user, 30, "Big news: we're engaged now :)")

    engaged = Memory.objects.get(user=user, status=Memory.Status.ACTIVE, statement__contains="engaged")
    assert engaged.statement == "User is engaged to Priya"
    assert "Priya" in engaged.score_breakdown["named_by"]["statement"]


@pytest.mark.parametrize("statement, earlier, named", [
    ("User got married in June 2026", ["User's boyfriend is named Tom"], "User got married to Tom in June 2026"),
    ("用户订婚了", ["用户的女朋友叫小美"], "用户和小美订婚了"),
])
def test_a_couple_takes_the_one_partner_named_before(statement, earlier, named):
    from dreaming.engine.outcomes import partner_named
    assert partner_named(statement, ["User lives in Chicago", *earlier]) == (named, 1)


def test_of_two_partners_named_the_couple_stays_as_said():
    from dreaming.engine.outcomes import partner_named
    assert partner_named("User is engaged", ["User's girlfriend is named Priya", "User's girlfriend is named Ana"]) is None


# --- a couple that parts ends what was said of the partner (engine.couples, engine.partings) ---------------------
@pytest.mark.django_db
def test_breaking_up_ends_the_boyfriend_it_names_and_leaves_the_rest(user):
    said_on(user, 0, "I live in Portland. My boyfriend Chris is a chef.", "My sister Jenna is a nurse.")
    said_on(user, 30, "thanks. also Chris and I broke up, so it's been a rough month.")

    ended = Memory.objects.filter(user=user, status=Memory.Status.SUPERSEDED)
    assert ended and all("Chris" in m.statement for m in ended)
    assert {m.superseded_by.statement for m in ended} == {"User broke up with Chris"}
    active = " | ".join(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).values_list("statement", flat=True))
    assert "Jenna" in active and "Portland" in active and "boyfriend" not in active


@pytest.mark.django_db
def test_a_chinese_breakup_ends_the_boyfriend_it_names_and_what_was_said_of_him(user):
    said_on(user, 0, "我男朋友叫小林，他是程序员。")
    said_on(user, 30, "我和小林分手了，心情很差。")

    boyfriend = Memory.objects.get(user=user, statement="用户的男朋友叫小林")
    assert boyfriend.status == Memory.Status.SUPERSEDED and boyfriend.superseded_by.statement == "用户和小林分手了"
    # "他是程序员" said of him (chinese_he_and_she.py) ends with him
    assert not Memory.objects.filter(user=user, status=Memory.Status.ACTIVE, statement__contains="男朋友").exists()


def test_what_was_said_of_a_partner_by_role_alone_ends_only_with_a_named_parting_of_that_role():
    from dreaming.engine.endings import ended_in
    olds = ["User's boyfriend is named Chris", "User's boyfriend is a chef", "User's husband is named Tom"]
    assert [i for i, _ in ended_in("User broke up with Chris", olds)] == [0, 1]
    assert ended_in("User broke up with Chris", ["User's boyfriend is a chef"]) == []


@pytest.mark.django_db
def test_breaking_up_with_someone_else_leaves_the_boyfriend(user):
    said_on(user, 0, "My boyfriend Sam is a chef.")
    said_on(user, 30, "Chris and I broke up.")

    assert not Memory.objects.filter(user=user, status=Memory.Status.SUPERSEDED).exists()


# --- a pet or person named before who died (engine.passings) ----------------------------------------------------
@pytest.mark.django_db
def test_a_dog_that_passed_away_is_named_by_its_memory_and_ends_it(user):
    said_on(user, 0, "I have a golden retriever named Max, he's 12 now. I live in Portland.")
    said_on(user, 30, "sad news, Max passed away last week. I'm devastated.")

    died = Memory.objects.get(user=user, status=Memory.Status.ACTIVE, statement__contains="passed away")
    assert died.statement.startswith("User's golden retriever Max passed away")
    dog = Memory.objects.get(user=user, statement__startswith="User has a golden retriever")
    assert dog.status == Memory.Status.SUPERSEDED and dog.superseded_by == died
    assert Memory.objects.get(user=user, statement="User lives in Portland").status == Memory.Status.ACTIVE


@pytest.mark.django_db
def test_a_chinese_pet_that_died_ends_the_pet(user):
    said_on(user, 0, "我养了一只柯基叫豆豆，三岁了。")
    said_on(user, 30, "豆豆去世了，我很难过")

    corgi = Memory.objects.get(user=user, statement="用户养了一只柯基叫豆豆")
    assert corgi.status == Memory.Status.SUPERSEDED and "豆豆去世了" in corgi.superseded_by.statement


def test_a_death_ends_only_the_one_of_that_kind_and_name():
    from dreaming.engine.passings import death_ends
    assert death_ends("User's cat Luna died yesterday", "User's cat is named Luna") == "no longer: Luna (died)"
    assert death_ends("User's cat Luna died yesterday", "User's sister is named Luna") is None
    assert death_ends("User's Max passed away", "User lives in Portland") is None


@pytest.mark.parametrize("message, statement", [
    ("sad news, Max passed away last week. I'm devastated.", "User's Max passed away last week"),
    ("豆豆去世了，我很难过", "用户的豆豆去世了"),
])
def test_a_bare_name_that_died_is_read_as_the_users_own(message, statement):
    from dreaming.protocol import CallContext, Turn
    from dreaming.providers.local import LocalDreamer
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert statement in [c.statement for c in found]


@pytest.mark.parametrize("message", ["She passed away.", "Grandma died in May.", "What happened when Max died?"])
def test_no_name_or_a_question_tells_no_death_of_the_users_own(message):
    from dreaming.protocol import CallContext, Turn
    from dreaming.providers.local import LocalDreamer
    found = LocalDreamer().extract(turns=[Turn(seq=0, role="user", content=message)], ctx=CallContext())
    assert not any("passed away" in c.statement or "died" in c.statement for c in found)


# --- a job changed ends the one job before it, not the new one said with it (engine.jobs_left) -------------------
@pytest.mark.django_db
def test_a_chinese_job_changed_ends_the_bank_job_and_keeps_the_new_one(user):
    said_on(user, 0, "我现在住在北京，在一家银行上班。")
    said_on(user, 30, "我换工作了，现在在一家咨询公司做分析师。")

    bank = Memory.objects.get(user=user, statement__contains="银行")
    assert bank.status == Memory.Status.SUPERSEDED and bank.superseded_by.statement == "用户换工作了"
    assert Memory.objects.get(user=user, statement__contains="分析师").status == Memory.Status.ACTIVE


@pytest.mark.django_db
def test_a_new_job_ends_the_barista_job_but_not_the_studies(user):
    said_on(user, 0, "I'm a barista at a small coffee shop but I'm studying to become a vet tech.")
    said_on(user, 30, "Big news, I got a new job at an animal hospital!")

    barista = Memory.objects.get(user=user, statement__contains="barista")
    assert barista.status == Memory.Status.SUPERSEDED
    assert Memory.objects.get(user=user, statement__contains="vet tech").status == Memory.Status.ACTIVE
