"""Shapes of chat turns (as in Multi-Session Chat) the rule engine used to misread: a wish or a command for the other
side read as the user's deed, gerunds that do not take "go", yes/no questions without their "?", and first-person
clauses run on without punctuation. Each shape has what must still be read beside what must not."""
from tests.support.engine import conversation_statements as _statements


# --- a wish or a command for the other side --------------------------------------------------------------


def test_a_wish_for_the_other_side_is_not_the_users_deed():
    assert _statements("Well enjoy being single, it must be nice.") == {}
    assert _statements("Oh enjoy the lake!") == {}
    assert _statements("Work hard and you will get there.") == {}
    assert "User works at a bakery" in _statements("I work at a bakery. Enjoy your weekend!")


def test_a_dropped_i_before_the_same_verbs_is_still_read():
    assert "User enjoys baking with their niece on Sundays" in _statements("Enjoy baking with my niece on Sundays.")
    assert "User enjoys knitting" in _statements("Enjoy knitting too.")
    assert "User works at a hardware store downtown" in _statements("Work at a hardware store downtown.")
    assert "User loves sailing" in _statements("Love sailing as well.")


# --- what the user comes back from ----------------------------------------------------------------------------


def test_only_a_go_pastime_keeps_goes():
    assert "User goes kayaking" in _statements("Just got back from kayaking.")
    assert "User goes fishing" in _statements("Just got back from a fishing trip with my uncle.")
    found = _statements("Just got back from coaching tennis at the club.")
    assert "User coaches tennis at the club" in found
    assert not any(s.startswith("User goes coaching") for s in found)


def test_a_gerund_whose_verb_is_unclear_is_kept_as_said():
    assert "User got back from working" in _statements("Just got back from working.")
    found = _statements("I just got back from my evening stroll.")
    assert not any(s.startswith("User goes") or s.startswith("User evens") for s in found)
    assert "User got back from baking bread" in _statements("Just got back from baking bread.")


# --- a yes/no question without its "?" -----------------------------------------------------------------------


def test_a_yes_no_question_without_its_question_mark_is_still_answered():
    found = _statements(("assistant", "Oh no, that sounds painful. Did you sprain your wrist climbing"), "Sadly yeah I did.")
    assert "User did sprain their wrist climbing" in found
    assert "User has not been to Norway" in _statements(("assistant", "Have you been to Norway."), "No never")


def test_a_statement_of_the_other_side_is_no_question():
    assert _statements(("assistant", "I went to Norway last summer"), "Yes") == {}
    assert _statements(("assistant", "Did you know I sing, I do"), "No") == {}  # the question was not the turn's end
    assert _statements(("assistant", "Are you a student or working"), "Yes") == {}  # either-or: "yes" to what?


def test_a_no_that_is_a_not_usually_answers_nothing():
    assert _statements(("assistant", "Do you have time to read?"), "No usually. I work nights.") == \
        {"User works nights": "I work nights"}


# --- first-person clauses run on without punctuation -------------------------------------------------------------


def test_a_second_i_with_its_own_object_opens_a_clause_of_its_own():
    found = _statements("I am a bit on the short side I eat too much candy")
    assert "User is a bit on the short side" in found
    assert "User eats too much candy" in found
    found = _statements("I'm in 5th grade I can never finish my homework")
    assert "User is in 5th grade" in found
    assert "User can never finish their homework" in found
    found = _statements("I am a nurse I have two daughters")
    assert {"User is a nurse", "User has two daughters"} <= set(found)


def test_an_i_that_opens_a_relative_or_a_dependent_clause_stays_in_its_sentence():
    assert "User loves the song they sang at their wedding" in _statements("I love the song I sang at my wedding")
    assert "User remembers the day they met their wife" in _statements("I remember the day I met my wife")
    assert "User was so tired they could sleep all day" in _statements("I was so tired I could sleep all day")
    found = _statements("If I save my tips I can buy a car")
    assert not any(s.startswith("User can buy") for s in found)


def test_been_a_role_for_a_while_is_a_dropped_i():
    assert "User has been a plumber for years" in _statements("Been a plumber for years.")
    assert _statements("Been a pleasure chatting with you!") == {}
