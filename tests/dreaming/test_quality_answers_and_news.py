"""Quality round 2, end to end on the real local engine + deep sleep (and the rules one by one):
an answer in the user's own words is self-disclosure, a number can be an object, a band is not a
roleplay, and first-person news told with the time first or as a second verb is heard."""
from datetime import datetime, timezone as dt_timezone

import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.models import Candidate, Memory
from dreaming.protocol import Turn
from dreaming.memory.scoring import ANSWER_CREDIT, initiative, vague_reason
from tests.support.night import chat, dream

UTC = dt_timezone.utc
START = datetime(2026, 3, 1, 10, tzinfo=UTC)


def statements(text: str, *, asked: str | None = None) -> list[str]:
    turns = ([Turn(seq=0, role="assistant", content=asked)] if asked else []) + [Turn(seq=1, role="user", content=text)]
    return [c.statement for c in extract_candidates(turns)]


# --- 1. an answer about oneself, in one's own words, is self-disclosure -------------------------------


@pytest.mark.django_db
def test_hobbies_told_in_answer_to_the_assistant_are_learned_the_first_night(user):
    chat(user, START, ("assistant", "你平时有什么爱好吗？"), "我喜欢爬山和游泳。")

    dream(user, START)

    memory = Memory.objects.get(user=user, statement__contains="爬山")
    assert memory.status == Memory.Status.ACTIVE and "游泳" in memory.statement
    assert memory.score_breakdown["parts"]["user_initiated"] == ANSWER_CREDIT
    candidate = Candidate.objects.get(user=user)
    assert candidate.user_initiated is False and candidate.status == Candidate.Status.PROMOTED


@pytest.mark.django_db
def test_a_yes_built_from_the_assistants_words_is_not_supported_by_its_quote(user):
    # Issue #17: "Me too!" cannot carry "User loves hiking in the mountains" — the quote is too short
    # to prove a statement, so the candidate is rejected with the reason instead of waiting.
    chat(user, START, ("assistant", "I love hiking in the mountains."), "Me too!")

    run = dream(user, START)

    candidate = Candidate.objects.get(user=user)
    assert candidate.statement == "User loves hiking in the mountains"
    assert candidate.status == Candidate.Status.REJECTED_UNVERIFIED and "quote too short" in candidate.reason
    assert run.promoted == 0 and not Memory.objects.filter(user=user).exists()


def test_initiative_credits_own_words_and_not_borrowed_ones():
    assert initiative(user_initiated=True, quote="Me too", statement="User loves hiking") == 1.0
    assert initiative(user_initiated=False, quote="I like jazz music", statement="User likes jazz music") == ANSWER_CREDIT
    assert initiative(user_initiated=False, quote="我喜欢爬山和游泳", statement="用户喜欢爬山和游泳") == ANSWER_CREDIT
    # "Are you a student?" → "I am": a fact of the user's life, told (issue #16, engine.life_answers)
    assert initiative(user_initiated=False, quote="I am", statement="User is a student") == 1.0
    assert initiative(user_initiated=False, quote="Me too", statement="User loves hiking") == 0.0
    # one word of two is not the user's statement: "tokyo maybe" does not say they moved
    assert initiative(user_initiated=False, quote="tokyo maybe", statement="User moved to Tokyo") == 0.0


# --- 2. vagueness: a number with no unit is an object; "than them" is the user ----------------------


def test_a_band_name_starting_with_a_number_is_an_object_but_a_bare_duration_is_not():
    assert vague_reason("User loves 5 Finger Death Punch, they're awesome") is None
    assert vague_reason("User practices 20 minutes every day") is not None
    assert vague_reason("User practices 3 times a week") is not None


def test_than_them_in_a_statement_about_a_relative_is_the_user():
    assert vague_reason("User's sister is older than them") is None
    assert vague_reason("User is taller than them") is not None
    assert vague_reason("User misses her") is not None


# --- 3. triage: "I play in the marching band" is not a roleplay ------------------------------------


