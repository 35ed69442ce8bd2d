"""Round 4 of the local engine: more of what the user says about themself becomes a candidate.

Times said before a plan, subordinate openings ("After finishing my thesis I got…"), a dropped "I" after a dash,
showing something of one's own ("Here's a pic of my garden"), favourites and hobbies said with the thing first,
"it" for the thing just described, "My cousin and I…", "them" for the user's one group, "Her name is…" after the
pet was mentioned, "How often…?" answers, and the scoring of habits told in the present simple. English and
Chinese; every quote is checked to be a verbatim substring of the user's message, and what must not be
extracted (questions, hypotheticals, requests, the other side's things, wishes) is checked too."""
from datetime import datetime, timezone as dt_timezone

import pytest

from dreaming.engine.dreamer import LocalDreamer
from dreaming.engine.english import category_en
from dreaming.models import Candidate, Memory
from dreaming.providers.base import CallContext, Turn
from dreaming.scoring import stability
from tests.night import chat, dream

UTC = dt_timezone.utc
SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def _statements(*turns: str | tuple[str, str], at: datetime | None = SAID) -> dict[str, str]:
    """{statement: quote} for a conversation (plain strings are the user's, ("assistant", text) the other side's);
    every quote must be a verbatim substring of the user message it cites."""
    built = []
    for seq, turn in enumerate(turns):
        role, text = turn if isinstance(turn, tuple) else ("user", turn)
        built.append(Turn(seq=seq, role=role, content=text, created_at=at))
    found = LocalDreamer().extract(turns=built, ctx=CallContext())
    by_seq = {t.seq: t for t in built}
    for candidate in found:
        cited = by_seq[candidate.seq]
        assert cited.role == "user"
        assert candidate.quote in cited.content, (candidate.quote, cited.content)
    return {c.statement: c.quote for c in found}


# --- when: a plan's time said first ------------------------------------------------------------------


def test_a_plans_time_said_before_the_i_stays_in_the_statement():
    found = _statements("Yay! Next month I'm hosting a book swap at the library.")
    assert found["User is hosting a book swap at the library next month"] == "I'm hosting a book swap at the library"
    comma = _statements("Tomorrow, I'm flying to Lisbon for my cousin's wedding.")
    assert "User is flying to Lisbon for their cousin's wedding tomorrow" in comma
    # without a message time the plan still keeps its word (it is not a date to work out)
    assert "User is hosting a book swap next weekend" in _statements("Next weekend I'm hosting a book swap.", at=None)


def test_chinese_plans_keep_their_time_word():
    assert "下个月用户要去成都出差" in _statements("下个月我要去成都出差。")


# --- subordinate openings ------------------------------------------------------------------------------


def test_the_main_clause_after_a_subordinate_opening_is_read():
    found = _statements("After finishing my thesis I got a job offer from a startup.")
    assert found["User got a job offer from a startup"] == "I got a job offer from a startup"
    assert not any("their thesis" in s for s in found)  # "my thesis I got" is not a relative clause


def test_a_first_person_deed_in_the_subordinate_part_is_news_too():
    found = _statements("Especially after I sold my bike last month, I've been walking everywhere.")
    assert found["User sold their bike in April 2023"] == "I sold my bike last month"
    assert "User has been walking everywhere" in found


def test_childhood_openings_say_when_the_main_clause_was_true():
    found = _statements("When I was little, we lived on a farm in Iowa.")
    statement = "User's household lived on a farm in Iowa when they were little"
    assert found[statement] == "we lived on a farm in Iowa"


def test_chinese_main_clause_after_a_time_clause():
    assert "用户收到了一家公司的offer" in _statements("写完论文之后，我收到了一家公司的offer。")


# --- a dropped "I" ----------------------------------------------------------------------------------------


def test_a_dropped_i_after_a_dash_starts_a_new_clause():
    found = _statements("Crazy week - had a job interview at a bank yesterday.")
    assert found["User had a job interview at a bank on 7 May 2023"] == "had a job interview at a bank yesterday"


def test_busy_with_an_activity_is_an_activity_and_the_quote_keeps_its_capital():
    found = _statements("Hey! Been super busy renovating the attic. Trying to get it done before winter.")
    assert found["User has been super busy renovating the attic"] == "Been super busy renovating the attic"
    assert all(quote[:1] != "b" for quote in found.values())


