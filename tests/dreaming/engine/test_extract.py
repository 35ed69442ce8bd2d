"""Local extraction: verbatim quotes, third-person statements, categories, importance, passing mentions."""
import pytest

from dreaming.providers.local import LocalDreamer
from dreaming.engine.third_person import to_third_person_en, to_third_person_zh
from dreaming.protocol import CATEGORIES, CallContext, Turn
from dreaming.engine.quotes import quote_in_text


def _extract(*turns: Turn):
    return LocalDreamer().extract(turns=list(turns), ctx=CallContext())


def _user(seq: int, text: str) -> Turn:
    return Turn(seq=seq, role="user", content=text)


def _assistant(seq: int, text: str) -> Turn:
    return Turn(seq=seq, role="assistant", content=text)


def _by_statement(candidates):
    return {c.statement: c for c in candidates}


def test_it_extracts_english_self_disclosure_with_verbatim_quotes():
    message = "Oh nice! I have a dog named Milo, and my sister lives in Berlin. What about you?"
    found = _by_statement(_extract(_user(4, message)))
    assert set(found) == {"User has a dog named Milo", "User's sister lives in Berlin"}
    for candidate in found.values():
        assert quote_in_text(quote=candidate.quote, text=message)
        assert candidate.seq == 4
        assert candidate.category in CATEGORIES
    assert found["User's sister lives in Berlin"].category == "relation"


def test_it_extracts_chinese_self_disclosure_with_verbatim_quotes():
    message = "你好！我养了一只叫Milo的狗。我妈妈住在北京，我最近在学弹钢琴。你觉得呢？"
    found = _by_statement(_extract(_user(1, message)))
    assert "用户养了一只叫Milo的狗" in found
    assert "用户的妈妈住在北京" in found
    assert "用户最近在学弹钢琴" in found
    assert all(quote_in_text(quote=c.quote, text=message) for c in found.values())
    assert found["用户的妈妈住在北京"].category == "relation"
    assert not any("你觉得" in s for s in found)


@pytest.mark.parametrize(
    "first_person, third_person",
    [
        ("I'm from new england", "User is from new england"),
        ("I've been a teacher for 10 years", "User has been a teacher for 10 years"),
        ("I take him with me when I go hiking", "User takes him with them when they go hiking"),
        ("I also love my dog Milo", "User also loves their dog Milo"),
        ("I don't eat meat", "User doesn't eat meat"),
        ("I study history and teach myself piano", "User studies history and teaches themself piano"),
        ("My wife and I live in Ohio", "User and their wife live in Ohio"),
        ("I'd been there before", "User had been there before"),
    ],
)
def test_it_rewrites_english_clauses_in_the_third_person(first_person, third_person):
    assert to_third_person_en(first_person) == third_person


def test_it_rewrites_chinese_clauses_in_the_third_person():
    assert to_third_person_zh("我妈住在北京") == "用户的妈住在北京"
    assert to_third_person_zh("我养了一只叫Milo的狗") == "用户养了一只叫Milo的狗"
    assert to_third_person_zh("我跟我的朋友去爬山") == "用户跟自己的朋友去爬山"  # not "用户跟用户的朋友"
    assert to_third_person_zh("我妈妈说我的猫很可爱") == "用户的妈妈说用户的猫很可爱"  # 自己 would be the mother
    assert to_third_person_zh("我们对自我的认识") == "我们对自我的认识"


@pytest.mark.parametrize(
    "text, category",
    [
        ("I love spicy food.", "preference"),
        ("I hate waking up early.", "preference"),
        ("My brother is a pilot.", "relation"),
        ("I moved to Denver last year.", "event"),
        ("I feel really lonely since the move to a new town.", "emotion"),
        ("I work as a nurse at the city clinic.", "fact"),
        ("我讨厌下雨天。", "preference"),
        ("我男朋友在上海工作。", "relation"),
    ],
)
def test_it_categorises_by_rules(text, category):
    (candidate,) = _extract(_user(0, text))
    assert candidate.category == category


def test_specific_long_lived_facts_matter_more_than_small_talk():
    found = _by_statement(_extract(_user(0, "I live in Oslo with my husband Erik. I watched a movie today.")))
    assert found["User lives in Oslo with their husband Erik"].importance > found["User watched a movie today"].importance
    assert all(0.0 <= c.importance <= 1.0 for c in found.values())


def test_a_short_answer_to_an_assistant_question_is_a_passing_mention():
    turns = [
        _assistant(0, "Do you have any pets?"),
        _user(1, "Two cats."),
        _assistant(2, "Cute! What do you do?"),
        _user(3, "By the way, I'm training for the Berlin marathon in September and I love it."),
    ]
    found = _by_statement(_extract(*turns))
    assert found["User has two cats"].user_initiated is False
    assert found["User has two cats"].seq == 1
    assert found["User is training for the Berlin marathon in September"].user_initiated is True


