"""Skip the task, keep the person (issue #16): a session skipped as coding, document, translation or role play keeps
what the user says about themself around the task — what they run, build or write (own_projects.py), what they know
(skills.py), the machine they work on, the request after a paste — and nothing of the code, the pasted text or the
fiction. The conversations are invented, English and Chinese.

The rule for a pasted text (own_drafts.py, kept): a letter, email, CV or notes the user calls their own ("my cover
letter") is the user's writing about themself, so its first person is the user's; an essay, an article, a story or a
text given without "my" is not, even when its "I" sounds personal."""
import pytest

from dreaming.engine.own_drafts import closing_request
from dreaming.engine.own_projects import devices, own_projects
from dreaming.engine.quotes import statement_unsupported
from dreaming.engine.self_statements import self_statements
from dreaming.engine.skills import skills
from dreaming.protocol import Turn

CODE = ("\n```python\nimport pandas as pd\ndf = pd.read_csv('orders.csv')\nfor i, row in df.iterrows():\n"
        "    print(row['total'] / row['qty'])\n```\nTraceback (most recent call last):\n  File \"main.py\", line 4\n"
        "ZeroDivisionError: division by zero")
ESSAY = ("\n\nWhen I was ten, I moved to Canada with my parents. I am a nurse at a large hospital and I love my job. My "
         "brother works as a pilot. I think technology changes how we live, and I believe schools should teach coding "
         "early because it helps children think logically and solve problems in creative ways every single day.")
ARTICLE = ("\n\nThe industrial revolution began in Britain in the late eighteenth century. It changed the way people "
           "lived and worked, moving them from farms to factories. Historians argue about its causes, but most agree that "
           "coal, capital and colonial markets played a part, and the steam engine powered mills, mines and railways.")


def _skipped(kind: str, *texts: str) -> list[str]:
    turns = []
    for i, text in enumerate(texts):
        turns += [Turn(seq=2 * i, role="user", content=text), Turn(seq=2 * i + 1, role="assistant", content="Sure.")]
    found = self_statements(turns, kind=kind)
    for c in found:
        assert c.quote in next(t.content for t in turns if t.seq == c.seq)
        assert not statement_unsupported(statement=c.statement, quote=c.quote), c
    return [c.statement for c in found]


@pytest.mark.parametrize(("kind", "text", "statement"), [
    ("coding", "My Discord bot keeps crashing when two people vote at once." + CODE, "User has a Discord bot"),
    ("coding", "How do I back up my Minecraft server every night?" + CODE, "User has a Minecraft server"),
    ("coding", "I have a Minecraft server with 50 players and it lags." + CODE, "User has a Minecraft server with 50 players"),
    ("coding", "我们公司是做跨境电商的，需要一个爬虫抓取价格：" + CODE, "用户的公司是做跨境电商的"),
    ("coding", "我在写硕士论文，需要用Python画图：" + CODE, "用户在写硕士论文"),
    ("coding", "我开了一家网店，想自动回复顾客的消息" + CODE, "用户开了一家网店"),
    ("coding", "我正在做毕业设计，题目是基于深度学习的图像识别" + CODE, "用户正在做毕业设计"),
    ("document", "我在写硕士论文，题目是城市热岛效应，请帮我润色下面这段：" + ARTICLE, "用户在写硕士论文，题目是城市热岛效应"),
    ("translation", "我们公司是做外贸的，帮我把下面这段翻译成德语：" + ARTICLE, "用户的公司是做外贸的"),
])
def test_what_the_user_runs_builds_or_writes_is_kept(kind, text, statement):
    assert statement in _skipped(kind, text), _skipped(kind, text)


@pytest.mark.parametrize(("text", "statement"), [
    ("I know HTML and CSS but not JavaScript." + CODE, "User knows HTML and CSS"),
    ("I have basic knowledge of Python but never used Django." + CODE, "User has basic knowledge of Python"),
    ("I have never used Docker before, so go slowly." + CODE, "User has never used Docker"),
    ("I don't know much about programming, please explain simply." + CODE, "User doesn't know much about programming"),
    ("We use Jira at work and I want to pull the tickets with the API." + CODE, "User uses Jira at work"),
    ("我完全不懂编程，这段代码是同事给的" + CODE, "用户完全不懂编程"),
    ("我对Python不太熟悉，只会一点点" + CODE, "用户对Python不太熟悉"),
])
def test_what_the_user_knows_is_kept_beside_the_code(text, statement):
    assert statement in _skipped("coding", text), _skipped("coding", text)


