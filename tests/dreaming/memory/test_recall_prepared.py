"""Recall's statements prepared on the connection (dreaming/memory/prepared.py): the same answers as
the unprepared statements, sent in one pipeline (the search ahead of the ranking), and a connection that
lost track of what it prepared (a new connection, statements left behind, a failed call — in the
search, in the ranking while the search runs) is put right and stays usable."""
import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from dreaming.memory import excerpts, prepared
from dreaming.memory.context import memory_md_render
from dreaming.memory.recall import recall
from dreaming.providers.embedding_space import embedding_space_check_cached
from tests.dreaming.memory.conftest import statements_sent
from tests.dreaming.memory.test_recall_excerpts import kept_session
from tests.dreaming.memory.test_recall_held import memories_for
from tests.factories import UserFactory
from tests.support.cache import settle

pytestmark = pytest.mark.django_db(transaction=True)


def _prepared_names() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def _user_with_memories_and_turns():
    user = UserFactory()
    memories_for(user, 80)
    kept_session(user, ("user", "My sourdough starter is called Clint."), ("user", "I bake rye bread on Sundays."))
    memory_md_render(user=user)
    embedding_space_check_cached()
    settle()
    return user


def _answer(user, query):
    return [(r.kind, r.id, r.score, r.statement) for r in recall(user=user, query=query, k=5, record=False)]


def test_prepared_answers_are_the_unprepared_ones_and_one_pipeline(live_cache, monkeypatch):
    connection.close()  # a connection no earlier test prepared anything on
    user = _user_with_memories_and_turns()
    queries = ["sourdough starter Clint", "rye bread", "piano lessons", "marathon"]
    unprepared_first = []
    with monkeypatch.context() as patched:  # the unprepared path: each statement planned per call
        patched.setattr("dreaming.memory.recall.prepared_run", None)
        patched.setattr("dreaming.memory.recall.EXCERPT_SEARCH", None)
        unprepared_first = [_answer(user, q) for q in queries]
    assert not {"recall_excerpt_search", "recall_held_read", "recall_sources_read"} & _prepared_names()
    for _ in range(7):  # past the 5 custom plans, then the generic one
        assert [_answer(user, q) for q in queries] == unprepared_first
    assert {"recall_excerpt_search", "recall_held_read", "recall_sources_read"} <= _prepared_names()
    with CaptureQueriesContext(connection) as sent:
        assert _answer(user, queries[0]) == unprepared_first[0]
    assert statements_sent(sent) == [("SET", "EXECUTE recall_excerpt_search"),
                                     ("SET", "EXECUTE recall_held_read", "EXECUTE recall_sources_read")]
    assert any(kind == "excerpt" and "Clint" in statement for kind, _, _, statement in unprepared_first[0])


def test_a_connection_that_lost_track_of_its_statements_prepares_them_again(live_cache):
    user = _user_with_memories_and_turns()
    expected = _answer(user, "sourdough starter Clint")
    connection._recall_prepared = None  # the statements exist; what we knew of them is gone
    assert _answer(user, "sourdough starter Clint") == expected
    connection.close()  # a new connection has none
    assert _answer(user, "sourdough starter Clint") == expected
    assert "recall_excerpt_search" in _prepared_names()


def test_a_new_connection_sends_the_search_ahead_too(live_cache):
    user = _user_with_memories_and_turns()
    expected = _answer(user, "rye bread")
    connection.close()  # as a request with DATABASE_CONN_MAX_AGE=0 starts: no connection yet
    with CaptureQueriesContext(connection) as sent:
        assert _answer(user, "rye bread") == expected
    search, read = statements_sent(sent)
    assert search[0] == "DEALLOCATE" and search[-1] == "EXECUTE recall_excerpt_search"
    assert read[-2:] == ("EXECUTE recall_held_read", "EXECUTE recall_sources_read")


def test_a_failed_call_starts_again_from_nothing(live_cache, monkeypatch):
    user = _user_with_memories_and_turns()
    expected = _answer(user, "rye bread")
    broken = prepared.Prepared("recall_broken", "SELECT no_such_column FROM chat_message", types=())
    with pytest.raises(DatabaseError), connection.cursor() as cursor:
        prepared.prepared_run(cursor, [broken], {})
    assert connection._recall_prepared is None
    assert _answer(user, "rye bread") == expected


def _settings_mode() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        return cursor.fetchone()[0]


def test_a_search_that_fails_in_the_pipeline_leaves_the_connection_usable(live_cache, monkeypatch):
    user = _user_with_memories_and_turns()
    expected = _answer(user, "rye bread")
    search = prepared.Prepared("recall_failing_search", "SELECT 1 / (%(pool)s - %(pool)s), %(limit)s",
                               types=(("pool", "bigint"), ("limit", "bigint")))
    with monkeypatch.context() as patched:
        patched.setattr("dreaming.memory.recall.EXCERPT_SEARCH", search)
        with pytest.raises(DatabaseError, match="division by zero"):
            _answer(user, "rye bread")
    assert connection._recall_prepared is None
    assert _settings_mode() == "auto"  # the failed pipeline's SET LOCAL ended with it
    assert _answer(user, "rye bread") == expected


