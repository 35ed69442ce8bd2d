"""Recall's statements prepared once per database connection, then run by name.

Planning the excerpt search (many CTEs and subplans) cost the server more than running it: 3.5 of
its 6.0 ms of CPU per call at load 9 (docs/bench.md, stop 28). A prepared statement keeps its plan
for the connection: Postgres plans the first five calls for their parameters, then keeps one generic
plan when it is not dearer (`plan_cache_mode`). psycopg's own preparation needs server-side binding,
which Django does not use (`prepare_threshold` is None), so recall sends the SQL commands
(`PREPARE`, `EXECUTE name(…)`) through Django's cursor, several per query, the parameters bound by
the client as before, the queries seen by Django as any other.

prepared_send() sends one such query and returns at once (docs/bench.md, stop 30): recall sends the
excerpt search, ranks its held memories while the server searches (the machine has more than one
core), then reads the search's rows and sends the re-read. It goes through libpq (psycopg's `pgconn`)
rather than psycopg's pipeline mode, whose Python machinery cost more of the process's CPU than the
overlap saved.

Every call runs them on their generic plan (`SET LOCAL plan_cache_mode = force_generic_plan`, in
the same query, so it ends with it). Left to itself (`auto`) Postgres compares the generic plan's
estimate with the custom plans' and, at the issue's size (a user's 50k turns among 5M messages),
kept planning the search for every call: 0 generic plans of 330, 6.4 ms of backend CPU per call
against 3.5 ms with the generic plan (docs/bench.md, stop 29). The generic plan has the same shape
as the custom ones (the search's pool is bounded by its LIMIT, not by an estimate); only its
estimates are coarser.

A connection's first use sends `DEALLOCATE ALL` and the `PREPARE`s with the `EXECUTE`s, so a
connection left with stale statements (an error after them) is put right. Nothing else here uses
prepared statements: psycopg's are off in Django unless OPTIONS sets `prepare_threshold`, which this
would fight with. Not behind a pooler in transaction mode (the statements live in the server's
session): `RECALL_PREPARED_STATEMENTS=false` there. Recall uses them only on its held path, which is
off inside a transaction.
"""
from __future__ import annotations

import select
from dataclasses import dataclass
from types import SimpleNamespace

import psycopg
from django.conf import settings
from django.db import DatabaseError, connection
from psycopg import pq


@dataclass(frozen=True)
class Prepared:
    name: str
    sql: str  # with %(param)s placeholders
    types: tuple[tuple[str, str], ...]  # (param, SQL type), in EXECUTE's order

    def execute_sql(self) -> str:
        return f"EXECUTE {self.name}(" + ", ".join(f"%({param})s" for param, _ in self.types) + ")"

    def prepare_sql(self) -> str:
        body = self.sql
        for position, (param, _) in enumerate(self.types, 1):
            body = body.replace(f"%({param})s", f"${position}")
        if "%(" in body:
            raise ValueError(f"{self.name}: a parameter without a type in {body[body.index('%('):][:40]!r}")
        return f"PREPARE {self.name}({', '.join(kind for _, kind in self.types)}) AS {body}"


# SET LOCAL lasts until the end of the transaction: here the implicit one of the multi-statement query
# (recall runs prepared only outside a transaction), so the connection's other statements keep `auto`.
_GENERIC_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan"


def _setup(statements: list[Prepared]) -> list[str]:
    """What to send before `statements` on this connection: on its first use `DEALLOCATE ALL`, the
    `PREPARE`s it lacks, and the generic plans. Counted as prepared from here (reset on an error)."""
    raw = connection.connection
    known = getattr(connection, "_recall_prepared", None)
    fresh = known is None or known[0] is not raw
    if fresh:
        known = (raw, set())
    missing = [s for s in statements if s.name not in known[1]]
    connection._recall_prepared = (raw, known[1] | {s.name for s in missing})
    return (["DEALLOCATE ALL"] if fresh else []) + [s.prepare_sql() for s in missing] + [_GENERIC_PLANS]


