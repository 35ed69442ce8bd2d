"""Issue #16 end to end: an answer to "你结婚了吗？" is remembered the first night, "Me too!" is not, and a move
said in Chinese and later in English with its date becomes one memory in the dated wording."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.models import Memory
from tests.support.night import chat, dream

START = datetime(2026, 10, 1, 10, tzinfo=dt_timezone.utc)


def active(user) -> list[str]:
    return list(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).values_list("statement", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("asked,answer,statement", [
    ("好的。顺便问一下，你结婚了吗？", "结了，去年结的", "用户结婚了"),
    ("Sure! Are you married?", "Yes, for 7 years", "User has been married for 7 years"),
])
def test_a_short_answer_about_the_users_life_is_remembered_the_first_night(user, asked, answer, statement):
    chat(user, START, "Can you help me plan a weekend?", ("assistant", asked), answer)

    dream(user, START)

    assert statement in active(user)
    memory = Memory.objects.get(user=user, statement=statement)
    assert memory.score_breakdown["parts"]["user_initiated"] == 1.0


@pytest.mark.django_db
def test_me_too_to_the_assistants_own_taste_stays_unremembered(user):
    chat(user, START, "I need a gift idea", ("assistant", "I love hiking myself. Do you?"), "Me too!")

    dream(user, START)

    assert not any("hiking" in s for s in active(user))


@pytest.mark.django_db
def test_a_move_said_again_in_english_with_its_date_is_one_memory(user):
    chat(user, START, "我现在搬到上海了，帮我找找附近的健身房")
    dream(user, START)
    later = START + timedelta(days=12)
    chat(user, later, "Last month I moved to Shanghai, any tips for expats?")
    dream(user, later)

    shanghai = [s for s in active(user) if "Shanghai" in s or "上海" in s]
    assert len(shanghai) == 1 and shanghai[0].startswith("User moved to Shanghai in "), shanghai


@pytest.mark.django_db
def test_a_bare_count_answers_do_you_have_kids(user):
    chat(user, START, "What should I cook tonight?", ("assistant", "Do you have kids?"), "Two")

    dream(user, START)

    assert "User has two kids" in active(user)
