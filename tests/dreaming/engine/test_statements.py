"""Round 5: statements that stand on their own (docs/engine.md).

The local engine trims what a statement does not need (a name said to the other side, "btw", "like this", a list
item cut short) and never fills an answer frame with an exclamation; deep sleep's check
(dreaming.memory.scoring.vague_reason → dangling_reason) keeps statements whose only object is a pronoun they never
name out of memory, with a readable reason. Examples are invented.
"""
from datetime import datetime, timedelta, timezone

import pytest
from django.conf import settings

from dreaming.engine.extract import extract_candidates
from dreaming.protocol import Turn
from dreaming.memory.scoring import ScoreInput, score_compute, score_decision, vague_reason
from dreaming.engine.quotes import quote_in_text

AT = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


def _extract(*pairs: tuple[str, str]):
    turns = [Turn(seq=i, role=role, content=text, created_at=AT) for i, (role, text) in enumerate(pairs)]
    return turns, extract_candidates(turns)


def _statements(found) -> list[str]:
    return [c.statement for c in found]


def _assert_quotes_verbatim(turns, found):
    for c in found:
        assert quote_in_text(quote=c.quote, text=turns[c.seq].content), c.quote
        assert c.quote in turns[c.seq].content  # not only after normalisation: the user's exact words


def test_a_name_said_to_the_other_side_is_trimmed_from_the_statement_but_not_from_the_quote():
    turns, found = _extract(("assistant", "How has your week been?"),
                            ("user", "I've had a rough month with my bakery, Priya. The oven broke twice."))
    assert "User has had a rough month with their bakery" in _statements(found)
    assert not any("Priya" in s for s in _statements(found))
    quote = next(c.quote for c in found if "bakery" in c.statement)
    assert quote.endswith("Priya")  # the quote stays what the user said
    _assert_quotes_verbatim(turns, found)


def test_a_trailing_btw_is_trimmed():
    turns, found = _extract(("user", "I made a short film about my grandfather's farm, btw."))
    assert _statements(found) == ["User made a short film about their grandfather's farm"]
    _assert_quotes_verbatim(turns, found)


def test_a_name_that_belongs_to_the_users_pet_or_a_place_is_not_taken_for_an_address():
    from dreaming.engine.resolve import trim_tail_en

    assert trim_tail_en("User has a dog, Max") == "User has a dog, Max"
    assert trim_tail_en("User lives in Austin, Texas") == "User lives in Austin, Texas"


def test_an_exclamation_never_fills_an_answer_frame():
    turns, found = _extract(("assistant", "How many cats do you have?"), ("user", "Yay, Omar! That's so sweet of you."))
    assert not any(s.startswith("User has Yay") for s in _statements(found))
    turns, found = _extract(("assistant", "Do you have any plans for the weekend?"),
                            ("user", "Have fun with that! I'm repainting my garage."))
    assert _statements(found) == ["User is repainting their garage"]
    _assert_quotes_verbatim(turns, found)


def test_a_list_cut_before_its_and_is_joined_again():
    turns, found = _extract(("user", "We love skating, swimming, and going to the zoo."))
    assert _statements(found) == ["User loves skating and swimming"]
    _assert_quotes_verbatim(turns, found)
    turns, found = _extract(("user", "We usually watch films, hike, and cook together."))
    assert _statements(found) == ["User watches films and hikes"]
    _assert_quotes_verbatim(turns, found)
    # a list said without "and" is not a cut list
    from dreaming.engine.resolve import trim_tail_en

    assert trim_tail_en("User loves cuisines like thai, greek, korean") == "User loves cuisines like thai, greek, korean"
    assert trim_tail_en("User is fine, thanks") == "User is fine, thanks"


def test_a_second_verb_agrees_with_the_user_but_not_under_an_infinitive():
    from dreaming.engine.third_person import to_third_person_en

    assert to_third_person_en("I stay upbeat and find a way") == "User stays upbeat and finds a way"
    assert to_third_person_en("I try to stay calm and find a way forward") == "User tries to stay calm and find a way forward"
    assert to_third_person_en("I can open a second shop and keep my prices low") == (
        "User can open a second shop and keep their prices low")


@pytest.mark.parametrize("statement", [
    "User has put so much love into it",
    "User wants their nephews to understand that",
    "User couldn't have finished it without them",
    "User started knitting another one",
    "User chose to paint about this",
    "User had a tiny wooden horse like this",
    "User is so proud of it, Dev",
    "User has Yay, Omar",
    "User has Have fun with that",
    "User practices scales, arpeggio",
    "User did it on 3 March 2026",
    "User can't believe they earned so much from it",  # what the money came from is the point: vague
    "用户很喜欢这个",
    "用户觉得那个很有意思",
    "用户一直很想念他们",
])
def test_a_statement_whose_object_is_an_unnamed_pronoun_or_an_exclamation_does_not_stand_on_its_own(statement):
    assert vague_reason(statement)


@pytest.mark.parametrize("statement", [
    "User has a dog named Milo",
    "User's daughter Emma turns 5 in May",
    "用户的女儿叫小雨",
    "User's son turned one",
    "User has a supportive circle of friends around them",  # "around them" = around the user
    "User volunteers with people who inspire them",  # another subject: "them" is the user
    "User mailed their short story to a magazine to see if editors would like it",  # "it" = the story
    "User adores oat milk and wants to find a way to froth it",
    "User makes it with buckwheat flour, honey and blueberries",  # the object is unnamed, the recipe is not
    "User and their twins built another birdhouse like their first one",
    "User has a dog, Max",
    "User loves Studio Ghibli films, they always calm them down",
    "用户养了一只猫，很喜欢它",
])
def test_a_statement_that_names_what_its_pronoun_stands_for_is_kept(statement):
    assert vague_reason(statement) is None