def test_a_good_time_said_without_i_is_not_news():
    assert _statements("Had a great time at the party!") == {}


# --- showing something of one's own --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, statement, quote",
    [
        ("Here's a pic of my vegetable garden!", "User has a vegetable garden", "Here's a pic of my vegetable garden"),
        ("Here ya go, a photo of my cork board.", "User has a cork board", "a photo of my cork board"),
        ("Here's one of my medals from the city marathon.", "User has medals from the city marathon",
         "Here's one of my medals from the city marathon"),
        ("Check out my new kayak, isn't it great", "User has a new kayak", "Check out my new kayak"),
    ],
)
def test_showing_something_of_ones_own_says_the_user_has_it(text, statement, quote):
    assert _statements(text)[statement] == quote


@pytest.mark.parametrize(
    "text",
    [
        "Check out my ideal kitchen.",  # wished for
        "Here's my favorite.",  # names nothing
        "Can you look at my essay?",  # a request, a question
        "Here's a pic of your dog!",  # the other side's
        "If I win, here's my trophy shelf.",  # a hypothetical
    ],
)
def test_showing_what_is_not_the_users_or_not_a_thing_gives_nothing(text):
    assert not any(s.startswith("User has") for s in _statements(text))


def test_chinese_showing_something_of_ones_own():
    assert _statements("给你看看我的多肉植物，可爱吧！") == {"用户有多肉植物": "给你看看我的多肉植物"}
    assert _statements("这是我织的围巾。") == {"用户织了围巾": "这是我织的围巾"}
    assert _statements("这是我的错。") == {}


# --- favourites, hobbies, what matters -----------------------------------------------------------------


def test_one_of_my_favourites_and_main_hobbies_said_with_the_thing_first():
    assert _statements("This album is one of my faves.") == {
        "The album is one of User's favorites": "This album is one of my faves"}
    assert "User's main hobbies are hiking and birdwatching" in _statements(
        "Hiking and birdwatching are my main hobbies.")
    assert "This is my favorite." not in _statements("This is my favorite.").values()


def test_chinese_favourites_and_hobbies_said_with_the_thing_first():
    assert "《夜曲》是用户最喜欢的歌之一" in _statements("《夜曲》是我最喜欢的歌之一。")
    assert "钓鱼是用户的爱好" in _statements("钓鱼是我的爱好。")
    assert _statements("你是我最喜欢的人之一。") == {}  # about the other side


def test_it_for_the_thing_just_described_and_what_it_has_allowed():
    found = _statements("Swing dancing is so joyful - it really speaks to me.")
    assert found["Swing dancing really speaks to User"] == "Swing dancing is so joyful - it really speaks to me"
    assert "Pottery has allowed User to slow down" in _statements("Pottery has allowed me to slow down.")
    assert "User loves sailing" in _statements("That trip renewed my love of sailing.")


def test_the_other_sides_things_and_unnamed_its_are_not_what_matters_to_the_user():
    assert _statements("Your advice has helped me to relax.") == {}
    assert _statements("It has helped me a lot.") == {}
    assert _statements("Do you share my love of jazz?") == {}
    assert _statements("Your idea is great, it helps me a lot.") == {}


def test_what_the_user_makes_as_a_rule():
    assert _statements("Everyone at work loves the cookies I bake.") == {"User bakes cookies": "the cookies I bake"}


# --- people and pets -------------------------------------------------------------------------------------


def test_doing_something_with_a_relative_keeps_the_relative():
    found = _statements("My cousin and I opened a food truck last spring.")
    assert found["User and their cousin opened a food truck last spring"] == "My cousin and I opened a food truck last spring"
    # a present-tense verb would not agree with two people: the plain clause is kept instead
    assert "User loves sailing" in _statements("My wife and I love sailing.")


def test_a_name_set_beside_a_pet_or_relative():
    assert _statements("Biscuit, my hamster, loves carrots.")["User's hamster is named Biscuit"] == "Biscuit, my hamster"
    assert _statements("Thanks, my friend!") == {}


def test_her_name_is_after_the_pet_was_mentioned():
    found = _statements("I adopted a kitten from the shelter.", ("assistant", "So sweet! What's his name?"),
                        "His name is Pepper! He chases everything.")
    assert found["User's kitten is named Pepper"] == "His name is Pepper"
    two = _statements("My dog and my cat don't get along.", ("assistant", "Oh no! What's her name?"), "Her name is Luna.")
    assert not any("named Luna" in s for s in two)  # which one? nobody can tell


