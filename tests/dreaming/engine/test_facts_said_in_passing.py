"""Persona-chat turns whose fact is said in passing (in_passing.py) or as a wish with "I would": each shape with what
must still not be read beside what must."""
from tests.support.engine import conversation_statements as _statements


# --- a wish said with "I would" as with "I'd" ------------------------------------------------------------------


def test_i_would_love_to_is_read_as_id_love_to_is():
    assert "User would love to visit Japan" in _statements("I would love to visit Japan.")
    assert "User would like to be a physical therapist" in " ".join(_statements(
        "That's cool. I would like to be a physical therapist, not a cashier."))
    assert "User would rather read poetry" in _statements("I'd rather read poetry.")


def test_a_polite_would_still_says_nothing():
    assert _statements("I would like to do that.") == {}
    assert _statements("I would love to hear more.") == {}
    assert _statements("I would rather not say.") == {}
    assert _statements("I would say so.") == {}
    # a wish about the thing the other side just told of is a reaction to it
    assert _statements("Great! I would love to paint that picture. You dance?") == {}
    assert _statements("I'd rather put that towards bitcoin.") == {}
    assert "User would love to support those with similar issues" in _statements(
        "I'm keen on counseling - I'd love to support those with similar issues.")


# --- a favourite pointed at with "it" / "they" -----------------------------------------------------------------


def test_a_favourite_pointed_at_is_the_thing_the_user_just_named():
    assert "User's favorite sport is dog agility" in _statements(
        "Hello friend, have you ever seen dog agility? It is my favorite sport!")
    assert "User's favorite is twitter" in _statements("I agree with that idea. Do you like twitter? It is my favorite!")
    assert "User's favorite is insane clown posse" in _statements(
        "Listening to insane clown posse right now. They are my favorite.")
    found = _statements("Have you ever seen the show extreme couponing it's my favorite.")
    assert found.get("User's favorite is the show extreme couponing") == "the show extreme couponing it's my favorite"


def test_a_favourite_without_a_thing_named_before_is_not_guessed():
    assert not any("favorite" in s for s in _statements("Yes. It is my favorite color. How old are you?"))
    assert not any("favorite" in s for s in _statements("Do you like it? It is my favorite!"))
    assert not any("favorite" in s for s in _statements("Have you seen my dog? That is my favorite thing."))


# --- a greeting from a place; a place in a relative clause ------------------------------------------------------


def test_a_greeting_from_a_place_says_where_the_user_is():
    assert "User is in alabama" in _statements("Good evening from alabama! Where are you at?")
    assert "User is in manhattan" in _statements("Hello from manhattan! How are you this morning?")
    assert "User is in canada" in _statements("Hello from canada, how are you?")  # the question after it asks nothing
    assert not any(s.startswith("User is in") for s in _statements("Hello from work! Busy day."))
    assert not any(s.startswith("User is in") for s in _statements("Hi from my couch! Lazy day."))


def test_a_place_in_a_relative_clause_is_where_the_user_works_or_goes():
    assert "User works at the gas station" in _statements(
        "He keeps sending random guys to the gas station where I work.")
    assert "User attends the nascar races" in _statements("Me too. They play it at the nascar races that I attend.")
    assert not any("lives in" in s for s in _statements("That's the place where I live."))
    assert not any("works at" in s for s in _statements("That is a course I teach."))


# --- tails and words the readings now know ----------------------------------------------------------------------


def test_a_question_run_on_without_its_stop_is_cut_off():
    assert "User loves the winter" in _statements("I love the winter what is your fave weather")
    assert _statements("I know what you mean") == {}
    assert _statements("I love how you think") == {}
    # a "what" / "how" that is the verb's object is no question: nothing is cut to "User is proud of"
    assert _statements("Wow, Nate! I'm proud of what you did.") == {}
    assert _statements("I seriously admire what you do.") == {}


def test_what_the_other_side_would_make_of_a_thing_is_cut_off():
    assert "User has a silver eared bunny" in _statements(
        "I've a silver eared bunny you would love, with a red, white, and navy blue bow.")
    assert _statements("I know you would love it.") == {}


def test_we_have_teens_is_the_households_as_we_have_kids_is():
    assert "User's household has teens" in _statements("Oh, lucky you. Congrats! We have teens.")
    assert "User's household has goats on the farm" in _statements("We have goats on the farm.")


def test_a_no_to_a_bare_any_question_says_the_user_has_none():
    assert _statements(("assistant", "Any children?"), "No.") == {"User does not have any children": "No."}
    assert "User has kids" in _statements(("assistant", "Any kids?"), "Yes!")
    assert _statements(("assistant", "Any kids?"), "Only one") == {}


def test_a_question_asked_back_without_its_mark_is_no_part_of_the_answer():
    assert "User has Horses on the farm" in _statements(("assistant", "I am great. You have any animals?"),
                                                        "Horses on the farm and you")
    assert "User enjoys hiking and biking" in _statements(("assistant", "What do you do for fun?"), "Hiking and biking and you")


def test_a_question_without_its_do_is_still_the_yes_no_question():
    assert "User likes their job" in _statements(("assistant", "Sci fi is nice. You like your job?"), "Yes!")
    assert "User does not sing or dance" in _statements(("assistant", "I run marathons. You sing or dance?"),
                                                        "I don't. But I do ride horses competitively.")
    assert _statements(("assistant", "You there?"), "Yes") == {}
    assert _statements(("assistant", "You think so?"), "Yes") == {}
    assert "User does not play chess" in _statements(("assistant", "You ever play chess?"), "No.")
    assert not any("ever" in s for s in _statements(("assistant", "Cool. You ever play?"), "No, I am not"))
