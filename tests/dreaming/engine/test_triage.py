"""Local triage: which sessions are skipped (with a reason naming the signals) and which are kept."""
from dreaming.providers.local import LocalDreamer
from dreaming.protocol import CallContext, Turn
from dreaming.engine.self_statements import self_statements


def _triage(*user_and_assistant: str):
    turns = [
        Turn(seq=i, role="user" if i % 2 == 0 else "assistant", content=text)
        for i, text in enumerate(user_and_assistant)
    ]
    return LocalDreamer().triage(turns=turns, ctx=CallContext())


def test_code_with_a_stack_trace_is_coding():
    result = _triage(
        "Why does this fail?\n```python\nimport json\ndef load(p):\n    return json.load(open(p))\n```\n"
        "Traceback (most recent call last):\n  File \"app.py\", line 3, in load\nKeyError: 'name'",
        "The key is missing.",
    )
    assert result.kind == "coding"
    assert "code fence" in result.reason and "stack trace" in result.reason


def test_inline_c_code_in_a_chinese_question_is_coding():
    code = "#include <stdio.h> int main() { int a[10]; for(i=0;i<n;i++) { scanf(\"%d\",&a[i]); } return 0; }" * 2
    assert _triage(code + " 这个程序哪里错了？", "……").kind == "coding"


def test_a_pasted_article_to_summarize_is_document():
    article = (
        "The city council met on Tuesday to discuss the new transit plan. Officials said the budget would "
        "grow by twelve percent over the next five years, with most of the money going to bus lanes. "
    ) * 6
    result = _triage("Summarize this article in three sentences:\n" + article, "Here is a summary.")
    assert result.kind == "document"
    assert "summarize" in result.reason


def test_chinese_polishing_of_a_pasted_essay_is_document():
    essay = "The university has an outstanding location and abundant cultural resources. " * 8
    assert _triage("请帮我润色下面这篇作文，使用高级词汇：" + essay, "好的").kind == "document"


def test_translation_requests_are_translation_in_english_and_chinese():
    assert _triage("Translate into English:\nBonjour, je m'appelle Marie.", "Hello, my name is Marie.").kind == (
        "translation"
    )
    assert _triage("请把这段话翻译成英文：今天天气很好。", "The weather is nice today.").kind == "translation"


def test_roleplay_markers_make_roleplay():
    result = _triage(
        "Let's play a game. You are Luna, an elf ranger, and stay in character. *waves at you*",
        "*bows deeply* Greetings, traveler.",
        "*draws my sword* Continue the story!",
    )
    assert result.kind == "roleplay"
    assert "action" in result.reason or "roleplay" in result.reason
    assert _triage("我们来角色扮演吧，你扮演一个侦探。", "好的，我是侦探。").kind == "roleplay"


def test_a_persona_prompt_without_a_game_is_not_roleplay():
    result = _triage("You are a professional data scientist. Which model should I use for tabular data?", "…")
    assert result.kind == "normal"


def test_homework_and_brainstorming_are_kept_as_normal():
    assert _triage("What is the capital of Australia?", "Canberra.").kind == "normal"
    assert _triage("Give me ten names for a bakery.", "1. Rise…").kind == "normal"
    assert _triage("解释一下光合作用的过程", "光合作用是……").kind == "normal"


def test_a_personal_message_inside_a_coding_chat_is_kept_while_the_session_is_skipped():
    code = "```js\nconst x = await fetch(url);\nconsole.log(x);\n```\nTypeError: x.json is not a function"
    turns = [
        Turn(seq=i, role="user" if i % 2 == 0 else "assistant", content=text)
        for i, text in enumerate([
            code, "Call x.json() instead.",
            "Thanks. By the way, I'm moving to Berlin next month with my wife, so I'll be offline a bit.",
            "Good luck with the move!",
        ])
    ]
    result = LocalDreamer().triage(turns=turns, ctx=CallContext())
    # Skip the task, keep the person: the session is coding, the move is still the user's.
    assert result.kind == "coding"
    statements = [c.statement for c in self_statements(turns, kind=result.kind)]
    assert any("Berlin" in s for s in statements) and not any("TypeError" in s or "json" in s for s in statements)


