"""The night's diary paragraph (DREAMS.md) and the offline chat reply, from templates."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from dreaming.engine.language import is_chinese
from dreaming.protocol import NightChanges, Turn
from dreaming.engine.sensitive import mask_secrets

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


def reply_offline(*, turns: list[Turn], recall: Callable[[str], list[dict]], limit: int = 3) -> str:
    """An honest answer without a chat model: what memory recalls for the last message, and why no more."""
    last = next((t.content for t in reversed(turns) if t.role == "user" and t.content.strip()), "")
    chinese = is_chinese(last)
    results = recall(last) if last else []
    lines = []
    for result in results[:limit]:
        statement = mask_secrets(str(result.get("statement", ""))).strip()
        if not statement:
            continue
        # An excerpt's statement already says when ("On 12 May 2023 you said: …").
        said = None if result.get("kind") == "excerpt" else _said_on(result)
        if chinese:
            lines.append(f"- {statement}" + (f"（{said} 说过）" if said else ""))
        else:
            lines.append(f"- {statement}" + (f" (you said so on {said})" if said else ""))
    if chinese:
        head = "我记得这些可能相关的事：\n" + "\n".join(lines) if lines else "关于这个，我还没有相关的记忆。"
        return head + "\n\n（还没有配置聊天模型，所以这是本地引擎的回答；设置 LLM_API_KEY 后即可正常聊天。）"
    head = "From memory, this seems relevant:\n" + "\n".join(lines) if lines else (
        "I don't recall anything relevant to that yet."
    )
    return head + "\n\n(No chat model is configured, so the local engine is answering; set LLM_API_KEY to chat.)"
