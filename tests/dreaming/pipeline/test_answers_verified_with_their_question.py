"""A short answer's statement may take its words from the question it answers (issue #16), and from
nothing else: "Do you eat meat?" → "I do" supports "User eats meat", not "User eats meat and fish", and
"I don't" does not support it at all. The rule (engine.quotes) and light sleep's verify step, end to end."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine.quotes import answer_unsupported, questions_asked, statement_unsupported
from dreaming.models import Candidate
from dreaming.pipeline.light import light_sleep_sweep
from tests.support.fake_openai import _task_of, default_chat_answer
from tests.support.night import chat, dream

START = datetime(2026, 3, 1, 10, tzinfo=dt_timezone.utc)


@pytest.mark.parametrize("asked,quote,statement", [
    ("Do you eat meat?", "I do", "User eats meat"),
    ("Cute! Do you have any pets?", "Yes, two cats", "User has two cats"),
    ("Are you married?", "No. Not yet.", "User is not married"),
    ("I love hiking. Do you?", "Yes, a lot", "User loves hiking a lot"),
    ("What is your favorite season?", "Mine is winter", "User's favorite season is winter"),
    ("I also enjoy mountain biking. Have you ever tried it?", "No", "User has not tried mountain biking"),
])
def test_a_short_answer_with_its_question_supports_the_statement(asked, quote, statement):
    assert statement_unsupported(statement=statement, quote=quote, message=quote, asked=asked) is None


@pytest.mark.parametrize("asked,quote,statement,why", [
    ("Do you eat meat?", "I do", "User eats meat and fish", "fish"),
    ("Do you eat meat?", "I don't", "User eats meat", "deny"),
    ("Do you eat meat?", "I do", "User does not eat meat", "deny"),
    ("Do you have any pets?", "Yes, two cats", "User has three cats", "number"),
    ("I love hiking and I own a yacht.", "Sure thing", "User owns a yacht", "asks nothing"),
    ("I love hiking.", "Me too", "User loves hiking", "asks nothing"),
    ("I own a yacht. Do you like hiking?", "Yes", "User owns a yacht", "yacht"),
    ("I own a yacht. Do you?", "I do", "User owns a yacht and a plane", "plane"),
    ("Do you like fish?", "I do love my brother", "User likes fish", "leaves out"),
    ("Do you like hiking?", "Well I really do not know what to say about that sort of thing at all honestly", "User likes hiking",
     "too long"),
])
def test_the_question_lends_its_words_and_nothing_more(asked, quote, statement, why):
    assert why in answer_unsupported(statement=statement, quote=quote, asked=asked)
    assert statement_unsupported(statement=statement, quote=quote, message=quote, asked=asked)


@pytest.mark.parametrize("message,asked", [
    ("I love hiking in the mountains.", ""),
    ("Cute! Do you have any pets? I have three.", "Do you have any pets?"),
    ("I love hiking. Do you?", "I love hiking. Do you?"),
    ("I love hiking. How about you?", "I love hiking. How about you?"),
    ("I love hiking. Do you like to swim?", "Do you like to swim?"),
])
def test_only_the_questions_of_the_other_side_are_lent(message, asked):
    assert questions_asked(message) == asked


@pytest.mark.parametrize("asked,quote,statement", [
    ("Cool. What do you do for fun?", "Hiking and fishing", "User enjoys hiking and fishing"),
    ("What are your hobbies?", "Knitting", "User enjoys knitting"),
    ("Where are you based?", "Ohio", "User lives in Ohio"),
    ("What do you drive?", "99 ford mustang", "User drives 99 ford mustang"),
    ("Cool. You have any animals?", "Two horses", "User has two horses"),
])
def test_an_answer_that_names_its_own_thing_takes_its_verb_from_the_questions_frame(asked, quote, statement):
    assert statement_unsupported(statement=statement, quote=quote, message=quote, asked=asked) is None


@pytest.mark.parametrize("asked,quote,statement", [
    ("What do you do for fun? Do you hike?", "Yes", "User enjoys hiking"),  # the frame's verb is not lent to a bare yes
    ("What do you do for fun?", "Hiking", "User enjoys hiking and sailing"),  # nor anything the answer does not name
    ("I hike for fun.", "Hiking", "User enjoys hiking"),  # nor by a statement of the other side's
])
def test_the_frames_verb_proves_nothing_the_answer_does_not_say(asked, quote, statement):
    assert statement_unsupported(statement=statement, quote=quote, message=quote, asked=asked)


@pytest.mark.parametrize("quote,supported", [
    ("I am only 19", True), ("I'm 24, and you?", True),
    ("I am 30 minutes away", False), ("I have 30 cats", False),  # a number that is no age
])
def test_an_age_said_as_i_am_n_supports_n_years_old(quote, supported):
    reason = statement_unsupported(statement=f"User is {'19' if '19' in quote else '24' if '24' in quote else '30'} years old",
                                   quote=quote, message=quote)
    assert (reason is None) == supported


def test_without_the_question_a_two_word_answer_still_supports_nothing():
    assert "too short" in statement_unsupported(statement="User eats meat", quote="I do", message="I do.")


def _answering(items):
    def responder(request):
        if _task_of(request.body) == "extract":
            return {"candidates": items}
        return default_chat_answer(request.body)
    return responder


def _candidate(quote, statement, seq):
    return {"seq": seq, "quote": quote, "statement": statement, "category": "preference", "importance": 0.6,
            "user_initiated": False}


@pytest.mark.django_db
def test_light_sleep_keeps_an_answer_that_opens_the_reply_to_the_question(user, openai_backend):
    chat(user, START, ("assistant", "Do you eat meat?"), "I do. My brother is a butcher in Lyon, so I eat well.",
         ("assistant", "Nice. Do you like fish?"),
         "Sometimes. It depends on who cooks it, honestly. But yes I do, when my brother cooks.")
    openai_backend.set_chat_responder(_answering([
        _candidate("I do", "User eats meat", 2),
        _candidate("I do", "User eats meat and fish", 2),
        # "yes I do" late in the second reply: no longer the opening answer to "Do you like fish?"
        _candidate("yes I do", "User likes fish", 4),
    ]))

    light_sleep_sweep(now=START + timedelta(hours=5))

    by_statement = {c.statement: c for c in Candidate.objects.filter(user=user)}
    assert by_statement["User eats meat"].status == Candidate.Status.PENDING
    assert by_statement["User eats meat"].quote == "I do"
    for invented in ("User eats meat and fish", "User likes fish"):
        assert by_statement[invented].status == Candidate.Status.REJECTED_UNVERIFIED, invented


@pytest.mark.django_db
def test_the_local_engine_remembers_a_bare_no_to_a_yes_no_question(user):
    chat(user, START, ("assistant", "The man I was forced to marry was a dentist. Are you married?"),
         "No. Not yet. Is he good to you?")

    dream(user, START)

    candidate = Candidate.objects.get(user=user, statement="User is not married")
    assert candidate.quote == "No. Not yet." and candidate.verified
    assert candidate.status in (Candidate.Status.PENDING, Candidate.Status.PROMOTED)


@pytest.mark.parametrize("quote,statement", [
    ("I'm single", "User is single"), ("I'm 25", "User is 25"), ("Love parties", "User loves parties"),
])
def test_a_two_word_quote_that_says_all_the_statement_says_supports_it(quote, statement):
    assert statement_unsupported(statement=statement, quote=quote, message=f"Well. {quote}.") is None


@pytest.mark.parametrize("quote,statement", [
    ("I have", "User has"), ("I'm single", "User is single and rich"), ("I'm 25", "User is 26"), ("my dog", "User has a dog named Rex"),
])
def test_a_two_word_quote_carries_nothing_more(quote, statement):
    assert statement_unsupported(statement=statement, quote=quote, message=quote)


@pytest.mark.django_db
def test_light_sleep_lends_the_question_and_never_the_assistants_own_statement(user, openai_backend):
    chat(user, START, ("assistant", "I have two cats and I love hiking in the mountains. Do you like to swim?"),
         "Yes I do. The lake is close.")
    openai_backend.set_chat_responder(_answering([
        _candidate("Yes I do", "User likes to swim", 1),
        _candidate("Yes I do", "User has two cats", 1),
        _candidate("Yes I do", "User loves hiking in the mountains", 1),
    ]))

    light_sleep_sweep(now=START + timedelta(hours=5))

    by_statement = {c.statement: c for c in Candidate.objects.filter(user=user)}
    assert by_statement["User likes to swim"].status == Candidate.Status.PENDING
    for borrowed in ("User has two cats", "User loves hiking in the mountains"):
        assert by_statement[borrowed].status == Candidate.Status.REJECTED_UNVERIFIED, borrowed
        assert "asks nothing" not in by_statement[borrowed].reason  # the question was there; it lent other words
