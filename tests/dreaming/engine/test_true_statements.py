"""Statements that are true: a name is a name, negation and "just" keep their meaning, the subject stays, and a
relative date is read against the day the user said it. The local engine (dreaming/engine); examples invented."""
from datetime import datetime, timezone

import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn

SAID = datetime(2026, 1, 10, 9, 0, tzinfo=timezone.utc)  # a Saturday


def _statements(*turns: tuple[str, str], at: datetime = SAID) -> list[str]:
    found = extract_candidates([Turn(seq=i, role=role, content=text, created_at=at) for i, (role, text) in enumerate(turns)])
    for c in found:
        assert c.quote in turns[c.seq][1]  # the quote stays the user's own words
    return [c.statement for c in found]


@pytest.mark.parametrize("opener", ["Also", "Anyway", "Honestly", "Btw", "Plus", "Still", "Besides"])
def test_a_word_that_opens_the_sentence_is_not_taken_for_the_partners_name(opener):
    statements = _statements(("user", f"{opener}, my partner Sam and I are moving to Osaka in March."))
    assert not any(f"named {opener}" in s for s in statements), statements
    assert any("partner Sam" in s and "Osaka" in s for s in statements), statements


def test_a_real_name_beside_the_relation_is_still_read_as_its_name():
    assert "User's sister is named Lena" in _statements(("user", "Lena, my sister, is visiting next week."))


@pytest.mark.parametrize("question", ["What kind of books do you enjoy?", "Do you like fantasy?", "What do you like to read?"])
def test_a_name_said_to_the_assistant_after_yes_is_not_what_the_user_likes(question):
    statements = _statements(("assistant", question), ("user", "Yep, John! I love getting lost in fantasy stories"))
    assert not any("John" in s for s in statements), statements
    assert "User loves getting lost in fantasy stories" in statements


def test_a_name_still_answers_a_question_about_a_name():
    assert "User's name is Priya" in _statements(("assistant", "What's your name?"), ("user", "Priya."))


@pytest.mark.parametrize(
    "said, true, false",
    [
        ("I don't have kids just pets", "User doesn't have kids, only pets", "kids pets"),
        ("I don't drink coffee, just tea.", "User doesn't drink coffee, only tea", "coffee and tea"),
        ("I'm not married, only engaged.", "User is not married, only engaged", "married and"),
    ],
)
def test_just_after_a_negation_means_only_and_is_kept(said, true, false):
    statements = _statements(("user", said))
    assert true in statements
    assert not any(false in s for s in statements), statements


def test_not_just_keeps_its_meaning():
    statements = _statements(("user", "I don't just cook, I bake bread too."))
    assert "User doesn't cook" not in statements
    assert "User doesn't only cook" in statements


def test_just_as_a_filler_is_still_dropped():
    # dropped as a word, kept as the time it says (dates.just_happened_en)
    assert "User moved to Porto around 10 January 2026" in _statements(("user", "I just moved to Porto."))


def test_a_chinese_clause_without_a_subject_keeps_the_relative_it_continues():
    statements = _statements(("user", "我妹妹在上海工作，喜欢画画。"), ("user", "我最近搬到了杭州，在一家游戏公司工作。"))
    assert "用户的妹妹喜欢画画" in statements and "用户喜欢画画" not in statements
    assert "用户在一家游戏公司工作" in statements  # the user's own continuation stays the user's


def test_a_statement_about_a_relative_keeps_the_relative_as_its_subject():
    statements = _statements(("user", "My brother got married last Saturday."))
    assert statements == ["User's brother got married on 3 January 2026"]


@pytest.mark.parametrize(
    "said, expected",
    [
        ("Yesterday I adopted a kitten.", "User adopted a kitten on 9 January 2026"),
        ("Two days ago I ran my first marathon.", "User ran their first marathon on 8 January 2026"),
        ("My brother got married last Saturday.", "User's brother got married on 3 January 2026"),
        ("我昨天买了一辆车。", "用户1月9日买了一辆车"),
    ],
)
def test_a_past_relative_date_is_read_against_the_day_it_was_said(said, expected):
    assert expected in _statements(("user", said))
    assert expected not in _statements(("user", said), at=datetime(2026, 3, 1, tzinfo=timezone.utc))


