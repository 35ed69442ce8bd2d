"""Skip the task, keep the person: what a request is for often says who the user is ("for my biology class",
"we are a small logistics company in Lagos", "Je suis infirmière, écris-moi…"). In a kept session and in one
skipped as coding, such words become a statement about the user; a class of the code, a story's narrator, a
supposition, a bare "my class" or "we are a company", and the assistant's template never do."""
import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.multilingual import turn_statements
from dreaming.engine.self_disclosure import self_disclosures
from dreaming.engine.self_statements import self_statements
from dreaming.protocol import Turn


def _said(text: str) -> list[str]:
    return [c.statement for c in self_disclosures([Turn(seq=0, role="user", content=text)])]


def _in_a_coding_session(text: str) -> list[str]:
    turns = [Turn(seq=1, role="user", content=text), Turn(seq=2, role="assistant", content="Here is the fix.")]
    found = self_statements(turns, kind="coding")
    assert all(c.quote in text for c in found)
    return [c.statement for c in found]


@pytest.mark.parametrize(("text", "statement"), [
    ("Can you summarise chapter 4? I need it for my organic chemistry class tomorrow.", "User has an organic chemistry class"),
    ("quiz questions on the water cycle for my 6th grade science class", "User has a 6th grade science class"),
    ("Help me outline an essay for my AP European History course", "User has an AP European History course"),
    ("explain derivatives like I'm in my calculus lecture", "User has a calculus lecture"),
])
def test_a_course_named_by_its_subject_says_the_user_has_it(text, statement):
    assert statement in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    "I missed my first class today, what is a mitochondrion?",  # names no subject
    "write my Python class so that it has a __repr__",  # a class of the code
    "Rename my base class to Animal",
    "Write a story where I'm late for my chemistry class and meet a dragon.",  # the narrator's class
    "If I skip my yoga class, how many calories do I lose?",  # a supposition
    "I want to quit my piano lessons, how do I tell my teacher?",  # given up
])
def test_a_class_that_is_not_a_course_the_user_has_says_nothing(text):
    assert not any(s.startswith("User has a") and ("class" in s or "lesson" in s) for s in _said(text)), _said(text)


@pytest.mark.parametrize(("text", "statement"), [
    ("we are a small logistics company in Lagos, write a Django model for shipments",
     "User's company is a small logistics company in Lagos"),
    ("Hi, we're a family-run bakery in Porto. Suggest a slogan.", "User's bakery is a family-run bakery in Porto"),
    ("We are a non-profit animal shelter organization. Draft a donation appeal.",
     "User's organization is a non-profit animal shelter organization"),
])
def test_the_organisation_the_user_speaks_for_is_theirs(text, statement):
    assert statement in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    "We are a company. Write a slogan.",  # says nothing of which
    "We are a family of four planning a trip to Rome.",  # not an organisation
    "Write a story where we are a small pirate company sailing to Tortuga.",  # fiction
    "Act as my marketing lead. We are a new coffee shop in Leeds.",  # the assistant's role play sets the scene
    "If we are a small startup in Berlin, which taxes do we pay?",  # a supposition
])
def test_a_we_that_is_no_organisation_of_the_user_says_nothing(text):
    assert not any(s.startswith("User's") and " is a" in s for s in _said(text)), _said(text)


def test_a_person_in_a_request_is_kept_with_the_words_after_it_as_the_quote():
    found = self_disclosures([Turn(seq=0, role="user", content="Write an email to my landlord asking to fix the heater.")])
    assert [(c.quote, c.statement) for c in found] == [("my landlord asking to fix the heater", "User has a landlord")]


@pytest.mark.parametrize(("text", "statement"), [
    ("our bakery ships sourdough across Wales, write a SQL query for the monthly orders", None),
    ("Our startup sells refurbished laptops to schools. Why does this query return duplicates?\nSELECT * FROM orders",
     "User's startup sells refurbished laptops to schools"),
    ("we are a two-person design studio in Oslo. The build fails:\nTypeError: undefined is not a function",
     "User's studio is a two-person design studio in Oslo"),
    ("This is for my software engineering course. My loop never ends:\n```js\nwhile(true){}\n```",
     "User has a software engineering course"),
    ("I'm writing my dissertation on coral bleaching and need R code to plot temperatures",
     "User is writing their dissertation on coral bleaching"),
])
def test_a_coding_session_keeps_what_the_user_says_of_their_work_and_study(text, statement):
    found = _in_a_coding_session(text)
    if statement is None:
        assert found == [] or all(s.startswith("User") for s in found)
    else:
        assert any(s.startswith(statement) for s in found), found


