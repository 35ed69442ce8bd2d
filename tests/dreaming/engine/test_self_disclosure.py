"""Who the user says they are inside a request ("I'm a nurse, write me…"): kept as a true statement about
the user in kept and skipped sessions alike — never fiction's first person, a hypothetical, a question,
the assistant's voice or a request."""
import pytest

from dreaming.engine.self_disclosure import self_disclosures, turn_disclosures, without_request
from dreaming.engine.self_statements import own_words, self_statements
from dreaming.protocol import ExtractedCandidate, SessionInfo, Turn
from dreaming.providers.local import LocalDreamer


def _statements(text: str) -> list[str]:
    return [statement for _, statement in turn_disclosures(text)]


@pytest.mark.parametrize(("text", "statement"), [
    ("I'm a final year computer science student at the University of Lagos, help me choose a project topic.",
     "User is a final year computer science student at the University of Lagos"),
    ("i am a beginner in guitar, give me a practice plan", "User is a beginner in guitar"),
    ("Hi, I am an English teacher in Vietnam. Create a quiz about present perfect.",
     "User is an English teacher in Vietnam"),
    ("I work as a backend engineer at a fintech startup. Can you review this function?",
     "User works as a backend engineer at a fintech startup"),
    ("I live in Toronto. What are good weekend activities?", "User lives in Toronto"),
    ("I'm from Brazil and I need a cover letter.", "User is from Brazil"),
    ("I have 3 kids and a full-time job, how can I find time to exercise?", "User has 3 kids"),
    ("Write a cover letter for me. I have 5 years of experience as a project manager.",
     "User has 5 years of experience as a project manager"),
    ("I have a YouTube channel about cooking. Give me 10 title ideas.", "User has a YouTube channel about cooking"),
    ("I'm learning Python for data analysis, explain list comprehensions.", "User is learning Python for data analysis"),
    ("I'm preparing for the IELTS exam. Give me a writing task 2 sample.", "User is preparing for the IELTS exam"),
    ("I'm 35 years old and I want to change careers.", "User is 35 years old"),
    ("I'm Nigerian and I want to study abroad.", "User is Nigerian"),
    ("I teach 8th grade science and want a quiz on photosynthesis.", "User teaches 8th grade science"),
    ("Write an Instagram caption for my Etsy shop's new stickers.", "User has an Etsy shop"),
    ("Draft an email to my clients about the new prices.", "User has clients"),
    ("Can you help me write a letter to my son who is in the army?", "User has a son"),
    ("What should I feed my dog? She is a 3 year old beagle.", "User has a dog"),
    ("Write a poem for my wife's 40th birthday.", "User has a wife"),
    ("Write a birthday message for my best friend Sarah.", "User's best friend is named Sarah"),
    ("Sometimes I bring my parrots to the gym.", "User has parrots"),
    ("Hi, as a nurse, I work nights and need a meal plan.", "User is a nurse"),
])
def test_a_self_disclosure_inside_a_request_is_read_without_the_request(text, statement):
    assert statement in _statements(text)
    assert not any(word in s for s in _statements(text) for word in ("help", "give", "review", "create", "caption"))


def test_as_a_role_says_who_the_user_is():
    said = turn_disclosures("As a teacher, I want to create engaging lesson plans for my 5th grade class.")
    assert said == [("As a teacher, I want to create engaging lesson plans for my 5th grade class", "User is a teacher"),
                    ("my 5th grade class", "User has a 5th grade class")]


def test_negation_is_kept():
    assert _statements("I'm not a programmer, explain this simply.") == ["User is not a programmer"]


def test_a_short_clause_is_quoted_with_its_sentence():
    # "I'm Nigerian" alone is too short to prove anything: the verbatim sentence is the quote.
    assert turn_disclosures("I'm Nigerian, help me.") == [("I'm Nigerian, help me.", "User is Nigerian")]


@pytest.mark.parametrize("text", [
    "Write a story where I'm a knight who fights a dragon.",
    "Act as a doctor. I'm a patient with a headache.",
    "Let's roleplay: you are my boss and I'm a new employee at your shop.",
    "If I'm a student, can I get a discount?",
    "What should I do if I'm a beginner?",
    "As an AI language model, I cannot browse the internet.",
    "As a result, I left early.",
    "I have a question about my essay.",
    "I have 2 errors in my code.",
    "The guy I work with is rude.",
    "I want to start my own business, give me ideas.",
    "I quit my job last year.",
    "Let's roleplay: you are my husband and we run a bakery.",
    "Help me plan a surprise for my mom.",  # everyone has a mother: only a named one is kept
    "I miss my dog so much.",
    "It reminds me of the film camera I had as a kid, I took plenty of beach pics.",  # when, not who
    "I am an avid reader? What do you do for work?",
    "I teach at one.",  # what "one" is was said before
    "Do you like gaming. I am a big fan.",
    "She likes to curl up on my band shirts.",
    "Can we listen to my favorite band in the car?",
    "I'd have loved to live with my girlfriend before I went into the navy.",
])
def test_fiction_hypotheticals_questions_templates_and_tasks_say_nothing_about_the_user(text):
    assert _statements(text) == []


