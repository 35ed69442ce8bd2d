
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dreaming.memory.context import (
    _priority, count_tokens, memory_md_compose, memory_md_get, memory_md_render, memory_md_render_all,
)
from dreaming.models import Category, Feedback, Memory, MemoryDocument, MemorySettings
from tests.factories import ChatSessionFactory, MemoryFactory, PersonaFactory

pytestmark = pytest.mark.django_db


def test_count_tokens_is_cjk_aware_and_conservative():
    assert count_tokens("") == 0
    assert count_tokens("User likes hiking") == 3
    assert count_tokens("用户喜欢爬山") == 6
    # Long words and numbers cost more; punctuation costs one each.
    assert count_tokens("internationalization") > count_tokens("nation")
    assert count_tokens("2024-05-01") == 2 + 1 + 1 + 1 + 1
    assert count_tokens("- a\n\n## b") == 1 + 1 + 1 + 2 + 1


def test_it_renders_sections_in_order_most_important_first(user):
    MemoryFactory(user=user, statement="User has a dog named Milo", category=Category.FACT, importance=0.5)
    MemoryFactory(user=user, statement="User lives in Lisbon", category=Category.FACT, importance=0.9)
    MemoryFactory(user=user, statement="User likes jazz", category=Category.PREFERENCE)
    MemoryFactory(user=user, statement="User's sister is Ana", category=Category.RELATION)
    MemoryFactory(user=user, statement="User ran a marathon in May", category=Category.EVENT)
    MemoryFactory(user=user, statement="User feels anxious about work", category=Category.EMOTION)

    document = memory_md_render(user=user)

    text = document.content
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == ["## Facts", "## Preferences", "## Relations", "## Events", "## Emotions"]
    assert text.index("Lisbon") < text.index("Milo")
    assert len(document.memory_ids) == 6
    assert document.token_count == count_tokens(text)
    assert document.version == 1


def test_agreed_memories_come_first_and_doubted_ones_are_marked(user):
    important = MemoryFactory(user=user, statement="User works as a nurse", importance=0.9, category=Category.FACT)
    agreed = MemoryFactory(user=user, statement="User has two cats", importance=0.2, category=Category.FACT)
    doubted = MemoryFactory(user=user, statement="User plays chess", category=Category.PREFERENCE)
    rejected = MemoryFactory(user=user, statement="User hates tea", category=Category.PREFERENCE)
    Feedback.objects.create(user=user, memory=agreed, verdict=Feedback.Verdict.AGREE)
    Feedback.objects.create(user=user, memory=doubted, verdict=Feedback.Verdict.AGREE)
    Feedback.objects.create(user=user, memory=doubted, verdict=Feedback.Verdict.DOUBT)  # latest wins
    Feedback.objects.create(user=user, memory=rejected, verdict=Feedback.Verdict.REJECT)

    text = memory_md_render(user=user).content

    assert text.index("two cats") < text.index("nurse")
    assert "- User plays chess (unsure)" in text
    assert "- User works as a nurse\n" in text
    assert "hates tea" not in text
    assert important.id in MemoryDocument.objects.get(user=user).memory_ids


def test_only_active_memories_of_the_scope_are_rendered(user, other_user):
    luna = PersonaFactory(slug="luna")
    other = PersonaFactory(slug="kai")
    MemoryFactory(user=user, statement="User likes tea")
    MemoryFactory(user=user, statement="User calls Luna by a nickname", persona=luna, category=Category.RELATION)
    MemoryFactory(user=user, statement="User told Kai a secret", persona=other, category=Category.RELATION)
    MemoryFactory(user=user, statement="User lived in Rome", status=Memory.Status.SUPERSEDED)
    MemoryFactory(user=other_user, statement="Someone else likes coffee")

    profile = memory_md_render(user=user).content
    with_luna = memory_md_render(user=user, persona=luna).content

    assert "likes tea" in profile and "Luna" not in profile and "Kai" not in profile
    assert "likes tea" in with_luna and "nickname" in with_luna and "Kai" not in with_luna
    assert "Rome" not in with_luna and "coffee" not in with_luna


@pytest.mark.parametrize("budget", [64, 100, 200])
def test_budget_is_respected_in_english_and_chinese(user, settings, budget):
    settings.MEMORY_MD_TOKENS = budget
    for i in range(60):
        MemoryFactory(user=user, statement=f"User remembers detail number {i} about the garden", importance=1 - i / 100)
        MemoryFactory(user=user, statement=f"用户喜欢在周末去公园散步第{i}次", category=Category.EVENT, importance=1 - i / 100)

    document = memory_md_render(user=user)

    assert 0 < document.token_count <= budget
    assert count_tokens(document.content) == document.token_count
    assert document.token_budget == budget
    assert 0 < len(document.memory_ids) < 120
    # What was left out is the least important: the most important of each language made it in.
    assert "detail number 0 " in document.content
    assert "第0次" in document.content
    assert "## Preferences" in document.content and "## Events" in document.content


