"""Excerpts: the user's own past words, found by full-text search, for recall.

A memory is what light sleep understood; an excerpt is what the user actually said. Recall ranks
both (dreaming/memory/recall.py); this module finds, filters and words the excerpts.

What can be an excerpt (docs/context.md, "Excerpts"):
- only a USER turn, of a session light sleep dreamed and KEPT (not skipped as document, coding,
  translation or roleplay), up to what it processed: light sleep writes the turn's search vector
  (`excerpts_index`) when it keeps the session, so skipped sessions, assistant turns and the turns
  it held back as sensitive are never indexed at all (migration chat 0005 did the same for the
  sessions dreamed before it);
- never a turn of another user, nor of another persona when recall is scoped (the scope rule of
  memories: the profile's sessions plus the persona's);
- never a turn the user asked us to forget: the source turns of forgotten memories and of dismissed
  candidates are tombstoned by keyed hash, whole and sentence by sentence (`forgotten_turn_digests`,
  called by the forget services), so the same words come back as an excerpt neither from the same
  row nor from a re-imported conversation, whatever the casing or punctuation; the words themselves
  are kept nowhere new;
- never a sensitive turn (the light-sleep filter, checked again on read), and secrets are masked.

Chinese has no spaces, and the embedded Postgres has neither zhparser nor pg_trgm: CJK runs are cut
into overlapping two-character pieces here, in Python, on both sides (the stored text and the query),
each written as one ASCII token so the parser keeps it whatever the server's locale.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.db import connection

from chat.models import ChatSession, Message
from dreaming.engine.language import CJK_CHARS, CJK_RUN_RE, STOP_WORDS, is_chinese, sentences
from dreaming.engine.quotes import normalize_for_match
from dreaming.engine.sensitive import mask_secrets, sensitive_category
from dreaming.memory.tombstones import tombstone_digest
from dreaming.models import Candidate, MemorySource, Tombstone

SEARCH_CONFIG = "english"
EXCERPT_MAX_WORDS = 60
# A turn shorter than this reads as an answer to something ("Yes, last Tuesday!"): it is shown with
# the end of the turn before it.
CONTEXT_BELOW_WORDS = 8
CONTEXT_MAX_WORDS = 20
# Sentence-level digests only for sentences this long (normalized characters): "Hi!" forgotten in one
# turn must not hide every other turn that says hi.
_MIN_SENTENCE_CHARS = 12
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
# Pieces of a Chinese query that match everywhere (function words, "user", "remember").
_ZH_STOP_CHARS = frozenset("的了吗呢吧啊是我你他她在有和也都就还么")
_ZH_STOP_PIECES = frozenset("用户 什么 怎么 哪里 哪个 为什 我们 你们 他们 她们 记得 知道 告诉 一下".split())


# --- The search text (both sides) -------------------------------------------------------------
def _cjk_pieces(run: str) -> list[str]:
    return [run] if len(run) <= 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def _cjk_token(piece: str) -> str:
    return "zh" + "".join(f"{ord(ch):x}" for ch in piece)


def _owner_token(user_id: int) -> str:
    # Every indexed turn carries its owner as a token, so the GIN index answers "this user's turns
    # that match" by intersecting two posting lists instead of reading every user's matches.
    return f"mcowner{int(user_id)}"


def search_text(text: str, *, user_id: int) -> str:
    """What goes to to_tsvector for a turn: its words, each CJK run as bigram tokens, the owner token."""
    text = unicodedata.normalize("NFKC", text)
    with_pieces = CJK_RUN_RE.sub(lambda m: " " + " ".join(_cjk_token(p) for p in _cjk_pieces(m.group())) + " ", text)
    return f"{with_pieces} {_owner_token(user_id)}"


def search_query(query: str) -> str | None:
    """The query for websearch_to_tsquery: its content words and CJK pieces joined by OR (a question
    shares some words with the answer, rarely all). None when nothing is left to look for."""
    terms: list[str] = []
    for match in _WORD_RE.finditer(unicodedata.normalize("NFKC", query)):
        word = match.group()
        for run in CJK_RUN_RE.findall(word):
            for piece in _cjk_pieces(run):
                if piece not in _ZH_STOP_PIECES and not all(ch in _ZH_STOP_CHARS for ch in piece):
                    terms.append(_cjk_token(piece))
        for latin in CJK_RUN_RE.sub(" ", word).split():
            lowered = latin.lower()
            if lowered not in STOP_WORDS and lowered not in ("or", "and", "not") and (len(lowered) > 1 or lowered.isdigit()):
                terms.append(lowered)
    unique = list(dict.fromkeys(terms))
    return " or ".join(unique) if unique else None


_INDEX_SQL = f"""
UPDATE {Message._meta.db_table} AS m SET search = to_tsvector('{SEARCH_CONFIG}', v.doc)
FROM unnest(%(ids)s::bigint[], %(docs)s::text[]) AS v(id, doc)
WHERE m.id = v.id
"""


def excerpts_index(*, user_id: int, messages: list[Message]) -> int:
    """Make these user turns findable (light sleep calls it for the turns of a session it kept)."""
    return excerpts_index_many(turns=[(user_id, messages)])


def excerpts_index_many(*, turns: list[tuple[int, list[Message]]]) -> int:
    """excerpts_index for several users' turns, (user id, messages) each, in one statement."""
    rows = [(user_id, m) for user_id, messages in turns for m in messages
            if m.role == Message.Role.USER and m.content.strip()]
    if not rows:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(_INDEX_SQL, {"ids": [m.pk for _, m in rows],
                                    "docs": [search_text(m.content, user_id=user_id) for user_id, m in rows]})
        return cursor.rowcount


