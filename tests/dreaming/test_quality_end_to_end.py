"""What a user actually gets from a night of dreaming, end to end on the real local engine + deep sleep:
contradictions need the same subject and slot, vague fragments stay out, lasting preferences are
learned the first night, and statements read well."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine.compare import slot_of
from dreaming.models import Candidate, Memory
from dreaming.providers.local_embedder import LocalEmbedder
from tests.support.night import chat, dream
from tests.factories import MemoryFactory

pytestmark = pytest.mark.django_db

UTC = dt_timezone.utc
START = datetime(2026, 3, 1, 10, tzinfo=UTC)


def active(user) -> set[str]:
    return set(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).values_list("statement", flat=True))


# --- 1. contradiction: same subject, same slot, different value --------------------------------------


def test_moving_supersedes_the_users_home_and_leaves_the_sisters_untouched(user):
    chat(user, START, "I live in Shanghai. My sister Lena lives in Berlin, we video call every Sunday.")
    dream(user, START)
    shanghai = Memory.objects.get(user=user, statement="User lives in Shanghai")
    sister = Memory.objects.get(user=user, statement__startswith="User's sister Lena lives in Berlin")

    later = START + timedelta(days=20)
    chat(user, later, "I moved to Tokyo last week!")
    run = dream(user, later)

    shanghai.refresh_from_db(); sister.refresh_from_db()
    tokyo = Memory.objects.get(user=user, statement__contains="Tokyo")
    assert run.superseded == 1
    assert (shanghai.status, shanghai.superseded_by, shanghai.valid_to) == (
        Memory.Status.SUPERSEDED, tokyo, later + timedelta(minutes=1))
    assert sister.status == Memory.Status.ACTIVE and sister.valid_to is None and sister.superseded_by is None
    assert tokyo.status == Memory.Status.ACTIVE


def test_a_contradiction_is_found_even_when_the_old_memory_is_not_among_the_nearest_neighbours(user, settings):
    # The local n-gram embedder puts "lives in Shanghai" far from "moved to Tokyo"; with one neighbour
    # shown, only the slot key can bring the old home to the comparison.
    settings.DREAM_COMPARE_NEIGHBOURS = 1
    chat(user, START, "I live in Shanghai.")
    dream(user, START)
    shanghai = Memory.objects.get(user=user, statement="User lives in Shanghai")
    embedder = LocalEmbedder(dimensions=len(shanghai.embedding))
    for text in ["User moved a sofa to the attic last week", "User moved to a new desk at work",
                 "User likes Tokyo Disneyland"]:
        memory = MemoryFactory(user=user, statement=text, category="fact")
        memory.embedding = embedder.embed([text])[0]
        memory.save(update_fields=["embedding"])

    later = START + timedelta(days=20)
    chat(user, later, "I moved to Tokyo last week!")
    run = dream(user, later)

    assert run.superseded == 1
    old = Memory.objects.get(user=user, statement="User lives in Shanghai")
    assert old.status == Memory.Status.SUPERSEDED and "Tokyo" in old.superseded_by.statement
    assert Memory.objects.filter(user=user, status=Memory.Status.ACTIVE, statement__contains="sofa").exists()


def test_a_relatives_move_supersedes_only_that_relatives_home(user):
    chat(user, START, "I live in Shanghai. My mom lives in Ohio.")
    dream(user, START)
    later = START + timedelta(days=20)
    chat(user, later, "My mom moved to Florida last month.")
    dream(user, later)

    assert "User lives in Shanghai" in active(user)
    mom = Memory.objects.get(user=user, statement="User's mom lives in Ohio")
    assert mom.status == Memory.Status.SUPERSEDED and "Florida" in mom.superseded_by.statement


def test_slot_of_names_the_subject_and_the_slot():
    assert slot_of("User moved to Tokyo last week") == ("user", "residence")
    assert slot_of("User's sister Lena lives in Berlin, User and Lena video call every Sunday") == ("sister", "residence")
    assert slot_of("用户的妈妈住在北京") == ("妈妈", "residence")
    assert slot_of("User works at Bosch") == ("user", "workplace")
    assert slot_of("User is married") == ("user", "status")
    assert slot_of("User's favorite movie is Spirited Away") == ("user", "favourite movie")
    assert slot_of("User is moving to Tokyo next month") is None  # a plan changes nothing yet
    assert slot_of("User loves ramen") is None


# --- 2. vague or context-less statements ------------------------------------------------------------


def test_vague_fragments_are_dismissed_and_never_become_memories(user):
    chat(user, START, "Hi! I'm new here.", ("assistant", "Welcome! Tell me about yourself."),
         "I practice for twenty minutes every evening.", ("assistant", "Nice."), "我很期待。")
    dream(user, START)

    assert active(user) == set()
    dismissed = Candidate.objects.filter(user=user, status=Candidate.Status.DISMISSED)
    assert {c.statement for c in dismissed} >= {"User is new here", "User practices for twenty minutes every evening",
                                               "用户很期待"}
    assert all(c.score_breakdown.get("vague") for c in dismissed)
    assert not Candidate.objects.filter(user=user, status=Candidate.Status.PENDING).exists()


def test_a_pronoun_or_a_missing_object_is_filled_from_what_was_said_just_before(user):
    chat(user, START,
         "My sister Lena lives in Berlin.", ("assistant", "What does Lena do in Berlin?"),
         "She is a nurse. I miss her a lot.", ("assistant", "That sounds hard."),
         "I booked flights to Kyoto! I'm going with my friend Yuki in early April.", ("assistant", "Lovely!"),
         "I started learning the ukulele last month. I practice for twenty minutes every evening.")
    dream(user, START)

    learned = active(user)
    assert "User misses their sister Lena" in learned
    assert "User is going to Kyoto with their friend Yuki in early April" in learned
    assert "User practices the ukulele for twenty minutes every evening" in learned
    assert not any(s.endswith((" her", " him")) for s in learned)
    # the quote stays the user's own words
    missing = Memory.objects.get(user=user, statement="User misses their sister Lena")
    assert [s.quote for s in missing.sources.all()] == ["I miss her a lot"]


def test_a_chinese_pronoun_is_resolved_to_the_relative_just_named(user):
    chat(user, START, "我姐姐Lena下个月要来上海看我。", ("assistant", "太好了！"), "我打算带她去外滩和武康路。")
    dream(user, START)

    statements = set(Candidate.objects.filter(user=user).values_list("statement", flat=True))
    assert "用户打算带姐姐Lena去外滩和武康路" in statements
    assert not any("带她" in s for s in statements)


def test_an_answer_about_an_unnamed_it_is_not_borrowed_into_a_memory(user):
    chat(user, START, "I watched a great film tonight.", ("assistant", "What do you love most about it?"),
         "The bathhouse and No-Face.")
    dream(user, START)

    statements = set(Candidate.objects.filter(user=user).values_list("statement", flat=True))
    assert not any("bathhouse" in s for s in statements)


# --- 3. lasting preferences first, small talk waits ----------------------------------------------------


def test_a_volunteered_lasting_preference_is_learned_the_first_night_and_small_talk_waits(user):
    chat(user, START, "I love cooking on weekends, I made mapo tofu yesterday.",
         ("assistant", "Nice!"), "I can't stop smiling.", ("assistant", "Why?"),
         "I love Studio Ghibli films, they always calm me down.")
    dream(user, START)

    learned = active(user)
    assert "User loves cooking on weekends" in learned
    assert any(s.startswith("User loves Studio Ghibli films") for s in learned)
    # "yesterday" is dated from the message time (START is 1 March 2026).
    assert "User made mapo tofu on 28 February 2026" not in learned
    assert "User can't stop smiling" not in learned
    waiting = set(Candidate.objects.filter(user=user, status=Candidate.Status.PENDING).values_list("statement", flat=True))
    assert "User made mapo tofu on 28 February 2026" in waiting
    cooking = Memory.objects.get(user=user, statement="User loves cooking on weekends")
    assert cooking.score_breakdown["parts"]["stability"] == 1.0


def test_small_talk_is_promoted_when_it_comes_up_again_in_another_session(user):
    chat(user, START, "I'm still unpacking boxes.")
    dream(user, START)
    assert active(user) == set()
    later = START + timedelta(days=2)
    chat(user, later, "I'm still unpacking boxes, it never ends.")
    dream(user, later)

    assert any(s.startswith("User is still unpacking boxes") for s in active(user))


# --- 4. statements read well ---------------------------------------------------------------------------


def test_we_becomes_the_user_and_the_person_named_and_a_mid_sentence_article_is_lower_case(user):
    chat(user, START, "My sister Lena lives in Berlin, we video call every Sunday.",
         ("assistant", "What do you love most?"), "I love The bathhouse scenes and No-Face.")
    dream(user, START)

    statements = set(Candidate.objects.filter(user=user).values_list("statement", flat=True))
    assert "User's sister Lena lives in Berlin, User and Lena video call every Sunday" in statements
    assert "User loves the bathhouse scenes and No-Face" in statements
    assert not any(" we " in f" {s} " for s in statements)


def test_skipped_sessions_and_sensitive_sentences_leave_nothing(user):
    chat(user, START, "Can you fix this?\n```python\nprint(1/0)\n```\nZeroDivisionError: division by zero")
    chat(user, START + timedelta(minutes=30),
         "I tried running this morning. I was diagnosed with asthma last year and I forgot my inhaler.",
         ("assistant", "Take care."), "My wifi password is hunter2-Blue, please remember it.")
    dream(user, START + timedelta(minutes=30))

    everything = " ".join(Candidate.objects.filter(user=user).values_list("statement", flat=True))
    everything += " ".join(Memory.objects.filter(user=user).values_list("statement", flat=True))
    assert "asthma" not in everything and "inhaler" not in everything and "hunter2" not in everything


def test_weekly_never_merges_near_identical_memories_about_two_different_people(user, settings):
    from dreaming.pipeline.weekly import weekly_consolidate_user

    # A strong embedder can put these two above the merge threshold; here both get the very same vector.
    mine = MemoryFactory(user=user, statement="User lives in Berlin", category="fact")
    sisters = MemoryFactory(user=user, statement="User's sister lives in Berlin", category="relation")
    vector = LocalEmbedder(dimensions=512).embed(["lives in Berlin"])[0]
    for memory in (mine, sisters):
        memory.embedding = vector
        memory.save(update_fields=["embedding"])

    run = weekly_consolidate_user(user=user, now=START)

    assert run.merged == 0
    assert set(active(user)) == {"User lives in Berlin", "User's sister lives in Berlin"}
