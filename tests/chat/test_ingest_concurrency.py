"""Several writers at once, on real Postgres connections (one per thread)."""
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone as dt_timezone

import pytest
from django.db import connection

from chat.models import ChatSession
from chat.services import NewMessage, api_key_use, messages_append
from tests.factories import ChatSessionFactory, api_key_create

pytestmark = pytest.mark.django_db(transaction=True)


def _in_thread(fn):
    def run(*args):
        try:
            return fn(*args)
        finally:
            connection.close()

    return run


def test_concurrent_appends_to_one_session_get_consecutive_seqs_and_no_duplicates():
    session = ChatSessionFactory()

    @_in_thread
    def append(worker: int):
        for i in range(10):
            # Every worker also retries message "shared-i": exactly one copy may be stored.
            messages_append(session=session, messages=[
                NewMessage("user", f"w{worker} #{i}", external_id=f"w{worker}-{i}"),
                NewMessage("user", f"shared {i}", external_id=f"shared-{i}"),
            ])

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(append, range(4)))
    seqs = list(session.messages.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 51))  # 40 own + 10 shared, no gaps, no collisions
    assert session.messages.filter(external_id__startswith="shared-").count() == 10
    assert ChatSession.objects.get(pk=session.pk).last_active_at == session.messages.latest("created_at").created_at


def test_concurrent_requests_are_counted_exactly_by_the_rate_limit(settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 25
    _, secret = api_key_create("busy-client")
    now = datetime(2030, 1, 1, 12, 0, 30, tzinfo=dt_timezone.utc)

    @_in_thread
    def hit(_):
        return api_key_use(secret=secret, now=now).over_limit

    with ThreadPoolExecutor(4) as pool:
        refused = list(pool.map(hit, range(40)))
    assert refused.count(False) == 25 and refused.count(True) == 15
