"""Distinct facts stay distinct, the same thing is one memory, settled plans leave (issue #16).

Through the real pipeline where the behaviour is the pipeline's (a session, light sleep, that night's
deep sleep with the local engine; weekly consolidation on stored memories), and on the rules
themselves where a case is easier to read there.
"""
from datetime import datetime, timedelta, timezone as dt_timezone

import numpy as np
import pytest

from dreaming.pipeline.clustering import candidates_cluster
from dreaming.providers.local import LocalDreamer
from dreaming.engine.extract import extract_candidates
from dreaming.engine.slots import fulfils, particulars_differ, same_thing
from dreaming.models import Candidate, Memory, MemoryDocument
from dreaming.protocol import MemoryRef, Turn
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.pipeline.weekly import weekly_consolidate_user
from tests.factories import MemoryFactory
from tests.support import night

UTC = dt_timezone.utc
DAY0 = datetime(2026, 3, 2, 19, tzinfo=UTC)
EMBEDDER = LocalEmbedder(dimensions=512)


def active(user):
    return list(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).order_by("pk"))


def memory_md(user) -> str:
    return MemoryDocument.objects.get(user=user, persona=None).content


def said_on(user, day: int, *lines: str):
    night.said_on(user, DAY0, day, *lines)


# --- distinct facts stay distinct ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_second_parrot_with_another_name_is_remembered_next_to_the_first(user):
    said_on(user, 0, "I have a parrot named Kiwi.")
    said_on(user, 4, "I have a parrot named Mango.")

    statements = [m.statement for m in active(user)]
    assert any("Kiwi" in s for s in statements) and any("Mango" in s for s in statements)
    kiwi = Memory.objects.get(user=user, statement__contains="Kiwi")
    assert kiwi.recurrence == 1  # Mango did not count as Kiwi said again
    assert not Candidate.objects.filter(user=user, status=Candidate.Status.MERGED).exists()


@pytest.mark.django_db
def test_the_same_pet_said_again_in_a_later_session_reinforces_its_memory(user):
    said_on(user, 0, "I have a parrot named Kiwi.")
    said_on(user, 4, "I still have a parrot named Kiwi.")

    (kiwi,) = active(user)
    assert "Kiwi" in kiwi.statement and kiwi.recurrence == 2
    assert Candidate.objects.get(user=user, status=Candidate.Status.MERGED).memory == kiwi


@pytest.mark.django_db
def test_a_move_said_with_now_replaces_the_old_city(user):
    said_on(user, 0, "I live in Shanghai.")
    said_on(user, 4, "I live in Tokyo now.")

    shanghai = Memory.objects.get(user=user, statement__contains="Shanghai")
    (tokyo,) = active(user)
    assert "Tokyo" in tokyo.statement
    assert shanghai.status == Memory.Status.SUPERSEDED and shanghai.superseded_by == tokyo
    assert "Shanghai" not in memory_md(user)


@pytest.mark.django_db
def test_a_renamed_pet_replaces_its_old_name_and_leaves_the_other_pet_alone(user):
    said_on(user, 0, "I have a parrot named Kiwi.", "I have a parrot named Mango.")
    said_on(user, 4, "My parrot Kiwi is now called Pip.")

    kiwi = Memory.objects.get(user=user, statement="User has a parrot named Kiwi")
    mango = Memory.objects.get(user=user, statement__contains="Mango")
    assert kiwi.status == Memory.Status.SUPERSEDED and "Pip" in kiwi.superseded_by.statement
    assert mango.status == Memory.Status.ACTIVE


@pytest.mark.django_db
def test_quitting_coffee_ends_the_love_of_it_and_the_four_cups_a_day(user):
    said_on(user, 0, "I love coffee, I drink 4 cups a day. I also play tennis every Sunday.")
    said_on(user, 30, "Big news: I quit coffee last week.")

    ended = Memory.objects.filter(user=user, status=Memory.Status.SUPERSEDED).order_by("pk")
    assert [m.statement for m in ended] == ["User loves coffee", "User drinks 4 cups of coffee a day"]
    assert {m.superseded_by.statement for m in ended} == {"User quit coffee in the week before 1 April 2026"}
    assert "coffee a day" not in memory_md(user) and "tennis" in memory_md(user)


@pytest.mark.django_db
def test_a_job_left_without_its_name_ends_the_one_job_the_user_has(user):
    said_on(user, 0, "I work as an accountant at Deloitte.")
    said_on(user, 30, "Big news, I quit my job last week!")

    accountant = Memory.objects.get(user=user, statement__contains="accountant")
    assert accountant.status == Memory.Status.SUPERSEDED and "quit" in accountant.superseded_by.statement
    assert "accountant" not in memory_md(user)