def test_an_error_while_the_search_runs_leaves_the_connection_usable(live_cache, monkeypatch):
    user = _user_with_memories_and_turns()
    expected = _answer(user, "rye bread")

    def broken(*args, **kwargs):
        raise RuntimeError("the ranking failed")

    with monkeypatch.context() as patched:
        patched.setattr("dreaming.memory.recall.held_ranking", broken)
        with pytest.raises(RuntimeError, match="the ranking failed"):  # not hidden by the pipeline's own exit
            _answer(user, "rye bread")
    assert _settings_mode() == "auto"
    assert _answer(user, "rye bread") == expected


def test_inside_a_transaction_recall_sends_no_pipeline(live_cache):
    from django.db import transaction

    user = _user_with_memories_and_turns()
    expected = _answer(user, "sourdough starter Clint")
    with transaction.atomic(), CaptureQueriesContext(connection) as sent:
        assert _answer(user, "sourdough starter Clint") == expected
    assert all("SET" not in statements for statements in statements_sent(sent))  # the caller's transaction keeps its plan_cache_mode


def test_a_parameter_without_a_type_is_refused():
    statement = prepared.Prepared("recall_untyped", "SELECT %(a)s::int + %(b)s::int", types=(("a", "int"),))
    with pytest.raises(ValueError, match="without a type"):
        statement.prepare_sql()


def test_behind_a_transaction_pooler_nothing_is_prepared(live_cache, settings, django_assert_num_queries):
    settings.RECALL_PREPARED_STATEMENTS = False
    connection.close()
    user = _user_with_memories_and_turns()
    found = _answer(user, "sourdough starter Clint")
    assert any(kind == "excerpt" and "Clint" in statement for kind, _, _, statement in found)
    with django_assert_num_queries(1):  # still one round trip, the statements planned on every call
        _answer(user, "rye bread")
    assert not {"recall_excerpt_search", "recall_held_read", "recall_sources_read"} & _prepared_names()


def test_on_the_prepared_path_forgetting_deletion_and_chinese_hold(live_cache):
    from dreaming.memory.services import conversation_delete, memory_forget
    from tests.dreaming.memory.test_recall_excerpts import EMBEDDER, WORDS
    from tests.factories import MemoryFactory, MemorySourceFactory

    user = _user_with_memories_and_turns()
    _, (turn,) = kept_session(user, ("user", WORDS))
    chinese, _ = kept_session(user, ("user", "我女儿下个月在杭州参加钢琴比赛。"))
    memory = MemoryFactory(user=user, statement="User applied for a job at the Lisbon aquarium",
                           embedding=EMBEDDER.embed(["User applied for a job at the Lisbon aquarium"])[0])
    MemorySourceFactory(memory=memory, message=turn, quote="applied for a job at the Lisbon aquarium")
    for _ in range(7):  # past the custom plans: the generic one answers from here on
        _answer(user, "rye bread")
    assert any("Lisbon" in statement for _, _, _, statement in _answer(user, "Lisbon aquarium job"))
    assert any("杭州" in statement for _, _, _, statement in _answer(user, "女儿的钢琴比赛在哪里"))

    memory_forget(memory=memory, by=user)
    conversation_delete(session=chinese, by=user)
    settle()
    assert all("Lisbon" not in statement for _, _, _, statement in _answer(user, "Lisbon aquarium job"))
    assert all("杭州" not in statement for _, _, _, statement in _answer(user, "女儿的钢琴比赛在哪里"))
    assert "recall_excerpt_search" in _prepared_names()


def test_the_statements_run_on_their_generic_plan_and_the_connection_keeps_its_own_mode(live_cache):
    user = _user_with_memories_and_turns()
    for query in ["sourdough starter Clint", "rye bread", "piano lessons"]:
        _answer(user, query)
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'recall_%%'")
        plans = {name: (generic, custom) for name, generic, custom in cursor.fetchall()}
        cursor.execute("SHOW plan_cache_mode")
        mode = cursor.fetchone()[0]
    assert plans["recall_excerpt_search"][0] >= 3 and plans["recall_excerpt_search"][1] == 0
    assert all(custom == 0 for _, custom in plans.values())
    assert mode == "auto"  # SET LOCAL ended with recall's query


def test_the_searchs_generic_plan_probes_the_rules_per_turn_it_walks(live_cache):
    """The scope's and forgetting's rules stay one probe per walked turn on the generic plan, whatever
    the tables' statistics: never a join that reads every dismissed candidate or tombstone (the plan a
    planner picks when those tables look small, and that grows with every user's dismissals)."""
    user = _user_with_memories_and_turns()
    _answer(user, "rye bread")
    with connection.cursor() as cursor:
        cursor.execute("SET plan_cache_mode = force_generic_plan")
        try:
            cursor.execute("EXPLAIN " + excerpts.EXCERPT_SEARCH.execute_sql(),
                           excerpts.excerpt_search(user_id=user.pk, persona_id=None, query="rye bread", limit=5)[1])
            plan = "\n".join(row[0] for row in cursor.fetchall())
        finally:
            cursor.execute("RESET plan_cache_mode")
    assert "Anti Join" not in plan
    assert "Index Cond: (message_id = r.id)" in plan and "digest = ANY ((r.forget_digests)::text[])" in plan
