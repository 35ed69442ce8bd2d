"""Words in a user's turn that are not the user talking about themself — a script's lines, a pasted transcript, a
title, an assistant's self-description, talk about the chat — are never candidates, while the user's own
statement beside them still is. Found in a sample of what the product remembered from WildChat; the examples
here are written afresh."""
from datetime import datetime, timezone

import pytest

from dreaming.engine.extract import extract_candidates
from dreaming.engine.others_words import not_the_user
from dreaming.engine.self_disclosure import self_disclosures
from dreaming.protocol import Turn

SAID = datetime(2026, 1, 10, 9, 0, tzinfo=timezone.utc)


def _statements(text: str) -> list[str]:
    return [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=text, created_at=SAID)])]


@pytest.mark.parametrize("text", [
    "Continue the scene.\nMira: I have a brother named Theo and I hate the sea.\nJonas: I know.",  # a script
    "0:01\nwelcome back everyone\n0:04\nI started baking bread at home\n0:09\nand today we make rye",  # transcript
    "(Verse 1)\nRain on the roof, I'm lost in the sound\nStreetlights hum and I hold my ground",  # a song
    "\n".join(["Grey waves roll in from the silent bay", "I walk the shore where the gulls still play",
               "My coat is thin in the morning cold", "The harbour sleeps and the boats grow old"] * 2),  # a poem
    "The hero from the My Little Kingdom series, his brother would visit the castle",  # a title, not "my"
    "I Spent A Week Living Like A Medieval Monk",  # a video title
    "I am an AI language model trained to answer questions. I can assist with tasks such as writing.",  # pasted AI
    "I have a problem",  # the chat itself
    "My first request is to plan a party for ten people.",
    "I will choose the third option",
    "The rain kept on.\n\n“I’m trying to open a bakery before winter.”, said Tomas.\n\n“I’m hooked.”, asked Ines.",
    'Mara said, "I have two brothers and I hate the sea."',  # a story's dialogue, its speaker named
    "Knights x Dragons: Ser Alba meets Ember. Ember: you look tired. Alba: I have a husband named Rolf. Ember: sure.",
    "On the beach I meant, not in the city.",  # putting right what they said before
])
def test_words_that_are_not_the_user_become_no_candidate(text):
    assert _statements(text) == []


def test_the_users_own_statement_beside_a_script_line_is_kept():
    statements = _statements("I'm a drama teacher in Bristol. Here is our scene:\nMira: I have a brother named Theo.")
    assert any("drama teacher" in s for s in statements), statements
    assert not any("Theo" in s for s in statements), statements


@pytest.mark.parametrize("text", [
    "Update: I moved to Lisbon last spring.",  # a label the user puts on their own words
    "PS: I have two cats.",
    "About me:\nI live in Oslo.\nI work as a nurse.\nI have two cats.\nI love skiing.\nI cook a lot.\n"
    "I read every night.\nI play chess on Sundays.\nI grew up in Bergen.",  # prose lines end in a full stop
    'My friend said "you should try climbing" and I joined a climbing gym.',  # the quotation is closed before
    "I have a problem with my landlord, he never fixes the heating.",  # a problem in the user's life
    "What I love most is baking sourdough on Sundays.",  # not a question
    "When I was a kid I lived in Lagos.",
    "Write a poem for my wife. I have been married to her for ten years.",  # a poem for someone, no "where I"
    'I told her, "I am a vegan now", and she laughed.',  # the user quoting themself
    "Context: I am a nurse. Question: which shoes keep my feet dry?",  # the user's own labels, not speakers
])
def test_the_users_own_words_are_still_read(text):
    assert _statements(text), text


def test_a_verb_after_a_possessive_subject_is_not_the_users():
    statements = _statements("My expertise in backlinks can lift rankings and drive organic traffic.")
    assert not any("drives organic traffic" in s for s in statements), statements


def test_love_as_a_noun_opening_a_sentence_is_not_a_dropped_i():
    assert _statements("Love had won in the end, breaking every curse.") == []
    assert "User loves hiking" in " ".join(_statements("Love hiking on weekends."))


def test_not_just_with_a_typographic_apostrophe_keeps_its_meaning():
    assert _statements("I don’t just use periods or commas") == ["User doesn't only use periods or commas"]


def test_a_quote_missing_from_the_text_is_not_judged():
    assert not_the_user("Naruto: hi", "I live in Oslo") is False


def test_a_quotation_the_user_puts_in_their_own_message_stays_theirs():
    text = "Add this to my thank-you note: “I have taught piano to children for ten years”"
    assert not not_the_user(text, "I have taught piano to children for ten years")


