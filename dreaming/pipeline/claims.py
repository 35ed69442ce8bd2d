"""Claiming sessions for light sleep, safely across any number of workers.

A claim is one statement (WITH picked AS MATERIALIZED (SELECT … FOR UPDATE SKIP LOCKED) UPDATE …
RETURNING id), so two workers never get the same session and nobody reads-then-writes. The claim is committed at once;
no transaction stays open while a model is called. A worker that dies leaves its claim behind, and
the claim is re-taken once it is older than DREAM_CLAIM_STALE_SECONDS.

Two clocks: `now` is the dreaming clock (real time, or a simulated one when a backfill replays
history) and decides which sessions are idle; claim times are always the wall clock, because they
are about whether a worker is still alive, not about the history being replayed.

"Needs dreaming" = never dreamed, or it holds a message past processed_seq (the part light sleep has
processed). Comparing last_active_at with dreamed_at would miss appended messages whose times are
older than the dream (a re-import of a conversation that went on before the first sweep ran).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q
from django.db.models.functions import Greatest
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.models import MemorySettings

_SESSIONS = ChatSession._meta.db_table
_MEMORY_SETTINGS = MemorySettings._meta.db_table
_MESSAGES = Message._meta.db_table


def _eligible_sql(*, now: datetime, user=None, session_ids=None) -> tuple[str, dict]:
    idle_cutoff = now - timedelta(seconds=settings.DREAM_IDLE_SECONDS)
    stale_cutoff = timezone.now() - timedelta(seconds=settings.DREAM_CLAIM_STALE_SECONDS)
    where = [
        # processed_seq is the exact watermark, so a message appended after the dream makes the session
        # eligible again even when its (client-given) time is older than the dream or than the last
        # message. One probe of the (session, seq) unique index per dreamed session.
        f"(s.dreamed_at IS NULL OR EXISTS ("
        f"SELECT 1 FROM {_MESSAGES} m WHERE m.session_id = s.id AND m.seq > s.processed_seq))",
        "s.last_active_at <= %(idle_cutoff)s",
        "(s.claimed_at IS NULL OR s.claimed_at < %(stale_cutoff)s)",
        # Memory off (a settings row with enabled = false): the user's sessions are left alone.
        f"NOT EXISTS (SELECT 1 FROM {_MEMORY_SETTINGS} ms WHERE ms.user_id = s.user_id AND NOT ms.enabled)",
    ]
    params: dict = {"idle_cutoff": idle_cutoff, "stale_cutoff": stale_cutoff}
    if user is not None:
        where.append("s.user_id = %(user_id)s")
        params["user_id"] = user.pk
    if session_ids is not None:
        where.append("s.id = ANY(%(session_ids)s)")
        params["session_ids"] = [int(pk) for pk in session_ids]
    sql = f"SELECT s.id FROM {_SESSIONS} s WHERE {' AND '.join(where)} ORDER BY s.last_active_at, s.id"
    return sql, params


@dataclass(frozen=True)
class Waiting:
    """Sessions with something new to dream that a sweep now would not take, by why."""

    not_idle: int = 0  # still active: dreamed once quiet for DREAM_IDLE_SECONDS
    memory_off: int = 0  # their user turned memory off
    claimed: int = 0  # another worker is dreaming them right now

    @property
    def total(self) -> int:
        return self.not_idle + self.memory_off + self.claimed


def sessions_waiting(*, now: datetime, user=None) -> Waiting:
    """Why sessions that need dreaming are not being dreamed (three counts, for `dream --now` to say)."""
    idle_cutoff = now - timedelta(seconds=settings.DREAM_IDLE_SECONDS)
    stale_cutoff = timezone.now() - timedelta(seconds=settings.DREAM_CLAIM_STALE_SECONDS)
    new_messages = Message.objects.filter(session=OuterRef("pk"), seq__gt=OuterRef("processed_seq"))
    needs = ChatSession.objects.filter(Q(dreamed_at__isnull=True) | Exists(new_messages))
    if user is not None:
        needs = needs.filter(user=user)
    off = MemorySettings.objects.filter(user=OuterRef("user"), enabled=False)
    counts = needs.aggregate(
        memory_off=Count("id", filter=Q(Exists(off))),
        not_idle=Count("id", filter=~Q(Exists(off)) & Q(last_active_at__gt=idle_cutoff)),
        claimed=Count("id", filter=~Q(Exists(off)) & Q(last_active_at__lte=idle_cutoff, claimed_at__gte=stale_cutoff)),
    )
    return Waiting(**counts)


def sessions_claim(
    *, now: datetime, worker: str, batch_size: int, user=None, session_ids=None
) -> tuple[list[int], datetime]:
    """Claim up to batch_size idle sessions for `worker`; returns (ids oldest first, the claim time)."""
    claimed_at = timezone.now()
    eligible, params = _eligible_sql(now=now, user=user, session_ids=session_ids)
    params |= {"claimed_at": claimed_at, "worker": worker[:120], "batch": batch_size}
    # [reliability] The picked rows are a MATERIALIZED CTE, evaluated exactly once. As `id IN (SELECT
    # … LIMIT n FOR UPDATE SKIP LOCKED)` Postgres may re-run the subquery for every row of a nested
    # loop; each re-run skips the rows just claimed and takes the next ones, so the LIMIT was not kept.
    sql = (
        f"WITH picked AS MATERIALIZED ({eligible} LIMIT %(batch)s FOR UPDATE OF s SKIP LOCKED) "
        f"UPDATE {_SESSIONS} AS c SET claimed_at = %(claimed_at)s, claimed_by = %(worker)s, attempts = c.attempts + 1 "
        "FROM picked WHERE c.id = picked.id "
        "RETURNING c.id, c.last_active_at"
    )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [pk for pk, _ in sorted(rows, key=lambda row: (row[1], row[0]))], claimed_at


def sessions_claimable(*, now: datetime, batch_size: int, user=None, session_ids=None) -> list[int]:
    """What sessions_claim would take right now, without taking them (dry runs)."""
    eligible, params = _eligible_sql(now=now, user=user, session_ids=session_ids)
    with connection.cursor() as cursor:
        cursor.execute(f"{eligible} LIMIT %(batch)s", params | {"batch": batch_size})
        return [row[0] for row in cursor.fetchall()]


def _ours(*, session_id: int, worker: str, claimed_at: datetime):
    # Every write after the claim is conditional on still holding it: if our claim went stale and
    # another worker took the session over, our late results are thrown away instead of doubled.
    return ChatSession.objects.filter(pk=session_id, claimed_by=worker[:120], claimed_at=claimed_at)


def claim_release(*, session_id: int, worker: str, claimed_at: datetime, error: str = "") -> bool:
    """Give a session back unstamped, so the next sweep retries it (provider unavailable)."""
    # The outage is not the session's fault: undo the claim's attempt so it never counts toward
    # DREAM_MAX_ATTEMPTS.
    updated = _ours(session_id=session_id, worker=worker, claimed_at=claimed_at).update(
        claimed_at=None, claimed_by="", last_error=error[:2000], attempts=Greatest(F("attempts") - 1, 0)
    )
    return updated == 1


def claim_keep_failed(*, session_id: int, worker: str, claimed_at: datetime, error: str) -> bool:
    """Record an unexpected failure and leave the claim to go stale, so the retry comes after
    DREAM_CLAIM_STALE_SECONDS rather than in a tight loop."""
    return _ours(session_id=session_id, worker=worker, claimed_at=claimed_at).update(last_error=error[:2000]) == 1


def claim_stamp(*, session_id: int, worker: str, claimed_at: datetime, **fields) -> bool:
    """Mark the session processed and release the claim; False when the claim was lost meanwhile."""
    fields |= {"claimed_at": None, "claimed_by": ""}
    return _ours(session_id=session_id, worker=worker, claimed_at=claimed_at).update(**fields) == 1


@dataclass(frozen=True)
class Stamp:
    """What light sleep writes on one session it has processed (claims_stamp)."""

    session_id: int
    processed_seq: int
    note: str = ""
    # A resumed session whose new part said nothing keeps its triage: kind, reason and skipped are not written.
    keep_triage: bool = False
    kind: str = ""
    reason: str = ""
    skipped: bool = False


_STAMP_SQL = f"""
UPDATE {_SESSIONS} AS c SET
    dreamed_at = %(dreamed_at)s, processed_seq = v.processed_seq, attempts = 0, last_error = v.note,
    triage_kind = CASE WHEN v.keep THEN c.triage_kind ELSE v.kind END,
    triage_reason = CASE WHEN v.keep THEN c.triage_reason ELSE v.reason END,
    skipped = CASE WHEN v.keep THEN c.skipped ELSE v.skipped END,
    claimed_at = NULL, claimed_by = ''
