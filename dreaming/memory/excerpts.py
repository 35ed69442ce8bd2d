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
- never a turn the user asked us to forget: the source turns of forgotten memories and of dismissed candidates
  are tombstoned by keyed hash, whole and sentence by sentence (`forgotten_turn_digests`, called by the forget
  services), so the same words come back as an excerpt neither from the same row nor from a re-imported
  conversation, whatever the casing or punctuation; the words themselves are kept nowhere new;
- never a sensitive turn (the light-sleep filter, checked again on read), and secrets are masked.

Chinese has no spaces, and the embedded Postgres has neither zhparser nor pg_trgm: CJK runs are cut
into overlapping two-character pieces here, in Python, on both sides (the stored text and the query),
each written as one ASCII token so the parser keeps it whatever the server's locale.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from django.db import connection

from chat.models import ChatSession, Message, SearchTerm
from dreaming.engine.credentials import mask_secrets
from dreaming.engine.language import CJK_CHARS, CJK_RUN_RE, STOP_WORDS, is_chinese, sentences
from dreaming.engine.quotes import normalize_for_match
from dreaming.engine.sensitive import redact_sensitive, sensitive_category
from dreaming.memory.prepared import Prepared
from dreaming.memory.tombstones import tombstone_digest
from dreaming.models import Candidate, MemorySource, Tombstone

SEARCH_CONFIG = "english"
EXCERPT_MAX_WORDS = 40
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
    # Every indexed turn carries its owner as a token: its count (chat.SearchTerm) is how many turns
    # the user has, the N of each word's idf.
    return f"mcowner{int(user_id)}"


def owned_lexeme(user_id: int, lexeme: str) -> str:
    """A lexeme as the user's turns store it (chat_owned_search, migration chat 0009): prefixed by
    its owner, so the GIN index's posting list of a word holds only that user's turns."""
    return f"{int(user_id)}_{lexeme}"


