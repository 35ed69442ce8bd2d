"""Re-embed every memory and candidate with the configured embedder, resizing the vector columns first.

The vector columns are sized by EMBEDDING_DIM. After switching embedding backend or model (local 512,
OpenAI 1536, Voyage 1024, ...) run `manage.py reembed`: it ALTERs both columns to vector(EMBEDDING_DIM)
(old vectors are dropped: they cannot be compared with the new model's anyway) and embeds every
statement again, committing batch by batch so an interrupted run can be resumed with --missing.
"""
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from dreaming.models import Candidate, Memory
from dreaming.providers.embedding_space import embedding_space_record
from dreaming.providers import CallContext, ProviderUnavailable, get_embedder
from dreaming.memory.recall_key import embedding_column_dimensions, recall_index_sync

MODELS = (Memory, Candidate)


def embedding_column_resize(model, *, dimensions: int) -> None:
    table = connection.ops.quote_name(model._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        # USING NULL: vectors from another model live in another space; they are re-embedded below.
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN embedding TYPE vector({int(dimensions)}) USING NULL")


def embeddings_store(model, rows: list[tuple[int, list[float]]]) -> None:
    table = connection.ops.quote_name(model._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        # Raw SQL on purpose: the ORM field was sized when the process started and would cast to it.
        cursor.executemany(
            f"UPDATE {table} SET embedding = %s::vector WHERE id = %s",
            [("[" + ",".join(repr(float(x)) for x in vector) + "]", pk) for pk, vector in rows],
        )


class Command(BaseCommand):
    help = "Resize the embedding columns to EMBEDDING_DIM and re-embed every memory and candidate statement."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=None, help="Statements per embedding request "
                            "(default EMBEDDING_BATCH_SIZE).")
        parser.add_argument("--missing", action="store_true", help="Only embed rows that have no vector yet "
                            "(resume an interrupted run).")
        parser.add_argument("--check", action="store_true", help="Only report whether the columns match "
                            "EMBEDDING_DIM; exit 1 when they do not.")

    def handle(self, *args, batch, missing, check, **options):
        batch = settings.EMBEDDING_BATCH_SIZE if batch is None else batch
        if batch < 1:
            raise CommandError(f"--batch must be at least 1, got {batch}")
        target = settings.EMBEDDING_DIM
        current = {model: embedding_column_dimensions(model) for model in MODELS}
        if check:
            return self._check(current, target)
        embedder = get_embedder()
        if embedder.dimensions != target:
            raise CommandError(f"the {embedder.name} embedder makes {embedder.dimensions}-d vectors but EMBEDDING_DIM is {target}")
        resized = []
        for model, dimensions in current.items():
            if dimensions != target:
                embedding_column_resize(model, dimensions=target)
                resized.append(f"{model._meta.verbose_name_plural} {dimensions or 'any'} → {target}")
        # Recall's covering btree index holds the vectors: it only fits up to 640 dimensions, so it is
        # (re)created or dropped to match the new size before any vector is stored.
        recall_index_sync()
        started = time.monotonic()
        ctx = CallContext(phase="weekly")  # maintenance: accounted like the weekly consolidation
        counts = {model: self._reembed(model, embedder=embedder, batch=batch, missing=missing, ctx=ctx) for model in MODELS}
        if not missing:  # every vector is now this embedder's: dreaming and recall may run again
            embedding_space_record()
        self.stdout.write(
            f"Re-embedded {counts[Memory]} memories and {counts[Candidate]} candidates with {embedder.name} "
            f"({getattr(embedder, 'model', settings.EMBEDDING_MODEL)}, {target} dims) in "
            f"{time.monotonic() - started:.1f}s; "
            + (f"columns resized: {', '.join(resized)}." if resized else "column size unchanged.")
        )

    def _check(self, current: dict, target: int) -> None:
        wrong = [f"{m._meta.db_table}.embedding is vector({d})" for m, d in current.items() if d != target]
        if wrong:
            raise CommandError(f"{'; '.join(wrong)} but EMBEDDING_DIM is {target}: run `manage.py reembed`")
        self.stdout.write(f"Embedding columns match EMBEDDING_DIM ({target}).")

    def _reembed(self, model, *, embedder, batch: int, missing: bool, ctx: CallContext) -> int:
        rows = model.objects.order_by("pk")
        if missing:
            rows = rows.filter(embedding__isnull=True)
        pending = list(rows.values_list("pk", "statement"))
        label = model._meta.verbose_name_plural
        done = 0
        for start in range(0, len(pending), batch):
            chunk = pending[start : start + batch]
            try:
                vectors = embedder.embed([statement for _, statement in chunk], kind="document", ctx=ctx)
            except ProviderUnavailable as exc:
                raise CommandError(
                    f"embedding failed after {done} {label}: {exc} (rerun with --missing to continue)"
                ) from None
            embeddings_store(model, [(pk, vector) for (pk, _), vector in zip(chunk, vectors)])
            done += len(chunk)
            self.stdout.write(f"  {label}: {done}/{len(pending)}", ending="\r" if self.stdout.isatty() else "\n")
        if pending and self.stdout.isatty():
            self.stdout.write("")
        return done
