"""The per-process MEMORY.md cache: no query on a hit, never stale beyond a notification.

These tests commit for real (transaction=True): NOTIFY is delivered only at commit. Changes made
"elsewhere" go through a separate psycopg connection, as another process would make them. Each
test stops the listener at the end so the test database can be dropped.
"""
import os
import threading
import time
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from dreaming.memory import context, context_cache
from dreaming.memory.context import memory_md_get, memory_md_render
from dreaming.memory.context_cache import memory_md_cache, memory_md_cache_stop
from dreaming.models import MemoryDocument, MemorySettings
from dreaming.memory.services import memory_settings_set
from tests.dreaming.memory.conftest import statements_sent
from tests.factories import MemoryFactory, PersonaFactory, UserFactory
from tests.support.cache import eventually, settle

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def elsewhere():
    """An autocommit connection of its own, like another process's."""
    params = connection.get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    with psycopg.connect(**params, autocommit=True) as conn:
        yield conn


def rendered_user(statement: str = "User likes green tea"):
    user = UserFactory()
    MemoryFactory(user=user, statement=statement)
    memory_md_render(user=user)
    if context_cache._cache is not None:
        settle()
    return user


def test_a_cached_read_makes_no_query_and_never_embeds(live_cache, django_assert_num_queries, monkeypatch):
    user = rendered_user()
    luna = PersonaFactory(slug="luna")

    def no_embedding(*args, **kwargs):
        raise AssertionError("the chat path must not embed")

    monkeypatch.setattr("dreaming.providers.local_embedder.LocalEmbedder.embed", no_embedding)
    with django_assert_num_queries(1):
        first = memory_md_get(user=user)
    with django_assert_num_queries(0):
        again = memory_md_get(user=user)
    assert again.content == first.content and "green tea" in again.content
    assert again.pk == MemoryDocument.objects.get(user=user, persona=None).pk
    # "No document" is cached too: a scope nobody rendered costs one query, then none.
    with django_assert_num_queries(1):
        assert memory_md_get(user=user, persona=luna) is None
    with django_assert_num_queries(0):
        assert memory_md_get(user=user, persona=luna) is None
    assert (live_cache.stats.hits, live_cache.stats.misses) == (2, 2)


def test_callers_cannot_alter_the_cached_document(live_cache):
    user = rendered_user()
    document = memory_md_get(user=user)
    stored_ids = list(document.memory_ids)

    document.content = "# Memory\n\n## Facts\n- forged\n"
    document.memory_ids.append(999_999)

    again = memory_md_get(user=user)
    assert "forged" not in again.content and "green tea" in again.content
    assert again.memory_ids == stored_ids
    assert again is not document
    assert MemoryDocument.objects.get(user=user).content == again.content


def test_a_change_committed_by_another_connection_is_seen_after_its_notification(live_cache, django_assert_num_queries):
    user, bystander = rendered_user("User lives in Lisbon"), rendered_user("User plays chess")
    memory_md_get(user=user)
    memory_md_get(user=bystander)

    with elsewhere() as other:
        with other.transaction():
            other.execute(
                "UPDATE dreaming_memorydocument SET content = %s, version = version + 1 WHERE user_id = %s",
                ["# Memory\n\n## Facts\n- User lives in Porto\n", user.pk],
            )
            # Not committed yet: the cached copy is still right, and still served without a query.
            with django_assert_num_queries(0):
                assert "Lisbon" in memory_md_get(user=user).content

    assert eventually(lambda: "Porto" in memory_md_get(user=user).content)
    with django_assert_num_queries(0):
        document = memory_md_get(user=user)
    assert "Porto" in document.content and document.version == 2
    # Only that user's entries went.
    with django_assert_num_queries(0):
        assert "chess" in memory_md_get(user=bystander).content


@pytest.mark.parametrize(
    ("statement", "documents_left"),
    [
        ("INSERT INTO dreaming_memorysettings (user_id, enabled, updated_at) VALUES (%(user)s, false, now())", 1),
        ("DELETE FROM dreaming_memorydocument WHERE user_id = %(user)s", 0),
        ("TRUNCATE dreaming_memorydocument", 0),
    ],
    ids=["memory-switched-off", "document-deleted", "table-truncated"],
)
def test_a_document_hidden_elsewhere_is_gone_after_the_notification(live_cache, django_assert_num_queries, statement, documents_left):
    user = rendered_user()
    assert memory_md_get(user=user) is not None
    with django_assert_num_queries(0):
        assert memory_md_get(user=user) is not None

    with elsewhere() as other:
        other.execute(statement, {"user": user.pk})

    assert eventually(lambda: memory_md_get(user=user) is None)
    with django_assert_num_queries(0):
        assert memory_md_get(user=user) is None  # and that answer is cached in turn
    assert MemoryDocument.objects.filter(user=user).count() == documents_left