# --- Forgetting ----------------------------------------------------------------------------------
def _sentence_texts(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


def turn_digests(text: str) -> set[str]:
    """The keyed hashes a turn is checked against: the whole turn and each long-enough sentence."""
    found = {tombstone_digest(text)}
    for sentence in _sentence_texts(text):
        if len(normalize_for_match(sentence)) >= _MIN_SENTENCE_CHARS:
            found.add(tombstone_digest(sentence))
    return found


def forgotten_turn_digests(*, turns: list[tuple[str, str]]) -> set[str]:
    """(message content, quote) of what is being forgotten → the digests that keep those words out of
    recall: the whole turn, and the sentences that hold the quote (not the turn's other sentences,
    which may be about something else and are forgotten with the whole turn anyway)."""
    found: set[str] = set()
    for content, quote in turns:
        if not content.strip():
            continue
        found.add(tombstone_digest(content))
        needle = normalize_for_match(quote or "")
        for sentence in _sentence_texts(content):
            normalized = normalize_for_match(sentence)
            if len(normalized) >= _MIN_SENTENCE_CHARS and needle and (needle in normalized or normalized in needle):
                found.add(tombstone_digest(sentence))
    return found


def source_turns_of_memories(*, memory_ids: list[int]) -> list[tuple[str, str]]:
    """(content, quote) of the stored turns these memories were learned from."""
    return list(
        MemorySource.objects.filter(memory_id__in=memory_ids, message__isnull=False)
        .values_list("message__content", "quote")
    )


def source_turns_of_candidates(*, candidates) -> list[tuple[str, str]]:
    return [(c.message.content, c.quote) for c in candidates if c.message_id and c.message is not None]


# --- Finding --------------------------------------------------------------------------------------
@dataclass
class Excerpt:
    message_id: int
    rank: float
    content: str
    said_at: object  # datetime
    message_external_id: str
    session_external_id: str
    memory_ids: list[int]
    previous: str | None  # the turn before (the assistant's), for a short answer
    statement: str = ""  # what the model reads
    quote: str = ""  # the user's words in it

    def source(self, quote: str) -> dict:
        return {
            "session_external_id": self.session_external_id,
            "message_external_id": self.message_external_id,
            "quote": quote,
            "said_at": self.said_at.isoformat(),
        }


# One statement: the turns of the scope that share a word with the query (the GIN index, through the
# owner token), each query term's document frequency among them, then a BM25-like score, the LIMIT,
# and only for the turns kept: the memories learned from them and the turn before.
# Why not ts_rank_cd alone: it has no notion of a rare word, so a turn that repeats a name the whole
# conversation uses (the other speaker's) outranks the one turn naming the rare thing asked about
# (LoCoMo: evidence in the first 10 excerpts 0.56 → 0.58, fused context +0.01; docs/context.md). The
# frequencies are counted among the MATCHED turns, not all of the user's: counting all of them was a
# second scan of the user's postings for no measured gain. Each term counts once per turn (tf
# saturates fast in short turns), divided by BM25's length factor (k1 1.2, b 0.75) over the
# tsvector's length; ts_rank_cd breaks ties. The turns of candidates the USER dismissed are left out
# here (the row still points at them); deep sleep's own dismissals (a low score, expiry) are not a
# wish to forget: those turns, with facts light sleep heard but deep sleep did not keep, are exactly
# what excerpts are for.
_CANDIDATES_SQL = f"""
WITH matched AS (
    SELECT m.id, m.session_id, m.seq, m.content, m.created_at, m.external_id, ses.external_id AS session_external_id,
           m.search, ts_rank_cd(m.search, q.query, 1) AS cover, length(m.search) AS size
    FROM websearch_to_tsquery('{SEARCH_CONFIG}', %(query)s) AS q(query),
         {Message._meta.db_table} m
    JOIN {ChatSession._meta.db_table} ses ON ses.id = m.session_id
    -- numnode: a query of Postgres stop words alone is empty, and owner && empty would match every turn
    WHERE numnode(q.query) > 0 AND m.search @@ (to_tsquery('{SEARCH_CONFIG}', %(owner)s) && q.query)
      AND ses.user_id = %(user_id)s AND m.role = 'user'
      AND ses.dreamed_at IS NOT NULL AND NOT ses.skipped AND m.seq <= ses.processed_seq
      AND COALESCE(ses.persona_id, 0) IN (0, COALESCE(%(persona_id)s, 0))
      AND NOT EXISTS (SELECT 1 FROM {Candidate._meta.db_table} c
                      WHERE c.message_id = m.id AND c.status = '{Candidate.Status.DISMISSED}'
                        AND c.reason = %(user_dismissed)s)
),
stats AS (SELECT count(*)::float8 AS n, greatest(avg(size), 1)::float8 AS mean_size FROM matched),
terms AS MATERIALIZED (  -- once, not once per matched turn (inlined, it made the ranking quadratic)
    SELECT t.query, count(matched.id)::float8 AS df
    FROM (SELECT DISTINCT plainto_tsquery('{SEARCH_CONFIG}', term) AS query FROM unnest(%(terms)s::text[]) AS term) t
    JOIN matched ON matched.search @@ t.query
    WHERE numnode(t.query) > 0
    GROUP BY t.query
),
ranked AS (
    SELECT matched.*,
           (SELECT coalesce(sum(ln(1 + (stats.n - terms.df + 0.5) / (terms.df + 0.5))), 0) FROM terms
            WHERE matched.search @@ terms.query)
           * 2.2 / (1 + 1.2 * (0.25 + 0.75 * matched.size / stats.mean_size)) AS rank
    FROM matched, stats
    ORDER BY rank DESC, cover DESC, matched.id
    LIMIT %(limit)s
)
SELECT t.id, t.rank, t.content, t.created_at, t.external_id, t.session_external_id,
       ARRAY(SELECT s.memory_id FROM {MemorySource._meta.db_table} s WHERE s.message_id = t.id),
       (SELECT p.content FROM {Message._meta.db_table} p
        WHERE p.session_id = t.session_id AND p.seq < t.seq AND p.role = 'assistant'
        ORDER BY p.seq DESC LIMIT 1)
FROM ranked t
ORDER BY t.rank DESC, t.cover DESC, t.id
"""


def excerpt_candidates(*, user_id: int, persona_id: int | None, query: str, limit: int) -> list[Excerpt]:
    """The best `limit` indexed turns for `query`, minus what was forgotten or is sensitive, worded."""
    terms = search_query(query)
    if terms is None:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_SQL, {
            "query": terms, "terms": terms.split(" or "), "owner": _owner_token(user_id), "user_id": user_id,
            "persona_id": persona_id, "limit": limit, "user_dismissed": Candidate.USER_DISMISSED_REASON,
        })
        rows = cursor.fetchall()
    found = [Excerpt(i, float(rank), content, at, mid, sid, list(mids or []), prev)
             for i, rank, content, at, mid, sid, mids, prev in rows]
    # Sensitive turns are never indexed by light sleep; this catches rows indexed before a rule existed.
    found = [e for e in found if not sensitive_category(e.content)]
    found = _without_forgotten(user_id=user_id, excerpts=found)
    # The same words said again in another session are one excerpt (the better ranked), not k of them.
    seen: set[str] = set()
    found = [e for e in found if not (normalize_for_match(e.content) in seen or seen.add(normalize_for_match(e.content)))]
    for excerpt in found:
        excerpt.statement, excerpt.quote = excerpt_statement(excerpt, query=query)
    return [e for e in found if e.quote.strip()]