def test_version_goes_up_only_when_the_content_changes(user):
    memory = MemoryFactory(user=user, statement="User likes tea")
    first = memory_md_render(user=user)
    second = memory_md_render(user=user)
    assert (first.version, second.version) == (1, 1)
    assert MemoryDocument.objects.filter(user=user).count() == 1

    memory.statement = "User likes green tea"
    memory.save()
    third = memory_md_render(user=user)
    assert third.version == 2
    assert "green tea" in third.content
    assert memory_md_render(user=user).version == 2


def test_memory_off_users_get_an_empty_document(user):
    MemoryFactory(user=user, statement="User likes tea")
    memory_md_render(user=user)
    MemorySettings.objects.create(user=user, enabled=False)

    document = memory_md_render(user=user)

    assert document.content == "" and document.memory_ids == [] and document.token_count == 0
    assert document.version == 2
    assert memory_md_get(user=user) is None


def test_render_all_covers_profile_and_every_persona_scope(user):
    luna, kai, unused = PersonaFactory(slug="luna"), PersonaFactory(slug="kai"), PersonaFactory(slug="zed")
    MemoryFactory(user=user, statement="User likes tea")
    MemoryFactory(user=user, statement="User trusts Luna", persona=luna)
    ChatSessionFactory(user=user, persona=kai)

    documents = memory_md_render_all(user=user)

    assert [d.persona_id for d in documents] == [None, kai.id, luna.id]
    assert not MemoryDocument.objects.filter(persona=unused).exists()


def test_memory_md_get_is_one_query_and_never_embeds(user, django_assert_num_queries, monkeypatch):
    luna = PersonaFactory(slug="luna")
    MemoryFactory(user=user, statement="User likes tea")
    memory_md_render(user=user, persona=luna)

    def no_embedding(*args, **kwargs):
        raise AssertionError("the chat path must not embed")

    monkeypatch.setattr("dreaming.providers.get_embedder", no_embedding)
    monkeypatch.setattr("dreaming.providers.local_embedder.LocalEmbedder.embed", no_embedding)
    with django_assert_num_queries(1):
        document = memory_md_get(user=user, persona=luna)
    assert "likes tea" in document.content
    with django_assert_num_queries(1):
        assert memory_md_get(user=user) is None  # profile scope never rendered


def test_memory_md_get_uses_the_scope_index(user):
    MemoryFactory(user=user)
    memory_md_render(user=user)
    with CaptureQueriesContext(connection) as queries:
        memory_md_get(user=user)
    sql = queries.captured_queries[0]["sql"]
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET enable_seqscan = on")
    assert "memory_document_unique_scope" in plan, plan


def test_a_scope_first_document_is_one_insert_without_a_savepoint_and_then_updated_in_place(user):
    MemoryFactory(user=user, statement="User lives in Lisbon", category=Category.FACT)

    with CaptureQueriesContext(connection) as first:
        made = memory_md_render(user=user)
    again = memory_md_render(user=user)

    sql = [q["sql"].lstrip() for q in first]
    # One savepoint: the render's own atomic() inside the test's transaction (none of the insert's own).
    assert sum(s.startswith("SAVEPOINT") for s in sql) == 1 and sum(s.startswith("INSERT") for s in sql) == 1
    stored = MemoryDocument.objects.get(user=user, persona=None)
    assert (made.pk, made.version, made.content) == (stored.pk, 1, stored.content) and "Lisbon" in stored.content
    assert again.pk == made.pk and again.version == 1  # same text: same version, no second row


def test_a_document_made_by_someone_else_meanwhile_is_updated_not_duplicated(user):
    from dreaming.memory import context

    MemoryFactory(user=user, statement="User lives in Lisbon", category=Category.FACT)
    theirs = MemoryDocument.objects.create(user=user, persona=None, content="old", version=3, rendered_at="2026-01-01T00:00Z")
    real_filter = MemoryDocument.objects.select_for_update

    class MissedOnce:  # the first read happens before the other process's insert
        calls = 0

        def __call__(self):
            MissedOnce.calls += 1
            return MemoryDocument.objects.none() if MissedOnce.calls == 1 else real_filter()

    context.MemoryDocument.objects.select_for_update = MissedOnce()
    try:
        document = memory_md_render(user=user)
    finally:
        del context.MemoryDocument.objects.select_for_update

    assert MemoryDocument.objects.filter(user=user).count() == 1
    assert document.pk == theirs.pk and document.version == 4 and "Lisbon" in document.content


