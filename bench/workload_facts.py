"""10. Distinct facts stay distinct: a generated workload of many users' facts, driven through the product.

Every user (deterministic by seed; every fourth speaks Chinese) tells, over four sessions a few
days apart, one fact per message:
- distinct facts: two pets of the same kind with two names ("a parrot named Kiwi", later "a parrot
  named Mango"), two siblings, a city, where a sibling lives (another city, another subject), a job,
  two hobbies;
- true repeats: a fact said again in a later session, in the same words, with "still", reworded ("My dog is
  named Milo" after "I have a dog named Milo"), or in the other language (the lexicon's slots: city, job, hobby);
- true changes: a move ("I live in Tokyo now"), a new job, or a pet renamed.

The sessions are imported with `import_chats` and dreamed with `dream --now --backfill --user U`
(light, deep and weekly sleep on the history's clock); what was learned is read back with
`export_user`. Each fact is judged from the candidate its message produced:
- distinct fact kept: the candidate ended in an active memory whose statement names the fact's
  value (a name, the city, job or hobby) — merged into another item's memory does not count;
- repeat reinforced: the repeat's candidate was merged into the memory the first saying made;
- change superseded: the first value's memory is superseded by an active memory naming the new value.

Standalone: `python -m bench.workload_facts --quick` (20 users; 100 without --quick) (a database of its own, as `python -m bench`).
"""
from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from bench.pipeline import chats_import, dream, jsonl_write, user_export
from bench.report import Figure

PET_KINDS = {"dog": "狗", "cat": "猫", "parrot": "鹦鹉", "rabbit": "兔子", "hamster": "仓鼠"}
PET_NAMES = ["Kiwi", "Mango", "Biscuit", "Pepper", "Mochi", "Luna", "Oscar", "Nala", "Milo", "Pixel", "Ziggy", "Bean",
             "Maple", "Tofu", "Coco", "Rusty", "Pickle", "Waffles", "Juniper", "Clover", "Noodle", "Poppy", "Sunny", "Dash"]
SIBLINGS = {"sister": "姐姐", "brother": "弟弟"}
PEOPLE = ["Anna", "Leo", "Priya", "Lukas", "Mei", "Jonas", "Sara", "Tomas", "Ines", "Hugo", "Yara", "Felix", "Nora",
          "Omar", "Ruth", "Elias", "Vera", "Malik", "Ada", "Kenji", "Lena", "Dario", "Freya", "Ivan"]
CITIES = {"Tokyo": "东京", "Shanghai": "上海", "Berlin": "柏林", "Paris": "巴黎", "London": "伦敦", "Toronto": "多伦多",
          "Lisbon": "里斯本", "Seoul": "首尔", "Singapore": "新加坡", "Sydney": "悉尼", "Hangzhou": "杭州", "Chengdu": "成都"}
JOBS = {"nurse": "护士", "teacher": "老师", "accountant": "会计", "chef": "厨师", "designer": "设计师", "lawyer": "律师",
        "pharmacist": "药剂师", "architect": "建筑师", "photographer": "摄影师", "journalist": "记者"}
HOBBIES = {"rock climbing": "攀岩", "pottery": "陶艺", "swimming": "游泳", "photography": "摄影", "chess": "下棋",
           "yoga": "瑜伽", "knitting": "编织", "calligraphy": "书法", "skiing": "滑雪", "gardening": "园艺",
           "the ukulele": "尤克里里", "the piano": "钢琴", "the cello": "大提琴", "tennis": "网球", "badminton": "羽毛球"}
# No questions: a fact said in answer to one counts as less volunteered (dreaming.memory.scoring.initiative), and
# a light preference said once would then wait in the pending pool — a scoring rule, not what this measures.
ASSISTANT = ["That's lovely to hear!", "Good to know.", "Thanks for telling me.", "Nice!"]
ASSISTANT_ZH = ["真好！", "知道了。", "谢谢你告诉我。", "不错呀！"]


