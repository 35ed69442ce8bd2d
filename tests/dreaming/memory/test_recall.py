import json
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from dreaming.memory.context import memory_md_render
from dreaming.models import Category, Memory, MemorySettings
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.recall import query_keywords, recall
from dreaming.memory.recall_key import RECALL_INDEX, recall_query_key
from dreaming.protocol import RECALL_TOOL
from tests.factories import ChatSessionFactory, MemoryFactory, MemorySourceFactory, MessageFactory, PersonaFactory

pytestmark = pytest.mark.django_db
EMBEDDER = LocalEmbedder(dimensions=512)


def remember(user, statement, **fields):
    """A memory with a real (local) embedding, as deep sleep would store it."""
    return MemoryFactory(user=user, statement=statement, embedding=EMBEDDER.embed([statement])[0], **fields)


def ids(results):
    return [result.id for result in results]


def test_a_semantic_neighbour_beats_unrelated_memories(user):
    dog = remember(user, "User has a dog named Milo who loves the beach")
    remember(user, "User works as an accountant in Porto")
    remember(user, "User prefers green tea over coffee")

    results = recall(user=user, query="Tell me about the dog", embedder=EMBEDDER)

    assert results[0].id == dog.id
    assert results[0].parts["similarity"] > results[1].parts["similarity"]
    assert set(results[0].parts) == {"similarity", "text_match", "recency", "importance", "confidence"}


def test_an_exact_name_is_helped_by_the_text_match(user):
    # The text is long, so its n-gram similarity to the short query is diluted.
    named = remember(
        user, "User went hiking last spring with an old university friend called Zofia and they camped by a lake"
    )
    remember(user, "User went hiking in the Alps last summer")
    remember(user, "User likes to go hiking with friends")

    results = recall(user=user, query="hiking with Zofia", embedder=EMBEDDER)

    top = results[0]
    assert top.id == named.id
    assert top.parts["text_match"] == 1.0
    assert all(r.parts["text_match"] < 1.0 for r in results[1:])


def test_dates_and_chinese_keywords_match_verbatim():
    assert ("2023", 2.0) in query_keywords("What happened in May 2023?")
    assert dict(query_keywords("Hiking on 7 May with Zofia")) == {"hiking": 1.0, "may": 2.0, "zofia": 2.0}
    assert ("may", 2.0) in query_keywords("What happened in May 2023?")
    assert all(word not in dict(query_keywords("What does the user like?")) for word in ("what", "does", "user", "like"))
    zh = dict(query_keywords("用户的狗叫什么名字"))
    assert "狗叫" in zh and "名字" in zh and "什么" not in zh


def test_chinese_memories_are_recalled(user):
    dog = remember(user, "用户养了一只叫米洛的狗", category=Category.FACT)
    remember(user, "用户喜欢喝绿茶")
    remember(user, "用户在上海工作")

    results = recall(user=user, query="我的狗叫什么", embedder=EMBEDDER)

    assert results[0].id == dog.id


def test_recency_and_importance_change_the_order(user):
    now = timezone.now()
    old = remember(user, "User plays the violin", last_seen=now - timedelta(weeks=80))
    new = remember(user, "User plays the violin!", last_seen=now - timedelta(days=1))
    assert ids(recall(user=user, query="violin", embedder=EMBEDDER, now=now)) == [new.id, old.id]

    Memory.objects.filter(pk=old.pk).update(last_seen=now - timedelta(days=1), importance=0.95)
    Memory.objects.filter(pk=new.pk).update(importance=0.1)
    results = recall(user=user, query="violin", embedder=EMBEDDER, now=now)
    assert ids(results) == [old.id, new.id]
    assert results[0].parts["importance"] == 0.95


def test_confidence_changes_the_order_but_does_not_collapse_the_score(user):
    sure = remember(user, "User owns a red bicycle", confidence=0.9)
    unsure = remember(user, "User owns a red bicycle.", confidence=0.05, importance=0.0)
    results = recall(user=user, query="red bicycle", embedder=EMBEDDER)
    assert ids(results) == [sure.id, unsure.id]
    assert results[1].score > 0.25 * results[0].score


def test_top_k_is_global_across_categories(user):
    for i in range(6):
        remember(user, f"User loves jazz records vol {i}", category=Category.PREFERENCE)
    event = remember(user, "User went to a jazz concert", category=Category.EVENT)
    remember(user, "User has a cousin in Peru", category=Category.RELATION)
    remember(user, "User is a quiet person", category=Category.FACT)

    results = recall(user=user, query="jazz", k=7, embedder=EMBEDDER)

    assert len(results) == 7
    assert {r.category for r in results} == {"preference", "event"}
    assert event.id in ids(results)