def test_a_coding_sessions_code_and_task_state_stay_out():
    text = "my base class User has a name field.\n```python\nclass User(Base):\n    name = Column(String)\n```\nI'm using SQLAlchemy"
    assert _in_a_coding_session(text) == []


@pytest.mark.parametrize(("text", "quote"), [
    ("Je suis infirmière de nuit, écris-moi un email pour mon chef", "Je suis infirmière de nuit"),
    ("Soy profesora de inglés, hazme un examen corto", "Soy profesora de inglés"),
    ("Я работаю бухгалтером, помоги составить отчёт", "Я работаю бухгалтером"),
    ("Ich arbeite als Krankenpfleger, schreib mir eine kurze Bewerbung", "Ich arbeite als Krankenpfleger"),
    ("Eu sou professora de matemática, me ajude com uma prova", "Eu sou professora de matemática"),
])
def test_who_the_user_is_said_before_a_request_in_another_language_is_kept(text, quote):
    assert (quote, f'User said: "{quote}"') in turn_statements(text)


@pytest.mark.parametrize("text", [
    "Écris-moi un email pour mon chef, merci",  # the request alone
    "Hazme un examen corto de inglés, por favor",
    "Si je suis infirmière, écris-moi un email",  # a supposition
    "Помоги мне написать эссе, пожалуйста",
])
def test_a_request_alone_in_another_language_says_nothing(text):
    assert turn_statements(text) == []


@pytest.mark.parametrize(("text", "statement"), [
    ("Which camera is best for me as a wildlife photography student?", "User is a wildlife photography student"),
    ("As someone who works in a call centre, how do I protect my voice?", "User works in a call centre"),
    ("What's an easy recipe for a beginner like me?", "User is a beginner"),
    ("Where can I go skiing with my three kids in February?", "User has three kids"),
    ("Suggest names for my new tabby kitten", "User has a new tabby kitten"),
    ("How do I ask my roommate to clean up after himself?", "User has a roommate"),
    ("translate this for my Korean client: the parcel left today", "User has a Korean client"),
])
def test_who_the_user_is_said_beside_me_or_in_a_question(text, statement):
    assert statement in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    "Explain black holes to me as a five year old",  # a style of answer
    "Explain it to me as if I were a beginner",
    "Tell me as a friend, is this plan good?",
    "What would a guy like me wear to a gala?",  # names nothing
    "Write a story where a knight like me wins the tournament",  # fiction
    "I still miss my late dog Rex",  # no longer had
    "Should I buy my neighbours dog a toy?",
])
def test_a_style_a_story_or_a_lost_pet_says_no_role(text):
    assert not any(s.startswith(("User is a", "User has a")) for s in _said(text)), _said(text)


@pytest.mark.parametrize(("text", "statement"), [
    ("Now that I'm a retired firefighter, which hobbies keep the mind sharp?", "User is a retired firefighter"),
    ("Plan a party for my 7 year old daughter who loves unicorns", "User has a 7 year old daughter"),
    ("As a new landlord in Ontario, which forms do tenants sign?", "User is a new landlord in Ontario"),
])
def test_who_the_user_is_said_as_the_reason_for_a_question(text, statement):
    assert statement in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    "As a doctor, what would you prescribe for a cold?",  # the assistant's role
    "As a result, what happens to the price?",
    "what I am looking for is a quiet hotel",  # mid-clause
])
def test_a_role_given_to_the_assistant_or_an_idiom_says_nothing(text):
    assert not any(s.startswith("User is") for s in _said(text)), _said(text)


@pytest.mark.parametrize("text", [
    "I used to be a weight problem like me, funny right",  # no person named
    "I walk my sisters cat on Sundays",  # the cat is the sister's
])
def test_a_thing_or_someone_elses_pet_is_no_role_or_pet_of_the_user(text):
    assert not any(s.startswith(("User is a", "User has a")) for s in _said(text)), _said(text)


def test_a_statement_keeps_its_sentence_as_the_quote():
    found = self_disclosures([Turn(seq=0, role="user", content="Drives my wife crazy. Anyway.")])
    assert [(c.quote, c.statement) for c in found] == [("Drives my wife crazy.", "User has a wife")]


def test_a_request_is_never_a_statement_but_the_child_it_names_is():
    text = "Make a workout plan for my 12 year old daughter who plays soccer"
    assert extract_candidates([Turn(seq=0, role="user", content=text)], limit=50) == []  # was "Make a … for User's …"
    assert "User has a 12 year old daughter" in _said(text)