def test_a_request_fastened_to_a_statement_is_cut_off():
    candidate = ExtractedCandidate(
        seq=0, quote="I'm a PhD student in chemistry at MIT, write an abstract for my paper on catalysts",
        statement="User is a PhD student in chemistry at MIT, write an abstract for their paper on catalysts",
    )
    cut = without_request(candidate)
    assert (cut.quote, cut.statement) == ("I'm a PhD student in chemistry at MIT", "User is a PhD student in chemistry at MIT")
    plain = ExtractedCandidate(seq=0, quote="I live in Lisbon, which I love", statement="User lives in Lisbon, which they love")
    assert without_request(plain) == plain


def test_a_kept_session_gains_what_the_conversational_rules_passed_over():
    reading = LocalDreamer().read_session(
        turns=[Turn(seq=0, role="user", content="As a freelance web developer, I often get asked about SEO. "
                                                "I teach 8th grade science on weekends, too.")],
        info=SessionInfo(new_from_seq=-1),
    )
    statements = [c.statement for c in reading.candidates]
    assert "User is a freelance web developer" in statements
    assert "User teaches 8th grade science on weekends" in " ".join(statements) or \
        "User teaches 8th grade science" in statements
    assert all(c.seq == 0 and c.quote in reading_text for c in reading.candidates
               for reading_text in ["As a freelance web developer, I often get asked about SEO. "
                                    "I teach 8th grade science on weekends, too."])


def test_a_skipped_coding_session_keeps_the_role_said_with_as_a():
    turn = Turn(seq=0, role="user", content=(
        "As a freelance web developer, I keep hitting this error:\n```js\nconst x = require('y');\n```\n"
        "TypeError: y is not a function"))
    statements = [c.statement for c in self_statements([turn], kind="coding")]
    assert "User is a freelance web developer" in statements
    assert not any("TypeError" in s or "require" in s for s in statements)


def test_a_chinese_request_before_a_full_width_colon_is_the_users_own_words():
    essay = "Beijing is a great city to study in. " * 20
    turn = Turn(seq=0, role="user", content=f"我是一名高中老师，请帮我修改这篇作文：{essay}")
    assert own_words(turn, kind="document") == "我是一名高中老师，请帮我修改这篇作文"
    statements = [c.statement for c in self_statements([turn], kind="document")]
    assert any("老师" in s for s in statements) and not any("Beijing" in s for s in statements)


@pytest.mark.parametrize("text", [
    "I'm a Muslim, write me a short prayer for exams.",
    "I'm a diabetic, give me a meal plan.",
    "I have 2 kids and HIV, how do I tell them?",
])
def test_a_sensitive_clause_never_becomes_a_disclosure(text):
    found = self_disclosures([Turn(seq=0, role="user", content=text)])
    assert not any(word in c.statement or word in c.quote for c in found for word in ("Muslim", "diabetic", "HIV"))


LETTER = ("Dear Prof. Lind,\n\nI am writing to ask whether you take on new students this year.\n"
          "My research is on sea ice and I would like to join your group.\n\nKind regards,\nMarta Ruiz")


@pytest.mark.parametrize("request_words", [
    "Please proofread the following email", "Improve my email to my professor", "Can you polish my cover letter",
])
def test_a_draft_the_user_brings_as_their_own_is_read_as_the_user(request_words):
    turn = Turn(seq=0, role="user", content=f'{request_words}: "{LETTER}"')
    statements = [c.statement for c in self_statements([turn], kind="document")]
    assert "User's name is Marta Ruiz" in statements
    assert all(c.quote in turn.content for c in self_statements([turn], kind="document"))


@pytest.mark.parametrize("request_words", [
    "Write a reply to this email", "Summarize this email", "Continue this story", "Rewrite my story",
])
def test_a_text_to_answer_or_a_story_is_not_the_users_own_draft(request_words):
    turn = Turn(seq=0, role="user", content=f"{request_words}:\n{LETTER}")
    assert "Marta" not in " ".join(c.statement for c in self_statements([turn], kind="document"))
    assert own_words(turn, kind="document") == request_words


def test_a_letter_signed_with_a_placeholder_gives_no_name():
    turn = Turn(seq=0, role="user", content="Proofread my letter:\nI am applying for the job.\n\nBest regards,\nYour Name")
    assert not any("name" in c.statement.lower() for c in self_statements([turn], kind="document"))


@pytest.mark.parametrize(("text", "statement"), [
    ("i am going to send you my bullet point notes for a presentation in french, please fix them",
     "User has bullet point notes for a presentation in french"),
    ("review my slides for the job interview at Google", "User has slides for the job interview at Google"),
])
def test_the_work_a_request_names_with_its_purpose_is_the_users(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "help me with my homework",  # no purpose: says little
    "I want my trip to Japan to be fun",  # no "for / on / to …" right after
    "If my thesis on coral reefs fails, what then?",  # a supposition
])
def test_work_without_a_purpose_or_in_a_supposition_is_not_read(text):
    assert not any(s.startswith("User has") for s in _statements(text))


def test_a_thing_waiting_to_arrive_is_not_work_with_a_purpose():
    assert not any("paper" in s for s in _statements("Waiting for my morning paper to get here, you?"))
    assert "User has a trip to Japan next month" in " ".join(_statements("give me a packing list for my trip to Japan next month"))
