"""DREAMS.md: one entry per night, for the user to read. Never a source of memories.

An entry is a list of lines, one per thing the night did ("learned", "heard again", "changed",
"kept pending", "let go"), each naming by id the memories (and pending candidates) whose words it
holds. `narrative` is rendered from the lines, grouped under headings that count them. Forgetting a
memory removes exactly its lines and re-renders the rest (diary_forget): nothing else of the
night is lost, and no sentence about it survives. Entries written before lines existed keep their
free narrative, scrubbed sentence by sentence.

The night is the user's: the local date (MemorySettings.time_zone, else TIME_ZONE) on which the
newest conversation dreamed was said (or, for a night with nothing heard, the run), a day counted
until NIGHT_ENDS_HOUR the next morning. A second run of the same night adds to its entry.
"""
from __future__ import annotations

import re
import unicodedata
import zoneinfo
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from dreaming.engine.language import CJK_RE, is_chinese
from dreaming.models import DiaryEntry, DreamRun, Memory, MemorySettings
from dreaming.protocol import NightChanges
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.quotes import normalize_for_match

NIGHT_ENDS_HOUR = 5  # a run at 03:00 still belongs to the evening before


KINDS = ("learned", "reinforced", "changed", "pending", "let_go")



def night_language(statements: list[str]) -> str:
    """"zh" when most of the night's statements are Chinese."""
    if not statements:
        return "en"
    chinese = sum(1 for s in statements if is_chinese(s))
    return "zh" if chinese * 2 > len(statements) else "en"