def test_personal_conversations_are_never_skipped():
    assert _triage("My sister lives in Lisbon and I visit her every summer.", "Nice!").kind == "normal"
    result = _triage("我最近搬到了杭州，在一家游戏公司工作。", "听起来不错！")
    assert result.kind == "normal"
    assert "personal" in result.reason


def test_a_session_without_user_messages_is_normal():
    assert LocalDreamer().triage(turns=[Turn(seq=0, role="assistant", content="Hi!")], ctx=CallContext()).kind == (
        "normal"
    )


def _reading(*user_texts: str, disclosures):
    from dreaming.engine.triage import session_signals

    turns = [Turn(seq=2 * i, role="user", content=text) for i, text in enumerate(user_texts)]
    return session_signals(turns, disclosures=disclosures)


def test_what_the_user_says_about_their_tools_or_their_pasted_text_is_not_personal():
    from dreaming.engine.triage import Disclosure

    tools = _reading("I'm using node.js and my regex keeps the backslashes",
                     disclosures=[Disclosure(0, "I'm using node.js", 0.6, True)])
    assert tools.personal == []
    quote = "Moving between the top and bottom quartiles results in an 11 percent swing"
    abstract = ("Express your interest in the paper below.\n\n" + "The firm grows revenue by ten percent. " * 20
                + quote + ". " + "Taxes fall as executives change. " * 5)
    pasted = _reading(abstract, disclosures=[Disclosure(0, quote, 0.9, True)])
    assert abstract.find(quote) > 300 and pasted.personal == []
    sending = _reading("我会给你发送活动的详细介绍内容", disclosures=[Disclosure(0, "我会给你发送活动的详细介绍内容", 0.6, True)])
    assert sending.personal == []


def test_the_first_person_of_a_requested_story_is_a_character_not_the_user():
    from dreaming.engine.triage import Disclosure

    story = _reading("Write a story about me, a college guy. I'm a skinny guy with a basic style.",
                     "I get a real perm to look like my roommate.",
                     disclosures=[Disclosure(0, "I'm a skinny guy with a basic style", 0.7, True),
                                  Disclosure(2, "I get a real perm to look like my roommate", 0.65, True)])
    assert story.personal == []
    real = _reading("I moved to Lisbon last year with my wife.",
                    disclosures=[Disclosure(0, "I moved to Lisbon last year with my wife", 0.8, True)])
    assert real.personal == [0]


def test_photo_captions_in_brackets_are_not_roleplay():
    # Issue #16: a user sharing photos, each with its caption in brackets, is not a stage direction.
    result = _triage(
        "[Photo: my dog Biscuit asleep on the sofa]\nHe finally got used to the new flat!",
        "He looks so comfortable!",
        "[Picture of the view from our balcony at sunset]\nAnd this is what we see every evening now.",
        "What a view.",
        "[image: Biscuit and me at the beach last weekend]\nHe loved the waves.",
        "Sounds like a great weekend.",
    )
    assert result.kind == "normal"
    from dreaming.engine.triage import _turn_kind

    assert _turn_kind("[photo: a sandcastle we built]\nThe kids were so proud.")[1].roleplay == 0


def test_the_word_translation_in_another_request_is_not_a_translation_request():
    from dreaming.engine.triage import _turn_kind

    biology = "For 3'-ATTAGC-5', give the dipeptide formed after transcription and translation, in three-letter codes."
    assert _turn_kind(biology)[0] is None
    assert _turn_kind("Translate into French: the museum opens at nine.")[0] == "translation"
    assert _turn_kind("I need a translation of this letter into German: Dear Anna, …")[0] == "translation"


def test_a_list_whose_items_end_in_semicolons_is_not_code():
    from dreaming.engine.triage import _CODE_TOKEN_RE

    outline = "".join(f"- chapter {i}: the state of the field in the region;\n" for i in range(12))
    assert len(_CODE_TOKEN_RE.findall(outline)) < 8
    code = "".join(f"x{i} = compute({i});\n" for i in range(12))
    assert len(_CODE_TOKEN_RE.findall(code)) >= 8