def test_a_deleted_user_s_documents_are_dropped_by_the_cascade_s_notification(live_cache):
    user = rendered_user()
    user_id = user.pk
    memory_md_get(user=user_id)
    assert memory_md_cache().entries  # cached

    user.delete()  # Django deletes the user's MemoryDocument rows: each DELETE fires the trigger

    assert eventually(lambda: not memory_md_cache().entries)
    assert memory_md_get(user=user_id) is None
    assert not MemoryDocument.objects.filter(user_id=user_id).exists()


def test_memory_switched_back_on_elsewhere_brings_the_document_back(live_cache):
    user = rendered_user()
    MemorySettings.objects.create(user=user, enabled=False)
    settle()
    assert memory_md_get(user=user) is None
    assert memory_md_get(user=user) is None  # the cached "nothing"

    with elsewhere() as other:
        other.execute("UPDATE dreaming_memorysettings SET enabled = true WHERE user_id = %s", [user.pk])

    assert eventually(lambda: memory_md_get(user=user) is not None)


def test_a_write_in_this_process_is_seen_at_once_without_waiting_for_the_notification(live_cache, monkeypatch):
    user = rendered_user("User likes jazz")
    # From here the listener ignores every notification: only the on-commit eviction can refresh.
    monkeypatch.setattr(context_cache._Listener, "_apply", lambda self, payload: None)
    before = memory_md_get(user=user)

    MemoryFactory(user=user, statement="User has a cat named Io")
    memory_md_render(user=user)

    after = memory_md_get(user=user)
    assert "Io" in after.content and after.version == before.version + 1
    memory_settings_set(user=user, enabled=False)
    assert memory_md_get(user=user) is None


def test_a_notification_during_a_read_does_not_store_the_stale_row(live_cache, django_assert_num_queries, monkeypatch):
    user = rendered_user("User lives in Lisbon")
    original = context._memory_md_fetch
    reads = []

    def read_then_someone_commits(user_id, persona_id):
        row = original(user_id, persona_id)  # the old version, read before the commit below
        if not reads:
            seen = live_cache.stats.invalidations
            with elsewhere() as other:
                other.execute("UPDATE dreaming_memorydocument SET content = 'moved to Porto', version = version + 1 WHERE user_id = %s", [user.pk])
            assert eventually(lambda: live_cache.stats.invalidations > seen), "the notification never arrived"
        reads.append(row)
        return row

    monkeypatch.setattr(context, "_memory_md_fetch", read_then_someone_commits)
    raced = memory_md_get(user=user)

    assert "Lisbon" in raced.content  # what the database said when the read ran
    assert live_cache.stats.stores_refused == 1 and live_cache.stats.stores == 0
    with django_assert_num_queries(1):
        assert memory_md_get(user=user).content == "moved to Porto"
    with django_assert_num_queries(0):
        assert memory_md_get(user=user).content == "moved to Porto"


def test_readers_racing_many_commits_elsewhere_end_on_the_last_version(live_cache):
    user = rendered_user()
    stop, failures, reads = threading.Event(), [], [0]

    def reader():
        try:
            while not stop.is_set():
                memory_md_get(user=user)
                reads[0] += 1
        except Exception as exc:  # surfaced below
            failures.append(exc)
        finally:
            connection.close()  # this thread's own Django connection

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    with elsewhere() as other:
        for _ in range(30):
            other.execute("UPDATE dreaming_memorydocument SET version = version + 1 WHERE user_id = %s", [user.pk])
            time.sleep(0.002)
    settle()
    stop.set()
    for thread in threads:
        thread.join(10)

    assert not failures and reads[0] > 30
    final = MemoryDocument.objects.get(user=user).version
    assert final == 31
    assert memory_md_get(user=user).version == final  # no stale entry survived the races
    assert live_cache.stats.stores_refused + live_cache.stats.stores >= 1