def _sent(execute, statements: list[Prepared], params: dict) -> int:
    """Execute the setup and `statements` as one query with `execute` (a cursor's); how many setup results
    come first. An error resets what the connection is counted to hold: the next call starts again with
    DEALLOCATE ALL."""
    setup = _setup(statements)
    try:
        execute(";\n".join(setup + [s.execute_sql() for s in statements]), params)
    except DatabaseError:
        connection._recall_prepared = None
        raise
    return len(setup)


def prepared_run(cursor, statements: list[Prepared], params: dict) -> None:
    """Run `statements` in order on their generic plans, in one round trip on `cursor` (Django's,
    client-side binding), left positioned on the first statement's rows; read the others with
    cursor.nextset()."""
    for _ in range(_sent(cursor.execute, statements, params)):
        cursor.nextset()


def prepared_ahead_usable() -> bool:
    """Whether prepared_send() can be used: prepared statements on, outside a transaction (the
    generic plans' SET LOCAL must end with the query, not with a caller's transaction), on a psycopg 3
    connection that binds parameters client-side (Django's default)."""
    if not settings.RECALL_PREPARED_STATEMENTS or connection.in_atomic_block or not connection.get_autocommit():
        return False
    factory = getattr(connection.connection, "cursor_factory", None)
    return isinstance(factory, type) and issubclass(factory, psycopg.ClientCursor)


def prepared_send(statements: list[Prepared], params: dict):
    """Send `statements` (on their generic plans, as prepared_run) as one query and return at once:
    the server runs them while the process goes on. Returns Django's cursor over them; its fetchall()
    waits for the results, positioned on the first statement's rows (cursor.nextset() for the others).
    Close it (a `with` block) to read what was not read: the connection is then free again."""
    connection.ensure_connection()
    sent = _SentQuery(connection.connection.cursor())
    wrapped = connection.make_debug_cursor(sent) if connection.queries_logged else connection.make_cursor(sent)
    sent.skip = _sent(wrapped.execute, statements, params)
    return wrapped


class _SentQuery:
    """The DB-API cursor under prepared_send(): execute() binds the parameters as Django's cursor does
    (psycopg's ClientCursor) and only sends; the first fetchall() or nextset() waits for every result
    (the socket waited on outside the GIL). Django wraps it, so the query is logged and counted and its
    errors are Django's."""

    def __init__(self, cursor: psycopg.ClientCursor):
        self.cursor = cursor  # the connection's cursor: its adapters load the rows (Django's time zone)
        self._query = None  # what Django's debug cursor logs (DatabaseOperations.last_executed_query)
        self.skip = 0  # the setup's results, not the caller's
        self.results: list | None = None
        self.current = 0

    def execute(self, sql: str, params: dict | None = None) -> None:
        query = self.cursor.mogrify(sql, params).encode(self.cursor.connection.info.encoding)
        self._query = SimpleNamespace(query=query)
        pgconn = self.cursor.connection.pgconn
        pgconn.send_query(query)
        while pgconn.flush():  # a large first query (the PREPAREs) may not fit the socket's buffer at once
            select.select([pgconn.socket], [pgconn.socket], [])
            pgconn.consume_input()

    def _received(self) -> list:
        if self.results is None:
            self.results = []
            pgconn = self.cursor.connection.pgconn
            while True:
                while pgconn.is_busy():
                    select.select([pgconn.socket], [], [])
                    pgconn.consume_input()
                result = pgconn.get_result()
                if result is None:
                    break
                self.results.append(result)
            failed = next((r for r in self.results if r.status == pq.ExecStatus.FATAL_ERROR), None)
            if failed is not None:
                connection._recall_prepared = None
                raise psycopg.errors.error_from_result(failed, encoding=self.cursor.connection.info.encoding)
            self.current = self.skip
        return self.results

    def fetchall(self) -> list[tuple]:
        result = self._received()[self.current]
        loader = psycopg.adapt.Transformer(self.cursor)
        loader.set_pgresult(result)
        return loader.load_rows(0, result.ntuples, tuple)

    def nextset(self) -> bool | None:
        if self.current + 1 < len(self._received()):
            self.current += 1
            return True
        return None

    def close(self) -> None:
        try:
            self._received()
        finally:
            self.cursor.close()
