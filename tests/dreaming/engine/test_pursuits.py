"""What a request says the user is working on, plays, is on or has (pursuits.py through self_disclosure.py): in the
request's own words, weak readings kept low, never the task's own text, a story's "I" or someone else's thing."""
import pytest

from dreaming.engine.self_disclosure import WEAK_IMPORTANCE_CAP, self_disclosures, turn_disclosures, weak_disclosures
from dreaming.engine.self_statements import kept_session_disclosures
from dreaming.protocol import Turn


def _statements(text: str) -> list[str]:
    return [statement for _, statement in turn_disclosures(text) + weak_disclosures(text)]


def _kept(text: str) -> list[str]:
    return [c.statement for c in kept_session_disclosures([Turn(seq=0, role="user", content=text)], found=[])]


@pytest.mark.parametrize(("text", "statement"), [
    ("I am building a web app for my bakery, how do I add a login page?", "User is building a web app for their bakery"),
    ("I am working on a project for my university where I need to parse CSV files.",
     "User is working on a project for their university"),
    ("Write a user story where I am enhancing the existing ecommerce page to support mixed cabins.",
     "User is enhancing the existing ecommerce page to support mixed cabins"),
    ("I'm currently developing a Flutter app that tracks expenses. Why does it crash?",
     "User is currently developing a Flutter app"),
])
def test_what_the_user_is_working_on_is_read_inside_a_request(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "I am writing an email to my landlord about the broken heater, make it polite.",  # the task's own text
    "I'm creating a function that sums a list, what is wrong?",
    "I'm getting an error when I run this.",
    "Write a story where I am building a castle for my dragon.",  # a story's "I"
    "If I am building a house, what permits do I need?",  # a supposition
    "I am doing it wrong, right?",
])
def test_the_task_a_story_or_a_supposition_is_not_what_the_user_is_working_on(text):
    assert not [s for s in _statements(text) if s.startswith("User is ")]


def test_a_long_turn_without_a_paste_is_read_from_the_instruction_it_opens_with():
    text = ("Write a user story where I am enhancing the existing ecommerce page to accomodate mixed cabins view for the "
            "customers.. currently there are three cabins - economy, business and first.. " + "we need all of them.. " * 20)
    assert "User is enhancing the existing ecommerce page to accomodate mixed cabins view for the customers" in _kept(text)


def test_a_user_storys_persona_is_not_the_user():
    assert not [s for s in _statements("Write a user story. As a frequent flyer, I want to filter flights.")
                if "frequent flyer" in s]


@pytest.mark.parametrize(("text", "statement"), [
    ("Have any settings to play better csgo", "User plays csgo"),
    ("how can I play the guitar better?", "User plays the guitar"),
    ("How do i respond to a girl on tinder that answered one of my jokes", "User is on Tinder"),
    ("how can I grow my Instagram account? I sell candles", "User has an Instagram account"),
    ("Exactly what I needed thanks it’s for my license plate", "User has a license plate"),
    ("What oil should I use for my Honda motorcycle?", "User has a Honda motorcycle"),
])
def test_what_a_request_implies_the_user_plays_uses_or_has(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "How can I play it better?",
    "What is my dream car, based on my answers?",  # wished for
    "Write a review of my dad's car.",  # someone else's
    "Can you fix my phone's battery drain?",  # a bare device says nothing worth keeping
    "Write a story where a girl on tinder finds love.",  # no first person, and a story
    "I want a new car, which one should I buy?",  # wanted, not had
    "What oil did my last car need?",  # had once (the words possessions.py also reads as not held)
    "What oil does my Minecraft motorcycle need?",  # not a real thing
])
def test_no_weak_reading_without_the_users_own_thing(text):
    assert _statements(text) == [] or not any(s.startswith(("User plays", "User is on", "User has a")) for s in _statements(text))


def test_weak_readings_stay_below_a_plain_self_statement():
    found = self_disclosures([Turn(seq=0, role="user", content="Have any settings to play better csgo")])
    assert found and all(c.importance <= WEAK_IMPORTANCE_CAP for c in found)


def test_the_request_quoted_in_a_role_prompt_is_the_users_own():
    text = ('I want you to act as a sales coach. My first request is "I need you to develop a technique that will help '
            'me communicate with my customers."')
    found = [(c.quote, c.statement) for c in self_disclosures([Turn(seq=0, role="user", content=text)])]
    assert ("communicate with my customers", "User has customers") in found


def test_a_role_play_still_hides_the_users_things():
    assert not _statements("I want you to act as my girlfriend. I love my customers and my dog.")


@pytest.mark.parametrize(("text", "wrong", "right"), [
    ("I'm building a website for my dad's restaurant, how do I add a menu?", "User has a dad's restaurant", None),
    ("Check my thesis about coral reefs, please.", "User has thesis about coral reefs",
     "User is writing a thesis about coral reefs"),  # implied_pursuits.py: the thesis the user writes
])
def test_possessives_read_right(text, wrong, right):
    assert wrong not in _statements(text)
    if right:
        assert right in _statements(text)


def test_a_user_storys_premise_is_the_users_but_its_steps_are_the_storys():
    from dreaming.engine.others_words import not_the_user
    text = "Write a user story where I am enhancing the booking page. When I click on the tile I will see the fares."
    assert not not_the_user(text, "I am enhancing the booking page")
    assert not_the_user(text, "I click on the tile")