@dataclass
class Fact:
    """One thing a message says; `values` are the words a memory must contain to hold it."""

    key: str  # what the fact is about, e.g. "pet:Kiwi", "city"
    text: str
    values: tuple[str, ...]
    kind: str = "distinct"  # distinct | repeat | change
    of: str = ""  # for a repeat or a change: the key of the fact it repeats or changes
    external_id: str = ""


@dataclass
class UserPlan:
    username: str
    chinese: bool
    sessions: list[list[Fact]] = field(default_factory=list)


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _hobby_en(hobby: str) -> str:
    return f"I play {hobby}." if hobby.startswith("the ") else f"I love {hobby}."


def _hobby_zh(hobby: str) -> str:
    return f"我喜欢{hobby}。" if hobby not in ("尤克里里", "钢琴", "大提琴") else f"我会弹{hobby}。"


def _plan_user(r: random.Random, index: int) -> UserPlan:
    chinese = index % 4 == 1  # a quarter of the users, spread so that even a tiny run has some
    user = UserPlan(username=f"facts{index}", chinese=chinese)
    kind = r.choice(list(PET_KINDS))
    pet1, pet2, pet3 = r.sample(PET_NAMES, 3)
    sib1_kind, sib2_kind = r.choice(list(SIBLINGS)), r.choice(list(SIBLINGS))
    sib1, sib2 = r.sample(PEOPLE, 2)
    city1, city2, city3 = r.sample(list(CITIES), 3)
    job1, job2 = r.sample(list(JOBS), 2)
    hobby1, hobby2 = r.sample(list(HOBBIES), 2)
    zk, z1, z2 = PET_KINDS[kind], SIBLINGS[sib1_kind], SIBLINGS[sib2_kind]
    if chinese:
        pet_a = Fact(f"pet:{pet1}", f"我养了一只{zk}叫{pet1}。", (pet1,))
        pet_b = Fact(f"pet:{pet2}", f"我还养了一只{zk}叫{pet2}。", (pet2,))
        sib_a = Fact(f"sibling:{sib1}", f"我有一个{z1}叫{sib1}。", (sib1,))
        sib_b = Fact(f"sibling:{sib2}", f"我还有一个{z2}叫{sib2}。", (sib2,))
        sib_city = Fact(f"sibling-city:{sib1}", f"我{z1}{sib1}住在{CITIES[city3]}。", (CITIES[city3], city3))
        city = Fact("city", f"我住在{CITIES[city1]}。", (CITIES[city1], city1))
        job = Fact("job", f"我是一名{JOBS[job1]}。", (JOBS[job1], job1))
        hob_a = Fact(f"hobby:{hobby1}", _hobby_zh(HOBBIES[hobby1]), (HOBBIES[hobby1], hobby1.removeprefix("the ")))
        hob_b = Fact(f"hobby:{hobby2}", _hobby_zh(HOBBIES[hobby2]), (HOBBIES[hobby2], hobby2.removeprefix("the ")))
    else:
        pet_a = Fact(f"pet:{pet1}", f"I have a {kind} named {pet1}.", (pet1,))
        pet_b = Fact(f"pet:{pet2}", f"I have a {kind} named {pet2}.", (pet2,))
        sib_a = Fact(f"sibling:{sib1}", f"I have a {sib1_kind} named {sib1}.", (sib1,))
        sib_b = Fact(f"sibling:{sib2}", f"I also have a {sib2_kind} named {sib2}.", (sib2,))
        sib_city = Fact(f"sibling-city:{sib1}", f"My {sib1_kind} {sib1} lives in {city3}.", (city3, CITIES[city3]))
        city = Fact("city", f"I live in {city1}.", (city1, CITIES[city1]))
        job = Fact("job", f"I work as {_a(job1)}.", (job1, JOBS[job1]))
        hob_a = Fact(f"hobby:{hobby1}", _hobby_en(hobby1), (hobby1.removeprefix("the "), HOBBIES[hobby1]))
        hob_b = Fact(f"hobby:{hobby2}", _hobby_en(hobby2), (hobby2.removeprefix("the "), HOBBIES[hobby2]))
    first = [pet_a, sib_a, city, job, hob_a]
    second = [pet_b, sib_b, sib_city, hob_b]
    user.sessions = [first, second, [], []]
    # Two true repeats, in later sessions: the same words, "still", or the other language.
    for target, session in zip(r.sample(first, 2), (2, 3)):
        user.sessions[session].append(_repeat(r, target, chinese=chinese))
    # One true change, in the third session (never of a fact repeated there).
    change = r.choice(["move", "job", "rename"])
    if change == "move":
        text = f"我现在住在{CITIES[city2]}了。" if chinese else f"I live in {city2} now."
        user.sessions[2].insert(0, Fact("city:new", text, (city2, CITIES[city2]), kind="change", of="city"))
    elif change == "job":
        text = f"我现在是一名{JOBS[job2]}了。" if chinese else f"I work as {_a(job2)} now."
        user.sessions[2].insert(0, Fact("job:new", text, (job2, JOBS[job2]), kind="change", of="job"))
    else:
        text = f"我的{zk}{pet1}现在改名叫{pet3}了。" if chinese else f"My {kind} {pet1} is now called {pet3}."
        user.sessions[2].insert(0, Fact(f"pet:{pet3}", text, (pet3,), kind="change", of=pet_a.key))
    changed = {f.of for s in user.sessions for f in s if f.kind == "change"}
    for session in user.sessions:
        session[:] = [f for f in session if not (f.kind == "repeat" and f.of in changed)]
    return user


