"""Short answers in persona chat read with what they answer (issue #16): "Mine is winter!" after "What is
your favorite season?", a bare "No, not yet." after "Are you married?" — the quote the user's own words,
the statement the question's."""
import pytest

from dreaming.engine.answers import antecedent, mine_statement
from dreaming.engine.bare_answers import bare_answer, is_bare_answer
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn


def _found(*turns: tuple[str, str]) -> dict:
    read = LocalDreamer().extract(turns=[Turn(seq=i, role=r, content=t) for i, (r, t) in enumerate(turns)],
                                  ctx=CallContext())
    return {c.statement: c for c in read}


@pytest.mark.parametrize("before,said,statement", [
    ("What is your favorite season?", "Mine is winter!", "User's favorite season is winter"),
    ("A cheeseburger and a war documentary are my idea of a good saturday", "Mine is a bottle of wine.",
     "User's idea of a good saturday is a bottle of wine"),
    ("What is your favorite color?", "Mine is currently white, you?", "User's favorite color is currently white"),
    ("Are you a child? What is your favorite color.", "Yellow is mine.", "User's favorite color is Yellow"),
])
def test_mine_stands_for_the_last_your_or_my_thing_said_before_it(before, said, statement):
    assert mine_statement(said, before=before)[1] == statement


@pytest.mark.parametrize("before,said", [
    ("Shoes and watches are my favorites to shop for.", "Mine is fine."),  # how it is, not what it is
    ("I have a maclaren, it is awesome.", "Mine is a ford pinto."),  # "mine" of what? nothing named
    ("What are your favorites?", "Mine is pizza."),  # a favourite of what kind?
])
def test_mine_without_a_named_thing_or_saying_how_it_is_is_not_read(before, said):
    assert mine_statement(said, before=before) is None


def test_mine_in_a_conversation_quotes_the_users_words_and_is_an_answer():
    found = _found(("assistant", "Hey, what is your favorite food? Mine is donuts."), ("user", "Mine is pizza."))
    candidate = found["User's favorite food is pizza"]
    assert candidate.quote == "Mine is pizza" and candidate.seq == 1 and candidate.user_initiated is False


@pytest.mark.parametrize("question,said,statement", [
    ("The man I was forced to marry was a dentist. Are you married?", "No. Not yet. Is he good to you?",
     "User is not married"),
    ("Your mom was probably looking out for you. Do you have any pets?", "No pets. How about you?",
     "User does not have any pets"),
    ("Do you feel your work is your true calling?", "Yep! Been a teacher for a long time!",
     "User feels their work is their true calling"),
    # how the user feels about the answer, said before it
    ("I broke my arm once. Have you ever broken a bone?", "Sadly yeah I have. It hurts",
     "User has broken a bone"),
])
def test_a_bare_yes_or_no_takes_the_question_with_its_polarity(question, said, statement):
    found = _found(("assistant", question), ("user", said))
    assert statement in found
    assert found[statement].quote in said and found[statement].user_initiated is False


def test_a_bare_answer_needs_a_yes_no_question_before_it():
    assert bare_answer("No. Not yet.", None) is None
    assert not _found(("assistant", "I just got back from the gym."), ("user", "Nope! Too lazy for that."))


def test_a_negative_answer_is_not_read_as_what_the_user_has():
    found = _found(("assistant", "Any children? Do you have any kids?"), ("user", "Nope! Too young for that."))
    assert "User does not have any kids" in found
    assert not [s for s in found if "young" in s]  # not "User has Too young for that"


def test_a_borrowed_answer_is_weighed_by_what_it_says_not_by_its_two_words():
    borrowed = _found(("assistant", "Do you eat meat?"), ("user", "I do."))["User eats meat"]
    asked_nothing = _found(("user", "I eat meat."))["User eats meat"]
    assert borrowed.user_initiated is False
    assert borrowed.importance >= round(asked_nothing.importance - 0.1, 2)  # only the "asked for" mark-down, once


