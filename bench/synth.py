"""Synthetic but realistic chat sessions for throughput benchmarks (deterministic by seed).

Mixes the kinds a real chat product sees — personal talk, ordinary tasks, pasted documents, coding,
translation, roleplay — in English and Chinese, 4 to 30 turns each, in the import JSONL format.
The mix follows MolaGPT's benchmark (5,782 sessions; about a third skipped by triage).
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

KIND_WEIGHTS = {
    "personal": 0.38,
    "task": 0.32,
    "document": 0.17,
    "coding": 0.09,
    "translation": 0.03,
    "roleplay": 0.01,
}

PETS = ["dog", "cat", "parrot", "rabbit", "hamster"]
PET_NAMES = ["Milo", "Luna", "Biscuit", "Pepper", "Mochi", "Oscar", "Nala"]
CITIES = ["Berlin", "Lisbon", "Toronto", "Osaka", "Austin", "Melbourne", "Leeds", "Shanghai", "Tokyo"]
JOBS = ["a nurse", "a data analyst", "a teacher", "a product designer", "an accountant", "a chef", "a civil engineer"]
HOBBIES = ["rock climbing", "baking sourdough", "playing the cello", "birdwatching", "running", "pottery", "chess"]
RELATIVES = ["sister", "brother", "mom", "dad", "best friend", "partner", "grandma"]
PEOPLE = ["Anna", "Tom", "Priya", "Lukas", "Mei", "Jonas", "Sara"]
FEELINGS = ["stressed", "excited", "anxious", "really happy", "a bit lonely", "exhausted"]
ZH_CITIES = ["上海", "北京", "杭州", "成都", "深圳", "东京", "广州"]
ZH_HOBBIES = ["画画", "弹钢琴", "跑步", "做饭", "爬山", "读书", "摄影"]
ZH_PETS = ["猫", "狗", "兔子"]
ZH_REL = ["妈妈", "姐姐", "男朋友", "女朋友", "哥哥", "奶奶"]
ZH_JOBS = ["护士", "程序员", "老师", "设计师", "会计"]

ASSISTANT_SMALL = [
    "That sounds lovely. Tell me more?",
    "How long has that been going on?",
    "I see. How do you feel about it?",
    "That's great to hear!",
    "Thanks for sharing that with me.",
]
ZH_ASSISTANT = ["听起来很不错，能多说一点吗？", "这样啊，你现在感觉怎么样？", "谢谢你告诉我这些。", "真好！"]


def _personal_en(r: random.Random) -> list[tuple[str, str]]:
    lines = [
        f"I have a {r.choice(PETS)} named {r.choice(PET_NAMES)}.",
        f"I live in {r.choice(CITIES)} now.",
        f"I work as {r.choice(JOBS)}.",
        f"I love {r.choice(HOBBIES)} on weekends.",
        f"My {r.choice(RELATIVES)} {r.choice(PEOPLE)} is visiting next week.",
        f"I've been feeling {r.choice(FEELINGS)} about work lately.",
        f"I hate waking up early, honestly.",
        f"My favourite food is {r.choice(['ramen', 'tacos', 'dumplings', 'pasta'])}.",
        f"I just got back from a trip to {r.choice(CITIES)}.",
        "What do you think I should cook tonight?",
        "Anyway, how are you doing today?",
    ]
    turns = []
    for _ in range(r.randint(2, 15)):
        turns.append(("user", r.choice(lines)))
        turns.append(("assistant", r.choice(ASSISTANT_SMALL)))
    return turns


def _personal_zh(r: random.Random) -> list[tuple[str, str]]:
    lines = [
        f"我养了一只{r.choice(ZH_PETS)}，叫{r.choice(PET_NAMES)}。",
        f"我住在{r.choice(ZH_CITIES)}。",
        f"我是一名{r.choice(ZH_JOBS)}。",
        f"我喜欢{r.choice(ZH_HOBBIES)}。",
        f"我{r.choice(ZH_REL)}下周来看我。",
        "我最近工作压力很大。",
        "今天天气真好啊。",
        "你觉得我周末去哪里玩比较好？",
    ]
    turns = []
    for _ in range(r.randint(2, 15)):
        turns.append(("user", r.choice(lines)))
        turns.append(("assistant", r.choice(ZH_ASSISTANT)))
    return turns


def _task(r: random.Random) -> list[tuple[str, str]]:
    asks = [
        "What is the capital of Australia?",
        "Give me five ideas for a birthday party theme.",
        "Explain how photosynthesis works in simple terms.",
        "Write a short poem about autumn leaves.",
        "What's the difference between weather and climate?",
        "帮我想几个周末活动的点子。",
        "解释一下什么是通货膨胀。",
    ]
    turns = []
    for _ in range(r.randint(2, 6)):
        turns.append(("user", r.choice(asks)))
        turns.append(("assistant", "Here is an answer with a few details and examples for you. " * r.randint(1, 4)))
    return turns


def _document(r: random.Random) -> list[tuple[str, str]]:
    body = " ".join(
        r.choice([
            "The committee reviewed the quarterly figures and noted a sustained increase in regional demand.",
            "Researchers observed that the treatment group outperformed the control across all measured outcomes.",
            "The policy framework establishes guidelines for procurement, compliance and vendor evaluation.",
            "Historical records indicate that the settlement expanded rapidly during the nineteenth century.",
            "该研究表明，城市化进程对区域经济发展具有显著影响，并带来了新的挑战。",
        ])
        for _ in range(r.randint(12, 40))
    )
    verb = r.choice(["Summarize this article:", "Please rewrite this in a formal tone:", "请帮我总结下面这篇文章：", "Proofread the following text:"])
    turns = [("user", f"{verb}\n\n{body}"), ("assistant", "Summary: " + body[:200])]
    for _ in range(r.randint(1, 4)):
        turns += [("user", "Make it shorter, please."), ("assistant", body[:120])]
    return turns


def _coding(r: random.Random) -> list[tuple[str, str]]:
    code = (
        "```python\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\nprint(load('x.json')['items'][0])\n```"
    )
    trace = (
        "Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    main()\n"
        "  File \"app.py\", line 8, in main\n    data = load(path)\nKeyError: 'items'"
    )
    turns = [("user", f"Why does this crash?\n{code}\n{trace}"), ("assistant", "The key 'items' is missing; use .get().")]
    for _ in range(r.randint(1, 12)):
        turns += [
            ("user", r.choice(["Now I get `TypeError: 'NoneType' object is not subscriptable`", "How do I write a unit test for load()?", "Can you convert it to async with aiofiles?"])),
            ("assistant", "```python\nasync def load(path):\n    ...\n```"),
        ]
    return turns


def _translation(r: random.Random) -> list[tuple[str, str]]:
    text = r.choice(["我明天要去开会，请帮我准备材料。", "The meeting has been moved to Thursday afternoon.", "Je voudrais réserver une table pour deux."])
    turns = [(
        "user", r.choice([f"Translate into English: {text}", f"请把这段话翻译成英文：{text}", f"Translate this to Chinese: {text}"])
    ), ("assistant", "Translation: ...")]
    for _ in range(r.randint(1, 5)):
        turns += [("user", f"Translate this too: {text}"), ("assistant", "Translation: ...")]
    return turns


def _roleplay(r: random.Random) -> list[tuple[str, str]]:
    turns = [("user", "You are a dragon guarding a castle. Let's play! Stay in character."), ("assistant", "*spreads wings* Who dares approach?")]
    for _ in range(r.randint(2, 14)):
        turns += [("user", r.choice(["*draws my sword* I am Sir Cedric, here for the treasure!", "*bows deeply* I come in peace.", "*runs behind a rock*"])), ("assistant", "*breathes fire into the sky*")]
    return turns


GENERATORS = {
    "personal": lambda r: (_personal_zh if r.random() < 0.35 else _personal_en)(r),
    "task": _task,
    "document": _document,
    "coding": _coding,
    "translation": _translation,
    "roleplay": _roleplay,
}


def generate_sessions(*, count: int, users: int = 50, seed: int = 7, start: datetime | None = None) -> list[dict]:
    """Sessions in the import JSONL shape, spread over users and days, each 4–30 turns."""
    r = random.Random(seed)
    start = start or datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
    kinds = list(KIND_WEIGHTS)
    weights = [KIND_WEIGHTS[k] for k in kinds]
    sessions = []
    for i in range(count):
        kind = r.choices(kinds, weights)[0]
        turns = GENERATORS[kind](r)[:30]
        if len(turns) < 4:
            turns = (turns * 4)[:4]
        at = start + timedelta(days=r.randint(0, 27), minutes=r.randint(0, 12 * 60))
        messages = []
        for j, (role, content) in enumerate(turns):
            messages.append({
                "role": role,
                "content": content,
                "created_at": (at + timedelta(seconds=40 * j)).isoformat(),
                "external_id": f"bench-{i}-{j}",
            })
        sessions.append({
            "user": f"bench{r.randrange(users)}",
            "external_id": f"bench-{i}",
            "started_at": messages[0]["created_at"],
            "messages": messages,
            "kind": kind,
        })
    return sessions


def write_jsonl(sessions: list[dict], path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for s in sessions:
            f.write(json.dumps({k: v for k, v in s.items() if k != "kind"}, ensure_ascii=False) + "\n")


# --- bench: memory statements and chat turns for the speed benchmarks -------------------------------
_STATEMENT_TEMPLATES = [
    ("fact", "User has a {pet} named {name}."),
    ("fact", "User lives in {city}."),
    ("fact", "User works as {job}."),
    ("preference", "User loves {hobby} on weekends."),
    ("preference", "User's favourite food is {food}."),
    ("relation", "User's {relative} is called {person}."),
    ("event", "User visited {city} with {person} in {month}."),
    ("emotion", "User felt {feeling} about work in {month}."),
    ("fact", "用户住在{zh_city}。"),
    ("preference", "用户喜欢{zh_hobby}。"),
    ("relation", "用户的{zh_rel}叫{person}。"),
]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]
_FOODS = ["ramen", "tacos", "dumplings", "pasta", "curry", "pho", "paella", "sushi"]


def memory_statements(*, count: int, seed: int = 11) -> list[tuple[str, str]]:
    """`count` distinct (category, statement) pairs in the engine's third-person style, EN + ZH."""
    r = random.Random(seed)
    found: dict[str, str] = {}
    while len(found) < count:
        category, template = r.choice(_STATEMENT_TEMPLATES)
        statement = template.format(
            pet=r.choice(PETS), name=r.choice(PET_NAMES), city=r.choice(CITIES), job=r.choice(JOBS),
            hobby=r.choice(HOBBIES), food=r.choice(_FOODS), relative=r.choice(RELATIVES), person=r.choice(PEOPLE),
            month=r.choice(_MONTHS), feeling=r.choice(FEELINGS), zh_city=r.choice(ZH_CITIES),
            zh_hobby=r.choice(ZH_HOBBIES), zh_rel=r.choice(ZH_REL),
        )
        if statement in found:  # the templates run out of combinations: vary with a detail
            statement = statement.rstrip(".。") + f" (note {len(found)})."
        found[statement] = category
    return [(category, statement) for statement, category in found.items()]


def user_turns(*, count: int, seed: int = 13) -> list[str]:
    """What users type in a chat, one message each (personal, EN + ZH), for per-turn benchmarks."""
    r = random.Random(seed)
    turns: list[str] = []
    while len(turns) < count:
        generator = _personal_zh if r.random() < 0.3 else _personal_en
        turns.extend(content for role, content in generator(r) if role == "user")
    return turns[:count]
