"""The claim statement keeps its LIMIT whatever plan Postgres picks."""
import pytest
from django.db import connection
from django.utils import timezone

from chat.models import ChatSession
from dreaming.pipeline.claims import sessions_claim
from tests.factories import UserFactory
from tests.support.light import messages_add, idle_session


@pytest.mark.django_db
@pytest.mark.parametrize("analyzed_with", [0, 1, 2, 5])
def test_a_claim_never_takes_more_than_the_batch_whatever_the_table_statistics(analyzed_with):
    # Statistics taken when the table held one session made Postgres run `id IN (SELECT … LIMIT n
    # FOR UPDATE SKIP LOCKED)` as a nested loop that re-ran the subquery for every row: each re-run
    # skipped the rows it had just claimed and took the next ones, so batch_size 2 claimed all 5.
    user = UserFactory()
    for _ in range(analyzed_with):
        messages_add(idle_session(user), ("user", "I live in Lisbon."))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE chat_chatsession; ANALYZE chat_message; ANALYZE dreaming_memorysettings")
    for _ in range(4):
        messages_add(idle_session(user), ("user", "I live in Lisbon."))

    ids, _ = sessions_claim(now=timezone.now(), worker="w", batch_size=2)

    assert len(ids) == 2
    assert ChatSession.objects.exclude(claimed_by="").count() == 2
