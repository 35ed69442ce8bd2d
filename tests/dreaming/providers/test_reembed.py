"""`manage.py reembed`: resize the vector columns to EMBEDDING_DIM and embed every statement again.

The command runs in autocommit like it does for real (transaction=True: an ALTER TABLE inside the usual
test transaction would trip over pending deferred-constraint events), so the fixture puts the columns
back to the configured size afterwards and no other test inherits a changed schema.
"""
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from dreaming.management.commands.reembed import embedding_column_dimensions
from dreaming.models import Candidate, Memory
from dreaming.providers.local_embedder import LocalEmbedder
from dreaming.memory.recall_key import RECALL_INDEX, recall_index_sync
from tests.factories import CandidateFactory, MemoryFactory

pytestmark = pytest.mark.django_db(transaction=True)

ORIGINAL_DIM = django_settings.EMBEDDING_DIM


@pytest.fixture(autouse=True)
def _columns_restored():
    yield
    for model in (Memory, Candidate):
        if embedding_column_dimensions(model) != ORIGINAL_DIM:
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {model._meta.db_table} ALTER COLUMN embedding TYPE vector({ORIGINAL_DIM}) USING NULL")
    recall_index_sync()


def _recall_index_exists():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [RECALL_INDEX])
        return cursor.fetchone() is not None


def _vector_dims(model, pk):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT vector_dims(embedding) FROM {model._meta.db_table} WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def _run(*args):
    out = StringIO()
    call_command("reembed", *args, stdout=out)
    return out.getvalue()


def test_changing_the_dimension_resizes_both_columns_and_reembeds_everything(settings, user):
    memories = [MemoryFactory(user=user, statement=f"User likes hobby {i}", embedding=[0.0] * (ORIGINAL_DIM - 1) + [1.0])
                for i in range(5)]
    candidate = CandidateFactory(user=user, statement="用户住在上海")
    settings.EMBEDDING_BACKEND = "local"
    settings.EMBEDDING_DIM = 64

    output = _run("--batch", "2")

    assert embedding_column_dimensions(Memory) == 64 and embedding_column_dimensions(Candidate) == 64
    assert all(_vector_dims(Memory, m.pk) == 64 for m in memories)
    assert _vector_dims(Candidate, candidate.pk) == 64
    assert "memories: 2/5" in output and "memories: 5/5" in output
    assert "Re-embedded 5 memories and 1 candidates with local" in output
    assert f"memories {ORIGINAL_DIM} → 64" in output
    # The stored vector is the configured embedder's vector of the statement.
    with connection.cursor() as cursor:
        cursor.execute("SELECT embedding::text FROM dreaming_candidate WHERE id = %s", [candidate.pk])
        stored = [float(x) for x in cursor.fetchone()[0].strip("[]").split(",")]
    expected = LocalEmbedder(dimensions=64).embed(["用户住在上海"])[0]
    assert stored == pytest.approx(expected, abs=1e-6)


def test_recall_s_index_and_keys_survive_any_dimension_because_the_key_has_a_fixed_size(settings, user):
    memory = MemoryFactory(user=user, statement="User has a dog named Milo")
    assert _recall_index_exists()
    settings.EMBEDDING_DIM = 1024
    _run()
    assert _recall_index_exists()
    assert _vector_dims(Memory, memory.pk) == 1024  # a 1024-d vector could not be stored with the btree index
    settings.EMBEDDING_DIM = 256
    _run()
    assert _recall_index_exists()
    assert _vector_dims(Memory, memory.pk) == 256


def test_the_same_dimension_keeps_the_columns_and_refreshes_vectors(settings, user):
    memory = MemoryFactory(user=user, statement="User has a dog named Milo", embedding=None)
    output = _run()
    assert embedding_column_dimensions(Memory) == ORIGINAL_DIM
    assert _vector_dims(Memory, memory.pk) == ORIGINAL_DIM
    assert "column size unchanged" in output


def test_missing_only_embeds_rows_without_a_vector(settings, user):
    kept = [0.0] * (ORIGINAL_DIM - 1) + [1.0]
    with_vector = MemoryFactory(user=user, statement="User likes tea", embedding=kept)
    without = MemoryFactory(user=user, statement="User likes coffee", embedding=None)
    output = _run("--missing")
    assert "Re-embedded 1 memories" in output
    assert list(Memory.objects.get(pk=with_vector.pk).embedding) == kept
    assert Memory.objects.get(pk=without.pk).embedding is not None


def test_check_reports_a_mismatch_without_changing_anything(settings):
    settings.EMBEDDING_DIM = 64
    with pytest.raises(CommandError, match=f"vector\\({ORIGINAL_DIM}\\) but EMBEDDING_DIM is 64"):
        _run("--check")
    assert embedding_column_dimensions(Memory) == ORIGINAL_DIM
    settings.EMBEDDING_DIM = ORIGINAL_DIM
    assert "match" in _run("--check")


def test_a_provider_outage_stops_with_one_readable_line_and_keeps_finished_batches(openai_backend, settings, user):
    settings.EMBEDDING_DIM = 32
    settings.EMBEDDING_MAX_RETRIES = 0
    for i in range(3):
        MemoryFactory(user=user, statement=f"User fact {i}")
    openai_backend.queue_embeddings([[1.0] + [0.0] * 31, [0.0, 1.0] + [0.0] * 30])
    openai_backend.queue_error(500, endpoint="embeddings")

    with pytest.raises(CommandError, match="embedding failed after 2 memories.*--missing"):
        _run("--batch", "2")

    assert embedding_column_dimensions(Memory) == 32
    assert Memory.objects.filter(embedding__isnull=False).count() == 2


def test_a_bad_batch_size_is_refused():
    with pytest.raises(CommandError, match="--batch must be at least 1"):
        _run("--batch", "0")


def test_resizing_the_column_keeps_memory_embeddings_stored_in_the_row(settings, user):
    """ALTER COLUMN TYPE resets a column's storage to the type's default; recall's exact stage
    relies on the vectors being inline, so reembed puts the storage back."""
    MemoryFactory(user=user, statement="User has a dog named Milo")
    settings.EMBEDDING_DIM = 256
    _run()
    with connection.cursor() as cursor:
        cursor.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = 'dreaming_memory'::regclass AND attname = 'embedding'")
        assert cursor.fetchone()[0] == "m"
