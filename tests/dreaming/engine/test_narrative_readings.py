"""Narrative self-disclosure (LoCoMo-style chat): dates made absolute, "we" / "X is important to me" /
"the figurines I bought" / "someone wrote me" readings, milestone events that do not fade like the
news of the week, and sensitive-topic words used about a field or about other people."""
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest

from dreaming.engine import dates
from dreaming.providers.local import LocalDreamer
from dreaming.engine.language import in_own_words
from dreaming.models import Candidate, Memory
from dreaming.protocol import CallContext, Turn
from dreaming.memory.scoring import half_life_days, is_milestone, is_plan, specificity, stability
from dreaming.engine.sensitive import sensitive_category
from dreaming.engine.quotes import quote_in_text
from tests.support.night import chat, dream

UTC = dt_timezone.utc
SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday


def _statements(*texts: str, assistant: str | None = None, at: datetime | None = SAID) -> dict[str, str]:
    """{statement: quote} for user turns (optionally after an assistant turn), every quote checked verbatim."""
    turns = [Turn(seq=0, role="assistant", content=assistant)] if assistant else []
    turns += [Turn(seq=i + 1, role="user", content=text, created_at=at) for i, text in enumerate(texts)]
    found = LocalDreamer().extract(turns=turns, ctx=CallContext())
    for candidate in found:
        assert quote_in_text(quote=candidate.quote, text=turns[[t.seq for t in turns].index(candidate.seq)].content)
    return {c.statement: c.quote for c in found}


# --- dates --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, statement",
    [
        ("I went to a support group yesterday", "User went to a support group on 7 May 2023"),
        ("I won my first chess tournament last week", "User won their first chess tournament in the week before 8 May 2023"),
        ("Last Friday I went to a council meeting", "User went to a council meeting on 5 May 2023"),
        ("I lost my job at the bakery last month", "User lost their job at the bakery in April 2023"),
        ("I moved to Ohio three days ago", "User moved to Ohio on 5 May 2023"),
        ("Last weekend I joined a running club", "User joined a running club on the weekend before 8 May 2023"),
    ],
)
def test_relative_times_in_the_past_become_dates_counted_from_the_message(text, statement):
    found = _statements(text)
    assert statement in found
    assert "yesterday" in text.lower() or "last" in text.lower() or "ago" in text
    assert found[statement] in text  # the quote keeps the user's own words


def test_plans_keep_their_relative_words_and_no_message_time_changes_nothing():
    assert "User is going to visit their aunt next week" in _statements("I'm going to visit my aunt next week")
    assert "User will bake a cake tomorrow" in _statements("I will bake a cake tomorrow")
    assert "User went to a support group yesterday" in _statements("I went to a support group yesterday", at=None)
    # a time said for another clause does not travel: only one right before the quote does
    later = _statements("I went shopping yesterday and found out the space I designed won an award.")
    assert "User found out the space they designed won an award" in later


def test_chinese_relative_days_are_dated_too():
    assert "用户5月7日去爬山了" in _statements("我昨天去爬山了")


def test_a_worked_out_date_is_neither_a_detail_the_user_gave_nor_words_not_their_own():
    assert specificity("User went hiking on 7 May 2023") == specificity("User went hiking yesterday")
    assert stability(statement="User made pasta on 7 May 2023", category="event") == 0.25
    assert in_own_words(quote="I went hiking yesterday", statement="User went hiking on 7 May 2023")
    assert dates.absolute_dates("User went there last Friday", said_at=SAID) == "User went there on 5 May 2023"


# --- narrative readings ----------------------------------------------------------------------------


def test_clauses_split_at_a_dash_glued_to_a_word_and_at_now_that():
    found = _statements("Just wanted to give you the heads up on what's been happening lately- I took a pottery class",
                        "It feels like all my work has paid off now that I'm an assistant manager- it's a big step")
    assert "User took a pottery class" in found
    assert "User is an assistant manager" in found


def test_a_hope_tacked_on_with_and_does_not_sink_the_clause():
    found = _statements('I\'m currently reading "The Lean Startup" and hoping it\'ll give me tips for my biz.')
    assert 'User is currently reading "The Lean Startup"' in found