def test_a_bare_answer_is_quoted_as_said_not_widened_to_its_sentence():
    found = _found(("assistant", "Your mom was looking out for you. Do you have any pets?"), ("user", "No pets. How about you?"))
    assert found["User does not have any pets"].quote == "No"
    assert is_bare_answer("Nope, not yet!") and not is_bare_answer("No pets")


@pytest.mark.parametrize("question,said,statement", [
    ("Hey there rick, I am andy. Are you in aaa like me?", "Ah no I am not.", "User is not in aaa"),
    ("Do you preform on sidewalks by chance?", "No sidewalks.", "User does not preform on sidewalks"),
    ("Do you have any hobbies?", "Yeah I like to count the freckles on my foot", "User has hobbies"),
])
def test_the_answer_takes_what_the_question_asks_not_how_it_asks(question, said, statement):
    found = _found(("assistant", question), ("user", said))
    assert statement in found
    assert not [s for s in found if "like me" in s or "by chance" in s or "any hobbies" in s]


def test_how_much_is_not_what():
    found = _found(("assistant", "Working out is great. Do you like country music?"), ("user", "A little bit."))
    assert "User likes a little bit" not in found


def test_mine_takes_its_thing_from_a_question_not_from_the_other_sides_statement():
    found = _found(("assistant", "A cheeseburger and a war documentary are my idea of a good saturday."),
                   ("user", "Mine is a bottle of wine."))
    assert not [s for s in found if "saturday" in s]


@pytest.mark.parametrize("question,said", [
    ("What do you do for fun?", "Yeah, well, we are farmers."),  # not "User does for fun" (but "User is a farmer")
    ("Cool. What kind of music do you like?", "Yes!"),
])
def test_a_bare_yes_answers_a_yes_no_question_never_a_wh_question(question, said):
    assert not [s for s in _found(("assistant", question), ("user", said)) if s != "User is a farmer"]


@pytest.mark.parametrize("question,said", [
    ("What do you do for fun?", "Only one."),  # a count answers "how many"
    ("What do you do for fun?", "Man I am tired I waitress all week"),  # a clause with its own "I", not a fragment
])
def test_a_count_or_a_clause_never_fills_a_hobby_frame(question, said):
    assert not [s for s in _found(("assistant", question), ("user", said)) if s.startswith("User enjoys")]


@pytest.mark.parametrize("said,statements", [
    # two things the user does, one memory each (joined_predicates.py)
    ("Play video games and listen to music. How about you", ["User plays video games", "User listens to music"]),
    ("Go to national parks!", ["User goes to national parks"]),
])
def test_an_answer_in_the_users_own_verbs_keeps_them(said, statements):
    found = _found(("assistant", "So what do you do for fun?"), ("user", said))
    assert list(found) == statements
    assert all(found[statement].quote in said for statement in statements)


def test_a_reaction_that_points_back_fills_no_frame():
    assert not _found(("assistant", "Cool, do you like to read?"), ("user", "Love it"))


@pytest.mark.parametrize("question,said,statement", [
    ("Have you seen my new bmw? What do you drive?", "99 ford mustang red 40k miles",
     "User drives 99 ford mustang red 40k miles"),
    ("I live in florida. What do you fish for?", "Tuna for work but whatever bites.", "User fishes for Tuna for work"),
    ("Cool. You have any animals?", "Two horses on the farm", "User has two horses on the farm"),
    ("Nice! So any hobbies?", "Knitting and baking", "User enjoys knitting and baking"),
    ("Where do you live?", "In california but I want to move to france", "User lives in california"),
    ("What do you read?", "Mostly mysteries", "User reads mostly mysteries"),
])
def test_a_verbless_answer_takes_the_verb_of_the_question_about_the_user(question, said, statement):
    found = _found(("assistant", question), ("user", said))
    assert statement in found
    assert found[statement].user_initiated is False


@pytest.mark.parametrize("question,said", [
    ("Any pets? I have a german shepherd.", "Unfortunately no"),  # a "no" fills no frame
    ("Any kids?", "Only one"),  # a count with no thing of its own
    ("Any hobbies?", "Love it"),  # a reaction
])
def test_an_answer_that_names_nothing_or_says_no_states_nothing(question, said):
    assert not _found(("assistant", question), ("user", said))


