"""The night's diary paragraph (DREAMS.md) and the offline chat reply, from templates."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

from dreaming.engine.language import is_chinese
from dreaming.protocol import NightChanges, Turn
from dreaming.engine.credentials import mask_secrets

_SHOWN = 5


def _listing_en(items: list[str]) -> str:
    shown = [f"“{mask_secrets(s).rstrip('.')}”" for s in items[:_SHOWN]]
    more = len(items) - len(shown)
    if more:
        shown.append(f"{more} more")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def _listing_zh(items: list[str]) -> str:
    shown = [f"“{mask_secrets(s).rstrip('。')}”" for s in items[:_SHOWN]]
    more = len(items) - len(shown)
    text = "、".join(shown)
    return text + (f"等 {len(items)} 条" if more else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def narrate_en(changes: NightChanges) -> str:
    parts = []
    if changes.learned:
        parts.append(f"Tonight I learned {_plural(len(changes.learned), 'new thing')}: {_listing_en(changes.learned)}.")
    if changes.reinforced:
        parts.append(f"I heard again what I already knew: {_listing_en(changes.reinforced)}.")
    for old, new in changes.changed[:_SHOWN]:
        parts.append(f"Something changed: I used to note “{mask_secrets(old).rstrip('.')}”, "
                     f"now it is “{mask_secrets(new).rstrip('.')}”.")
    if len(changes.changed) > _SHOWN:
        parts.append(f"{len(changes.changed) - _SHOWN} more things changed.")
    if changes.pending:
        parts.append(f"{_plural(len(changes.pending), 'thing')} I am not sure of yet, so I keep "
                     f"{'it' if len(changes.pending) == 1 else 'them'} pending: {_listing_en(changes.pending)}.")
    if changes.forgotten:
        parts.append(f"I let go of {_plural(changes.forgotten, 'memory')}.".replace("memorys", "memories"))
    if not parts:
        return "A quiet night: nothing new to remember."
    return " ".join(parts)


def narrate_zh(changes: NightChanges) -> str:
    parts = []
    if changes.learned:
        parts.append(f"今晚我记住了 {len(changes.learned)} 件新事：{_listing_zh(changes.learned)}。")
    if changes.reinforced:
        parts.append(f"又一次听到了已经知道的事：{_listing_zh(changes.reinforced)}。")
    for old, new in changes.changed[:_SHOWN]:
        parts.append(f"有些事变了：以前记的是“{mask_secrets(old).rstrip('。')}”，现在是“{mask_secrets(new).rstrip('。')}”。")
    if len(changes.changed) > _SHOWN:
        parts.append(f"另有 {len(changes.changed) - _SHOWN} 处变化。")
    if changes.pending:
        parts.append(f"还有 {len(changes.pending)} 件事不太确定，先放着：{_listing_zh(changes.pending)}。")
    if changes.forgotten:
        parts.append(f"忘掉了 {changes.forgotten} 条记忆。")
    if not parts:
        return "平静的一夜：没有新的需要记住的事。"
    return "".join(parts)


def narrate_changes(changes: NightChanges) -> str:
    return narrate_zh(changes) if changes.language.startswith("zh") else narrate_en(changes)


def _said_on(result: dict) -> str | None:
    dates = []
    for source in result.get("sources") or []:
        if not isinstance(source, dict):
            continue
        value = source.get("said_at") or source.get("date") or source.get("created_at")
        if isinstance(value, (datetime, date)):
            dates.append(value.date() if isinstance(value, datetime) else value)
        elif isinstance(value, str) and len(value) >= 10:
            try:
                dates.append(date.fromisoformat(value[:10]))
            except ValueError:
                continue
    return max(dates).isoformat() if dates else None


_QUESTION_EN = re.compile(r"\?\s*$|^(?:what|who|where|when|why|how|which|do|does|did|is|are|can|could|would|will|tell me)\b",
                          re.IGNORECASE)
_QUESTION_ZH = re.compile(r"[?？]\s*$|吗[。！!]?\s*$|什么|哪|谁|怎么|为什么|几|多少|记得")
_FIRST_PERSON_EN = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|we|our)\b")
_QUIET_WORDS = frozenset(
    """what who where when why how which do does did is are was were can could would will tell me you your just
    said say told about the a an and or of to in on at for with my i i'm it that this remember again earlier
    before know""".split()
)
_QUIET_ZH = frozenset("我你他她它的了是在和也很都就有着吗呢吧啊个这那一不人刚才跟说过什么记得还吗？?，。！")


def _content_words(text: str) -> set[str]:
    if is_chinese(text):
        return {ch for ch in text if "\u3400" <= ch <= "\u9fff" and ch not in _QUIET_ZH}
    words = {w.lower().strip("'’") for w in re.findall(r"[A-Za-z][A-Za-z'’]+", text)}
    stems = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}
    return {w for w in stems if len(w) > 2 and w not in _QUIET_WORDS}


def _earlier_in_conversation(turns: list[Turn], last: str) -> str | None:
    """The latest earlier message of the user sharing a content word with the question ("my cat")."""
    wanted = _content_words(last)
    if not wanted:
        return None
    earlier = [t.content for t in turns if t.role == "user" and t.content.strip()][:-1]
    for content in reversed(earlier):
        if wanted & _content_words(content):
            return " ".join(content.split())
    return None


def _is_shared_fact(text: str) -> bool:
    text = text.strip()
    if is_chinese(text):
        return "我" in text and not _QUESTION_ZH.search(text)
    return bool(_FIRST_PERSON_EN.search(text)) and not _QUESTION_EN.search(text)


def _answers_in_chinese(text: str) -> bool:
    """The message's language; for one without words ("3", "👍") the language the person reads the page in."""
    if re.search(r"[A-Za-z\u3400-\u9fff]", text):
        return is_chinese(text)
    from django.utils.translation import get_language

    return (get_language() or "").startswith("zh")