@pytest.mark.parametrize(("text", "statement"), [
    ("I'm on Windows 11 and pip says access denied." + CODE, "User uses Windows 11"),
    ("I use a MacBook Pro, where does brew install things?" + CODE, "User uses a MacBook Pro"),
    ("on my Raspberry Pi 4 the program hangs" + CODE, "User uses a Raspberry Pi 4"),
    ("我用的是Mac，怎么安装brew" + CODE, "用户用的是Mac"),
])
def test_the_machine_the_user_works_on_is_kept_weak(text, statement):
    turns = [Turn(seq=0, role="user", content=text)]
    found = {c.statement: c for c in self_statements(turns, kind="coding")}
    assert statement in found, list(found)
    assert found[statement].importance <= 0.4  # once is not enough to remember it: pending until it recurs


@pytest.mark.parametrize("text", [
    "I know Python has a GIL, so why is this slow?",  # about Python, not the user's skill
    "I know this code is wrong",
    "If I knew Python I would do it myself",
    "I'm using pandas and the merge fails",  # the task's state
    "my laptop is slow",  # no named machine
    "If I'm on Windows, which path do I use?",
    "Is my Mac app sandboxed?",  # "Mac" is the user's gear, not a platform they build on
    "如果我开了一家网店，要交税吗？",  # a supposition
    "写一个故事：我们公司是做跨境电商的，老板很凶",  # a story's company
])
def test_a_supposition_a_fact_about_a_thing_or_a_task_state_says_nothing(text):
    assert _skipped("coding", text + CODE) == []


def test_what_someone_else_knows_is_not_the_users_skill():
    assert not any("know" in s for s in _skipped("coding", "my son doesn't know much about computers" + CODE))


def test_a_story_asked_for_about_the_user_makes_its_later_first_person_a_character():
    ask = ("I'm a nurse. Write a story about me getting lost in a forest with my friend, and I find a cabin where a witch "
           "lives and she wants to keep me there forever.")
    go_on = "I'm hooked on the witch's soup. I convince her to teach me magic. I work as her apprentice now."
    said = _skipped("document", ask, go_on)
    assert said == ["User is a nurse"], said


def test_out_of_character_the_user_is_a_nurse_not_a_nurse_irl():
    text = "*draws my sword* You will not pass, dragon! (OOC: I'm actually a nurse irl, so the healing bits are fun)"
    assert _skipped("roleplay", text) == ["User is a nurse"]


def test_the_title_of_the_users_dissertation_is_kept_from_the_request_after_a_pasted_rubric():
    rubric = "Follow this marking criteria:\n" + "\n".join(f"{i}. Criterion {i}: clear, well argued, referenced" for i in range(1, 20))
    text = (rubric + "\n\nAs well as following the title of this dissertation project: Sleep and Memory in Shift "
            "Workers: A Mixed Methods Study\nCan you write 200 words for the limitations section?")
    assert _skipped("document", text) == ['User is writing a dissertation titled "Sleep and Memory in Shift Workers: A Mixed Methods Study"']


def test_the_title_of_a_thesis_brought_to_summarize_is_not_the_users():
    text = "Summarize this abstract.\n\nThe title of this thesis is Urban Heat Islands in Small Cities." + ARTICLE
    assert own_projects(text) == []


@pytest.mark.parametrize(("text", "closing"), [
    ("Some pasted text. " * 40 + "\n\nCan you rewrite the above in simpler words?", "Can you rewrite the above in simpler words?"),
    ("网络媒体的传播速度更快，影响范围更广。" * 30 + "请为我精简以上内容", "请为我精简以上内容"),
])
def test_the_request_after_a_paste_is_the_users(text, closing):
    assert closing_request(text) == closing


@pytest.mark.parametrize("text", [
    # a pasted letter's own closing asks its reader, not the assistant
    "Dear Mr. Smith,\n\n" + "I am the manager of the Hilton in Leeds. " * 12 + "\n\nCould you please confirm the booking?",
    "Dear Anna,\n\n" + "Thanks for the lovely weekend. " * 15 + "\n\nCan you write back soon?\nBest regards,\nTom",
    "short turn, can you rewrite it?",
])
def test_a_pasted_letters_closing_is_not_a_request_of_the_user(text):
    assert closing_request(text) == ""