def _without_forgotten(*, user_id: int, excerpts: list[Excerpt]) -> list[Excerpt]:
    if not excerpts:
        return []
    digests = {e.message_id: turn_digests(e.content) for e in excerpts}
    wanted = sorted(set().union(*digests.values()))
    forgotten = set(Tombstone.objects.filter(user_id=user_id, digest__in=wanted).values_list("digest", flat=True))
    return [e for e in excerpts if not (digests[e.message_id] & forgotten)]


# --- Wording --------------------------------------------------------------------------------------
def _words(text: str) -> int:
    # A CJK character counts as a word (as a BPE tokenizer and a reader see it).
    return len(CJK_RUN_RE.sub(lambda m: " x" * len(m.group()) + " ", text).split())


_CLIP_TOKEN_RE = re.compile(rf"[{CJK_CHARS}]|[^\s{CJK_CHARS}]+\s*")


def _clip_words(text: str, limit: int, *, keep_end: bool = False) -> str:
    """At most `limit` words of `text`, cut at a word (CJK: a character), marked with "…"."""
    if _words(text) <= limit:
        return text
    tokens = _CLIP_TOKEN_RE.findall(text)
    kept, count = [], 0
    for token in (reversed(tokens) if keep_end else tokens):
        count += 1
        if count > limit:
            break
        kept.append(token)
    if keep_end:
        return "…" + "".join(reversed(kept)).strip()
    return "".join(kept).strip() + "…"


