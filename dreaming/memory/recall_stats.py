"""Recall stats (how often recall returned a memory, and when last: chat.MemoryRecall), written in batches.

Recall used to upsert the stats with every call: a write on the path the model waits for (~6 ms of
a recall at load 10, issue #18). Outside a transaction a recall now only notes its memory ids in the
process (recall_stats_note); a flusher thread writes what accumulated every
RECALL_STATS_FLUSH_SECONDS in one statement (count += how often, last_recalled_at = the latest),
and what is left when the process exits is written then. The memory center's counts lag by at most
that interval; a crash loses at most that interval's counts (the write already went without
waiting for the WAL flush: the stats are bookkeeping).

Inside a transaction (a caller's atomic block, the tests) the stats are written with the recall,
in the caller's transaction: another connection could not see the caller's uncommitted memories,
and a rollback takes the count with it. RECALL_STATS_FLUSH_SECONDS = 0 writes with every recall.
"""
from __future__ import annotations

import atexit
import logging
import os
import threading
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection

from dreaming.models import Memory, MemoryRecall

logger = logging.getLogger(__name__)

# One row per memory: how many recalls returned it, and the latest. set_config(..., true) turns
# synchronous_commit off for the statement's own (autocommit) transaction (measured: p95 3.9 → 1.6
# ms); inside a caller's transaction it would relax the caller's commit too, so there it is left out.
# The join on the memory table leaves out a memory hard-deleted since the recall.
_RECORD_SQL = f"""
INSERT INTO {MemoryRecall._meta.db_table} (memory_id, count, last_recalled_at)
SELECT m.id, v.times, v.at
FROM unnest(%(ids)s::bigint[], %(times)s::int[], %(ats)s::timestamptz[]) AS v(id, times, at)
JOIN {Memory._meta.db_table} m ON m.id = v.id{{relaxed}}
ON CONFLICT (memory_id) DO UPDATE
SET count = {MemoryRecall._meta.db_table}.count + EXCLUDED.count,
    last_recalled_at = greatest({MemoryRecall._meta.db_table}.last_recalled_at, EXCLUDED.last_recalled_at)
"""


def recall_record_sql() -> str:
    """The stats upsert for the current connection's state (recall() sends it with its sources query);
    its parameters: recall_record_params()."""
    relaxed = "" if connection.in_atomic_block else ", (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed"
    return _RECORD_SQL.format(relaxed=relaxed).strip()


def recall_record_params(*, ids: list[int], now: datetime) -> dict:
    """One recall of each of `ids` at `now`."""
    return {"ids": [int(i) for i in ids], "times": [1] * len(ids), "ats": [now] * len(ids)}


def recall_record(*, ids: list[int], now: datetime) -> int:
    """The stats upsert on its own, now (recall() sends it together with its sources query, or notes it)."""
    with connection.cursor() as cursor:
        cursor.execute(recall_record_sql(), recall_record_params(ids=ids, now=now))
        return cursor.rowcount


# --- Deferred: noted in the process, written by the flusher ----------------------------------------
_lock = threading.Lock()
_pending: dict[int, list] = {}  # memory id → [times recalled, latest at]
_noted = threading.Event()  # something is pending: the flusher's next round has work
_flusher: tuple[threading.Thread, threading.Event] | None = None  # the thread and what stops it


def recall_stats_deferred() -> bool:
    """Whether a recall now notes its stats for the flusher instead of writing them itself."""
    return settings.RECALL_STATS_FLUSH_SECONDS > 0 and not connection.in_atomic_block


def recall_stats_note(*, ids: list[int], now: datetime) -> None:
    """Count one recall of each of `ids` at `now`, to be written by the flusher."""
    global _flusher
    with _lock:
        for memory_id in ids:
            entry = _pending.get(int(memory_id))
            if entry is None:
                _pending[int(memory_id)] = [1, now]
            else:
                entry[0] += 1
                entry[1] = max(entry[1], now)
        _noted.set()
        if _flusher is None or not _flusher[0].is_alive():
            stop = threading.Event()
            _flusher = (threading.Thread(target=_flush_loop, args=(stop,), name="recall-stats", daemon=True), stop)
            _flusher[0].start()


def recall_stats_stop() -> None:
    """Stop the flusher and write what is pending (before the process uses another database; tests).
    The next note starts a new flusher."""
    global _flusher
    with _lock:
        flusher, _flusher = _flusher, None
    if flusher is not None:
        thread, stop = flusher
        stop.set()
        _noted.set()
        thread.join()
    recall_stats_flush()


def recall_stats_flush() -> int:
    """Write every pending count now, in one statement; returns the rows written. Called by the
    flusher, at process exit, and by whoever needs the counts up to date this instant (a bench
    switching databases, a test)."""
    with _lock:
        batch = dict(_pending)
        _pending.clear()
    if not batch:
        return 0
    ids = list(batch)
    params = {"ids": ids, "times": [batch[i][0] for i in ids], "ats": [batch[i][1] for i in ids]}
    try:
        return _write(params)
    except IntegrityError:
        # A memory deleted between the statement's join and its insert: once more, without it.
        return _write(params)
    except DatabaseError:
        logger.exception("recall stats not written; kept for the next round")
        with _lock:
            for memory_id, (times, at) in batch.items():
                entry = _pending.setdefault(memory_id, [0, at])
                entry[0] += times
                entry[1] = max(entry[1], at)
        return 0


def _write(params: dict) -> int:
    with connection.cursor() as cursor:
        cursor.execute(recall_record_sql(), params)
        return cursor.rowcount


def _flush_loop(stop: threading.Event) -> None:
    while not stop.is_set():
        _noted.wait()
        stop.wait(settings.RECALL_STATS_FLUSH_SECONDS)
        with _lock:
            _noted.clear()  # a note from here on is the next round's
        try:
            recall_stats_flush()
        except Exception:  # never let the thread die on a surprise
            logger.exception("recall stats flush failed")
        finally:
            # The thread's own connection, closed after each round: an idle process holds none.
            connection.close()


def _flush_at_exit() -> None:
    try:
        recall_stats_flush()
    except Exception:  # the database may be gone already: counts of the last interval are lost
        logger.exception("recall stats not written at exit")


def _forget_in_child() -> None:
    # A forked child starts with the parent's pending counts, which the parent writes (and with a
    # lock another thread of the parent may have held).
    global _flusher, _lock
    _lock = threading.Lock()
    _pending.clear()
    _noted.clear()
    _flusher = None


atexit.register(_flush_at_exit)
os.register_at_fork(after_in_child=_forget_in_child)