def reply_offline(*, turns: list[Turn], recall: Callable[[str], list[dict]], limit: int = 3) -> str:
    """An honest answer without a chat model, in the user's language, speaking to them ("you").

    1. Something the user shares about themself is acknowledged: it is remembered tonight (or, with
       memory off — `recall.memory_enabled()` False — it is not).
    2. A question is answered from the current conversation first, then from what recall finds,
       each memory in the second person ("You have a dog named Milo").
    Never a configuration hint: that is for the operator, not the person chatting.
    """
    from dreaming.engine.voice import to_second_person

    last = next((t.content for t in reversed(turns) if t.role == "user" and t.content.strip()), "")
    chinese = _answers_in_chinese(last)
    memory_on = getattr(recall, "memory_enabled", lambda: True)()
    if last and _is_shared_fact(last):
        if not memory_on:
            return "记忆已关闭，所以这件事我不会记住。" if chinese else "Memory is off, so I won't remember this."
        return ("谢谢你告诉我！今晚整理记忆时我会记住这件事。" if chinese
                else "Thanks for telling me! I'll remember this tonight, when I go over our conversation.")
    if not _content_words(last) and not (_QUESTION_ZH if chinese else _QUESTION_EN).search(last.strip()):
        # "3", "ok", "👍": nothing to look up; a list of memories would answer a question nobody asked.
        return ("问我你告诉过我的事，我会说说我记得什么。" if chinese
                else "Ask me about something you told me, and I'll tell you what I remember.")
    parts = []
    earlier = _earlier_in_conversation(turns, last) if last else None
    if earlier:
        earlier = mask_secrets(earlier)
        parts.append(f"你刚才说：“{earlier}”" if chinese else f"Earlier in this conversation you said: “{earlier}”")
    lines = []
    wanted = _content_words(last)
    for result in (recall(last) if last else [])[:limit]:
        statement = mask_secrets(str(result.get("statement", ""))).strip()
        if result.get("kind") != "excerpt":
            statement = to_second_person(statement)
        if not statement or (earlier and not wanted & _content_words(statement)):
            continue  # the conversation already answered: only memories about the same thing add to it
        # An excerpt's statement already says when ("On 12 May 2023 you said: …").
        said = None if result.get("kind") == "excerpt" else _said_on(result)
        if chinese:
            lines.append(f"- {statement}" + (f"（你在 {said} 说过）" if said else ""))
        else:
            lines.append(f"- {statement}" + (f" (you told me on {said})" if said else ""))
    if lines:
        parts.append(("我记得：\n" if chinese else "Here is what I remember:\n") + "\n".join(lines))
    if parts:
        return "\n\n".join(parts)
    if not memory_on:
        return "记忆已关闭，所以我想不起你之前说过的事。" if chinese else "Memory is off, so I can't recall what you told me before."
    return "关于这个，我还没有相关的记忆。" if chinese else "I don't remember anything about that yet."