def test_a_plan_keeps_its_words_for_deep_sleep_to_read_it_as_a_plan():
    assert "User is moving to Osaka next month" in _statements(("user", "I'm moving to Osaka next month."))


def test_a_planned_month_gets_the_year_it_falls_in():
    statements = _statements(("user", "My partner Sam and I are moving to Osaka in March."))
    assert any(s.endswith("in March 2026") for s in statements), statements
    later = _statements(("user", "My partner Sam and I are moving to Osaka in March."),
                        at=datetime(2026, 11, 2, tzinfo=timezone.utc))
    assert any(s.endswith("in March 2027") for s in later), later


def test_a_past_month_is_left_as_said():
    assert "User moved to Osaka in March" in _statements(("user", "I moved to Osaka in March."))


def test_the_remote_model_is_told_the_day_each_turn_was_said():
    from datetime import timedelta

    from dreaming.providers.prompts import extract_messages

    system, request = extract_messages([
        Turn(seq=1, role="user", content="I adopted a kitten yesterday.", created_at=SAID),
        Turn(seq=2, role="assistant", content="Congrats!", created_at=SAID),
        Turn(seq=3, role="user", content="Today we went to the vet.", created_at=SAID + timedelta(days=1)),
    ])
    transcript = request["content"]
    assert "Session date: 2026-01-10" in transcript
    assert "(said on 2026-01-10, a Saturday)\n[seq=1 " in transcript and "] user: I adopted a kitten yesterday." in transcript
    assert "(said on 2026-01-11, a Sunday)\n[seq=3 " in transcript
    assert transcript.count("(said on") == 2
    assert "Turn relative times into" in system["content"]


def test_what_is_left_of_a_sentence_once_its_sensitive_clause_is_gone_says_nothing_on_its_own():
    statements = _statements(("user", "I want to but I'm a 45 year old who was an alcoholic."))
    assert statements == []  # not "User wants to"


def test_only_after_a_new_subject_belongs_to_that_subjects_verb():
    assert "User doesn't remember they only have a pic" in _statements(("user", "I don't remember I only have a pic"))


def test_a_name_said_before_and_i_is_not_a_companion():
    # "My mom and I made dinner" is done together; "My name is Ahmed and I'm a developer" is two facts.
    statements = _statements(("user", "My name is Ahmed and I'm a software developer."))
    assert "User's name is Ahmed" in statements and "User is a software developer" in statements
    assert not any(s.startswith("User and their name") for s in statements)
    assert _statements(("user", "My mom and I made dinner last night.")) == ["User and their mom made dinner on 9 January 2026"]


@pytest.mark.parametrize("message, statement", [
    ("My name's Priya.", "User's name is Priya"),
    ("My name is Priya, by the way.", "User's name is Priya"),
    ("Btw my name is Priya", "User's name is Priya"),
    ("Call me Sam.", "User goes by Sam"),
    ("You can call me Sam.", "User goes by Sam"),
    ("I go by Sam.", "User goes by Sam"),
])
def test_the_name_the_user_gives_is_their_name_said_plainly(message, statement):
    assert statement in _statements(("user", message))


def test_call_me_crazy_is_no_name():
    assert not any("goes by" in s or "name is" in s for s in _statements(("user", "Call me crazy, but I love rain.")))


@pytest.mark.parametrize("message", ["I broke up with my boyfriend last month.", "I divorced my husband in 2019."])
def test_a_partner_the_user_left_is_not_one_they_have(message):
    assert not any(s.startswith("User has a") for s in _statements(("user", message)))


@pytest.mark.parametrize("message", ["I got a puppy yesterday, her name is Luna.", "We got a puppy yesterday. Her name is Luna."])
def test_a_pets_name_said_right_after_it_is_its_name(message):
    assert "User's puppy is named Luna" in _statements(("user", message))