def test_a_dangling_statement_is_dismissed_with_a_readable_reason_however_often_it_is_said():
    item = ScoreInput(statement="User has put so much love into it", category="fact", importance=0.9,
                      user_initiated=True, distinct_sessions=3, last_said_at=AT - timedelta(hours=1))
    total, breakdown = score_compute(item=item, now=AT)
    assert breakdown["vague"] == "depends on 'it', which it does not name"
    assert total < settings.DREAM_PENDING_THRESHOLD
    assert score_decision(total) == "dismiss"


def test_a_statement_with_a_named_thing_is_still_promoted():
    item = ScoreInput(statement="User has a dog named Milo", category="relation", importance=0.7,
                      user_initiated=True, distinct_sessions=1, last_said_at=AT - timedelta(hours=1))
    total, breakdown = score_compute(item=item, now=AT)
    assert "vague" not in breakdown
    assert score_decision(total) == "promote"


def test_the_engine_keeps_what_must_stay():
    turns, found = _extract(("user", "I have a dog named Milo."), ("user", "My daughter Emma turns 5 in May."),
                            ("user", "我的女儿叫小雨。"))
    assert _statements(found) == ["User has a dog named Milo", "User's daughter Emma turns 5 in May", "用户的女儿叫小雨"]
    _assert_quotes_verbatim(turns, found)


def test_them_after_the_users_own_they_is_the_group_the_user_just_named():
    turns, found = _extract(("user", "Family means everything to me. Since the move I've realised how much I miss them."))
    assert "User has realised how much they miss their family" in _statements(found)
    assert vague_reason("User has realised how much they miss their family") is None
    assert vague_reason("User has realised how much they miss them")  # without the group: about nobody
    _assert_quotes_verbatim(turns, found)


def test_a_dangling_chinese_statement_is_not_promoted_but_a_resolved_one_is():
    turns, found = _extract(("user", "我很喜欢这个。"))
    assert _statements(found) == ["用户很喜欢这个"]  # the engine keeps the candidate; deep sleep dismisses it
    assert vague_reason(found[0].statement) == "depends on '这个', which it does not name"
    assert vague_reason("用户很喜欢这个周末的音乐节") is None  # 这个 + a noun names the thing


@pytest.mark.django_db
def test_a_night_keeps_what_stands_on_its_own_and_dismisses_the_rest_with_a_reason(user):
    from dreaming.models import Candidate, Memory
    from tests.support.night import chat, dream

    chat(user, AT, ("assistant", "What have you been up to?"),
         "I've been restoring an old sailboat all summer, Priya! I have put so much love into it. "
         "I have a dog named Milo.")
    dream(user, AT)
    active = set(Memory.objects.filter(user=user, status=Memory.Status.ACTIVE).values_list("statement", flat=True))
    assert "User has a dog named Milo" in active
    assert not any("Priya" in s for s in active)  # the name said to the other side is not part of any memory
    assert not any(s.endswith(" it") for s in active)
    dangling = Candidate.objects.get(user=user, statement="User has put so much love into it")
    assert dangling.status == Candidate.Status.DISMISSED and dangling.memory is None
    assert dangling.score_breakdown["vague"] == "depends on 'it', which it does not name"
    assert "depends on 'it'" in dangling.reason
    assert dangling.quote == "I have put so much love into it"  # verbatim
    sailboat = Candidate.objects.get(user=user, statement__contains="sailboat")
    assert "Priya" not in sailboat.statement and sailboat.quote.endswith("Priya")


@pytest.mark.parametrize("said,statement", [
    ("Yes I love taking them to the beach even though fall is my favorite season.", "User loves taking them to the beach"),
    ("I live by the beach so", "User lives by the beach"),
    ("I have been to spain and", "User has been to spain"),
])
def test_a_clause_cut_before_its_last_word_does_not_end_on_it(said, statement):
    found = [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=said)])]
    assert statement in found


def _said(text: str) -> list[str]:
    return [c.statement for c in extract_candidates([Turn(seq=0, role="user", content=text)], limit=100)]


def test_especially_with_a_circumstance_is_not_a_second_liking():
    statements = _said("I like band shirts, especially with ruffled sleeves.")
    assert "User likes band shirts" in statements
    assert not any("likes with" in s for s in statements)
    assert "User loves basketball" in _said("I love sports, especially basketball.")


def test_a_good_cause_keeps_its_noun():
    assert "User participated in a community event to raise money for a good cause" in _said(
        "Last weekend, I participated in a community event to raise money for a good cause.")


@pytest.mark.parametrize("text", ["Like I said, it was a fun night.", "Love you guys!"])
def test_like_i_said_and_love_you_are_no_liking_of_the_users(text):
    assert not [s for s in _said(text) if s.startswith(("User likes", "User loves"))]


def test_a_sentence_a_knowing_or_seeing_opens_is_about_the_knowing_not_a_clause_of_the_users():
    assert not [s for s in _said("It's been tough but knowing I can make a difference keeps me motivated.")
                if "keeps them" in s]  # was "User can make a difference keeps them motivated"
    assert "User loves running" in _said("I love running, and I can do it every day.")


def test_a_clause_run_on_with_chat_spelling_im_is_its_own():
    statements = _said("my name is john im a teacher")
    assert "User is a teacher" in statements
    assert not any("john User" in s for s in statements)  # was "User's name is john User is a teacher"