def test_memories_in_memory_md_are_not_repeated(user, settings):
    settings.MEMORY_MD_TOKENS = 64
    in_doc = remember(user, "User's cat is named Pixel", importance=1.0)
    tail = [remember(user, f"User's cat Pixel likes toy number {i}", importance=0.1) for i in range(12)]
    document = memory_md_render(user=user)
    assert in_doc.id in document.memory_ids and 1 < len(document.memory_ids) < 13

    results = recall(user=user, query="Pixel the cat", k=20, embedder=EMBEDDER)

    assert not set(ids(results)) & set(document.memory_ids)
    assert set(ids(results)) == {m.id for m in tail} - set(document.memory_ids)
    # Explicit exclusions replace the MEMORY.md ones.
    assert in_doc.id in ids(recall(user=user, query="Pixel the cat", k=20, exclude_ids=[], embedder=EMBEDDER))


def test_other_users_and_inactive_memories_are_never_returned(user, other_user):
    mine = remember(user, "User has a dog named Milo")
    remember(other_user, "User has a dog named Milo")
    remember(user, "User had a dog named Rex", status=Memory.Status.SUPERSEDED)

    results = recall(user=user, query="dog", embedder=EMBEDDER)

    assert ids(results) == [mine.id]


def test_persona_scope_adds_that_personas_memories_only(user):
    luna, kai = PersonaFactory(slug="luna"), PersonaFactory(slug="kai")
    profile = remember(user, "User loves astronomy")
    with_luna = remember(user, "User and Luna watched a meteor shower of astronomy", persona=luna)
    with_kai = remember(user, "User told Kai about astronomy club", persona=kai)

    assert ids(recall(user=user, query="astronomy", embedder=EMBEDDER)) == [profile.id]
    scoped = ids(recall(user=user, query="astronomy", persona=luna, embedder=EMBEDDER))
    assert set(scoped) == {profile.id, with_luna.id} and with_kai.id not in scoped
    # Luna's MEMORY.md now holds both: nothing left to recall in her scope, the profile scope is untouched.
    assert set(memory_md_render(user=user, persona=luna).memory_ids) == {profile.id, with_luna.id}
    assert recall(user=user, query="astronomy", persona=luna, embedder=EMBEDDER) == []
    assert ids(recall(user=user, query="astronomy", embedder=EMBEDDER)) == [profile.id]


def test_memory_off_users_recall_nothing(user):
    memory = remember(user, "User has a dog named Milo")
    MemorySettings.objects.create(user=user, enabled=False)

    assert recall(user=user, query="dog", embedder=EMBEDDER) == []
    memory.refresh_from_db()
    assert memory.recall_count == 0


def test_results_carry_their_sources_and_recall_stats_are_updated(user):
    session = ChatSessionFactory(user=user, external_id="sess-1")
    message = MessageFactory(session=session, external_id="msg-7", content="My dog Milo is 3")
    dog = remember(user, "User has a dog named Milo")
    said = timezone.now() - timedelta(days=3)
    MemorySourceFactory(memory=dog, message=message, quote="My dog Milo", said_at=said)
    other = remember(user, "User likes sailing")
    now = timezone.now()

    results = recall(user=user, query="Milo", k=1, embedder=EMBEDDER, now=now)

    assert results[0].sources == [
        {"session_external_id": "sess-1", "message_external_id": "msg-7", "quote": "My dog Milo", "said_at": said.isoformat()}
    ]
    dog.refresh_from_db(), other.refresh_from_db()
    assert (dog.recall_count, dog.last_recalled_at) == (1, now)
    assert (other.recall_count, other.last_recalled_at) == (0, None)
    recall(user=user, query="Milo", k=1, embedder=EMBEDDER, record=False)
    dog.refresh_from_db()
    assert dog.recall_count == 1


def test_recall_is_a_few_queries_whatever_the_number_of_memories(user, django_assert_max_num_queries):
    for i in range(30):
        memory = remember(user, f"User visited city number {i}")
        MemorySourceFactory(memory=memory, quote=f"I went to city {i}")
    # memory on + MEMORY.md ids, shortlist, excerpts' full-text search, sources + stats update
    with django_assert_max_num_queries(4):
        results = recall(user=user, query="city", k=10, embedder=EMBEDDER)
    assert len(results) == 10 and all(len(r.sources) == 1 for r in results)