def test_a_name_after_two_pets_is_not_given_to_either():
    assert not any("named Luna" in s for s in _statements(("user", "I have a dog and a cat. Her name is Luna.")))


def test_the_name_the_user_opens_with_is_the_other_sides_not_part_of_the_statement():
    statements = _statements(("user", "Joanna, I just adopted a puppy."))
    assert "User adopted a puppy around 10 January 2026" in statements and not any("Joanna" in s for s in statements)
    assert _statements(("user", "John, I'm good")) == []
    assert not any("back" in s for s in _statements(("user", "Gina, thanks for having my back. I got the job!")))


@pytest.mark.parametrize("message", ["Back from Lisbon, my sister and I had a great time.", "Sunday, my sister came over."])
def test_a_place_or_a_day_before_my_sister_is_not_her_name(message):
    assert not any("named" in s for s in _statements(("user", message)))


def test_a_name_before_my_sister_is_still_hers():
    assert "User's sister is named Anna" in _statements(("user", "Anna, my sister, is a nurse."))


def test_a_change_of_work_weighs_as_much_as_the_job_it_replaces():
    def weight(text):
        return {c.statement: c.importance for c in extract_candidates([Turn(seq=0, role="user", content=text)])}
    assert weight("I'm freelancing now.")["User is freelancing now"] >= weight("I work at the bank now.")["User works at the bank now"]


@pytest.mark.parametrize("message, statement", [
    ("I also got a second parrot, his name is Mango.", "User's second parrot is named Mango"),
    ("I got another dog, her name is Bella.", "User's other dog is named Bella"),
])
def test_a_second_pets_name_is_the_second_ones_not_a_new_name_for_the_first(message, statement):
    assert statement in _statements(("user", message))


def test_a_month_resolved_to_its_year_still_passes_the_truth_guard():
    from dreaming.engine.quotes import statement_unsupported

    text = "I'm planning to run a half marathon in October."
    (found,) = extract_candidates([Turn(seq=0, role="user", content=text, created_at=SAID)])
    assert found.statement == "User is planning to run a half marathon in October 2026"
    assert statement_unsupported(statement=found.statement, quote=found.quote, message=text) is None


def test_time_left_is_not_kept_without_what_it_is_left_for():
    found = _statements(("user", "I have 6 weeks until my driving test, any tips?"))
    assert "User has 6 weeks" not in found and "User has 6 weeks until their driving test" in found
    assert "User has 3 days off next week" in _statements(("user", "I have 3 days off next week."))


@pytest.mark.parametrize("said,statement", [
    ("We're flying to Florida for Christmas.", "User is flying to Florida for Christmas"),
    ("We're flying to my parents' place in Florida for Christmas.",
     "User is flying to their parents' place in Florida for Christmas"),
    ("We're visiting my grandma in Ohio next week.", "User is visiting their grandma in Ohio next week"),
])
def test_a_trip_the_user_takes_with_we_is_the_users_plan(said, statement):
    assert statement in _statements(("user", said))


@pytest.mark.parametrize("said", ["We're spending too much time on this.", "We're heading out now."])
def test_what_we_do_this_minute_is_no_plan(said):
    assert _statements(("user", said)) == []


def test_a_sentence_with_proper_names_is_not_taken_for_a_title():
    from dreaming.engine.others_words import not_the_user

    said = "We're flying to Florida for Christmas."
    assert not not_the_user(said, said[:-1])
    title = "I Spent 24 Hours with the World's Shortest Woman"
    assert not_the_user(title, title)


@pytest.mark.parametrize("said,statement", [
    ("I've been vegan since 2015.", "User has been vegan since 2015"),
    ("I've lived in Denver since college.", "User has lived in Denver since college"),
    ("I feel lonely since moving to Denver.", "User feels lonely since moving to Denver"),
])
def test_since_when_stays_with_what_has_lasted(said, statement):
    assert statement in _statements(("user", said))


def test_a_since_of_cause_is_still_cut():
    assert not [s for s in _statements(("user", "I moved to Denver since it's cheaper.")) if "cheaper" in s]