def test_a_short_answer_is_resolved_against_the_question_it_answers():
    found = _by_statement(_extract(_assistant(0, "Are you a student?"), _user(1, "I am!")))
    assert "User is a student" in found
    found = _by_statement(_extract(_user(0, "Do you like puppies? I adore them!")))
    assert "User adores puppies" in found


@pytest.mark.parametrize(
    "text",
    [
        "Do you like hiking?",
        "If I were rich I would buy a boat.",
        "I want you to write a poem about autumn.",
        "I need a cover letter for a marketing job.",
        "I think that's a great idea.",
        "I love that!",
        "Can you help me fix this function?",
        "你觉得我应该怎么办？",
        "请帮我写一篇关于春天的作文。",
        "如果我是你，我会去旅行。",
    ],
)
def test_questions_hypotheticals_requests_and_reactions_are_not_extracted(text):
    assert _extract(_user(0, text)) == []


@pytest.mark.parametrize("text, statement", [
    ("I want to visit Peru someday.", "User wants to visit Peru someday"),
    ("I really want to own a farm someday.", "User wants to own a farm someday"),
])
def test_an_aim_for_someday_is_kept_and_a_daydream_is_not(text, statement):
    assert statement in _by_statement(_extract(_user(0, text)))
    assert _extract(_user(0, "I'll be rich someday.")) == []


@pytest.mark.parametrize(
    "text",
    [
        "I was diagnosed with diabetes last year.",
        "I take antidepressants every morning.",
        "I go to church every Sunday.",
        "My password is hunter2!x.",
        "我有抑郁症。",
        "我每周都去教会。",
        "我的银行卡密码是123456。",
    ],
)
def test_sensitive_content_is_never_extracted(text):
    assert _extract(_user(0, text)) == []


def test_sensitive_sentences_are_dropped_but_the_rest_of_the_message_is_kept():
    found = _extract(_user(0, "I have a dog named Rex. I was diagnosed with asthma in May."))
    assert [c.statement for c in found] == ["User has a dog named Rex"]


def test_only_user_turns_are_extracted():
    found = _extract(_assistant(0, "I live in Paris and I love cheese."), _user(1, "Cool."))
    assert found == []


def test_at_most_ten_candidates_per_session_the_most_important_kept():
    lines = [f"I have visited city number {n} in Spain." for n in range(12)]
    lines.append("I like tea.")
    found = _extract(*[_user(i, line) for i, line in enumerate(lines)])
    assert len(found) == 10
    assert "User likes tea" not in {c.statement for c in found}
    assert [c.seq for c in found] == sorted(c.seq for c in found)


def test_extraction_is_deterministic():
    turns = [_user(0, "I'm a nurse in Leeds and my son plays the cello."), _user(1, "我住在成都，喜欢吃火锅。")]
    assert _extract(*turns) == _extract(*turns)


MIXED_MESSAGES = [
    "hey!! i'm a nurse in leeds, my son plays the cello & we have 2 cats :)",
    "Honestly? I moved to Porto in 2019 — best decision ever. Do you travel much?",
    "I’ve been vegan for three years, but my husband still eats meat.",
    "我是一名程序员，住在深圳。我老婆在医院上班，我们养了两只猫。",
    "Yes I do, I play tennis every Sunday with my dad.",
    "```python\nprint('I am code')\n```\nI work at a bakery though.",
]


def test_every_quote_is_verbatim_from_its_own_message():
    turns = [_user(i, text) for i, text in enumerate(MIXED_MESSAGES)]
    found = LocalDreamer().extract(turns=turns, ctx=CallContext())
    assert len(found) >= 6
    for candidate in found:
        assert quote_in_text(quote=candidate.quote, text=MIXED_MESSAGES[candidate.seq]), candidate
    assert not any("code" in c.statement for c in found)  # nothing from inside a code fence


def test_a_huge_paste_is_processed_quickly_and_yields_little():
    import time

    paste = "The committee reviewed the proposal and approved the budget for next year. " * 3000
    started = time.perf_counter()
    found = _extract(_user(0, "Summarize this:\n" + paste))
    assert time.perf_counter() - started < 10  # generous: CI machines are shared
    assert found == []


def test_a_fragment_answer_after_a_reaction_keeps_only_the_users_answer_as_quote():
    found = _extract(_assistant(0, "Nice to meet you! Where are you from?"), _user(1, "Oh cool. Ohio, you?"))
    assert [(c.quote, c.statement, c.user_initiated) for c in found] == [("Ohio", "User is from Ohio", False)]