def _repeat(r: random.Random, fact: Fact, *, chinese: bool) -> Fact:
    text = fact.text
    how = r.choice(["same", "still", "other language", "reworded"])
    named = re.fullmatch(r"I (?:also )?have an? (?P<x>\w+) named (?P<n>\w+)\.", text)
    if how == "reworded" and named:  # "I have a dog named Milo." → "My dog is named Milo."
        text = f"My {named.group('x')} is named {named.group('n')}."
    elif how == "still" and not chinese:
        text = text.replace("I have", "I still have").replace("I live", "I still live").replace(
            "I work", "I still work").replace("I love", "I still love").replace("I play", "I still play")
    elif how == "other language" and (fact.key in ("city", "job") or fact.key.startswith("hobby:")):
        text = _translated(fact, to_chinese=not chinese)
    return Fact(fact.key + ":again", text, fact.values, kind="repeat", of=fact.key)


def _translated(fact: Fact, *, to_chinese: bool) -> str:
    if fact.key == "city":
        zh = next(v for v in fact.values if v in CITIES.values())
        en = next(k for k, v in CITIES.items() if v == zh)
        return f"我住在{zh}。" if to_chinese else f"I live in {en}."
    if fact.key == "job":
        zh = next(v for v in fact.values if v in JOBS.values())
        en = next(k for k, v in JOBS.items() if v == zh)
        return f"我是一名{zh}。" if to_chinese else f"I work as {_a(en)}."
    zh = next(v for v in fact.values if v in HOBBIES.values())
    en = next(k for k, v in HOBBIES.items() if v == zh)
    return _hobby_zh(zh) if to_chinese else _hobby_en(en)


def workload(*, users: int, seed: int = 16) -> list[UserPlan]:
    r = random.Random(seed)
    return [_plan_user(r, i) for i in range(users)]


def sessions_of(plans: list[UserPlan], *, start: datetime) -> list[dict]:
    """The import JSONL sessions: session k of every user on day 4k, one fact per user message."""
    out = []
    for u, plan in enumerate(plans):
        filler = ASSISTANT_ZH if plan.chinese else ASSISTANT
        for k, facts in enumerate(plan.sessions):
            if not facts:
                continue
            at = start + timedelta(days=4 * k, minutes=u)
            messages = []
            for j, fact in enumerate(facts):
                fact.external_id = f"s{k}-m{j}"
                messages.append({"role": "user", "content": fact.text, "external_id": fact.external_id,
                                 "created_at": (at + timedelta(seconds=40 * j)).isoformat()})
                messages.append({"role": "assistant", "content": filler[j % len(filler)],
                                 "created_at": (at + timedelta(seconds=40 * j + 20)).isoformat()})
            out.append({"user": plan.username, "external_id": f"session-{k}", "started_at": messages[0]["created_at"],
                        "messages": messages})
    return out


