"""Small talk told as if it were a fact (dreaming/engine/small_talk.py), and the last touches of wording
(dreaming/engine/wording.py): how things go with nothing named, someone only pointed at, an offer or a cheer said
to the other side; "does have", "finally", a leading "even". Each shape has statements that
must still stand next to it. The sentences are invented."""
import pytest

from dreaming.engine.vagueness import vague_reason
from dreaming.engine.wording import tidy_en
from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


@pytest.mark.parametrize("statement", [
    "User has been doing great lately",
    "User has been doing well, thanks",
    "User didn't do too great",
    "User is feeling much better now",
    "User has been real busy",
    "User has been having some rough times lately",
    "User got some exciting news to share",
    "User had a good laugh",
    "User has been decompressing",
    "User has been taking it easy this week",
])
def test_how_things_go_with_nothing_named_is_vague(statement):
    assert "says how things go" in (vague_reason(statement) or "")


@pytest.mark.parametrize("statement", [
    "User loves to help",
    "User is always happy to help out",
    "User won't let anything get them down",
    "User is not gonna let anything or anyone stop them",
    "User couldn't agree more",
    "User totally can't agree with you more",
])
def test_an_offer_or_a_cheer_said_to_the_other_side_is_vague(statement):
    assert "said to someone" in (vague_reason(statement) or "")


@pytest.mark.parametrize("statement", [
    "User is gonna keep chasing after those dreams",
    "User is going to keep working hard on it and see what happens",
])
def test_a_resolve_to_keep_at_it_with_nothing_named_is_vague(statement):
    assert "is a resolve" in (vague_reason(statement) or "")


@pytest.mark.parametrize("statement, pointer", [
    ("User will love that little guy forever", "that little guy"),
    ("User keeps a few of these little ones on their desk", "these little ones"),
    ("User has been meaning to read this one for months", "this one"),
    ("User is already attached to those cuties", "those cuties"),
])
def test_someone_only_pointed_at_is_vague(statement, pointer):
    assert f"'{pointer}'" in (vague_reason(statement) or "")


@pytest.mark.parametrize("statement, pointer", [
    ("User hasn't watched it yet", "it"),
    ("User hasn't met them either", "them"),
    ("User still has that photo from", "from"),
    ("User is nervous about", "about"),
])
def test_a_pronoun_before_yet_or_a_preposition_left_at_the_end_is_vague(statement, pointer):
    assert f"'{pointer}'" in (vague_reason(statement) or "")


@pytest.mark.parametrize("statement", [
    "User's bakery is doing great",
    "User is doing well in their chemistry class",
    "User is busy with night classes at the community college",
    "User had a blast at the Lisbon jazz festival",
    "User has been relaxing at the lake house in Vermont",
    "User loves to help kids learn to read",
    "User will keep working at the bakery on weekends",
    "User adopted this little guy named Biscuit",
    "User is not very good at skating",
    "User is passionate about woodworking",
    "User found a job they're passionate about",
    "User has a shelf of records to pick from",
    "User knows where their grandparents came from",
])
def test_what_names_its_thing_still_stands(statement):
    assert vague_reason(statement) is None


@pytest.mark.parametrize("statement, tidied", [
    ("User does have three cats", "User has three cats"),
    ("User does like spicy food", "User likes spicy food"),
    ("User's sister does teach piano", "User's sister teaches piano"),
    ("User did play the cello in school", "User played the cello in school"),
    ("User did see the Alps once", "User saw the Alps once"),
    ("User finally turned 30", "User turned 30"),
    ("User is finally learning to drive", "User is learning to drive"),
    ("User saved for years and finally bought a kayak", "User saved for years and bought a kayak"),
    ("User even built a treehouse", "User built a treehouse"),
    ("User is so proud of their garden", "User is proud of their garden"),
    ("User is super shy", "User is shy"),
    ("User has Three goats", "User has three goats"),
    ("User retired now", "User is retired now"),
    ("User took this pic at Lake Tahoe", "User took a pic at Lake Tahoe"),
    ("User baked this amazing lemon pie for their mom", "User baked an amazing lemon pie for their mom"),
    # "do" as the verb of its own, "even" that is part of what is said: kept
    ("User does volunteer work at a hospice", "User does volunteer work at a hospice"),
    ("User does not like olives", "User does not like olives"),
    ("User is even more careful now", "User is even more careful now"),
    ("User is so tired they could sleep all day", "User is so tired they could sleep all day"),
    ("User loves this book", "User loves this book"),
])
def test_emphasis_and_leaning_adverbs_are_worded_away(statement, tidied):
    assert tidy_en(statement) == tidied


def test_an_emphatic_do_in_a_turn_becomes_the_plain_verb():
    turns = [Turn(seq=0, role="assistant", content="Do you have any pets?"),
             Turn(seq=1, role="user", content="I don't have a cat, but I do have two parrots.")]
    statements = {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}
    assert "User has two parrots" in statements
    assert not any("does have" in s for s in statements)


def test_the_me_of_me_time_is_not_rewritten():
    from dreaming.engine.third_person import to_third_person_en

    assert "\"me-time\" walks" in to_third_person_en('I take "me-time" walks at the park')
    assert to_third_person_en("My sister called me yesterday").endswith("called them yesterday")


def test_a_leading_me_before_i_is_dropped():
    from dreaming.engine.third_person import to_third_person_en

    assert to_third_person_en("Me, I was a sailor for ten years") == "User was a sailor for ten years"