@pytest.mark.django_db
def test_of_two_jobs_a_job_left_unnamed_ends_neither(user):
    said_on(user, 0, "I work as an accountant at Deloitte.", "I'm also a yoga teacher on weekends.")
    said_on(user, 30, "Big news, I quit my job last week!")

    assert not Memory.objects.filter(user=user, status=Memory.Status.SUPERSEDED).exists()


def _candidate(pk, statement, vector):
    return Candidate(pk=pk, statement=statement, category="relation", persona_id=None, session_id=1,
                     embedding=np.asarray(vector, dtype=float), said_at=DAY0 + timedelta(minutes=pk))


def test_two_brothers_with_other_names_never_share_a_cluster_however_alike_the_sentences():
    same_vector = [1.0, 0.0, 0.0]
    clusters = candidates_cluster(candidates=[
        _candidate(1, "User has a younger brother named Leo who lives in Berlin", same_vector),
        _candidate(2, "User has a younger brother named Sam who lives in Berlin", same_vector),
        _candidate(3, "User has a younger brother named Leo who lives in Berlin", same_vector),
    ], threshold=0.8)
    assert [[c.pk for c in cluster.candidates] for cluster in clusters] == [[1, 3], [2]]


@pytest.mark.django_db
def test_weekly_merge_keeps_two_pets_apart_even_when_their_embeddings_match(user):
    vector = EMBEDDER.embed(["User has a parrot named Kiwi"])[0]
    kiwi = MemoryFactory(user=user, statement="User has a parrot named Kiwi", category="fact", embedding=vector)
    mango = MemoryFactory(user=user, statement="User has a parrot named Mango", category="fact", embedding=vector)

    run = weekly_consolidate_user(user=user, dreamer=LocalDreamer(), embedder=EMBEDDER)

    assert run.merged == 0
    kiwi.refresh_from_db(); mango.refresh_from_db()
    assert kiwi.status == mango.status == Memory.Status.ACTIVE


def test_what_tells_two_facts_apart_is_a_name_a_number_or_another_item():
    assert particulars_differ("User has a parrot named Kiwi", "User has a parrot named Mango")
    assert particulars_differ("User has two sisters", "User has three sisters")
    assert particulars_differ("User loves chess", "User loves pottery")
    assert not particulars_differ("User has a parrot named Kiwi", "User's parrot Kiwi loves apples")
    assert not particulars_differ("User lives in Tokyo now", "用户住在东京")


# --- one memory per thing ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_morning_habit_said_in_english_then_in_chinese_is_one_memory(user):
    said_on(user, 0, "I drink an oat latte every morning.")
    said_on(user, 4, "我每天早上都喝燕麦拿铁。")

    (latte,) = active(user)
    assert "oat latte" in latte.statement and latte.recurrence == 2
    merged = Candidate.objects.get(user=user, status=Candidate.Status.MERGED)
    assert "燕麦拿铁" in merged.statement and merged.memory == latte


def test_a_habit_at_another_time_of_day_is_not_the_same_habit():
    assert same_thing("User drinks an oat latte every morning", "用户每天早上都喝燕麦拿铁")
    assert not same_thing("User drinks an oat latte every morning", "User drinks an oat latte every evening")
    assert not same_thing("User drinks an oat latte every morning", "User's sister drinks an oat latte every morning")


def test_what_happened_once_is_not_merged_into_the_habit():
    assert not same_thing("User went hiking on 7 May 2023", "User loves hiking")
    assert not same_thing("用户昨天去爬山了", "用户喜欢爬山")
    assert not same_thing("User plays the ukulele with Anna", "User plays the ukulele")
    assert same_thing("用户喜欢爬山", "User loves hiking")


@pytest.mark.django_db
def test_three_ukulele_memories_become_one_at_the_weekly_consolidation(user):
    now = DAY0 + timedelta(days=7)
    first = MemoryFactory(user=user, statement="User plays the ukulele", category="fact", recurrence=2,
                          first_seen=DAY0, last_seen=DAY0, valid_from=DAY0)
    others = [MemoryFactory(user=user, statement=s, category="fact", first_seen=DAY0, last_seen=DAY0, valid_from=DAY0)
              for s in ("User is learning to play the ukulele", "用户在学尤克里里")]
    for memory in [first, *others]:
        memory.embedding = EMBEDDER.embed([memory.statement])[0]
        memory.save(update_fields=["embedding"])

    run = weekly_consolidate_user(user=user, now=now, dreamer=LocalDreamer(), embedder=EMBEDDER)

    assert run.merged == 2
    (ukulele,) = active(user)
    assert ukulele.pk == first.pk and "ukulele" in ukulele.statement
    for memory in others:
        memory.refresh_from_db()
        assert memory.status == Memory.Status.ARCHIVED and memory.superseded_by_id == first.pk