@pytest.mark.parametrize("question,said", [
    ("Makes sense. Any children?", "No, not yet. Do you?"),
    ("Any pets?", "No pets. How about you?"),  # the "no" is the answer, not a filler before "pets"
])
def test_a_no_to_a_bare_any_question_is_read_as_to_do_you_have_any(question, said):
    thing = question.rstrip("?").split()[-1]
    assert set(_found(("assistant", question), ("user", said))) == {f"User does not have any {thing}"}


@pytest.mark.parametrize("question,said,statement", [
    ("I love blue too, I also enjoy mountain biking. Have you ever tried it?", "No", "User has not tried mountain biking"),
    ("I really love star wars and am a huge fan. Do you like it?", "Yes!", "User likes star wars"),
    ("Cars are my thing. Wrestling? Do you enjoy it?", "Yeah", "User enjoys wrestling"),
])
def test_a_yes_or_no_to_a_question_about_it_names_the_thing_the_sentence_before_named(question, said, statement):
    assert statement in _found(("assistant", question), ("user", said))


def test_an_it_with_nothing_named_before_stays_unresolved():
    assert antecedent("It is a cool game. I play it daily.") is None
    assert antecedent("I like to hike.") is None  # an activity said with "to": not taken as a thing
    assert antecedent("Why?") is None


@pytest.mark.parametrize("question, said, statement", [
    ("What do you do for work?", "Nurse, night shifts mostly.", "User is a nurse"),
    ("What do you do for a living?", "Software engineer at a bank", "User is a software engineer at a bank"),
    ("What do you do for work?", "Marketing", "User works in marketing"),  # a field, not a role
    ("Where are you from?", "Originally Kenya.", "User is originally from Kenya"),
    ("Welcome to Leeds! What's the new job?", "Software engineer at a bank.", "User is a software engineer at a bank"),
])
def test_a_job_or_an_origin_answered_in_a_word_reads_as_a_person_would_say_it(question, said, statement):
    assert statement in _found(("assistant", question), ("user", said))


def test_a_yes_to_did_you_learn_anything_learned_something_and_a_no_learned_nothing():
    assert "User learned something meaningful during their trip" in _found(
        ("assistant", "Did you learn anything meaningful during your trip?"), ("user", "Yeah, it was eye-opening."))
    assert "User did not learn anything" in _found(("assistant", "Did you learn anything?"), ("user", "No."))


def test_a_yes_with_the_count_gives_the_count_alone():
    found = _found(("assistant", "Do you have kids?"), ("user", "Yes, two."))
    assert "User has two kids" in found and "User has kids" not in found
    assert "User is a student" in _found(("assistant", "Are you a student?"), ("user", "Yes! I study biology at UCLA."))


@pytest.mark.parametrize("asked,answer,statements", [
    ("How old are your kids?", "Mia is 7 and Leo just turned 4.", ["User's kid Mia is 7", "User's kid Leo is 4"]),
    ("How old is your dog?", "Max is 3 years old.", ["User's dog Max is 3"]),
    ("Where did you grow up?", "A small town in Ohio, but I've lived in Seattle for 10 years.",
     ["User grew up in a small town in Ohio", "User has lived in Seattle for 10 years"]),
    ("Where were you born?", "Manila.", ["User was born in Manila"]),
])
def test_ages_birthplaces_and_where_the_user_grew_up_are_read_with_the_question(asked, answer, statements):
    from dreaming.engine.extract import extract_candidates
    from dreaming.protocol import Turn

    found = extract_candidates([Turn(seq=0, role="assistant", content=asked), Turn(seq=1, role="user", content=answer)])
    assert [c.statement for c in found if c.statement in statements] == statements


def test_a_name_with_an_age_is_not_the_users_child_unless_asked_about_them():
    from dreaming.engine.answers import named_ages

    assert named_ages("Mia is 7 and Leo just turned 4.", asked="How was your day?") == []
