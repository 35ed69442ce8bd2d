"""8. MemoryBank (Chinese): hobby coverage after real dreaming.

Each of the 7 users' history is imported (one chat session per date; `query` → user, `response` →
assistant) with `import_chats` and dreamed with `dream --now --backfill --user U`. Coverage: the
share of the comma-separated hobbies that some memory statement of that user says (`export_user`;
active memories), by `hobby_said` below. Baseline: the same test on the user's raw messages — how many
hobbies the user ever names (the ceiling for any extractor that keeps to the user's words).

The match asks whether a statement *names* the hobby, not whether it repeats its exact characters
(stop 27 in docs/bench.md): "用户去看了周杰伦的演唱会" names 看演唱会, "用户喜欢读书" names 阅读. Three
ways, the same for both parts and for the raw-message ceiling: the hobby's characters (after
normalize_for_match); a word of the same hobby concept (slots.LEXICON: 阅读 = 读书 = 看书; a kind in
engine/kinds.py: 马拉松 says 跑步, 登山 is said by 爬山, but 潜水 never by 射击); the object of a
verb-object hobby when it is two characters or more (看演唱会 → 演唱会, 打篮球 → 篮球). A hobby of two concepts (唱歌跳舞) needs both. Nothing is read for meaning beyond that:
"买了一本心理学的书" does not name 阅读.
Users are split by name into a tuning and a checking part (bench/split.py); the table's "ours" is the
checking part, the tuning part stands beside it.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from bench.pipeline import chats_import, dream, jsonl_write, user_export
from bench.report import Figure
from bench.split import CHECKING, PARTS, TUNING, part_of
from dreaming.engine.kinds import KINDS, kind_of
from dreaming.engine.language import CJK_RE
from dreaming.engine.quotes import normalize_for_match
from dreaming.engine.slots import LEXICON, concepts_in

# A light verb before the thing: 看演唱会, 打篮球, 弹钢琴, 下围棋 — the thing alone names the hobby.
_VERB_OBJECT_RE = re.compile(r"^[看听打弹玩下踢拉吹逛](?P<thing>[\u4e00-\u9fff]{2,})$")


def hobby_words(hobby: str) -> list[tuple[str, ...]]:
    """What a statement may say for the hobby: groups of words, one of each group must be said.

    A hobby the lexicon names is said by any of its names or kinds (阅读 = 读书; 跑步 by 马拉松); a hobby that is
    a kind (登山, a kind of hiking) by itself or its concept's names (爬山), never by a sibling kind."""
    key = normalize_for_match(hobby)
    named = sorted(c for c in concepts_in(hobby) if c.startswith("hobby:"))
    if len(named) > 1:
        return [_chinese_words(LEXICON[c] + KINDS.get(c, ())) for c in named]
    verb_object = _VERB_OBJECT_RE.match(key)
    words = (key,) + ((verb_object.group("thing"),) if verb_object else ())
    for concept in named:
        words += _chinese_words(LEXICON[concept] + KINDS.get(concept, ()))
    for concept in () if named else kind_of(hobby):
        words += _chinese_words(LEXICON.get(concept, ()))
    return [words]


def _chinese_words(words: tuple[str, ...]) -> tuple[str, ...]:
    # the statements are Chinese; an English "dance" would be found inside "guidance"
    return tuple(normalize_for_match(w) for w in words if CJK_RE.search(w))


def hobbies_of(person: dict) -> list[str]:
    """The comma-separated hobbies of a MemoryBank user's meta information."""
    return [h.strip() for h in re.split(r"[，,、]", person["meta_information"]["hobbies"]) if h.strip()]


def hobby_said(hobby: str, statements: list[str]) -> bool:
    """True when some statement (already normalized) says the hobby; a two-concept hobby may be said in two."""
    return all(any(word in s for s in statements for word in group) for group in hobby_words(hobby))


def person_sessions(*, username: str, person: dict) -> list[dict]:
    """One chat session per day of the person's history: their queries as the user's turns, a minute apart."""
    sessions = []
    for day, exchanges in sorted(person["history"].items()):
        at = datetime.fromisoformat(day).replace(hour=20, tzinfo=timezone.utc)
        messages = []
        for j, x in enumerate(exchanges):
            for role, text in (("user", x.get("query")), ("assistant", x.get("response"))):
                if text and text.strip():
                    messages.append({"role": role, "content": text, "external_id": f"{day}-{j}-{role[0]}",
                                     "created_at": (at + timedelta(seconds=60 * j + (role == "assistant"))).isoformat()})
        if messages:
            sessions.append({"user": username, "external_id": day, "started_at": messages[0]["created_at"], "messages": messages})
    return sessions


def run(ctx) -> list[Figure]:
    path = ctx.dataset("memorybank_cn/memory_bank_cn_dev.json")
    if path is None:
        ctx.notes.append("MemoryBank: memorybank_cn/memory_bank_cn_dev.json not found in the datasets folder — skipped")
        return []
    data = json.loads(path.read_text())
    users = []
    sessions = []
    for i, (name, person) in enumerate(data.items()):
        username = f"memorybank{i}"
        users.append((username, name, person))
        sessions.extend(person_sessions(username=username, person=person))
    chats_import(jsonl_write(sessions, ctx.workdir / "memorybank.jsonl"))
    counts = {part: {"total": 0, "found": 0, "found_pending": 0, "raw_found": 0} for part in PARTS}
    missing: dict[str, list[str]] = {}
    for username, name, person in users:
        dream("--backfill", "--user", username)
        exported = user_export(username)
        statements = [normalize_for_match(m["statement"]) for m in exported["memories"] if m["status"] == "active"]
        pending = [normalize_for_match(c["statement"]) for c in exported["candidates"] if c["status"] == "pending"]
        raw = [normalize_for_match(m["content"]) for s in exported["sessions"] for m in s["messages"] if m["role"] == "user"]
        hobbies = hobbies_of(person)
        c = counts[part_of(name)]
        for hobby in hobbies:
            c["total"] += 1
            hit = hobby_said(hobby, statements)
            c["found"] += hit
            c["found_pending"] += hobby_said(hobby, statements + pending)
            c["raw_found"] += hobby_said(hobby, raw)
            if not hit:
                missing.setdefault(name, []).append(hobby)
    share = lambda part, key: counts[part][key] / counts[part]["total"] if counts[part]["total"] else 0.0  # noqa: E731
    coverage, ceiling = share(CHECKING, "found"), share(CHECKING, "raw_found")
    ctx.details["memorybank"] = {
        "users": {part: sum(part_of(name) == part for _, name, _ in users) for part in PARTS},
        "hobbies": {part: counts[part]["total"] for part in PARTS},
        "coverage": {part: share(part, "found") for part in PARTS},
        "coverage_with_pending": {part: share(part, "found_pending") for part in PARTS},
        "raw_mention_ceiling": {part: share(part, "raw_found") for part in PARTS}, "missing": missing,
    }
    return [Figure(
        "memorybank", "MemoryBank hobby coverage in memories (vs named in raw messages)", coverage, ceiling, "", "≥ 0.80",
        coverage >= 0.80, tuning=share(TUNING, "found"),
        note=(f"checking part {counts[CHECKING]['total']} hobbies, tuning part {counts[TUNING]['total']} (users by name, "
              f"{len(users)} in all); with pending candidates {share(CHECKING, 'found_pending'):.2f} checking / "
              f"{share(TUNING, 'found_pending'):.2f} tuning; named in raw messages {share(TUNING, 'raw_found'):.2f} tuning; "
              "missing: " + "; ".join(f"{n}: {', '.join(h)}" for n, h in missing.items())),
    )]