def test_after_a_roleplay_turn_the_users_first_person_is_their_character():
    from dreaming.engine.triage import Disclosure

    game = _reading("Let's do a roleplay scenario where I play a mage named Sapphire. Stay in character.",
                    "I roll 3. Lily rolls 9. My regression roll is 1.",
                    disclosures=[Disclosure(2, "My regression roll is 1", 0.65, True)])
    assert game.personal == [] and game.rule_kind() == "roleplay"


def test_a_slight_statement_next_to_programming_words_is_not_personal():
    from dreaming.engine.triage import Disclosure

    strings = _reading("I'm using node.js and I'm working with strings... I have a problem",
                       disclosures=[Disclosure(0, "I'm working with strings", 0.55, True)])
    assert strings.personal == []
    weekend = _reading("I'm working with my brother on the garden this weekend",
                       disclosures=[Disclosure(0, "I'm working with my brother on the garden this weekend", 0.55, True)])
    assert weekend.personal == [0]


def test_questions_the_assistant_answers_with_code_make_a_coding_session():
    from dreaming.engine.triage import session_signals

    def turns(*texts):
        return [Turn(seq=i, role="user" if i % 2 == 0 else "assistant", content=t) for i, t in enumerate(texts)]

    fence = "Here you go:\n```cpp\nvoid sort(int* a, int n) { /* … */ }\n```"
    asked = session_signals(turns("how to implement quick sort in c++", fence,
                                  "and how to convert infix to postfix in scala", fence))
    assert asked.rule_kind() == "coding" and "assistant answers with code" in asked.signals["coding"]
    once = session_signals(turns("What is the capital of France?", "Paris.", "And of Spain?", "Madrid.",
                                 "Show me a hello world", fence))
    assert once.rule_kind() is None


def _rules(*user_and_assistant: str):
    from dreaming.engine.triage import triage_turns

    return triage_turns([Turn(seq=i, role="user" if i % 2 == 0 else "assistant", content=text)
                         for i, text in enumerate(user_and_assistant)])


_VILLAINS = ("Each villain boasts about a scheme to steal the moon, argues with the others about the plan, and "
             "fails in a different way by the end of the scene, to general laughter. ") * 4


def test_polish_with_a_capital_in_a_list_is_a_nationality_not_a_request_to_polish():
    request = ("Write a humorous dialogue between supervillains.\nHere is a list of characters:\n"
               "- Polish supervillains\n- Czech supervillains\n")
    assert _rules(request + _VILLAINS, "…").kind == "normal"
    assert _rules("Polish this text for me:\n" + _VILLAINS, "…").kind == "document"


def test_a_persona_given_to_play_a_game_is_roleplay_a_persona_for_a_job_is_not():
    game = ("I want you to be AdventureGPT. As AdventureGPT, you will act as a wholesome text-based "
            "choose-your-own-adventure game. Describe where I am and give me three options.")
    assert _rules(game, "You wake up in a forest. 1) Walk north 2) Climb a tree 3) Shout").kind == "roleplay"
    russian = "Стань Дашей. Как Даша, ты делаешь всё, что указано в игре сейчас, и отвечаешь только как она."
    assert _rules(russian, "Привет! Я Даша.").kind == "roleplay"
    job = "I want you to act as a translator for my shop's product descriptions. Keep them short and friendly."
    assert _rules(job, "Sure, send them over.").kind != "roleplay"


def test_a_request_after_a_long_pasted_text_makes_it_a_document():
    article = ("The city council met on Tuesday to discuss the new transit plan. Officials said the budget would "
               "grow by twelve percent over the next five years, with most of the money going to bus lanes. ") * 5
    assert _rules(article + "\n\nSummarize the above in three sentences.", "The council…").kind == "document"
    assert _rules(article, "The council…").kind == "normal"  # no request at all: not the rule's call


def test_a_task_with_the_users_own_job_is_never_taken_for_a_role_play():
    said = "I'm a high school teacher in Texas, give me ideas for a lesson on volcanoes."
    result = _triage(said)
    assert result.kind != "roleplay"  # no sign of fiction: the first person is the user
    if result.kind != "normal":
        turns = [Turn(seq=0, role="user", content=said)]
        assert "User is a high school teacher in Texas" in [c.statement for c in self_statements(turns, kind=result.kind)]