@pytest.mark.parametrize("text", [
    "Write the next scene.\nKaito: I'm a swordsman from the northern hills, help me find my sister.",
    "I Work As A Lighthouse Keeper: A Short Documentary",
])
def test_a_disclosure_inside_a_request_follows_the_same_rule(text):
    turns = [Turn(seq=0, role="user", content=text, created_at=SAID)]
    assert [c.statement for c in self_disclosures(turns)] == []



def test_a_long_pasted_turn_gives_a_few_candidates_not_one_per_sentence():
    from dreaming.engine.selection import FROM_A_LONG_TURN, LONG_TURN_CHARS, few_from_long_turns
    from dreaming.protocol import ExtractedCandidate

    turns = [Turn(seq=0, role="user", content="x" * (LONG_TURN_CHARS + 1), created_at=SAID),
             Turn(seq=1, role="user", content="I have a cat named Pixel and I live in Porto.", created_at=SAID)]
    letter = [ExtractedCandidate(quote=f"I did thing {n}", statement=f"User did thing {n}", category="fact",
                                 importance=0.3 + n / 100, seq=0) for n in range(8)]
    talk = [ExtractedCandidate(quote=f"I said {n}", statement=f"User said {n}", category="fact", importance=0.3, seq=1)
            for n in range(5)]
    kept = few_from_long_turns(letter + talk, turns)
    assert [c.statement for c in kept if c.seq == 0] == ["User did thing 7"]  # the most important only
    assert [c for c in kept if c.seq == 1] == talk  # a turn of talk keeps all it says
    # What says who the user is comes first, up to FROM_A_LONG_TURN, and one of the rest beside it.
    who = few_from_long_turns(letter + talk, turns, says_who=lambda quote: quote in ("I did thing 1", "I did thing 2"))
    assert [c.statement for c in who if c.seq == 0] == [f"User did thing {n}" for n in (1, 2, 7)][:FROM_A_LONG_TURN]


def test_a_pasted_cover_letter_gives_who_the_user_is_not_its_praise():
    from dreaming.engine.selection import few_from_long_turns
    from dreaming.engine.self_statements import says_who

    praise = ("I am committed to staying ahead of industry trends, ensuring that my skills remain cutting-edge. "
              "My unique combination of skills makes me an ideal candidate for this role. "
              "I am eager to deepen my knowledge to achieve my career goals. ")
    letter = ("Dear hiring manager,\n\nI am a marketing graduate from the University of Leeds and I work as a junior "
              "analyst at a travel agency. " + praise * 6 + "\n\nSincerely,\nDana")
    turns = [Turn(seq=0, role="user", content="Improve my cover letter:\n" + letter, created_at=SAID)]
    said = " ".join(c.statement for c in few_from_long_turns(extract_candidates(turns), turns, says_who=says_who))
    assert "marketing graduate" in said and "junior analyst" in said, said
    assert sum(w in said for w in ("committed", "ideal candidate", "eager", "cutting-edge")) <= 1, said


def test_the_assistants_sentence_pasted_back_is_not_the_user():
    pasted = "Dans cet exposé, nous examinerons leurs apports et leur influence sur la criminologie."
    turns = [Turn(seq=0, role="assistant", content=f"Introduction : La criminologie est une discipline. {pasted}"),
             Turn(seq=1, role="user", content=f"La criminologie est une discipline. {pasted} Je suis étudiante en droit.")]
    found = [c.quote for c in extract_candidates(turns)]
    assert not any("examinerons" in q for q in found)
    assert any("étudiante" in q for q in found)  # the user's own sentence beside it still is


@pytest.mark.parametrize("text", [
    "I have a dataframe with 3 columns, how do I merge it with another one?",
    "i have a list of integers and i want them sorted without numpy",
    "我有一组0到0.8的数据，我希望把0-0.4的数据映射到0到-500去，用python实现",
])
def test_the_tasks_material_is_not_something_the_user_has(text):
    assert not [s for s in _statements(text) if s.startswith(("User has", "用户有"))]


@pytest.mark.parametrize("text, statement", [
    ("I have a class tonight at 7.", "User has a class tonight at 7"),
    ("I have a dog named Rex.", "User has a dog named Rex"),
])
def test_what_the_user_has_in_life_still_is(text, statement):
    assert statement in _statements(text)


def test_what_a_letters_skills_do_is_rhetoric():
    assert not _statements("My optimization skills improve user experience and establish credibility.")