@pytest.mark.django_db
def test_a_chat_about_playing_in_a_band_is_dreamed_not_skipped_as_roleplay(user):
    session = chat(user, START, "Hi. What's your name?", ("assistant", "I am James."),
                   "I play in the marching band at my school. I am only 17.", ("assistant", "Cool!"),
                   "I don't know that one. Want to tell me about it?")

    dream(user, START)

    session.refresh_from_db()
    assert session.skipped is False and session.triage_kind != "roleplay"
    learned = set(Candidate.objects.filter(user=user).values_list("statement", flat=True))
    assert "User plays in the marching band at their school" in learned


def test_a_named_character_is_still_a_roleplay_signal():
    from dreaming.engine.triage import _ROLEPLAY_RE

    assert _ROLEPLAY_RE.search("I play as Gandalf and you are the dragon")
    assert not _ROLEPLAY_RE.search("I play in the marching band")


# --- 4. first-person news: time first, second verb, activities, purpose ----------------------------


def test_news_told_with_the_time_first_is_heard():
    assert statements("Last week I won my second tournament!") == ["User won their second tournament"]
    assert statements("Yesterday I joined a pottery class.") == ["User joined a pottery class"]


def test_a_second_past_verb_of_the_same_i_is_its_own_statement():
    assert "User watched The Lord of the Rings last night" in statements(
        "I took your recommendation and watched The Lord of the Rings last night!")


def test_doing_an_activity_is_heard_and_doing_well_is_small_talk():
    assert statements("I'm doing kickboxing and it's giving me so much energy.") == ["User is doing kickboxing"]
    assert statements("I'm doing well, thanks.") == []
    assert statements("I'm doing my homework") == []


def test_to_help_me_is_a_purpose_and_help_me_is_still_a_request():
    assert statements("I've been taking a poetry class lately to help me put my feelings into words.") == [
        "User has been taking a poetry class lately to help them put their feelings into words"]
    assert statements("Can you help me write a poem about my cat?") == []


def test_something_the_user_did_with_others_is_something_the_user_did():
    assert statements("Oh yeah, we went to the beach recently. It was awesome!") == ["User went to the beach recently"]
    assert "User went camping with their kids last weekend" in statements("We went camping with our kids last weekend.")
    assert statements("We should go camping.") == []
    assert statements("We went there.") == []


def test_what_the_user_found_out_about_themself_is_the_disclosure():
    assert statements("I realized my passion is teaching.") == ["User's passion is teaching"]
    # "learned" with an object of its own is still the disclosure itself
    assert statements("I learned Spanish in school.") == ["User learned Spanish in school"]


def test_we_had_an_experience_is_heard_and_a_pronoun_object_is_left_for_deep_sleep_to_judge():
    assert statements("Last Sunday we had our first call-out, and it was intense.") == ["User had their first call-out"]
    assert vague_reason(statements("We had to get rid of her.")[0]) is not None


# --- a pastime shown, not named: once it waits, told again in another session it is remembered ----------


@pytest.mark.django_db
def test_a_pastime_shown_once_waits_and_shown_again_in_another_session_is_remembered(user):
    chat(user, START, ("assistant", "今天过得怎么样？"), "还行，晚上收工以后和几个老乡去球场打篮球，打了一个小时。")
    dream(user, START)

    assert not Memory.objects.filter(user=user, statement="用户打篮球").exists()
    assert Candidate.objects.get(user=user, statement="用户打篮球").status == Candidate.Status.PENDING

    later = datetime(2026, 3, 15, 10, tzinfo=UTC)
    chat(user, later, ("assistant", "周末做了什么？"), "周末又和老乡打了场篮球，赢了。")
    dream(user, later)

    memory = Memory.objects.get(user=user, statement="用户打篮球")
    assert memory.status == Memory.Status.ACTIVE and memory.recurrence == 2
    assert not Candidate.objects.filter(user=user, statement="用户打篮球", status=Candidate.Status.PENDING).exists()