def test_the_shortlist_is_an_index_only_scan_of_the_covering_index(user):
    """The index holds every column the shortlist reads, and the function's own settings rule out
    the heap-reading plans a planner would pick when one user owns most of the table."""
    for i in range(20):
        remember(user, f"User visited city number {i}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [RECALL_INDEX])
        assert "INCLUDE (user_id, status, persona_id, id, recall_key)" in cursor.fetchone()[0]
        cursor.execute("SELECT prosrc, proconfig FROM pg_proc WHERE proname = 'memory_recall_shortlist'")
        body, config = cursor.fetchone()
        assert sorted(config) == ["enable_bitmapscan=off", "enable_seqscan=off"]
        for name, number in (("p_user_id", 1), ("p_persona_id", 2), ("p_key", 3), ("p_limit", 4)):
            body = body.replace(name, f"${number}")
        for setting in config:  # the function's own SET clauses
            cursor.execute("SELECT set_config(%s, %s, true)", setting.split("=", 1))
        cursor.execute(f"PREPARE shortlist(bigint, bigint, vector, integer) AS {body}")
        key = "[" + ",".join(map(str, recall_query_key(EMBEDDER.embed(["city"])[0]))) + "]"
        cursor.execute("EXPLAIN EXECUTE shortlist(%s, NULL, %s::vector, 100)", [user.pk, key])
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("DEALLOCATE shortlist")
    assert f"Index Only Scan using {RECALL_INDEX}" in plan, plan


def test_recall_tool_definition_is_an_openai_function():
    function = RECALL_TOOL["function"]
    assert RECALL_TOOL["type"] == "function" and function["name"] == "recall_memory"
    assert function["parameters"]["required"] == ["query"]
    assert set(function["parameters"]["properties"]) == {"query", "k"}
    json.dumps(RECALL_TOOL)


def test_recall_command_json_shape(user, capsys, settings):
    settings.EMBEDDING_BACKEND = "local"
    in_doc = remember(user, "User's name is Dana", importance=1.0, category=Category.FACT)
    tail = remember(user, "User once broke a leg skiing", importance=0.2)
    memory_md_render(user=user)

    call_command("recall", user.username, "skiing accident", "--k", "5", "--json")

    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"memory_md", "memory_md_ids", "results"}
    assert "Dana" in payload["memory_md"] and payload["memory_md_ids"] == [in_doc.id, tail.id]
    # Everything fits in MEMORY.md here, so recall adds nothing.
    assert payload["results"] == []


def test_recall_command_lists_results_readably(user, capsys, settings):
    settings.MEMORY_MD_TOKENS = 64
    for i in range(10):
        remember(user, f"User keeps a fern named Leafy number {i} on the balcony", importance=0.9)
    remember(user, "User once broke a leg skiing in Chamonix", importance=0.1)

    call_command("recall", user.username, "skiing accident", "--k", "3", "--json")
    payload = json.loads(capsys.readouterr().out)
    assert len(payload["results"]) == 3
    first = payload["results"][0]
    assert set(first) == {"kind", "id", "statement", "category", "score", "parts", "sources"}
    assert "skiing" in first["statement"]

    call_command("recall", user.username, "skiing accident", "--k", "3")
    out = capsys.readouterr().out
    assert " 1. [preference] User once broke a leg skiing in Chamonix" in out


def test_recall_command_rejects_bad_input(user):
    with pytest.raises(CommandError, match="Unknown user 'nobody'"):
        call_command("recall", "nobody", "dog")
    with pytest.raises(CommandError, match="--k must be between 1 and 50"):
        call_command("recall", user.username, "dog", "--k", "0")
    with pytest.raises(CommandError, match="Unknown persona 'ghost'"):
        call_command("recall", user.username, "dog", "--persona", "ghost")


@pytest.mark.django_db(transaction=True)
def test_recall_stats_are_recorded_outside_a_transaction_too(user):
    from django.db import connection as conn

    from dreaming.memory.recall_stats import recall_record

    memory = remember(user, "User collects vinyl records")
    assert not conn.in_atomic_block
    assert recall_record(ids=[memory.id], now=timezone.now()) == 1
    memory.refresh_from_db()
    assert memory.recall_count == 1 and memory.last_recalled_at is not None