def _with_cjk_tokens(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    # Words that look like an owner token are split: a turn cannot claim to be someone else's.
    text = _OWNER_LOOKALIKE_RE.sub("mc owner", text)
    return CJK_RUN_RE.sub(lambda m: " " + " ".join(_cjk_token(p) for p in _cjk_pieces(m.group())) + " ", text)


_OWNER_LOOKALIKE_RE = re.compile("mcowner", re.IGNORECASE)


def search_text(text: str, *, user_id: int, replying_to: str = "") -> str:
    """What goes to to_tsvector for a turn: its words, the words of the assistant's turn it replied
    to, each CJK run as bigram tokens, and the owner token.

    The turn replied to is searched with the turn because a user's answer often holds none of the
    words of the question about it ("Three times a week; it keeps us on track." replies to "How often
    do you work out together?"); on LoCoMo's dev conversations the evidence turn is among the first
    10 of a BM25 search for 0.64 of the questions by the turn's words alone, 0.74 with the turn before
    (docs/context.md). Only the turn is ever shown (with the end of the one before when it is short).
    """
    return f"{_with_cjk_tokens(text)} {_with_cjk_tokens(replying_to)} {_owner_token(user_id)}"


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


# The digests travel as one space-joined string per turn (unnest cannot take an array of arrays).
_INDEX_SQL = f"""
UPDATE {Message._meta.db_table} AS m
SET search = chat_owned_search(v.owner, to_tsvector('{SEARCH_CONFIG}', v.doc)),
    forget_digests = string_to_array(v.digests, ' ')
FROM unnest(%(ids)s::bigint[], %(owners)s::bigint[], %(docs)s::text[], %(digests)s::text[]) AS v(id, owner, doc, digests)
WHERE m.id = v.id
"""


# The turn each of these user turns replied to, when it was the assistant's.
_REPLIED_TO_SQL = f"""
SELECT m.id, p.content FROM {Message._meta.db_table} m
JOIN LATERAL (SELECT p.role, p.content FROM {Message._meta.db_table} p
              WHERE p.session_id = m.session_id AND p.seq < m.seq ORDER BY p.seq DESC LIMIT 1) p ON p.role = 'assistant'
WHERE m.id = ANY(%(ids)s::bigint[])
"""


def excerpts_index(*, user_id: int, messages: list[Message]) -> int:
    """Make these user turns findable (light sleep calls it for the turns of a session it kept)."""
    return excerpts_index_many(turns=[(user_id, messages)])


def excerpts_index_many(*, turns: list[tuple[int, list[Message]]], replied_to: dict[int, str] | None = None) -> int:
    """excerpts_index for several users' turns, (user id, messages) each, in two statements: their
    words and those of the assistant's turn each replied to, sensitive clauses left out of both (so
    they cannot be found), secrets masked; and the turn's forgetting digests (turn_digests), which
    the search checks against the tombstones. `replied_to`: the replied-to turns by message id when
    the caller has the sessions' messages already (`replied_to_in`), one statement less."""
    rows = [(user_id, m) for user_id, messages in turns for m in messages
            if m.role == Message.Role.USER and m.content.strip()]
    if not rows:
        return 0
    with connection.cursor() as cursor:
        if replied_to is None:
            cursor.execute(_REPLIED_TO_SQL, {"ids": [m.pk for _, m in rows]})
            replied_to = dict(cursor.fetchall())
        docs = [search_text(excerpt_words(m.content), user_id=user_id,
                            replying_to=excerpt_words(replied_to.get(m.pk) or "", anyone=True)) for user_id, m in rows]
        digests = [" ".join(sorted(turn_digests(m.content))) for _, m in rows]
        cursor.execute(_INDEX_SQL, {"ids": [m.pk for _, m in rows], "owners": [user_id for user_id, _ in rows],
                                    "docs": docs, "digests": digests})
        return cursor.rowcount


def replied_to_in(*, messages: list[Message], ids: set[int]) -> dict[int, str]:
    """_REPLIED_TO_SQL read from a whole session's messages (in seq order): for each message of `ids`,
    the content of the message just before it when that one is the assistant's."""
    return {m.pk: before.content for before, m in zip(messages, messages[1:])
            if m.pk in ids and before.role == Message.Role.ASSISTANT}


def excerpts_reindex(*, batch: int = 2000) -> int:
    """Write every indexed turn's search text again as excerpts_index writes it now (after a change of
    the search text: `manage.py excerpts_reindex`). Batch by batch, each its own statement."""
    done, last_id = 0, 0
    while True:
        rows = list(Message.objects.filter(pk__gt=last_id, search__isnull=False).order_by("pk")
                    .select_related("session").only("pk", "role", "content", "session__user_id")[:batch])
        if not rows:
            return done
        for user_id in {m.session.user_id for m in rows}:
            done += excerpts_index(user_id=user_id, messages=[m for m in rows if m.session.user_id == user_id])
        last_id = rows[-1].pk


def excerpt_words(text: str, *, anyone: bool = False) -> str:
    """What of a turn may be searched and shown: its sensitive clauses taken out (about the user, or
    with anyone=True about anyone: the assistant's words), secrets masked."""
    return mask_secrets(redact_sensitive(text, anyone=anyone).text)


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
    previous: str | None  # the turn just before, when it is the assistant's (as indexed): for a short answer
    unchecked: bool = False  # indexed before its forgetting digests: checked against the tombstones on read
    said: str = ""  # the turn's words that may be shown (excerpt_words)
    statement: str = ""  # what the model reads (made by worded(), when fusion takes the excerpt)
    quote: str = ""  # the user's words in it
    query: str = ""  # what it was found for: the wording picks the sentences that match it

    def worded(self) -> Excerpt:
        """The excerpt with its statement and quote (excerpt_statement), made once."""
        if not self.statement:
            self.statement, self.quote = excerpt_statement(self, query=self.query)
        return self

    def source(self, quote: str) -> dict:
        return {
            "session_external_id": self.session_external_id,
            "message_external_id": self.message_external_id,
            "quote": quote,
            "said_at": self.said_at.isoformat(),
        }


# One statement. First the query's words as the index stores them (stemmed lexemes), with how many
# of the user's turns hold each (chat.SearchTerm, kept by triggers) and how many turns the user has
# (the owner token's count): each word's idf. Then the turns of the scope that hold one of the RARER
# words — taken rarest first while the turns holding them add up to at most SEARCH_POOL, at least
# one word — scored by BM25: each word's idf once per turn that holds it (tf saturates fast
# in short turns), over BM25's length factor (k1 1.2, b 0.75, the tsvector's length against the
# pool's mean), ties to the newer turn. Searching by the rare words only is what keeps a question of
# common words ("next week", "work") from ranking thousands of turns: a turn holding none of them
# holds only words that thousands of turns share, which score less than one rare word; at LoCoMo's
# size (~300 turns per user) every word is searched. Not ts_rank_cd: it has no notion of a rare word
# (docs/context.md).
# The scope's rules come after the ranking, walked best first until `limit` turns pass (stop 31: the
# statement's execution 3.1 → 2.1 ms at the size, docs/bench.md): the turn's session (the user's, light sleep
# kept it and has read up to the turn, no other persona's), not a candidate the USER dismissed (the
# row still points at the turn; deep sleep's own dismissals — a low score, expiry — are not a wish to
# forget: those turns, with facts light sleep heard but deep sleep did not keep, are exactly what
# excerpts are for), no forgetting digest (set with the search vector) among the user's tombstones.
# Each rule is one index probe per turn walked (OFFSET 0: the generic plan cannot read every dismissed
# candidate or tombstone instead, as when the tables look small). The mean length is the pool's, before the rules.
SEARCH_POOL = 300
# Each word as the user's turns store it (owned_lexeme: "<user id>_<lexeme>"), quoted for tsquery.
_QUOTED = "'''' || replace(replace(%(prefix)s || words.lexeme, chr(92), chr(92) || chr(92)), '''', '''''') || ''''"
_CANDIDATES_SQL = f"""
WITH words AS (
    SELECT w.lexeme, t.turns AS df, min(q.position) AS position
    FROM unnest(%(terms)s::text[]) WITH ORDINALITY AS q(term, position)
    CROSS JOIN LATERAL unnest(to_tsvector('{SEARCH_CONFIG}', q.term)) AS w
    JOIN {SearchTerm._meta.db_table} t ON t.user_id = %(user_id)s AND t.lexeme = w.lexeme
    GROUP BY w.lexeme, t.turns
),
weighed AS (
    SELECT {_QUOTED} AS quoted, ({_QUOTED})::tsquery AS query,
           ln(1 + (total.n - words.df + 0.5) / (words.df + 0.5)) AS idf,
           words.df, sum(words.df) OVER (ORDER BY words.df, words.position ROWS UNBOUNDED PRECEDING) - words.df AS before
    FROM words, (SELECT o.turns::float8 AS n FROM {SearchTerm._meta.db_table} o
                 WHERE o.user_id = %(user_id)s AND o.lexeme = %(owner)s) AS total
),
-- The index first. The cap applies before the scope's rules: another persona's turns can take places in the
-- pool (never in the answer), which matters only when the rarest word alone is in more than SEARCH_POOL turns.
found AS MATERIALIZED (
    SELECT m.id, m.session_id, m.seq, m.forget_digests, length(m.search) AS size,
           (SELECT coalesce(sum(weighed.idf), 0) FROM weighed WHERE m.search @@ weighed.query) AS idf
    FROM {Message._meta.db_table} m
    WHERE m.search @@ (SELECT string_agg(quoted, ' | ')::tsquery
                       FROM weighed WHERE before = 0 OR before + df <= %(pool)s)
      AND m.role = 'user'
    LIMIT %(pool)s
),
ranked AS (
    SELECT found.*, found.idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * found.size / (SELECT greatest(avg(f.size)::float8, 1) FROM found f))) AS rank
    FROM found
    ORDER BY rank DESC, found.id DESC
),
kept AS (
    SELECT r.id, r.rank, r.session_id, r.seq, r.forget_digests, ses.external_id AS session_external_id
    FROM ranked r
    CROSS JOIN LATERAL (SELECT s.external_id FROM {ChatSession._meta.db_table} s
                        WHERE s.id = r.session_id AND s.user_id = %(user_id)s
                          AND s.dreamed_at IS NOT NULL AND NOT s.skipped AND r.seq <= s.processed_seq
                          AND COALESCE(s.persona_id, 0) IN (0, COALESCE(%(persona_id)s, 0)) OFFSET 0) ses
    WHERE NOT EXISTS (SELECT 1 FROM {Candidate._meta.db_table} c
                      WHERE c.message_id = r.id AND c.status = '{Candidate.Status.DISMISSED}'
                        AND c.reason = %(user_dismissed)s OFFSET 0)
      AND NOT EXISTS (SELECT 1 FROM {Tombstone._meta.db_table} tomb
                      WHERE tomb.user_id = %(user_id)s AND tomb.digest = ANY(r.forget_digests) OFFSET 0)
    ORDER BY r.rank DESC, r.id DESC
    LIMIT %(limit)s
)
SELECT t.id, t.rank, m.content, m.created_at, m.external_id, t.session_external_id,
       ARRAY(SELECT s.memory_id FROM {MemorySource._meta.db_table} s WHERE s.message_id = t.id),
       (SELECT p.content FROM (SELECT p.role, p.content FROM {Message._meta.db_table} p
                               WHERE p.session_id = t.session_id AND p.seq < t.seq ORDER BY p.seq DESC LIMIT 1) p
        WHERE p.role = 'assistant'),
       t.forget_digests IS NULL
FROM kept t
JOIN {Message._meta.db_table} m ON m.id = t.id
ORDER BY t.rank DESC, t.id DESC
"""


# The search as recall sends it with its re-read (dreaming/memory/prepared.py: planned once per connection).
EXCERPT_SEARCH = Prepared("recall_excerpt_search", _CANDIDATES_SQL, types=(
    ("terms", "text[]"), ("owner", "text"), ("prefix", "text"), ("user_id", "bigint"), ("persona_id", "bigint"),
    ("pool", "bigint"), ("limit", "bigint"), ("user_dismissed", "text"),
))


def excerpt_candidates(*, user_id: int, persona_id: int | None, query: str, limit: int) -> list[Excerpt]:
    """The best `limit` indexed turns for `query`, minus what was forgotten or is sensitive, worded."""
    search = excerpt_search(user_id=user_id, persona_id=persona_id, query=query, limit=limit)
    if search is None:
        return []
    with connection.cursor() as cursor:
        cursor.execute(*search)
        rows = cursor.fetchall()
    return excerpts_found(rows=rows, user_id=user_id, query=query)


def excerpt_search(*, user_id: int, persona_id: int | None, query: str, limit: int) -> tuple[str, dict] | None:
    """The search statement and its parameters (None: nothing to look for). recall() may send it in
    one round trip with its memory rows; excerpts_found() reads its rows."""
    terms = search_query(query)
    if terms is None:
        return None
    return _CANDIDATES_SQL, {
        "terms": terms.split(" or "), "owner": _owner_token(user_id), "prefix": owned_lexeme(user_id, ""), "user_id": user_id, "persona_id": persona_id,
        "pool": SEARCH_POOL, "limit": limit, "user_dismissed": Candidate.USER_DISMISSED_REASON,
    }


def excerpts_found(*, rows: list[tuple], user_id: int, query: str) -> list[Excerpt]:
    found = [Excerpt(i, float(rank), content, at, mid, sid, list(mids or []), prev, unchecked)
             for i, rank, content, at, mid, sid, mids, prev, unchecked in rows]
    return _showable(_without_forgotten(user_id=user_id, excerpts=found), query=query)


def _showable(found: list[Excerpt], *, query: str) -> list[Excerpt]:
    """Sensitive clauses out (light sleep indexed the turn without them, but a row indexed before a rule existed, and
    the row's whole turn, still hold them), one excerpt per wording. Only the excerpts fusion takes are worded
    (Excerpt.worded); none is lost for an empty quote: excerpt_statement keeps whole sentences or marks its cut "…"."""
    shown: list[Excerpt] = []
    seen: set[str] = set()
    for excerpt in found:
        excerpt.said = _found_words(excerpt.content)
        wording = normalize_for_match(excerpt.content)
        # The same words said again in another session are one excerpt (the better ranked), not k of them.
        if excerpt.said.strip() and wording not in seen:
            seen.add(wording)
            excerpt.query = query
            shown.append(excerpt)
    return shown


# What of a found turn may be shown, remembered by its text: turns come back from recall to recall, and mask_secrets
# was most of the filter's cost. Only turns ≤ 2,000 characters, as redact_sensitive's own cache (~16 MB at most).
def _found_words(content: str) -> str:
    return _found_words_cached(content) if len(content) <= 2000 else excerpt_words(content)


_found_words_cached = lru_cache(maxsize=4096)(excerpt_words)


def _without_forgotten(*, user_id: int, excerpts: list[Excerpt]) -> list[Excerpt]:
    """The search checked the tombstones of every turn that has its digests; the others (indexed
    before them) are checked here."""
    digests = {e.message_id: turn_digests(e.content) for e in excerpts if e.unchecked}
    if not digests:
        return excerpts
    wanted = sorted(set().union(*digests.values()))
    forgotten = set(Tombstone.objects.filter(user_id=user_id, digest__in=wanted).values_list("digest", flat=True))
    return [e for e in excerpts if not (digests.get(e.message_id, set()) & forgotten)]


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
    said = " ".join((excerpt.said or excerpt_words(excerpt.content)).split())
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
