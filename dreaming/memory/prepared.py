"""Recall's statements prepared once per database connection, then run by name.

Planning the excerpt search (many CTEs and subplans) cost the server more than running it: 3.5 of
its 6.0 ms of CPU per call at load 9 (docs/bench.md, stop 28). A prepared statement keeps its plan
for the connection: Postgres plans the first five calls for their parameters, then keeps one generic
plan when it is not dearer (`plan_cache_mode`). psycopg's own preparation needs server-side binding,
which Django does not use (`prepare_threshold` is None), so recall sends the SQL commands
(`PREPARE`, `EXECUTE name(…)`) through Django's cursor: still one round trip, the parameters bound
by the client as before, the queries seen by Django as any other.

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

from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
from django.conf import settings
from django.db import DatabaseError, connection


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


def prepared_run(cursor, statements: list[Prepared], params: dict) -> None:
    """Run `statements` in order on their generic plans, in one round trip on `cursor` (Django's,
    client-side binding), left positioned on the first statement's rows; read the others with
    cursor.nextset()."""
    setup = _setup(statements)
    try:
        cursor.execute(";\n".join(setup + [s.execute_sql() for s in statements]), params)
    except DatabaseError:
        connection._recall_prepared = None  # the next call starts again with DEALLOCATE ALL
        raise
    for _ in setup:
        cursor.nextset()


class PreparedPipeline:
    """Prepared statements sent without waiting (psycopg's pipeline mode): the server runs one while
    the process works, and its rows are read when needed. See prepared_pipeline()."""

    def __init__(self):
        self.cursors = []

    def send(self, statement: Prepared, params: dict):
        """Send `statement` and return at once; the returned cursor's fetchall() waits for its rows."""
        cursor = connection.cursor()
        self.cursors.append(cursor)
        cursor.execute(statement.execute_sql(), params)
        return cursor


def prepared_pipeline_usable() -> bool:
    """Outside a transaction, on a psycopg 3 connection that binds parameters client-side (Django's
    default): the generic plans' SET LOCAL must end with the pipeline, not with a caller's transaction."""
    return (settings.RECALL_PREPARED_STATEMENTS and not connection.in_atomic_block and connection.get_autocommit()
            and isinstance(getattr(connection, "connection", None), psycopg.Connection)
            and isinstance(connection.connection.cursor_factory, type)
            and issubclass(connection.connection.cursor_factory, psycopg.ClientCursor))


@contextmanager
def prepared_pipeline(statements: list[Prepared]):
    """A PreparedPipeline for `statements` (prepared first where the connection lacks them) on their
    generic plans, all in one implicit transaction that ends with the block (the pipeline's Sync), so
    the connection keeps its own plan_cache_mode. Errors come out as Django's; after one (in a
    statement or in the block) the connection is usable again and the next call prepares anew."""
    connection.ensure_connection()
    setup = _setup(statements)
    try:
        with connection.wrap_database_errors, connection.connection.pipeline():
            with connection.cursor() as cursor:  # one result each, none read
                for command in setup:
                    cursor.execute(command)
            pipeline = PreparedPipeline()
            try:
                yield pipeline
            finally:
                for cursor in pipeline.cursors:
                    cursor.close()
    except BaseException:
        connection._recall_prepared = None  # whatever was prepared, DEALLOCATE ALL next time
        raise