def test_everyday_implications_are_spelled_out_but_not_after_losing_the_thing():
    found = {c.statement for c in _extract(_user(0, "My two older brothers were in a band. Just got back from fishing."))}
    assert {"User has two older brothers", "User goes fishing"} <= found
    found = {c.statement for c in _extract(_user(0, "I quit my job because my boss was mean."))}
    assert "User has a job" not in found


def test_a_second_preference_is_read_from_especially():
    found = {c.statement for c in _extract(_user(0, "I like sports, especially basketball."))}
    assert found == {"User likes sports", "User likes basketball"}


def test_chinese_clauses_without_a_repeated_subject_keep_the_speakers_first_person():
    message = "你好！我叫小王，今年28岁，在杭州一家互联网公司做产品经理。"
    found = {c.statement: c for c in _extract(_user(0, message))}
    assert {"用户叫小王", "用户今年28岁", "用户在杭州一家互联网公司做产品经理"} <= set(found)
    assert all(quote_in_text(quote=c.quote, text=message) for c in found.values())


def test_only_the_opening_sentence_of_an_answer_is_a_passing_mention():
    turns = [_assistant(0, "平时喜欢做什么？"), _user(1, "我喜欢爬山和摄影。我女朋友是老师。")]
    found = {c.statement: c for c in _extract(*turns)}
    assert found["用户喜欢爬山和摄影"].user_initiated is False
    assert found["用户的女朋友是老师"].user_initiated is True


@pytest.mark.parametrize("message, statement", [
    # the "I" comes late, after a phrase the clause rules do not split off
    ("In all my sixty years I never did see a library in somalia.", "User never did see a library in somalia"),
    # a new "I" without a comma before it, after words that are no clause of the user's: the first-person tail
    ("Yes it sucks loosing I also enjoy lawn mowing on sunny days.", "User enjoys lawn mowing on sunny days"),
])
def test_a_first_person_sentence_no_clause_reading_takes_is_kept_whole(message, statement):
    found = _by_statement(_extract(_user(0, message)))
    assert list(found) == [statement]
    assert quote_in_text(quote=found[statement].quote, text=message)
    # kept whole, it does not make the turn personal for triage (that takes an importance of 0.5)
    assert found[statement].importance <= 0.45


@pytest.mark.parametrize("message", [
    "If I had a bigger yard I'd keep bees.",  # a hypothetical, even where the "I" comes late
    "Honestly I wonder whether I should quit?",  # a question
    "Maybe I will try pottery one day.",
    "I love that!",  # says nothing
    "Well I need you to write me a cover letter.",  # a request
])
def test_a_sentence_kept_whole_is_never_a_question_a_hypothetical_a_request_or_small_talk(message):
    assert _extract(_user(0, message)) == []


def test_a_sensitive_sentence_is_not_kept_whole_and_the_rest_of_the_turn_is():
    found = {c.statement for c in _extract(_user(0, "Yes it sucks loosing I also take insulin every day. I have a cat named Pixel."))}
    assert "User has a cat named Pixel" in found
    assert not any("insulin" in s for s in found)


def test_an_i_that_opens_a_relative_clause_is_not_read_as_a_sentence_of_its_own():
    found = {c.statement for c in _extract(_user(0, "The band I like the most is rascal flats."))}
    # not "User likes the most is rascal flats" (the whole sentence, about the user, may be kept: disclosure_model)
    assert not any(s.startswith("User likes the most") for s in found)


@pytest.mark.parametrize("message, statements", [
    ("Hi I am amy I hate clowns", ["User is amy", "User hates clowns"]),
    ("I like animals I have two cats how about you?", ["User likes animals", "User has two cats"]),
])
def test_a_first_person_clause_run_on_without_a_comma_is_a_clause_of_its_own(message, statements):
    found = _by_statement(_extract(_user(0, message)))
    assert list(found) == statements
    assert all(quote_in_text(quote=c.quote, text=message) for c in found.values())


@pytest.mark.parametrize("message", [
    "I have a favorite organic cafe I eat at",  # a relative clause: the cafe is what "I eat at"
    "I came back from the homeless shelter I volunteer at",
    "I wish I could travel more",  # the second "I" is the wish's
    "I am so hungry I could eat anything",
])
def test_the_i_of_a_relative_or_embedded_clause_does_not_start_a_new_one(message):
    assert len(_extract(_user(0, message))) <= 1


def test_a_plan_the_user_only_thinks_they_will_make_is_not_stated_as_certain():
    for text in ("I think I'll take the job offer from Google.", "I guess I'm going to move to Denver."):
        assert not any(c.statement.startswith(("User will", "User is going to")) for c in _extract(_user(0, text)))
    assert "User is a cat person" in _by_statement(_extract(_user(0, "I guess I'm a cat person.")))
