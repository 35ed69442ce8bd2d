"""A statement that keeps the user's words quoted (`User said: "…"`: a model's, or the rules' in a language they have
no grammar for) is verified like any other, and held back when the quoted words name something sensitive, whoever
they seem to be about."""
from datetime import datetime, timedelta, timezone as dt_timezone
from unittest import mock

import pytest

from dreaming.engine.quotes import quoted_sensitive
from dreaming.models import Candidate
from dreaming.pipeline.light import light_sleep_sweep
from tests.support.fake_openai import _task_of, default_chat_answer
from tests.support.night import chat

START = datetime(2026, 3, 1, 10, tzinfo=dt_timezone.utc)


@pytest.mark.django_db
def test_light_sleep_never_keeps_quoted_words_that_name_something_sensitive(user, openai_backend):
    chat(user, START, ("assistant", "How have things been?"), "Diagnosed with diabetes last year. Tuna for work.")

    def responder(request):
        if _task_of(request.body) == "extract":
            return {"candidates": [
                {"seq": 2, "quote": "Diagnosed with diabetes last year.", "statement": 'User said: "Diagnosed with diabetes last year."',
                 "category": "fact", "importance": 0.5, "user_initiated": True},
                {"seq": 2, "quote": "Tuna for work.", "statement": 'User said: "Tuna for work."',
                 "category": "fact", "importance": 0.5, "user_initiated": True},
            ]}
        return default_chat_answer(request.body)

    openai_backend.set_chat_responder(responder)
    light_sleep_sweep(now=START + timedelta(hours=5))

    assert list(Candidate.objects.filter(user=user).values_list("statement", flat=True)) == ['User said: "Tuna for work."']


@pytest.mark.parametrize("statement,kind", [
    ('User said: "Diagnosed with diabetes last year."', "health"),
    ('User said: "A devout Christian since childhood."', "religion"),
    ('User said: "Tuna for work."', None),
    ("User has diabetes", None),  # not quoted words: the first-person reading of the sensitive rules is verify's
])
def test_quoted_words_are_read_for_sensitive_terms_whoever_they_name(statement, kind):
    assert quoted_sensitive(statement) == kind