FROM unnest(%(ids)s::bigint[], %(seqs)s::integer[], %(notes)s::text[], %(keep)s::boolean[], %(kinds)s::text[],
            %(reasons)s::text[], %(skipped)s::boolean[]) AS v(id, processed_seq, note, keep, kind, reason, skipped)
WHERE c.id = v.id AND c.claimed_by = %(worker)s AND c.claimed_at = %(claimed_at)s
RETURNING c.id
"""


def claims_stamp(*, stamps: list[Stamp], worker: str, claimed_at: datetime, dreamed_at: datetime) -> set[int]:
    """claim_stamp for a batch of sessions in one statement; returns the ids stamped (the others' claims
    were lost meanwhile, as `_ours` says for one)."""
    if not stamps:
        return set()
    params = {
        "dreamed_at": dreamed_at, "worker": worker[:120], "claimed_at": claimed_at,
        "ids": [s.session_id for s in stamps], "seqs": [s.processed_seq for s in stamps],
        "notes": [s.note[:2000] for s in stamps], "keep": [s.keep_triage for s in stamps],
        "kinds": [s.kind for s in stamps], "reasons": [s.reason[:2000] for s in stamps],
        "skipped": [s.skipped for s in stamps],
    }
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_SQL, params)
        return {row[0] for row in cursor.fetchall()}
