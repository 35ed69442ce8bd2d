"""First-person words a user hands the assistant that are not the user speaking of themself: the slots of a prompt
that gives the assistant a role, the instructions for a text to write in its writer's voice, a report's verdict on
the person it is about, and the state of a coding task. Found in a reading of what the
product remembered from WildChat; the examples here are written afresh. The user's own statements beside them
are still read."""
from datetime import UTC, datetime

import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.self_statements import self_statements
from dreaming.protocol import Turn

SAID = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)


def _statements(*turns: tuple[str, str]) -> list[str]:
    return [c.statement for c in extract_candidates(
        [Turn(seq=i, role=role, content=text, created_at=SAID) for i, (role, text) in enumerate(turns)])]


@pytest.mark.parametrize("text", [
    "I want you to act as a florist. My first job is to arrange tulips for a wedding.",
    "Act as my landlord in a negotiation. My next message will be about the rent.",
    "I want you to act as a travel agent. I will give you my budget and you will plan the route.",
    "Pretend to be a museum guide. I'll describe a painting and you explain it.",
])
def test_a_role_prompts_slots_are_not_the_user(text):
    assert _statements(("user", text)) == []


def test_the_user_in_a_role_prompt_is_still_read_outside_its_slots():
    statements = _statements(("user", "I work as a baker in Leeds. I want you to act as a career coach. "
                                      "My first question is how to change jobs."))
    assert any("baker" in s for s in statements), statements
    assert not any("question" in s.lower() for s in statements), statements


def test_my_first_job_outside_a_role_prompt_is_the_users():
    statements = _statements(("user", "My first job was at a garden centre in Derby."))
    assert any("garden centre" in s for s in statements), statements


@pytest.mark.parametrize("text", [
    "Write a 600 word article about kayaking in a casual tone. Don't use lists, so I never use bullet points. "
    "I use commas, not dashes.",
    "Rewrite this product description for my shop page: I avoid jargon and I don't use exclamation marks.",
])
def test_instructions_for_a_text_in_its_writers_voice_are_not_the_user(text):
    statements = _statements(("user", text))
    assert not any(word in s for s in statements for word in ("bullet", "commas", "jargon", "exclamation")), statements


def test_the_same_words_outside_a_request_for_a_text_are_the_users():
    statements = _statements(("user", "I never use emojis when I text my friends, it feels childish to me."))
    assert any("emojis" in s for s in statements), statements


@pytest.mark.parametrize("text", [
    "In closing, I commend Tomasz for his hard work and his kindness to classmates this term.",
    "I would highly recommend her for the head of science position at your school.",
])
def test_a_reports_verdict_on_someone_is_not_the_user(text):
    assert _statements(("user", text)) == []


def test_a_coding_sessions_task_state_is_not_who_the_user_is():
    turn = Turn(seq=0, role="user", content="I'm using django and I'm working with querysets... I have a bug. "
                                            "I'm a nurse learning to code on weekends.", created_at=SAID)
    statements = [c.statement for c in self_statements([turn], kind="coding")]
    assert any("nurse" in s for s in statements), statements
    assert not any("django" in s or "querysets" in s for s in statements), statements


def test_a_pasted_forum_thread_is_other_peoples_words():
    thread = ("Summarize this thread:\nRiverFox said:\nAny news on the new season?\nJoinedMar 3, 2011\n"
              "I'm still watching the old episodes and I have a collection of the comics.\n"
              "Kestrel said:\nNot yet.\nJoinedJun 9, 2015\nI'm starting to lose hope for a new season.")
    assert _statements(("user", thread)) == []


def test_a_characters_line_whose_quote_the_line_end_closes_is_not_the_user():
    quiz = ('Ana and her father Tomas are at the table. Tomas replies, "I think it is because I am getting old:\n'
            "a. presbyopia\nb. myopia")
    assert not any("old" in s for s in _statements(("user", quiz)))


def test_a_letters_growth_talk_gives_the_experience_it_credits_and_nothing_it_sells():
    letter = ("I am applying for the nursing master's programme. Moreover, my clinical experience as a ward nurse "
              "in Porto has helped me to strengthen my communication skills. I am eager to develop the skills "
              "necessary to thrive in a fast-paced environment.")
    statements = _statements(("user", letter))
    assert "User has clinical experience as a ward nurse in Porto" in statements, statements
    assert not any("skills" in s for s in statements), statements


def test_the_users_own_telling_of_what_people_said_is_not_a_forum_thread():
    told = ("My boss said:\nwe need you on Saturdays.\nThen my wife said:\nno way.\n"
            "I work at a print shop in Bergen and I have two kids.")
    statements = _statements(("user", told))
    assert any("print shop" in s for s in statements), statements
