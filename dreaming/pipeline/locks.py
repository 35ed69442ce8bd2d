"""Per-user lock for deep sleep and weekly consolidation.

A transaction-scoped Postgres advisory lock keyed on (namespace, user id): it needs no table, it is
released by COMMIT or ROLLBACK (so a crashed worker never leaves it behind), and two workers on the
same user queue up instead of both writing. The second one then reads the state the first one
committed and finds nothing left to do, so a user is never double-written.
"""
from django.db import connection, transaction

# First key of the two-int advisory lock: keeps our locks apart from anyone else's on the server.
USER_LOCK_NAMESPACE = 0x44524D  # "DRM"


def user_lock(*, user_id: int, wait: bool = True) -> bool:
    """Take the user's lock for the rest of the current transaction; False when wait=False and it is held."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("user_lock must be taken inside transaction.atomic()")
    # The user id is a bigint; Postgres' two-key form takes int4, so fold it into 31 bits.
    key = int(user_id) % 2_147_483_647
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [USER_LOCK_NAMESPACE, key])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [USER_LOCK_NAMESPACE, key])
        return bool(cursor.fetchone()[0])