def test_we_plans_likes_and_deeds_are_the_users():
    found = _statements("We're considering adopting a rescue dog - for love.",
                        "We always look forward to our family camping trip.",
                        "Yep, we worked with a local organization that helps refugees.",
                        "We love it!")
    assert "User is considering adopting a rescue dog" in found
    assert "User looks forward to their family camping trip" in found
    assert "User worked with a local organization that helps refugees" in found
    assert not any("loves it" in s for s in found)


def test_what_matters_to_the_user_is_read_with_the_user_as_object():
    found = _statements("The rainbow flag mural is important to me as it reflects the courage of the community.",
                        "Dance is pretty much my go-to for stress relief.",
                        "Playing video games or watching movies helps me unwind.",
                        "This necklace is super special to me.")
    assert "The rainbow flag mural is important to User" in found
    assert "Dance is pretty much User's go-to for stress relief" in found
    assert "Playing video games or watching movies helps User unwind" in found
    assert "The necklace is super special to User" in found


def test_what_matters_needs_a_named_thing_and_not_the_other_side():
    assert _statements("This is important to me.", "It means a lot to me.", "Your support means a lot to me.") == {}


def test_things_the_user_made_or_bought_names_and_what_others_did_for_them():
    found = _statements("These figurines I bought yesterday remind me of family love.",
                        "Thanks! Our one-year-old is so cute, his name is Kyle!",
                        "Last week, someone wrote me a letter after reading my blog post.")
    assert "User bought figurines on 7 May 2023" in found
    assert "User's one-year-old is named Kyle" in found
    assert "Someone wrote User a letter after reading their blog post in the week before 8 May 2023" in found


def test_a_dropped_i_before_a_past_action_or_an_activity_but_not_a_gerund_subject():
    found = _statements("Dyed my hair last week - come see!", "Researching adoption agencies — it's been a dream.",
                        "Reading is my escape.", "Loved the movie!")
    assert "User dyed their hair in the week before 8 May 2023" in found
    assert "User is researching adoption agencies" in found
    assert "Reading is User's escape" in found  # the gerund is the subject: read as what matters to the user
    assert len(found) == 3


def test_short_answers_to_how_long_and_a_thank_you_that_answers_nothing():
    married = _statements("5 years already! Time flies!", assistant="What a lovely pic! How long have you been married?")
    assert "User has been married for 5 years" in married
    thanks = _statements("Thanks, Mel! Exciting but kinda nerve-wracking.", assistant="Do you have any pets?")
    assert not any(s.startswith("User has") for s in thanks)
    assert "User's favorite is Blue" in _statements("Love the vase! Blue's my fave, it makes me feel relaxed.")
    assert "User has two dogs" in _statements("Two dogs.", assistant="Do you have any pets?")
    assert "User is creating gaming content for YouTube" in _statements(
        "Yeah actually - creating gaming content for YouTube.", assistant="Do you have any new projects going on?")


def test_chat_style_introductions_relatives_with_s_and_a_favourite_after_a_comma():
    found = _statements("Hi, tracy here. I love fast cars.", "As a vegan, working at a community garden is important.",
                        "He might come visit me in kansas city where I just moved.", "My dad's a steel worker.",
                        "My sister's been living in Berlin for years.", "I love music, black sabbath is my favorite.",
                        "Fine, just came back from hiking in the great outdoors.", "I live in a condo by myself.")
    for statement in ("User's name is Tracy", "User is a vegan", "User moved to kansas city around 8 May 2023", "User's dad is a steel worker",
                      "User's sister has been living in Berlin for years", "User loves music",
                      "User's favorite is black sabbath", "User goes hiking", "User lives in a condo alone"):
        assert statement in found
    assert not _statements("As a kid, it was fun.", "Hi there, here we go.")
    assert stability(statement="User goes hiking", category="fact") == 1.0