def test_them_is_the_one_group_of_the_users_named_lately():
    found = _statements(("assistant", "How are your chickens doing?"), "Great! I feed them every morning.")
    assert found["User feeds their chickens every morning"] == "I feed them every morning"
    mixed = _statements(("assistant", "How are your kids and your dogs?"), "I feed them every morning.")
    assert not any("their kids" in s or "their dogs" in s for s in mixed)


def test_someone_one_of_a_group_did_something_for_the_user():
    found = _statements("One of the hospital volunteers, Dana, sent us a handwritten card.")
    assert "One of the hospital volunteers, Dana, sent User a handwritten card" in found


# --- short answers ---------------------------------------------------------------------------------------


def test_how_often_is_answered_with_a_frequency():
    found = _statements(("assistant", "Nice! How often do you go swimming?"), "Thanks, Sam! Twice a week; it keeps me sane.")
    assert found["User goes swimming twice a week"] == "Twice a week"
    assert _statements(("assistant", "How often do you go swimming?"), "Not sure.") == {}


# --- what must still not be extracted -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "If I had a garden I'd grow tomatoes.",
        "When will you finish the book?",
        "I may go to the gym later.",
        "Maybe next month I'll try pottery.",
        "Can you write me a letter of recommendation?",
    ],
)
def test_questions_hypotheticals_and_requests_give_nothing(text):
    assert _statements(text) == {}


def test_a_letter_received_is_news_but_a_letter_to_write_is_a_task():
    assert "User got an acceptance letter from the university" in _statements("I got an acceptance letter from the university!")
    assert "User may have found a new apartment downtown" in _statements("I may have found a new apartment downtown.")


def test_a_roleplay_session_is_skipped_whatever_it_shows():
    turns = [
        Turn(seq=0, role="user", content="Let's play a game. You are a dragon and I am a knight. Stay in character."),
        Turn(seq=1, role="assistant", content="*roars* Who dares enter my cave?"),
        Turn(seq=2, role="user", content="*raises shield* Here's one of my medals from the king, beast!"),
    ]
    assert LocalDreamer().triage(turns=turns, ctx=CallContext()).kind == "roleplay"


def test_sensitive_sentences_still_give_nothing():
    assert _statements("After my diagnosis with diabetes I started a new diet.") == {}
    assert _statements("Here's a pic of my prescription for my anxiety meds.") == {}


# --- scoring: habits said in the present simple, ongoing activities --------------------------------------


def test_habits_and_ongoing_activities_last_but_feelings_and_the_news_of_the_day_do_not():
    assert stability(statement="User bakes sourdough bread", category="fact") == 1.0
    assert stability(statement="User has been volunteering at the animal shelter", category="fact") == 1.0
    assert stability(statement="User has been feeling stressed", category="emotion") == 0.0
    assert stability(statement="User made pasta on 7 May 2023", category="event") == 0.25
    assert category_en("User is creating content for a cooking channel") != "emotion"
    assert category_en("User is very content with their life") == "emotion"


@pytest.mark.django_db
def test_a_night_learns_a_shown_possession_and_a_habit_with_verbatim_sources(user):
    start = datetime(2026, 3, 2, 10, tzinfo=UTC)
    chat(user, start, "Hey! Here's a pic of my vegetable garden, it's finally blooming.", ("assistant", "Lovely!"),
         "Everyone at work loves the cookies I bake.", ("assistant", "Lucky them!"),
         "If I had a bigger yard I'd keep bees.")
    dream(user, start)
    garden = Memory.objects.get(user=user, statement="User has a vegetable garden")
    assert garden.status == Memory.Status.ACTIVE
    assert garden.sources.get().quote == "Here's a pic of my vegetable garden"
    cookies = Candidate.objects.get(user=user, statement="User bakes cookies")
    assert cookies.quote == "the cookies I bake" and cookies.quote in cookies.message.content
    assert cookies.status == Candidate.Status.PROMOTED  # a habit, volunteered: lasting, learned the first night
    assert not Candidate.objects.filter(user=user, statement__icontains="bees").exists()