def _best_sentences(text: str, *, query: str, limit: int) -> str:
    """A long turn cut to the sentences that share most words with the query, in their order."""
    spans = _sentence_texts(text)
    if _words(text) <= limit or len(spans) <= 1:
        return _clip_words(text, limit)
    terms = set((search_query(query) or "").split(" or "))
    def overlap(sentence: str) -> int:
        return len(terms & set((search_query(sentence) or "").split(" or ")))
    order = sorted(range(len(spans)), key=lambda i: (-overlap(spans[i]), i))
    chosen, used = set(), 0
    for i in order:
        size = _words(spans[i])
        if used + size > limit:
            if not chosen:
                return _clip_words(spans[i], limit)
            continue
        chosen.add(i)
        used += size
    parts, last = [], -1
    for i in sorted(chosen):
        if last >= 0 and i != last + 1:
            parts.append("…")
        parts.append(spans[i])
        last = i
    text = " ".join(parts)
    return ("… " if min(chosen) > 0 else "") + text + (" …" if max(chosen) < len(spans) - 1 else "")


def _context_before(previous: str | None) -> str | None:
    """The end of the assistant's turn before, when it is safe to show."""
    if not previous or not previous.strip():
        return None
    spans = _sentence_texts(previous)
    last = spans[-1] if spans else previous
    if sensitive_category(last):
        return None
    return _clip_words(mask_secrets(last.strip()), CONTEXT_MAX_WORDS, keep_end=True)


def excerpt_statement(excerpt: Excerpt, *, query: str) -> tuple[str, str]:
    """(statement, quote): what the model reads, 'On 12 May 2023 you said: "…"' (with the end of the
    turn it replied to when it is too short to stand alone), at most EXCERPT_MAX_WORDS words in all;
    and the user's words in it."""
    said = mask_secrets(" ".join(excerpt.content.split()))
    chinese = is_chinese(said)
    day = excerpt.said_at
    context = _context_before(excerpt.previous) if _words(said) < CONTEXT_BELOW_WORDS else None
    if chinese:
        prefix = f"{day.year}年{day.month}月{day.day}日"
        lead = f"{prefix}，回答“{context}”时，你说：" if context else f"{prefix}你说："
        quote = _best_sentences(said, query=query, limit=EXCERPT_MAX_WORDS - _words(lead))
        return f"{lead}“{quote}”", quote
    date = f"{day.day} {day:%B %Y}"
    lead = f'On {date}, replying to "{context}", you said:' if context else f"On {date} you said:"
    quote = _best_sentences(said, query=query, limit=EXCERPT_MAX_WORDS - _words(lead))
    return f'{lead} "{quote}"', quote