@pytest.mark.parametrize(("text", "statement"), [
    ("We are developing a mobile app for farmers, write a description for the app store.",
     "User is developing a mobile app for farmers"),
    ("Write a birthday message for my grandma who turns 90.", "User has a grandma"),
    ("Create a lesson plan for my 5th grade students about fractions.", "User has 5th grade students"),
    ("As the owner of a small coffee shop, how do I attract customers?", "User is the owner of a small coffee shop"),
    ("What should I name my bakery?", "User has a bakery"),
    ("Can you help me with my chemistry homework? What is a mole?", "User has chemistry homework"),
    ("Write a speech for my job as a school principal.", "User has a job as a school principal"),
])
def test_who_the_user_is_said_beside_a_request(text, statement):
    assert statement in _statements(text)


@pytest.mark.parametrize("text", [
    "Write a story about my fellow students.",
    "Can you help me with my next project?",  # no subject: says nothing
    "As the owner of the house, what would you do?",  # addressed to the assistant: no "I" after it
])
def test_no_reading_from_a_bare_or_borrowed_phrase(text):
    assert not [s for s in _statements(text) if "students" in s or "project" in s or "owner" in s]


def test_a_coding_turns_prose_sentence_is_kept_beside_inline_code():
    from dreaming.engine.self_statements import self_statements
    text = "I am building a website for my bakery. Why does `items = get_items(db)[0]; render(items) {x}` fail?"
    found = [c.statement for c in self_statements([Turn(seq=0, role="user", content=text)], kind="coding")]
    assert "User is building a website for their bakery" in found


@pytest.mark.parametrize(("text", "quote"), [
    ("Estoy trabajando en un proyecto para mi universidad, ayúdame a escribir la introducción.",
     "Estoy trabajando en un proyecto para mi universidad"),
    ("Sto scrivendo la mia tesi di laurea, aiutami con l'introduzione.", "Sto scrivendo la mia tesi di laurea"),
    ("Я пишу дипломную работу по экономике, помоги составить план.", "Я пишу дипломную работу по экономике"),
    ("J'ai une petite entreprise de nettoyage, écris une annonce.", "J'ai une petite entreprise de nettoyage"),
    ("Tengo una tienda de ropa, escribe una descripción para Instagram.", "Tengo una tienda de ropa"),
])
def test_what_the_user_works_on_or_runs_before_a_request_in_another_language(text, quote):
    from dreaming.engine.multilingual import language_of, sentence_statement
    assert sentence_statement(text, language=language_of(text)) == (quote, f'User said: "{quote}"')


@pytest.mark.parametrize(("text", "statement"), [
    ("I just started learning python last week. why does this fail?\n```python\nprint(1\n```",
     "User started learning python last week"),
    ("I've been coding for 2 years but I'm new to Rust.\n```rust\nfn main() {}\n```", "User has been coding for 2 years"),
    ("I recently switched from Windows to Linux and my script breaks.\n```bash\nls -la\n```",
     "User recently switched from Windows to Linux"),
    ("我正在学习Java，帮我看看这段代码\n```java\nclass A {}\n```", "用户正在学习Java"),
])
def test_a_coding_session_keeps_what_the_user_has_been_learning_or_just_began(text, statement):
    from dreaming.engine.self_statements import self_statements
    assert statement in [c.statement for c in self_statements([Turn(seq=0, role="user", content=text)], kind="coding")]


def test_a_coding_session_still_drops_the_tasks_state():
    from dreaming.engine.self_statements import self_statements
    text = "I just started the script and I've been trying to fix it.\n```python\nprint(1\n```"
    assert self_statements([Turn(seq=0, role="user", content=text)], kind="coding") == []


@pytest.mark.parametrize(("text", "statement"), [
    ("帮我给我的客户写一封邮件", "用户有客户"),
    ("给我的淘宝店起个名字", "用户有淘宝店"),
    ("我想给我的女朋友写一首诗", "用户有女朋友"),
])
def test_whom_or_what_the_user_has_inside_a_chinese_request(text, statement):
    found = self_disclosures([Turn(seq=0, role="user", content=text)])
    assert statement in [c.statement for c in found] and all(c.quote in text for c in found)


@pytest.mark.parametrize("text", ["写一个故事，主角给我的猫取名", "如果给我的孩子取名，叫什么好"])
def test_a_chinese_story_or_supposition_gives_no_possession(text):
    assert not [s for s in _statements(text) if s.startswith("用户有")]


@pytest.mark.parametrize(("text", "wrong"), [
    ("Last week, my grandma passed away and it's been really hard.", "User has a grandma"),
    ("We're making a difference in our town.", "User is making a difference"),
    ("I'm doing my part too.", "User is doing their part"),
    ("My passion for the project keeps me going.", "User has a passion for the project"),
    ("I sold my old car last year, which one should I buy now?", "User has an old car"),
])
def test_what_is_gone_or_no_piece_of_work_is_not_read(text, wrong):
    assert wrong not in _statements(text)


def test_a_clause_is_cut_before_cause():
    assert "User is starting a dance studio" in _statements("I'm starting a dance studio 'cause I love dancing.")
