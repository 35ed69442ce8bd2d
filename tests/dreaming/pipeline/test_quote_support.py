"""A statement must be supported by its quote (issue #17): a verbatim quote is not enough.

The rule itself (dreaming.engine.quotes.statement_unsupported) and light sleep's verify step, end to end
against the fake OpenAI server answering with invented statements over real quotes.
"""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine.quotes import statement_unsupported
from dreaming.models import Candidate
from dreaming.pipeline.light import light_sleep_sweep
from tests.support.fake_openai import _task_of, default_chat_answer
from tests.support.night import chat

START = datetime(2026, 3, 1, 10, tzinfo=dt_timezone.utc)
MESSAGE = ("I have a question about my garden. I am planning to plant tomatoes next month. "
           "My sister Anna lives in Lyon and I work as a nurse. I have two cats.")
ZH_MESSAGE = "我在杭州工作，平时喜欢爬山。我有两个孩子。"

# (quote, invented statement): every quote is verbatim in MESSAGE / ZH_MESSAGE, every statement says more.
INVENTED = [
    ("I have", "User has three kids and a yacht."),
    ("I am", "User is a retired astronaut living in Monaco."),
    ("I have a question", "User has a question about their yacht."),
    ("I have two cats", "User has three cats."),
    ("I have two cats", "User has two cats and a dog."),
    ("I have two cats", "User has two cats named Tom and Jerry."),
    ("I work as a nurse", "User works as a nurse at Harvard Hospital."),
    ("I work as a nurse", "User works as a surgeon."),
    ("I work as a nurse", "User has worked as a nurse for 20 years."),
    ("My sister Anna lives in Lyon", "User's sister Anna lives in Paris."),
    ("My sister Anna lives in Lyon", "User's brother Marc lives in Lyon."),
    ("My sister Anna lives in Lyon", "User's sister Anna is a lawyer in Lyon."),
    ("I am planning to plant tomatoes", "User is planning to plant roses."),
    ("I am planning to plant tomatoes", "User is planning to plant tomatoes and sell them at the market."),
    ("my garden", "User has a big garden in Provence."),
    ("a question about my garden", "User's garden won a prize in 2024."),
    ("I am planning", "User is planning a wedding."),
    ("plant tomatoes next month", "User is getting married next month."),
    ("I have two cats", "用户有两只猫。"),  # not in the quote's language
    ("我在杭州工作", "用户在上海工作。"),
    ("我在杭州工作", "用户在杭州当医生。"),
    ("我有两个孩子", "用户有三个孩子。"),
    ("平时喜欢爬山", "用户平时喜欢游泳。"),
    ("我有", "用户有一艘游艇。"),
]

# (quote, faithful statement, message): the third-person rewrite, agreement, tense, dates worked out
# from the quote's own time words, a pronoun resolved from the user's earlier words.
LEGITIMATE = [
    ("I have two cats", "User has two cats.", MESSAGE),
    ("I work as a nurse", "User works as a nurse.", MESSAGE),
    ("My sister Anna lives in Lyon", "User's sister Anna lives in Lyon.", MESSAGE),
    ("I am planning to plant tomatoes next month", "User is planning to plant tomatoes next month.", MESSAGE),
    ("I am planning to plant tomatoes next month", "User is planning to plant tomatoes in April 2026.", MESSAGE),
    ("I'm from Ohio", "User is from Ohio.", "Hi, I'm from Ohio!"),
    ("I'll be moving to Denver", "User will be moving to Denver.", "I'll be moving to Denver soon."),
    ("I loved the concert yesterday", "User loved the concert on 28 February 2026.", "I loved the concert yesterday"),
    ("my kids love swimming", "User's kids love swimming.", "Honestly my kids love swimming."),
    ("I've been running marathons", "User has been running marathons.", "I've been running marathons for years."),
    ("my fave band is Queen", "User's favorite band is Queen.", "my fave band is Queen"),
    ("我在杭州工作", "用户在杭州工作。", ZH_MESSAGE),
    ("我有两个孩子", "用户有两个孩子。", ZH_MESSAGE),
    ("我上个月养了一只猫", "用户2026年2月养了一只猫。", "我上个月养了一只猫，叫米洛。"),
    ("我跟我的朋友去爬山了", "用户跟自己的朋友去爬山了。", "周末我跟我的朋友去爬山了。"),  # 自己 is the user's 我
]