@pytest.mark.parametrize(("kind", "text"), [
    ("document", "Proofread this essay:" + ESSAY),  # "I" inside a pasted essay
    ("translation", "Translate into English:" + ESSAY),
    ("translation", "翻译成英文：我是一名护士，我在上海工作。我哥哥是飞行员。我喜欢跑步。这是我的第一篇英文日记，我想写得好一点。"),
    ("document", "请帮我润色这篇文章：" + ESSAY),
    ("document", "我们要回复客户，帮我改一下这封邮件：" + ESSAY),  # someone's email, the customer's "I"
    ("roleplay", "Let's roleplay. You are a dragon and I am a knight from Ohio. I work as a blacksmith in the village."),
])
def test_pasted_text_and_fiction_give_nothing(kind, text):
    assert _skipped(kind, text) == []


def test_a_cover_letter_the_user_calls_their_own_is_about_the_user():
    # the documented rule (own_drafts.py): "my cover letter" is the user's writing about themself
    turns = [Turn(seq=0, role="user", content="Rewrite my cover letter for a junior data analyst role:" + ESSAY)]
    said = [c.statement for c in self_statements(turns, kind="document")]
    assert "User is a nurse at a large hospital" in said, said


@pytest.mark.parametrize(("text", "found"), [
    ("I want to make a bot for my Discord server.", [("my Discord server", "User has a Discord server")]),
    ("The title of my thesis is Urban Heat Islands in Small Cities. Can you write the intro?",
     [("The title of my thesis is Urban Heat Islands in Small Cities", 'User is writing a thesis titled "Urban Heat Islands in Small Cities"')]),
    ("我自己开了一家奶茶店", [("我自己开了一家奶茶店", "用户开了一家奶茶店")]),
])
def test_own_projects_reads_the_phrase_and_says_it_in_the_third_person(text, found):
    assert own_projects(text) == found


def test_skills_and_devices_quote_the_users_words():
    assert skills("I only know a little bit of SQL.") == [("I only know a little bit of SQL", "User knows a little bit of SQL")]
    assert devices("I am running Ubuntu 22.04 in WSL") == [("I am running Ubuntu 22.04", "User uses Ubuntu 22.04")]


@pytest.mark.parametrize(("text", "statement"), [
    ("I own a Raspberry Pi 4 and want to run this as a service" + CODE, "User owns a Raspberry Pi 4"),
    ("I have a Discord server for my D&D group and want a dice bot" + CODE, "User has a Discord server for their D&D group"),
])
def test_the_wish_that_is_the_skipped_task_leaves_the_statement(text, statement):
    turns = [Turn(seq=0, role="user", content=text)]
    found = {c.statement: c.quote for c in self_statements(turns, kind="coding")}
    assert statement in found, list(found)
    assert "want" not in found[statement]
    assert not any(s.startswith("User wants") for s in found)  # the wish, split off, is the task itself


@pytest.mark.parametrize(("text", "statement"), [
    ("im on windows 10, pip install fails with permission error" + CODE, "User uses windows 10"),
    ("I dont know much about coding, my boss asked me to fix this" + CODE, "User doesn't know much about coding"),
    ("I know Python and a bit of JavaScript but I've never used TypeScript" + CODE, "User knows Python and a bit of JavaScript"),
])
def test_chat_spelling_still_says_it(text, statement):
    assert statement in _skipped("coding", text), _skipped("coding", text)


def test_a_characters_words_in_a_story_request_are_not_the_users_skill():
    from dreaming.engine.self_disclosure import self_disclosures
    text = "Write a story about a girl who says 'I know Python and JavaScript' and becomes a hacker."
    assert not any("know" in c.statement for c in self_disclosures([Turn(seq=0, role="user", content=text)]))


def test_code_that_makes_stories_is_no_story_about_the_user():
    said = _skipped("coding", "write a story generator in python using markov chains" + CODE,
                    "I'm a teacher and my students will use it in class" + CODE)
    assert "User is a teacher" in said, said


@pytest.mark.parametrize(("text", "statement"), [
    ("Rewrite the description of my Airbnb listing so it sounds cozy:" + ARTICLE, "User has an Airbnb listing"),
    ("how do I add a license to my GitHub repo" + CODE, "User has a GitHub repo"),
])
def test_a_thing_the_user_runs_on_a_platform_is_kept(text, statement):
    kind = "document" if ARTICLE in text else "coding"
    assert statement in _skipped(kind, text), _skipped(kind, text)