@pytest.mark.django_db
def test_a_move_that_happened_settles_the_plan_to_move_and_the_visit_to_the_old_city(user):
    said_on(user, 0, "I live in Shanghai.", "My sister is visiting me in Shanghai next weekend.",
            "I'm moving to Tokyo next month.")
    plan = Memory.objects.get(user=user, statement__contains="moving to Tokyo")
    visit = Memory.objects.get(user=user, statement__contains="visiting")
    assert plan.status == visit.status == Memory.Status.ACTIVE

    said_on(user, 20, "I live in Tokyo now.")

    tokyo = Memory.objects.get(user=user, status=Memory.Status.ACTIVE, statement__contains="lives in Tokyo")
    plan.refresh_from_db(); visit.refresh_from_db()
    assert plan.status == Memory.Status.SUPERSEDED and plan.superseded_by == tokyo
    assert "fulfilled" in plan.score_breakdown["superseded_reason"]
    assert {s.quote for s in plan.sources.all()} <= {s.quote for s in tokyo.sources.all()}  # the plan became the event
    assert visit.status == Memory.Status.SUPERSEDED and visit.superseded_by == tokyo
    document = memory_md(user)
    assert "Tokyo" in document and "moving" not in document and "Shanghai" not in document


@pytest.mark.django_db
def test_weekly_supersedes_a_plan_that_a_later_memory_fulfilled(user):
    plan = MemoryFactory(user=user, statement="User is planning to adopt a dog", category="event",
                         first_seen=DAY0, last_seen=DAY0, valid_from=DAY0)
    later = DAY0 + timedelta(days=3)
    adopted = MemoryFactory(user=user, statement="User adopted a dog named Rex", category="event",
                            first_seen=later, last_seen=later, valid_from=later)

    run = weekly_consolidate_user(user=user, now=DAY0 + timedelta(days=5), dreamer=LocalDreamer(), embedder=EMBEDDER)

    plan.refresh_from_db()
    assert run.superseded == 1
    assert plan.status == Memory.Status.SUPERSEDED and plan.superseded_by == adopted
    assert not fulfils("User adopted a cat named Rex", "User is planning to adopt a dog")


def test_a_move_told_in_chinese_replaces_the_city_told_in_english():
    (result,) = LocalDreamer().compare(statements=["用户现在住在东京了"],
                                       memories=[MemoryRef(id=1, statement="User lives in Shanghai", category="fact")])
    assert (result.relation, result.memory_id) == ("contradicts", 1)


# --- categories follow their definitions -----------------------------------------------------------


def _category(text: str) -> str:
    (candidate,) = extract_candidates([Turn(seq=1, role="user", content=text)])
    return candidate.category


def test_missing_home_is_an_emotion_and_a_weekend_plan_with_friends_is_an_event():
    assert _category("I miss home a lot.") == "emotion"
    assert _category("我很想家。") == "emotion"
    assert _category("I'm going hiking with my friends this weekend.") == "event"
    assert _category("I have a sister named Anna.") == "relation"  # who someone is stays a relation


@pytest.mark.django_db
def test_a_plan_whose_time_passed_leaves_memory_md_and_stays_for_recall(user):
    visit = MemoryFactory(user=user, statement="User's sister is visiting them in Shanghai next weekend", category="event",
                          importance=0.75, first_seen=DAY0, last_seen=DAY0, valid_from=DAY0)
    MemoryFactory(user=user, statement="User has a parrot named Kiwi", category="fact",
                  first_seen=DAY0, last_seen=DAY0, valid_from=DAY0)

    weekly_consolidate_user(user=user, now=DAY0 + timedelta(days=30), dreamer=LocalDreamer(), embedder=EMBEDDER)

    visit.refresh_from_db()
    assert visit.status == Memory.Status.ACTIVE and visit.category == "event" and "(as said on" in visit.statement
    document = memory_md(user)
    assert "Kiwi" in document and "Shanghai" not in document


@pytest.mark.django_db
def test_a_move_told_in_the_present_is_a_plan_the_move_settles(user):
    # "moving to Manchester in november" has no plan word ("next", "going to"): the present tense says it is to come
    said_on(user, 0, "Tom and I are moving to Manchester in november, he got a job there.")
    plan = Memory.objects.get(user=user, statement__contains="moving to Manchester")
    assert plan.status == Memory.Status.ACTIVE

    said_on(user, 40, "We moved to Manchester finally, the flat is so much bigger.")

    plan.refresh_from_db()
    assert plan.status == Memory.Status.SUPERSEDED and "fulfilled" in plan.score_breakdown["superseded_reason"]
    assert "moving to Manchester" not in memory_md(user)