def test_a_lost_listener_connection_falls_back_to_the_database_and_reconnects(live_cache, django_assert_num_queries, monkeypatch, request):
    user = rendered_user("User lives in Lisbon")
    memory_md_get(user=user)
    with django_assert_num_queries(0):
        memory_md_get(user=user)
    # Hold the reconnect until the test has changed the document behind the cache's back.
    reconnect = threading.Event()
    connect = context_cache._Listener._connect
    monkeypatch.setattr(context_cache._Listener, "_connect", lambda self: reconnect.wait(10) and connect(self))
    listener = live_cache.listener
    old_pid = listener.backend_pid
    request.addfinalizer(reconnect.set)  # never leave the listener waiting (the fixture stops it)

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [old_pid])
    assert eventually(lambda: not live_cache.live)

    # Not live: every read goes to the database and nothing is stored.
    with elsewhere() as other:
        other.execute("UPDATE dreaming_memorydocument SET content = 'moved to Porto' WHERE user_id = %s", [user.pk])
    for _ in range(2):
        with django_assert_num_queries(1):
            assert memory_md_get(user=user).content == "moved to Porto"
    assert live_cache.entries == {}

    reconnect.set()
    assert eventually(lambda: live_cache.live and listener.backend_pid not in (None, old_pid))
    assert live_cache.stats.connects == 2 and live_cache.stats.disconnects == 1
    with django_assert_num_queries(1):
        assert memory_md_get(user=user).content == "moved to Porto"
    with django_assert_num_queries(0):
        assert memory_md_get(user=user).content == "moved to Porto"


def test_inside_a_transaction_the_cache_is_bypassed(live_cache, django_assert_num_queries):
    user = rendered_user("User likes jazz")
    memory_md_get(user=user)

    with transaction.atomic():
        MemoryFactory(user=user, statement="User has a cat named Io")
        memory_md_render(user=user)
        with django_assert_num_queries(1):
            assert "Io" in memory_md_get(user=user).content  # its own uncommitted write
        transaction.set_rollback(True)

    assert "Io" not in memory_md_get(user=user).content
    assert "Io" not in MemoryDocument.objects.get(user=user).content


def test_the_cache_keeps_the_most_recently_used_documents_up_to_its_size(live_cache, settings, django_assert_num_queries):
    settings.MEMORY_MD_CACHE_SIZE = 2
    first, second, third = rendered_user("User likes tea"), rendered_user("User likes jazz"), rendered_user("User likes chess")
    for user in (first, second, first, third):
        memory_md_get(user=user)

    assert len(live_cache.entries) == 2
    with django_assert_num_queries(0):
        memory_md_get(user=first)
        memory_md_get(user=third)
    with django_assert_num_queries(1):
        memory_md_get(user=second)  # least recently used: it went


def test_with_the_cache_off_no_listener_starts(settings, django_assert_num_queries):
    settings.MEMORY_MD_CACHE = False
    user = rendered_user()
    for _ in range(2):
        with django_assert_num_queries(1):
            assert memory_md_get(user=user) is not None
    assert context_cache._cache is None


def test_stopping_closes_the_listener_connection(live_cache):
    backend_pid = live_cache.listener.backend_pid

    memory_md_cache_stop()

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [backend_pid])
        assert cursor.fetchone()[0] == 0
    assert context_cache._cache is None


def test_a_forked_child_does_not_inherit_the_parents_cache(live_cache):
    user = rendered_user()
    memory_md_get(user=user)
    read_end, write_end = os.pipe()

    child = os.fork()
    if child == 0:  # the child never touches the database (the connection is the parent's)
        os.close(read_end)
        os.write(write_end, b"fresh" if context_cache._cache is None else b"inherited")
        os._exit(0)
    os.close(write_end)
    answer = os.read(read_end, 16)
    os.close(read_end)
    os.waitpid(child, 0)

    assert answer == b"fresh"
    assert live_cache.live and len(live_cache.entries) == 1  # the parent's cache is untouched


def test_recall_reads_memory_md_s_ids_from_the_cache(live_cache):
    """Recall excludes what MEMORY.md holds and skips users with memory off: with the scope's
    document cached that costs no query, so recall is its pipeline (the excerpts' full-text search,
    then the re-read of the ranked memories), then the sources (+ stats)."""
    from dreaming.memory.recall import recall

    user = rendered_user("User has a dog named Milo")
    extra = MemoryFactory(user=user, statement="User walks Milo every morning")
    settle()  # a new memory notifies too (recall's cached keys follow it)
    in_md = memory_md_get(user=user).memory_ids
    assert in_md and extra.pk not in in_md
    recall(user=user, query="Milo", k=5, record=False)  # reads the memories recall ranks once
    with CaptureQueriesContext(connection) as sent:
        results = recall(user=user, query="Milo", k=5)
    assert statements_sent(sent) == [("SET", "EXECUTE recall_excerpt_search"), ("SET", "EXECUTE recall_held_read"), ("WITH",)]
    assert [r.id for r in results] == [extra.pk]  # the MEMORY.md memory is not repeated
    memory_settings_set(user=user, enabled=False)
    assert recall(user=user, query="Milo", k=5) == []
