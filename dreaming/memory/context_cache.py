"""A per-process cache of MEMORY.md documents, invalidated by Postgres LISTEN/NOTIFY.

The chat path reads MEMORY.md on every turn, and it changes a few times a day (when the user
sleeps, gives feedback or deletes something). So each process keeps the documents it has read, and a
daemon thread with its own connection LISTENs on `memcenter_memory_md`: triggers on
MemoryDocument and MemorySettings (migration 0005) notify the user's id when a transaction that
changed them commits, and the thread drops that user's entries. A cached read makes no query.

Correctness rules (docs/context.md, "The MEMORY.md cache"):
1. Only a *live* cache is read or filled: the listener is connected and LISTENing. Connection
   lost → not live, everything dropped, reads go to the database until it has reconnected.
2. A reader takes a ticket (the invalidation counter) before its query and stores the result only
   if no invalidation of that user (or of everything) happened since: a notification that
   arrives while the query runs means the result may be older than the commit it announces.
3. Writers in this process also invalidate on commit (`memory_md_cache_evict`), so a redirect
   right after a change never waits for the notification.
4. After a fork the child starts from nothing: the parent's entries and listener are not its own.
"""
from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import psycopg
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

CHANNEL = "memcenter_memory_md"
# How often the listener wakes up to see whether it was asked to stop.
POLL_SECONDS = 0.2
# With no notification for this long, a `SELECT 1` proves the connection is still there (a dead
# TCP peer may otherwise go unnoticed until keepalives give up).
HEALTH_CHECK_SECONDS = 30.0
RECONNECT_MIN_SECONDS = 0.1
RECONNECT_MAX_SECONDS = 5.0

Key = tuple[int, int | None]  # (user id, persona id or None for the profile scope)


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    stores: int = 0
    stores_refused: int = 0  # a notification (or a disconnect) came while the document was being read
    invalidations: int = 0
    connects: int = 0
    disconnects: int = 0


@dataclass
class MemoryMdCache:
    """The entries and the invalidation bookkeeping of one process; every field behind `lock`."""

    pid: int = field(default_factory=os.getpid)
    lock: threading.Lock = field(default_factory=threading.Lock)
    entries: OrderedDict = field(default_factory=OrderedDict)  # Key → the document, or None = "no document"
    sizes: dict = field(default_factory=dict)  # Key → bytes, for the entries that have `nbytes`
    held_bytes: int = 0  # the sum of `sizes`, kept as entries come and go
    keys_by_user: dict[int, set[Key]] = field(default_factory=dict)
    live: bool = False
    # Invalidation counter. `invalidated[user]` is its value at that user's latest invalidation;
    # `floor` is its value at the latest "forget everything". A reader holding ticket t may store
    # only if both are ≤ t.
    counter: int = 0
    floor: int = 0
    invalidated: dict[int, int] = field(default_factory=dict)
    stats: CacheStats = field(default_factory=CacheStats)
    listener: _Listener | None = None

    def lookup(self, key: Key) -> tuple[bool, object | None, int | None]:
        """(hit, value, ticket). The ticket is None when the cache is not live: then do not store."""
        with self.lock:
            if not self.live:
                self.stats.misses += 1
                return False, None, None
            if key in self.entries:
                self.entries.move_to_end(key)
                self.stats.hits += 1
                return True, self.entries[key], None
            self.stats.misses += 1
            return False, None, self.counter

    def store(self, key: Key, value: object | None, ticket: int | None, *, max_entries: int,
              max_bytes: int | None = None) -> bool:
        """Keep `value` unless invalidated since `ticket`; then drop the least recently used entries
        beyond `max_entries`, or beyond `max_bytes` of values with `nbytes` (the newest always stays)."""
        user_id = key[0]
        with self.lock:
            if ticket is None or not self.live or ticket < self.floor or self.invalidated.get(user_id, 0) > ticket:
                self.stats.stores_refused += 1
                return False
            self.entries[key] = value
            self.entries.move_to_end(key)
            self._size_drop(key)
            self.sizes[key] = getattr(value, "nbytes", 0)
            self.held_bytes += self.sizes[key]
            self.keys_by_user.setdefault(user_id, set()).add(key)
            while len(self.entries) > max_entries or (
                    max_bytes is not None and len(self.entries) > 1 and self.held_bytes > max_bytes):
                old_key, _ = self.entries.popitem(last=False)
                self._unindex(old_key)
            self.stats.stores += 1
            return True

    def invalidate_user(self, user_id: int) -> None:
        with self.lock:
            self.counter += 1
            self.invalidated[user_id] = self.counter
            for key in self.keys_by_user.pop(user_id, ()):
                self.entries.pop(key, None)
                self._size_drop(key)
            self.stats.invalidations += 1
            # Keep the bookkeeping bounded: forgetting the per-user marks is safe once the floor
            # moves up to now (every reader in flight then refuses to store).
            if len(self.invalidated) > 10_000:
                self.invalidated.clear()
                self.floor = self.counter

    def reset(self, *, live: bool) -> None:
        """Forget everything; no reader in flight may store what it read."""
        with self.lock:
            self.counter += 1
            self.floor = self.counter
            self.entries.clear()
            self.sizes.clear()
            self.held_bytes = 0
            self.keys_by_user.clear()
            self.invalidated.clear()
            self.live = live
            self.stats.invalidations += 1

    def _size_drop(self, key: Key) -> None:
        self.held_bytes -= self.sizes.pop(key, 0)

    def _unindex(self, key: Key) -> None:
        self._size_drop(key)
        keys = self.keys_by_user.get(key[0])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self.keys_by_user[key[0]]


