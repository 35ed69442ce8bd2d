"""What a request for help shows the user is busy with (implied_pursuits.py through self_disclosure.weak_disclosures):
learning, exams, a thesis, applications, the classes they teach, their ventures, interviews, whom they hire, the
tools of their work, and the Chinese shapes of the same. Weak readings kept pending; never help for someone else,
writing about the topic, a story, a supposition, a wish, or what is already behind the user."""
import pytest

from dreaming.engine.quotes import statement_unsupported
from dreaming.engine.self_disclosure import WEAK_IMPORTANCE_CAP, self_disclosures, weak_disclosures
from dreaming.engine.self_statements import self_statements
from dreaming.protocol import Turn


def _said(text: str) -> list[str]:
    return [statement for _, statement in weak_disclosures(text)]


@pytest.mark.parametrize(("text", "statement"), [
    # learning
    ("which is the best method to learn Spanish?", "User is learning Spanish"),
    ("how can I learn Spanish faster?", "User is learning Spanish"),
    ("What's the fastest way to learn Japanese as an adult?", "User is learning Japanese"),
    ("give me a 30 day plan to learn Python", "User is learning Python"),
    ("How should I learn guitar at 40?", "User is learning guitar"),
    ("what's a good app to learn Korean?", "User is learning Korean"),
    ("I need to learn SQL for my new job", "User needs to learn SQL"),
    ("I'm trying to learn to code, what language first?", "User is trying to learn to code"),
    ("I'd like to learn Italian before my trip", "User would like to learn Italian"),
    ("how do I improve my English speaking?", "User is improving their English speaking"),
    ("any tips for practicing my German?", "User is practicing their German"),
    # exams
    ("how do I prepare for the IELTS I'm taking in May?", "User is preparing for the IELTS"),
    ("help me study for my GRE, I have 6 weeks", "User is studying for the GRE"),
    ("give me a study plan for the bar exam in July", "User is studying for the bar exam in July"),
    ("what are good strategies to pass the CFA level 1?", "User is preparing for the CFA level 1"),
    ("tips for my driving test next week", "User is preparing for the driving test next week"),
    ("my IELTS is in May, what should I focus on?", "User is preparing for the IELTS in May"),
    ("help me revise for my finals", "User is revising for finals"),
    ("make a revision timetable for my GCSEs", "User is revising for GCSEs"),
    ("how to prepare for the TOEFL speaking section", "User is preparing for the TOEFL"),
    # a thesis
    ("help me with my thesis on coral reef bleaching", "User is writing a thesis on coral reef bleaching"),
    ("can you suggest a structure for my master's thesis about urban heat islands?",
     "User is writing a master's thesis about urban heat islands"),
    ("write the literature review for my dissertation on remote work and wellbeing",
     "User is writing a dissertation on remote work"),
    ("proofread the abstract of my PhD dissertation", "User is writing a PhD dissertation"),
    # applications and interviews
    ("write a cover letter for a nurse position", "User is applying for a nurse position"),
    ("write a cover letter for the junior data analyst role at Deloitte",
     "User is applying for the junior data analyst role at Deloitte"),
    ("help me write a statement of purpose for a master's in computer science",
     "User is applying for a master's in computer science"),
    ("write me a motivation letter for an Erasmus exchange in Lisbon", "User is applying for an Erasmus exchange in Lisbon"),
    ("draft a motivation letter for the MBA program at INSEAD", "User is applying for the MBA program at INSEAD"),
    ("write a cover letter for an internship at Google", "User is applying for an internship at Google"),
    ("how should I answer 'why this company' for my Google interview?", "User has a Google interview"),
    ("what should I wear to my interview at JP Morgan", "User has an interview at JP Morgan"),
    # classes taught, ventures, hired help
    ("I'm a teacher, make a quiz for my 5th graders", "User teaches 5th graders"),
    ("ideas for a bulletin board for my 3rd graders", "User teaches 3rd graders"),
    ("write report card comments for my kindergarten students", "User teaches kindergarten students"),
    ("improve the copy on our startup's landing page", "User has a startup"),
    ("suggest a name for our small bakery's new cake", "User has a small bakery"),
    ("design a poster for our band's first gig", "User is in a band"),
    ("rewrite this email for my IT provider", "User has an IT provider"),
    ("email my accountant about the late invoices", "User has an accountant"),
    # the tools of their work
    ("At work we use Django and Postgres. How do I add an index?", "User uses Django and Postgres at work"),
    ("we are a small team building a CRM for dentists, how do I structure the models?",
     "User's small team is building a CRM for dentists"),
    # Chinese
    ("帮我改一下我的毕业论文", "用户在写毕业论文"),
    ("我写了一篇英语作文，帮我改一下", "用户写了一篇英语作文"),
    ("帮我做一个智宠U家创新创业的PPT", "用户要做智宠U家创新创业的PPT"),
    ("做一个关于环保的PPT", "用户要做关于环保的PPT"),
    ("怎么才能快速学好日语？", "用户在学日语"),
    ("我想学吉他，从哪里开始", "用户想学吉他"),
    ("帮我写一封求职信，应聘数据分析师岗位", "用户在应聘数据分析师岗位"),
    ("帮我写一封求职信", "用户在求职"),
    ("我的论文是关于人工智能伦理的，帮我写摘要", "用户在写关于人工智能伦理的论文"),
    ("帮我写硕士论文的引言", "用户在写硕士论文"),
    ("怎么备考雅思", "用户在备考雅思"),
    ("复习四六级有什么好方法", "用户在复习四六级"),
])
def test_a_request_shows_what_the_user_is_busy_with(text, statement):
    assert statement in _said(text), _said(text)