@pytest.mark.parametrize("quote,statement", INVENTED)
def test_an_invented_statement_is_not_supported_by_a_real_quote(quote, statement):
    message = ZH_MESSAGE if "我" in quote or "喜欢" in quote else MESSAGE
    assert quote in message
    assert statement_unsupported(statement=statement, quote=quote, message=message, context=message)


@pytest.mark.parametrize("quote,statement,message", LEGITIMATE)
def test_a_faithful_statement_is_supported(quote, statement, message):
    assert statement_unsupported(statement=statement, quote=quote, message=message, context=message) is None


def test_a_pronoun_may_stand_for_what_the_user_said_before_but_not_for_anything_else():
    context = "I started learning the ukulele.\nI love it so much"
    assert statement_unsupported(statement="User loves the ukulele.", quote="I love it so much", context=context) is None
    assert statement_unsupported(statement="User loves the violin.", quote="I love it so much", context=context)


def test_the_reason_names_what_is_missing():
    reason = statement_unsupported(statement="User has two cats and a yacht.", quote="I have two cats", message=MESSAGE)
    assert "yacht" in reason and "cats" not in reason
    assert "too short" in statement_unsupported(statement="User has three kids and a yacht.", quote="I have")
    assert "number" in statement_unsupported(statement="User has three cats.", quote="I have two cats")


# --- light sleep against the fake OpenAI server ---------------------------------------------------


def _answering(batches):
    """Each extract request gets the next batch (the parser keeps at most 10 candidates per answer)."""
    batches = list(batches)

    def responder(request):
        if _task_of(request.body) == "extract":
            return {"candidates": batches.pop(0) if batches else []}
        return default_chat_answer(request.body)
    return responder


def _candidate(quote, statement, seq=1):
    return {"seq": seq, "quote": quote, "statement": statement, "category": "fact", "importance": 0.9,
            "user_initiated": True}


@pytest.mark.django_db
def test_light_sleep_rejects_invented_statements_with_the_reason_and_keeps_the_faithful_ones(user, openai_backend):
    invented = [_candidate(q, s, seq=3 if ("我" in q or "喜欢" in q) else 1) for q, s in INVENTED]
    faithful = [_candidate(q, s, seq=3 if m == ZH_MESSAGE else 1) for q, s, m in LEGITIMATE if m in (MESSAGE, ZH_MESSAGE)]
    items = invented + faithful
    batches = [items[i:i + 8] for i in range(0, len(items), 8)]
    for _ in batches:
        chat(user, START, MESSAGE, ("assistant", "Lovely."), ZH_MESSAGE)
    openai_backend.set_chat_responder(_answering(batches))

    run = light_sleep_sweep(now=START + timedelta(hours=5))

    assert run.sessions_done == len(batches)
    by_statement = {c.statement: c for c in Candidate.objects.filter(user=user)}
    for _, statement in INVENTED:
        candidate = by_statement[statement]
        assert candidate.status == Candidate.Status.REJECTED_UNVERIFIED and not candidate.verified, statement
        assert candidate.reason.startswith("quote does not support the statement"), candidate.reason
    for item in faithful:
        assert by_statement[item["statement"]].status == Candidate.Status.PENDING, item["statement"]
    astronaut = by_statement["User is a retired astronaut living in Monaco."]
    assert "too short" in astronaut.reason and astronaut.message.seq == 1  # the audit shows the message
    assert run.unverified_rejected == len(INVENTED) and run.candidates_created == len(faithful)