class _Listener(threading.Thread):
    """LISTENs on its own autocommit connection and invalidates; reconnects with backoff."""

    def __init__(self, *, cache: MemoryMdCache, params: dict, companions: tuple[MemoryMdCache, ...] = ()):
        super().__init__(name="memory-md-listener", daemon=True)
        self.cache = cache
        # Caches keyed by user that follow the same notifications (recall's held memories).
        self.caches = (cache, *companions)
        self.params = params
        self.stopping = threading.Event()
        self.backend_pid: int | None = None  # of the current connection (tests terminate it)

    def run(self) -> None:
        failures = 0
        while not self.stopping.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.backend_pid = conn.info.backend_pid
                    # Changes committed while we were not listening were never announced to us.
                    for cache in self.caches:
                        cache.reset(live=True)
                    self.cache.stats.connects += 1
                    failures = 0
                    self._listen(conn)
            except Exception as exc:  # any failure: serve from the database until reconnected
                if not self.stopping.is_set():
                    log.warning("MEMORY.md cache listener lost its connection: %s", exc)
            finally:
                for cache in self.caches:
                    cache.reset(live=False)
                self.backend_pid = None
            if self.stopping.is_set():
                break
            self.cache.stats.disconnects += 1
            self.stopping.wait(min(RECONNECT_MIN_SECONDS * 2**failures, RECONNECT_MAX_SECONDS))
            failures = min(failures + 1, 10)  # 0.1 s doubling, capped at RECONNECT_MAX_SECONDS

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(**self.params, autocommit=True)

    def _listen(self, conn: psycopg.Connection) -> None:
        quiet_since = time.monotonic()
        while not self.stopping.is_set():
            for notify in conn.notifies(timeout=POLL_SECONDS):
                self._apply(notify.payload)
                quiet_since = time.monotonic()
            if time.monotonic() - quiet_since > HEALTH_CHECK_SECONDS:
                conn.execute("SELECT 1")
                quiet_since = time.monotonic()

    def _apply(self, payload: str) -> None:
        try:
            user_id = int(payload)
        except ValueError:  # '*' (a TRUNCATE) or anything unexpected: forget everything
            for cache in self.caches:
                cache.reset(live=True)
            return
        for cache in self.caches:
            cache.invalidate_user(user_id)

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()
        self.join(timeout)


# --- The process's cache ------------------------------------------------------------------
_cache: MemoryMdCache | None = None
# Recall's held memories per user (dreaming/memory/recall_held.py), invalidated by the same listener:
# the memory table notifies the same channel (migration 0009). A separate LRU because its entries
# are large (~2.5 KB per 512-d memory) and bounded by RECALL_KEY_CACHE_SIZE users and RECALL_CACHE_MB.
_recall_cache: MemoryMdCache | None = None
_start_lock = threading.Lock()


def _forget_parent_state() -> None:
    # The parent's lock may be held by one of its threads at fork time, and its listener thread
    # does not exist here: start over. (psycopg does not close a connection inherited by fork.)
    global _cache, _recall_cache, _start_lock
    _cache, _recall_cache, _start_lock = None, None, threading.Lock()