def user_time_zone(*, user) -> tzinfo:
    name = MemorySettings.objects.filter(user=user).values_list("time_zone", flat=True).first()
    try:
        return zoneinfo.ZoneInfo(name) if name else zoneinfo.ZoneInfo(settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def night_of(*, now: datetime, said_at: datetime | None = None, tz: tzinfo | None = None) -> date:
    """The night an entry is filed under, in the user's zone (see the module docstring): a chat at
    00:30 belongs to the evening before, one at 09:00 to its own day, whenever it is dreamed."""
    moment = said_at if said_at is not None else now
    return (moment.astimezone(tz or timezone.get_current_timezone()) - timedelta(hours=NIGHT_ENDS_HOUR)).date()


def changes_are_empty(changes: NightChanges) -> bool:
    return not (changes.learned or changes.reinforced or changes.changed or changes.pending or changes.forgotten)


@dataclass
class DiaryLines:
    """What one deep sleep tells the diary, line by line, as it happens."""

    lines: list[dict] = field(default_factory=list)
    last_said_at: datetime | None = None

    def add(self, kind: str, statements: list[str], *, memory_ids=(), candidate_ids=()) -> None:
        assert kind in KINDS, kind
        self.lines.append({
            "kind": kind, "texts": [mask_secrets(s).strip() for s in statements],
            "memory_ids": sorted({i for i in memory_ids if i}), "candidate_ids": sorted({i for i in candidate_ids if i}),
        })

    def heard(self, said_at: datetime) -> None:
        self.last_said_at = said_at if self.last_said_at is None else max(self.last_said_at, said_at)


# --- rendering ---------------------------------------------------------------------------------

def _quoted(text: str) -> str:
    return f"“{text.rstrip('.。')}”"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


_HEADINGS_EN = {
    "learned": lambda n: f"I learned {_count(n, 'new thing', 'new things')}:",
    "reinforced": lambda n: "I heard again what I already knew:",
    "changed": lambda n: f"{_count(n, 'thing', 'things')} changed:",
    "pending": lambda n: f"{_count(n, 'thing', 'things')} I am not sure of yet, so I keep "
                         f"{'it' if n == 1 else 'them'} pending:",
    "let_go": lambda n: f"I let go of {_count(n, 'memory', 'memories')}:",
}
_HEADINGS_ZH = {
    "learned": lambda n: f"我记住了 {n} 件新事：",
    "reinforced": lambda n: "又一次听到了已经知道的事：",
    "changed": lambda n: f"有 {n} 件事变了：",
    "pending": lambda n: f"还有 {n} 件事不太确定，先放着：",
    "let_go": lambda n: f"我放下了 {n} 条记忆：",
}


def _line_text(line: dict, language: str) -> str:
    texts = [_quoted(t) for t in line.get("texts", [])]
    if line["kind"] == "changed" and len(texts) == 2:
        return f"{texts[0]} → {texts[1]}"
    return "、".join(texts) if language == "zh" else ", ".join(texts)


def diary_render(*, lines: list[dict], language: str) -> str:
    """The narrative of an entry, from its lines: a heading per kind that counts them, one bullet per line."""
    headings = _HEADINGS_ZH if language.startswith("zh") else _HEADINGS_EN
    blocks = []
    notes = [line["text"] for line in lines if line.get("kind") == "note" and line.get("text", "").strip()]
    if notes:
        blocks.append("\n\n".join(notes))
    for kind in KINDS:
        of_kind = [line for line in lines if line.get("kind") == kind]
        if of_kind:
            blocks.append(headings[kind](len(of_kind)) + "\n" + "\n".join(f"- {_line_text(l, language)}" for l in of_kind))
    return "\n\n".join(blocks)


# --- writing -----------------------------------------------------------------------------------

def diary_append(
    *, user, run: DreamRun | None, now: datetime, changes: NightChanges, lines: DiaryLines, memories: list[Memory],
) -> DiaryEntry | None:
    """Add the night's lines to its entry (made on the first run of the night)."""
    if not lines.lines:
        return None
    # Inside a deep-sleep night already: no savepoint, a failure here fails the whole night anyway.
    with transaction.atomic(savepoint=False):
        return _diary_append(user=user, run=run, now=now, changes=changes, lines=lines, memories=memories)


def _diary_append(*, user, run, now, changes, lines, memories) -> DiaryEntry:
    night = night_of(now=now, said_at=lines.last_said_at, tz=user_time_zone(user=user))
    entry = (
        DiaryEntry.objects.select_for_update().filter(user=user, night=night).order_by("created_at", "pk").first()
    )
    if entry is None:
        entry = DiaryEntry(user=user, run=run, night=night, language=changes.language, lines=[])
    elif not entry.lines and entry.narrative.strip():
        # An entry from before lines existed: its text stays, as a note scrubbed sentence by sentence.
        entry.lines = [{"kind": "note", "text": entry.narrative, "memory_ids": [], "candidate_ids": []}]
    known = {(l["kind"], tuple(l.get("memory_ids", ())), tuple(l.get("candidate_ids", ()))) for l in entry.lines}
    for line in lines.lines:
        key = (line["kind"], tuple(line["memory_ids"]), tuple(line["candidate_ids"]))
        if key not in known:
            known.add(key)
            entry.lines.append(line)
    entry.narrative = diary_render(lines=entry.lines, language=entry.language)
    entry.save()
    entry.memories.add(*{m.pk for m in memories if m.pk})
    return entry


# --- forgetting --------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")
_WORD = re.compile(r"\w+", re.UNICODE)


def _content_units(text: str) -> set[str]:
    """Words (or, for Chinese, characters) that carry meaning; used to spot paraphrases."""
    text = unicodedata.normalize("NFKC", text).casefold()
    if CJK_RE.search(text):
        return {ch for ch in text if CJK_RE.match(ch)}
    return {w for w in _WORD.findall(text) if len(w) > 2 and w not in {"user", "the", "and", "has", "their"}}


def _sentence_names(sentence: str, needles: list[str], units: list[set[str]]) -> bool:
    normalized = normalize_for_match(sentence)
    if not normalized:
        return False
    if any(n and n in normalized for n in needles):
        return True
    # A narrator may paraphrase ("Milo the dog" for "User has a dog named Milo"): a sentence that
    # carries most of a statement's meaningful words names it too.
    sentence_units = _content_units(sentence)
    for wanted in units:
        if len(wanted) >= 2 and len(wanted & sentence_units) / len(wanted) >= 0.75:
            return True
    return False


def narrative_without(*, narrative: str, texts: list[str]) -> str:
    """A free narrative (an entry from before lines existed) with every sentence naming one of `texts` removed."""
    needles = [normalize_for_match(t) for t in texts if len(normalize_for_match(t)) >= 2]
    units = [_content_units(t) for t in texts]
    kept_lines = []
    for line in narrative.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            kept_lines.append(line)
            continue
        prefix = line[: len(line) - len(line.lstrip())]
        bullet = ""
        body = line.lstrip()
        match = re.match(r"^([-*+]|\d+[.)])\s+", body)
        if match:
            bullet, body = match.group(0), body[match.end():]
        sentences = [s for s in _SENTENCE_END.split(body) if s.strip()]
        kept = [s for s in sentences if not _sentence_names(s, needles, units)]
        if len(kept) == len(sentences):
            kept_lines.append(line)
        elif kept:
            joiner = "" if CJK_RE.search("".join(kept)) else " "
            kept_lines.append(prefix + bullet + joiner.join(s.strip() for s in kept))
    text = "\n".join(kept_lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _narrative_is_empty(narrative: str) -> bool:
    # Headings and list markers alone tell nothing: the entry has nothing left to say.
    body = [ln for ln in narrative.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return not any(_WORD.search(ln) for ln in body)


def _lines_without(lines: list[dict], *, memory_ids: set[int], candidate_ids: set[int], texts: list[str]) -> list[dict]:
    kept = []
    for line in lines:
        if memory_ids & set(line.get("memory_ids", ())) or candidate_ids & set(line.get("candidate_ids", ())):
            continue
        if line.get("kind") == "note":
            text = narrative_without(narrative=line.get("text", ""), texts=texts)
            if _narrative_is_empty(text):
                continue
            line = {**line, "text": text}
        kept.append(line)
    return kept


def diary_forget(*, user, memory_ids=(), candidate_ids=(), texts=()) -> tuple[int, int]:
    """Remove every mention of these memories / candidates from the user's diary: their lines (and,
    in entries from before lines, the sentences naming `texts`). Returns (entries rewritten, deleted)."""
    memory_ids, candidate_ids, texts = set(memory_ids), set(candidate_ids), sorted(set(texts))
    if not (memory_ids or candidate_ids or texts):
        return 0, 0
    with transaction.atomic():
        return _diary_forget(user=user, memory_ids=memory_ids, candidate_ids=candidate_ids, texts=texts)


def _diary_forget(*, user, memory_ids: set[int], candidate_ids: set[int], texts: list[str]) -> tuple[int, int]:
    rewritten = deleted = 0
    # Every entry is read, not only those linked by M2M: an old narrator paraphrased, and a user's
    # diary is one entry per night, small enough to read whole.
    for entry in DiaryEntry.objects.filter(user=user).select_for_update():
        if entry.lines:
            lines = _lines_without(entry.lines, memory_ids=memory_ids, candidate_ids=candidate_ids, texts=texts)
            if lines == entry.lines:
                continue
            if not lines:
                entry.delete()
                deleted += 1
                continue
            entry.lines = lines
            entry.narrative = diary_render(lines=lines, language=entry.language)
        else:
            narrative = narrative_without(narrative=entry.narrative, texts=texts)
            if narrative == narrative_without(narrative=entry.narrative, texts=[]):
                continue
            if _narrative_is_empty(narrative):
                entry.delete()
                deleted += 1
                continue
            entry.narrative = narrative
        entry.save(update_fields=["lines", "narrative"])
        entry.memories.remove(*memory_ids)
        rewritten += 1
    return rewritten, deleted