def test_they_is_the_users_group_only_when_one_group_was_named_lately():
    def said_after(assistant: str, user: str) -> set[str]:
        turns = [Turn(seq=1, role="assistant", content=assistant), Turn(seq=2, role="user", content=user)]
        return {c.statement for c in LocalDreamer().extract(turns=turns, ctx=CallContext())}

    assert "User's kids were scared" in said_after("The kids look so cute! How did they handle the accident?",
                                                   "Thanks! They were scared but we reassured them.")
    assert said_after("How are your kids and your dogs?", "They were scared of the storm.") == set()
    assert said_after("Nice!", "They were scared of the storm.") == set()


# --- scoring: milestones, plans, activities ----------------------------------------------------------


def test_a_milestone_event_fades_like_a_fact_and_the_news_of_the_week_does_not():
    assert is_milestone("User won their first video game tournament in the week before 8 May 2023")
    assert is_milestone("User went to Woodhaven, a small town in the Midwest")
    assert not is_milestone("User had a picnic in the week before 8 May 2023")
    assert half_life_days("event", statement="User joined a mentorship program") == half_life_days("fact")
    assert half_life_days("event", statement="User had a picnic") == half_life_days("event") < half_life_days("fact")
    assert stability(statement="User went to a council meeting for adoption on 14 July 2023", category="event") == 1.0


def test_plan_words_are_not_habits_or_memories_and_activities_last():
    assert not is_plan("User started going to boot camps with their family")
    assert not is_plan("User will always remember their camping trip")
    assert is_plan("User is going to a conference next month")
    assert stability(statement="User is doing kickboxing", category="fact") == 1.0
    assert stability(statement="User is doing great", category="fact") == 0.5
    assert stability(statement="User can't have dairy", category="fact") == 1.0
    assert is_milestone("User wrote a short story for a magazine")
    assert not is_milestone("User wrote an email to their boss")


# --- sensitive words about a field, a virtue or other people -------------------------------------------


def test_a_field_or_a_cause_is_not_a_health_disclosure_but_the_users_condition_is():
    assert sensitive_category("I'm keen on counseling or working in mental health") is None
    assert sensitive_category("I ran a charity race for mental health last Saturday") is None
    assert sensitive_category("I'm still looking into counseling and mental health jobs") is None
    assert sensitive_category("I have been struggling with my mental health lately") == "health"
    assert sensitive_category("I'm in therapy for my anxiety") == "health"
    assert sensitive_category("I have cancer, but I ran a race for charity last week.") == "health"
    assert sensitive_category("I'm working in a shop since my surgery.") == "health"


def test_faith_as_a_virtue_and_other_peoples_religion_are_not_the_users_religion():
    assert sensitive_category("This necklace from my grandma stands for love, faith and strength") is None
    assert sensitive_category("I ran into a group of religious conservatives who upset me") is None
    assert sensitive_category("My faith is very important to me") == "religion"
    assert sensitive_category("I go to church every Sunday") == "religion"


# --- end to end: a night, then weeks of weekly consolidation ------------------------------------------


@pytest.mark.django_db
def test_a_milestone_keeps_its_confidence_while_small_news_fades(user):
    from dreaming.pipeline.weekly import weekly_consolidate_user

    start = datetime(2026, 3, 2, 10, tzinfo=UTC)
    chat(user, start, "I won my first chess tournament yesterday!", ("assistant", "Congrats!"),
         "We had a picnic in the park last weekend, it was fun.")
    dream(user, start)
    won = Memory.objects.get(user=user, statement="User won their first chess tournament on 1 March 2026")
    assert won.half_life_days == half_life_days("fact") > half_life_days("event")
    assert won.score_breakdown["parts"]["stability"] == 1.0
    assert won.sources.get().quote == "I won my first chess tournament yesterday"
    learned = won.confidence

    later = start
    for _ in range(20):  # twenty weeks without a word about either
        later += timedelta(days=7)
        weekly_consolidate_user(user=user, now=later)
    won.refresh_from_db()
    assert won.status == Memory.Status.ACTIVE
    assert won.confidence > learned * 0.7  # a fact's year-long half-life, not an event's month
    picnic = Memory.objects.filter(user=user, statement__contains="picnic").first()
    if picnic is not None:  # promoted or not, small news does not stay up front
        assert picnic.half_life_days == half_life_days("event")
        assert picnic.confidence < won.confidence / 4
    else:
        assert Candidate.objects.filter(user=user, statement__contains="picnic").exists()