os.register_at_fork(after_in_child=_forget_parent_state)


def _listener_params() -> dict:
    """Django's default connection parameters now (tests point it at the test database), or
    MEMORY_MD_LISTEN_URL: LISTEN needs a real session, which PgBouncer in transaction mode does not give."""
    if settings.MEMORY_MD_LISTEN_URL:
        params = psycopg.conninfo.conninfo_to_dict(settings.MEMORY_MD_LISTEN_URL)
    else:
        params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    params.setdefault("connect_timeout", 5)
    params.setdefault("application_name", "memcenter memory-md listener")
    # Over TCP, notice a peer that vanished without closing (ignored on Unix sockets): keepalives
    # while idle, and a bound on unacknowledged data for the health check's SELECT 1.
    for name, value in (("keepalives", 1), ("keepalives_idle", 10), ("keepalives_interval", 5),
                        ("keepalives_count", 3), ("tcp_user_timeout", 15_000)):
        params.setdefault(name, value)
    return params


def memory_md_cache() -> MemoryMdCache:
    """This process's cache, with its listener started (lazily, and again in a forked child)."""
    cache = _cache
    if cache is not None and cache.pid == os.getpid() and cache.listener is not None:
        return cache
    return _start()


def _start() -> MemoryMdCache:
    global _cache, _recall_cache
    with _start_lock:
        if _cache is None or _cache.pid != os.getpid():
            _cache, _recall_cache = MemoryMdCache(), MemoryMdCache()
        if _cache.listener is None:
            _cache.listener = _Listener(cache=_cache, params=_listener_params(), companions=(_recall_cache,))
            _cache.listener.start()
            # Stop before the interpreter's other exit handlers (atexit runs them last-in first-out):
            # the embedded Postgres shuts down in one of them, and the listener would otherwise log
            # a lost connection at the end of every management command.
            atexit.register(memory_md_cache_stop)
        return _cache


def memory_md_cached(*, key: Key, fetch: Callable[[], object | None]) -> object | None:
    """The cached value for `key`, or `fetch()` (stored only when no invalidation raced it).

    The caller must treat the value as read-only: it is shared by every thread of the process.
    """
    return _cached(memory_md_cache(), key=key, fetch=fetch, max_entries=settings.MEMORY_MD_CACHE_SIZE)


def _cached(cache: MemoryMdCache, *, key: Key, fetch: Callable[[], object | None], max_entries: int,
            max_bytes: int | None = None) -> object | None:
    hit, value, ticket = cache.lookup(key)
    if hit:
        return value
    value = fetch()
    cache.store(key, value, ticket, max_entries=max_entries, max_bytes=max_bytes)
    return value


def recall_held_cached(*, user_id: int, fetch: Callable[[], object]) -> object:
    """Recall's held memories of one user from this process's cache, or `fetch()` (stored only
    when no invalidation raced it). Read-only for the caller, like memory_md_cached."""
    memory_md_cache()  # the listener, which also keeps this cache live
    cache = _recall_cache
    if cache is None:  # stopped meanwhile (tests, bench)
        return fetch()
    return _cached(cache, key=(user_id, None), fetch=fetch, max_entries=settings.RECALL_KEY_CACHE_SIZE,
                   max_bytes=settings.RECALL_CACHE_MB * 2**20)


def memory_md_cache_evict(*, user_id: int) -> None:
    """Drop a user's entries now (writers in this process call it on commit)."""
    for cache in (_cache, _recall_cache):
        if cache is not None and cache.pid == os.getpid():
            cache.invalidate_user(user_id)


def memory_md_cache_wait_live(*, timeout: float = 5.0) -> bool:
    """Start the listener if needed and wait until it is LISTENing (bench, tests, warm-up)."""
    cache = memory_md_cache()
    deadline = time.monotonic() + timeout
    while not cache.live and time.monotonic() < deadline:
        time.sleep(0.005)
    return cache.live


def memory_md_cache_stop() -> None:
    """Stop the listener, close its connection and drop the cache (tests, bench, shutdown)."""
    global _cache, _recall_cache
    with _start_lock:
        cache, _cache = _cache, None
        recall_cache, _recall_cache = _recall_cache, None
    if cache is not None and cache.pid == os.getpid() and cache.listener is not None:
        cache.listener.stop()
        cache.reset(live=False)
    if recall_cache is not None:
        recall_cache.reset(live=False)