@pytest.mark.parametrize("text", [
    # help for someone else
    "write a cover letter for my son who is applying for a nurse position",
    "My daughter needs a cover letter for a nurse position",
    "write a personal statement for my friend's application to MIT",
    "how can my son learn Spanish faster?",
    "how do kids learn Spanish so fast?",
    "help my students learn English",
    "summarize her thesis on coral reefs",
    "make a quiz for 5th graders about volcanoes",
    "帮我儿子学好英语",
    "给我女儿写一篇作文",
    # writing about the topic, a template, a general question
    "write an essay on the best way to learn Spanish",
    "write a blog post about how to prepare for the IELTS",
    "write a sample cover letter for a nurse position",
    "write a poem about a nurse",
    "what is the difference between IELTS and TOEFL?",
    "tell me about the history of the bar exam",
    "explain how to learn from mistakes",
    "how do I pass a list to a function?",
    "the best way to learn more about our customers",
    "my thesis statement is weak, fix it",  # an essay's thesis statement
    # a story, a role-play, a supposition, a wish, something behind the user
    "Write a story where I am studying for the bar exam",
    "Imagine you are a student. How would you prepare for the GRE?",
    "act as my tutor. My character is preparing for the IELTS",
    "If I wanted to learn Japanese, how long would it take?",
    "I wish I could learn Spanish",
    "I passed my driving test yesterday!",
    "my interview went badly",
    "如果我要考研，应该怎么准备？",
    "写一个故事，主角在准备考研",
])
def test_no_pursuit_is_read_into_help_for_others_a_topic_a_story_or_a_supposition(text):
    implied = ("is learning", "is preparing", "is studying", "is writing", "is applying", "teaches", "has a startup",
               "interview", "在学", "在准备", "在写", "在求职", "要做", "考研")
    assert not [s for s in _said(text) if any(word in s for word in implied)], _said(text)


def test_an_implied_pursuit_stays_below_a_plain_self_statement():
    found = self_disclosures([Turn(seq=0, role="user", content="write a cover letter for a nurse position")])
    assert [c.statement for c in found] == ["User is applying for a nurse position"]
    assert all(c.importance <= WEAK_IMPORTANCE_CAP for c in found)


def test_the_truth_guard_accepts_an_implied_word_only_with_what_licenses_it():
    assert statement_unsupported(statement="User is applying for a nurse position",
                                 quote="cover letter for a nurse position") is None
    assert statement_unsupported(statement="User is applying for a nurse position", quote="a nurse position in Leeds")
    assert statement_unsupported(statement="User is writing a thesis on coral reefs", quote="my thesis on coral reefs") is None
    assert statement_unsupported(statement="User is writing a book on coral reefs", quote="my book on coral reefs")
    assert statement_unsupported(statement="User is preparing for the GRE", quote="tips for my GRE") is None
    assert statement_unsupported(statement="User is preparing dinner", quote="my dinner was great")


def test_the_users_work_said_beside_code_is_kept_in_a_coding_session():
    text = ("At work we use Django and Postgres. How do I add an index?\n"
            "class Order(models.Model):\n    created = models.DateTimeField()\n")
    found = self_statements([Turn(seq=0, role="user", content=text), Turn(seq=1, role="assistant", content="Use Meta.")],
                            kind="coding")
    assert "User uses Django and Postgres at work" in [c.statement for c in found]
    assert all(c.quote in text for c in found)


def test_the_code_itself_says_nothing_of_the_users_pursuits():
    text = "Why does this fail?\n```python\n# how to learn Spanish faster\ndef cover_letter_for(position): ...\n```"
    found = self_statements([Turn(seq=0, role="user", content=text)], kind="coding")
    assert found == []


@pytest.mark.parametrize(("text", "statement"), [
    ("how do i learn python if i have no experience", "User is learning python"),
    ("please write a SOP for MS in Data Science at University of Texas",
     "User is applying for MS in Data Science at University of Texas"),
    ("帮我写一封申请信，申请英国的硕士项目", "用户在申请英国的硕士项目"),
])
def test_lower_case_names_degrees_and_programmes_applied_for(text, statement):
    assert statement in _said(text), _said(text)


def test_applying_in_chinese_needs_the_letter_for_it():
    assert _said("怎么申请这个项目的资金") == []
