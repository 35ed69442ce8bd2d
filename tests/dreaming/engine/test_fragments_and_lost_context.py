"""What is left of a sentence when the user's clause is only part of it: an "I" that opens a relative clause ("The
poem I wrote has been …"), a clause of place ("Where I grew up, …"). The sentences are invented."""
import pytest

from dreaming.protocol import CallContext, Turn
from dreaming.providers.local import LocalDreamer


def _statements(text: str, *, asked: str = "How have you been?") -> set[str]:
    turns = [Turn(seq=0, role="assistant", content=asked), Turn(seq=1, role="user", content=text)]
    return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}


@pytest.mark.parametrize("text, cut", [
    ("The poem I entered in the county contest has been on my mind all week.", "User entered in the county contest"),
    ("The quilt I started in spring does not look like much yet.", "User started in spring does not"),
    ("I mean where I grew up squirrels do not come near houses.", "User grew up squirrels"),
    ("Honestly, where I live the buses don't run after ten.", "User lives the buses"),
])
def test_an_i_inside_a_noun_phrase_or_a_clause_of_place_is_not_read_as_the_sentence(text, cut):
    assert not any(s.startswith(cut) for s in _statements(text))


@pytest.mark.parametrize("text, kept", [
    ("Yes it stinks losing I also enjoy lawn bowling", "User enjoys lawn bowling"),
    ("On top of that I just bought a new van", "User bought a new van"),
    ("I volunteer at the shelter where I adopted my dog.", "User volunteers at the shelter where they adopted their dog"),
])
def test_a_late_i_that_is_the_sentence_still_stands(text, kept):
    assert kept in _statements(text)


@pytest.mark.parametrize("text, read_as_doing", [
    ("Opening my own bakery and working every night is both scary and rewarding.", "User is opening"),
    ("Building trust with my clients and growing the brand is something I work on daily.", "User is building"),
])
def test_a_long_gerund_subject_is_not_read_as_what_the_user_is_doing(text, read_as_doing):
    assert not any(s.startswith(read_as_doing) for s in _statements(text))


@pytest.mark.parametrize("text, kept", [
    ("I wear a hat, I don't know why.", "User wears a hat"),
    ("Ya I don't like to eat raw oysters.", "User doesn't like to eat raw oysters"),
    ("Researching adoption agencies for my sister.", "User is researching adoption agencies for their sister"),
])
def test_a_late_i_with_its_own_negation_still_stands(text, kept):
    assert kept in _statements(text)


@pytest.mark.parametrize("statement", [
    "User finds it really rewarding and emotional",
    "User loves how peaceful it is",
    "User likes to hear",
    "User's favorite season",
    "User loves and doing crafts with their kids",
])
def test_a_feeling_about_a_thing_never_named_is_vague(statement):
    from dreaming.engine.vagueness import vague_reason

    assert vague_reason(statement)


@pytest.mark.parametrize("statement", [
    "User finds it hard to sleep at night",
    "User finds pottery relaxing",
    "User loves how their dog greets them",
    "User likes to hear live jazz",
    "User loves to read",
    "User's favorite season is winter",
    "User loves and cares for their kids",
])
def test_a_feeling_about_a_named_thing_stands(statement):
    from dreaming.engine.vagueness import vague_reason

    assert vague_reason(statement) is None


@pytest.mark.parametrize("statement, tidied", [
    ("User goes to the lake together during their vacations", "User goes to the lake during their vacations"),
    ("User had great ideas, brainstormed together", "User had great ideas, brainstormed"),
    # someone to be together with is still there
    ("User and their dad built a shed together last summer", "User and their dad built a shed together last summer"),
    ("User lives together with their partner", "User lives together with their partner"),
    ("User put together a photo album", "User put together a photo album"),
])
def test_a_together_left_from_a_we_without_the_others_is_dropped(statement, tidied):
    from dreaming.engine.wording import tidy_en

    assert tidy_en(statement) == tidied


def test_a_we_that_only_tells_ideas_were_had_is_not_remembered():
    from dreaming.engine.vagueness import vague_reason

    assert vague_reason("User had great ideas, brainstormed")
    assert vague_reason("User had great ideas and brainstormed")
    assert vague_reason("User made some great memories")
    assert vague_reason("User had great ideas for their bakery") is None
    assert vague_reason("User made great memories with their grandpa at the lake") is None
    assert "User hikes with their sister on weekends" in _statements("I hike with my sister on weekends.")


@pytest.mark.parametrize("statement", [
    "User has been weighing their options",
    "User hasn't been able to pick up anything else",
    "User is not doing anything then",
    "User's hard work is finally paying off",
    "User will make their dreams come true one day",
    "User loves the color and texture",
    "User adores the view",
    "User only joined",
    "User kayaked and fished",
    "User is working on a new project",
    "User has some cool ideas",
    "User is gonna keep grinding and moving ahead",
    "User is staying positive and pushing forward",
    "User is determined to make a difference",
    "User had a blast at theirs",
    "User has been into making this lately",
])
def test_what_leans_on_the_talk_before_is_vague(statement):
    from dreaming.engine.vagueness import vague_reason

    assert vague_reason(statement)


@pytest.mark.parametrize("statement", [
    "User has two options for college: Yale and Ohio State",
    "User's work at the bakery is paying off",
    "User wants to make their dreams of owning a farm come true",
    "User eats anything else but rice",
    "User is weighing options for a vet school in Texas",
    "User wants to learn about their career options",
    "User loves the taste of coffee",
    "User loves the view from their balcony",
    "User only joined the gym in May",
    "User kayaks and fishes",
    "User kayaked and fished on Lake Erie",
    "User is working on a new project about bees",
    "User had an idea for a bakery",
    "User is determined to make a difference in their town by running for mayor",
    "User is staying positive about their knee surgery",
    "User likes their car better than yours",
    "User has been into making kombucha lately",
])
def test_what_names_its_options_or_its_work_stands(statement):
    from dreaming.engine.vagueness import vague_reason

    assert vague_reason(statement) is None


@pytest.mark.parametrize("first, third", [
    ("I much prefer working with the rabbit rescue", "User much prefers working with the rabbit rescue"),
    ("I pretty much live at the pool", "User pretty much lives at the pool"),
    ("I very much enjoy reading", "User very much enjoys reading"),
    ("I kind of miss Ohio", "User kind of misses Ohio"),
    ("I rather enjoy gardening", "User rather enjoys gardening"),
    ("I first saw it in 2019", "User first saw it in 2019"),
    ("I both love and hate winter", "User both loves and hates winter"),
])
def test_an_adverb_before_the_verb_is_not_conjugated(first, third):
    from dreaming.engine.third_person import to_third_person_en

    assert to_third_person_en(first) == third



@pytest.mark.parametrize("text, not_done", [
    ("I really want to finish nursing school and go to med school", "User goes to med school"),
    ("I hope to save up and buy a sailboat", "User buys a sailboat"),
])
def test_a_verb_after_a_wished_infinitive_is_wished_not_done(text, not_done):
    assert not_done not in _statements(text)


def test_a_verb_after_a_done_one_is_done():
    assert "User went to trade school" in _statements("I finished high school and went to trade school")


def test_a_time_before_the_i_is_when_not_what():
    found = _statements("This summer I won first prize at the county fair.")
    assert not any(s.startswith("User won a summer") for s in found)
    assert "User bought figurines" in " ".join(_statements("These figurines I bought remind me of home."))