def _holds(statement: str, values: tuple[str, ...]) -> bool:
    low = statement.lower()
    return any(v.lower() in low for v in values)


def _fate(by_message: dict[str, list[dict]], fact: Fact) -> str:
    candidates = by_message.get(fact.external_id, [])
    if not candidates:
        return "no candidate"
    return "; ".join(f"{c['statement']}: {c['status']} — {c['reason'][:80]}" for c in candidates)


def judge(plan: UserPlan, exported: dict) -> dict[str, list[tuple[str, bool]]]:
    """(fact text, passed) per measure for one user."""
    memories = {m["id"]: m for m in exported["memories"]}
    by_message: dict[str, list[dict]] = {}
    for c in exported["candidates"]:
        if c.get("message_external_id"):
            by_message.setdefault(c["message_external_id"], []).append(c)
    facts = [f for s in plan.sessions for f in s]
    by_key = {f.key: f for f in facts}
    changed = {f.of for f in facts if f.kind == "change"}

    def memory_of(fact: Fact) -> dict | None:
        for c in by_message.get(fact.external_id, []):
            memory = memories.get(c.get("memory_id"))
            if memory and _holds(memory["statement"], fact.values):
                return memory
        return None

    out: dict[str, list[tuple[str, bool]]] = {"distinct": [], "repeat": [], "change": []}
    for fact in facts:
        memory = memory_of(fact)
        if fact.kind == "distinct" and fact.key not in changed:
            kept = bool(memory and memory["status"] == "active")
            out["distinct"].append((fact.text if kept else f"{fact.text} ({_fate(by_message, fact)})", kept))
        elif fact.kind == "repeat":
            original = memory_of(by_key[fact.of])
            merged = any(c["status"] == "merged" and original and c.get("memory_id") == original["id"]
                         for c in by_message.get(fact.external_id, []))
            out["repeat"].append((fact.text, merged))
        elif fact.kind == "change":
            old = memory_of(by_key[fact.of])
            ok = bool(memory and memory["status"] == "active" and old and old["status"] == "superseded"
                      and old["superseded_by"] == memory["id"])
            out["change"].append((fact.text, ok))
    return out


TARGETS = {"distinct": 0.99, "repeat": 0.95, "change": 0.95}
LABELS = {
    "distinct": "Facts workload: distinct facts kept as memories",
    "repeat": "Facts workload: true repeats reinforced",
    "change": "Facts workload: true changes superseded",
}


def run(ctx) -> list[Figure]:
    users = ctx.pick(full=100, quick=20, smoke=3)
    plans = workload(users=users)
    start = datetime(2026, 3, 2, 19, 0, tzinfo=timezone.utc)
    chats_import(jsonl_write(sessions_of(plans, start=start), ctx.workdir / "facts.jsonl"))
    ctx.log(f"dream --backfill for {len(plans)} users")
    results: dict[str, list[tuple[str, bool]]] = {"distinct": [], "repeat": [], "change": []}
    failures: dict[str, list[str]] = {k: [] for k in results}
    for plan in plans:
        dream("--backfill", "--user", plan.username)
        for measure, items in judge(plan, user_export(plan.username)).items():
            results[measure] += items
            failures[measure] += [f"{plan.username}: {text}" for text, ok in items if not ok]
    figures = []
    summary = {}
    for measure, items in results.items():
        share = sum(ok for _, ok in items) / len(items) if items else 0.0
        summary[measure] = {"n": len(items), "share": share, "failures": failures[measure][:20]}
        figures.append(Figure(
            "facts", LABELS[measure], share, None, "", f"≥ {TARGETS[measure]}", share >= TARGETS[measure],
            note=f"{len(items)} items over {len(plans)} users" + (
                f"; e.g. missed {'; '.join(failures[measure][:3])}" if failures[measure] else ""),
        ))
    ctx.details["facts_workload"] = {"users": len(plans), **summary}
    return figures


if __name__ == "__main__":
    from bench.runner import main

    args = sys.argv[1:]
    sys.exit(main(["--only", "facts", *args] if "--only" not in args else args))