def test_the_budget_is_filled_as_if_the_whole_document_were_counted_for_each_line():
    """memory_md_compose counts the document line by line; it must stop exactly where counting the
    assembled document each time (what it did before) would stop."""
    import random

    from dreaming.memory.context import SECTIONS, _assemble, _Line

    rng = random.Random(5)
    words = ["User", "likes", "2024-05-01", "喜欢爬山", "internationalization", "a", "Lisbon,", "(unsure)", "42", "-"]
    categories = [c for c, _ in SECTIONS] + ["other"]
    for trial in range(200):
        memories = []
        for i in range(rng.randint(1, 30)):
            statement = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
            memory = Memory(id=i + 1, statement=statement, category=rng.choice(categories), importance=rng.random(),
                            confidence=0.5, last_seen=timezone.now())
            memory.verdict = rng.choice([None, Feedback.Verdict.DOUBT, Feedback.Verdict.AGREE])
            memories.append(memory)
        budget = rng.randint(5, 300)
        content, ids = memory_md_compose(memories=memories, budget=budget)

        # The reference: assemble and count the whole document for each line, as before.
        expected, accepted = "", []
        for memory in sorted(memories, key=_priority):
            statement = " ".join(memory.statement.split())
            marker = " (unsure)" if memory.verdict == Feedback.Verdict.DOUBT else ""
            attempt = _assemble([*accepted, _Line(memory.id, memory.category, f"- {statement}{marker}")])
            if count_tokens(attempt) > budget:
                break
            accepted.append(_Line(memory.id, memory.category, f"- {statement}{marker}"))
            expected = attempt
        assert content == expected, trial
        assert sorted(ids) == sorted(line.memory_id for line in accepted)


def _statements(queries) -> list[str]:
    """The statements sent, without the savepoints of the test's transaction."""
    return [q["sql"] for q in queries if not q["sql"].lstrip().startswith(("SAVEPOINT", "RELEASE"))]


def test_rendering_a_scope_is_two_statements_and_the_version_moves_only_with_the_text(user):
    MemoryFactory(user=user, statement="User likes tea")
    with CaptureQueriesContext(connection) as made:
        first = memory_md_render(user=user)
    with CaptureQueriesContext(connection) as redone:
        again = memory_md_render(user=user)
    assert len(_statements(made)) == len(_statements(redone)) == 2  # the scope's memories, the document's upsert
    assert (first.pk, first.version, again.pk, again.version) == (first.pk, 1, first.pk, 1)
    MemoryFactory(user=user, statement="User has a cat")
    changed = memory_md_render(user=user)
    stored = MemoryDocument.objects.get(user=user, persona=None)
    assert changed.version == stored.version == 2 and "cat" in stored.content
    assert stored.memory_ids == changed.memory_ids and stored.token_count == count_tokens(stored.content)
    assert MemoryDocument.objects.filter(user=user).count() == 1


def test_a_user_with_memory_off_gets_an_empty_document_from_the_same_two_statements(user):
    MemoryFactory(user=user, statement="User likes tea")
    memory_md_render(user=user)
    MemorySettings.objects.create(user=user, enabled=False)
    with CaptureQueriesContext(connection) as queries:
        document = memory_md_render(user=user)
    assert len(_statements(queries)) == 2
    assert document.content == "" and document.memory_ids == [] and document.version == 2
    assert MemoryDocument.objects.get(user=user, persona=None).content == ""


def test_a_bare_has_that_another_memory_says_with_more_is_said_once(user):
    bare = MemoryFactory(user=user, statement="User has a dog", category=Category.FACT, importance=0.9)
    named = MemoryFactory(user=user, statement="User's dog is named Biscuit", category=Category.FACT, importance=0.6)
    sister = MemoryFactory(user=user, statement="User has a little sister", category=Category.RELATION)
    MemoryFactory(user=user, statement="User's little sister Ava started high school", category=Category.RELATION)
    cat = MemoryFactory(user=user, statement="用户养了一只猫", category=Category.FACT)
    MemoryFactory(user=user, statement="用户养了一只布偶猫叫奶茶", category=Category.FACT)
    lone = MemoryFactory(user=user, statement="User has a parrot", category=Category.FACT)

    document = memory_md_render(user=user)

    assert named.id in document.memory_ids and lone.id in document.memory_ids
    assert not {bare.id, sister.id, cat.id} & set(document.memory_ids)
    assert "- User has a dog\n" not in document.content and "- User has a parrot" in document.content
    assert Memory.objects.get(pk=bare.pk).status == Memory.Status.ACTIVE  # still a memory: recall and the center see it
