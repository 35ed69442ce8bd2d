from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField

from chat.models import ChatSession, Message, Persona


class Category(models.TextChoices):
    FACT = "fact", _("Fact")
    PREFERENCE = "preference", _("Preference")
    EVENT = "event", _("Event")
    EMOTION = "emotion", _("Emotion")
    RELATION = "relation", _("Relation")


class Phase(models.TextChoices):
    LIGHT = "light", _("Light sleep")
    DEEP = "deep", _("Deep sleep")
    WEEKLY = "weekly", _("Weekly consolidation")
    CHAT = "chat", _("Chat")
    RECALL = "recall", _("Recall")


class MemorySettings(models.Model):
    """Per-user switch. Memory off: nothing of this user is dreamed or recalled."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                                related_name="memory_settings")
    enabled = models.BooleanField(_("memory on"), default=True)
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, default="", db_default="",
        help_text=_("IANA name (Asia/Shanghai). The diary files a night under this zone's date; empty = TIME_ZONE."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("memory settings")
        verbose_name_plural = _("memory settings")

    def __str__(self) -> str:
        return f"{self.user} memory {'on' if self.enabled else 'off'}"

    # "Memory is on" is the one rule every phase, page and recall asks; a user with no settings row is on.
    # (Raw SQL that needs it inline — claims, the chat path's document query — says `NOT ms.enabled`.)
    @classmethod
    def is_on(cls, *, user_id: int) -> bool:
        return not cls.users_off(user_ids=[user_id])

    @classmethod
    def users_off(cls, *, user_ids) -> set[int]:
        """Which of these users have memory switched off (one query for a batch of sessions)."""
        return set(cls.objects.filter(user_id__in=list(user_ids), enabled=False).values_list("user_id", flat=True))

    @staticmethod
    def exclude_off(queryset: models.QuerySet, *, user_path: str = "") -> models.QuerySet:
        """`queryset` without the rows of users whose memory is off (`user_path`: "user__" for their rows)."""
        return queryset.exclude(**{f"{user_path}memory_settings__enabled": False})


class DreamRun(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        OK = "ok", _("OK")
        FAILED = "failed", _("Failed")

    phase = models.CharField(_("phase"), max_length=16, choices=Phase.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="dream_runs",
        verbose_name=_("user"),
    )
    worker = models.CharField(_("worker"), max_length=120, blank=True)
    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.RUNNING)
    error = models.TextField(_("error"), blank=True)
    dry_run = models.BooleanField(_("dry run"), default=False)
    simulated_now = models.DateTimeField(_("simulated clock"), null=True, blank=True,
                                         help_text=_("The clock a backfill replayed."))
    # Counters. Light sleep:
    sessions_claimed = models.PositiveIntegerField(_("sessions claimed"), default=0)
    sessions_done = models.PositiveIntegerField(_("sessions done"), default=0)
    sessions_failed = models.PositiveIntegerField(_("sessions failed"), default=0)
    sessions_skipped = models.PositiveIntegerField(_("sessions skipped"), default=0)
    skipped_by_kind = models.JSONField(_("skipped by kind"), default=dict, blank=True)
    sensitive_dropped = models.PositiveIntegerField(_("sensitive dropped"), default=0)
    # {"health": 2, "phone": 1, ...}: the sensitive clauses (and candidates) kept out, by kind (sensitive.KINDS).
    sensitive_by_kind = models.JSONField(_("sensitive, by kind"), default=dict, blank=True)
    candidates_created = models.PositiveIntegerField(_("candidates created"), default=0)
    unverified_rejected = models.PositiveIntegerField(_("unverified rejected"), default=0)
    tombstoned_dropped = models.PositiveIntegerField(_("tombstoned dropped"), default=0)
    # Deep sleep and weekly:
    users_processed = models.PositiveIntegerField(_("users processed"), default=0)
    promoted = models.PositiveIntegerField(_("promoted"), default=0)
    reinforced = models.PositiveIntegerField(_("reinforced"), default=0)
    pending = models.PositiveIntegerField(_("pending"), default=0)
    dropped = models.PositiveIntegerField(_("dropped"), default=0)
    superseded = models.PositiveIntegerField(_("superseded"), default=0)
    merged = models.PositiveIntegerField(_("merged"), default=0)
    evicted = models.PositiveIntegerField(_("evicted"), default=0)
    decayed = models.PositiveIntegerField(_("decayed"), default=0)
    expired = models.PositiveIntegerField(_("expired"), default=0)
    feedback_applied = models.PositiveIntegerField(_("feedback applied"), default=0)
    # Model usage (sums of the run's LLMCall rows).
    llm_calls = models.PositiveIntegerField(_("model calls"), default=0)
    prompt_tokens = models.PositiveIntegerField(_("prompt tokens"), default=0)
    completion_tokens = models.PositiveIntegerField(_("completion tokens"), default=0)
    embedding_calls = models.PositiveIntegerField(_("embedding calls"), default=0)
    cost_usd = models.DecimalField(_("cost (USD)"), max_digits=12, decimal_places=6, default=0)

    class Meta:
        verbose_name = _("dream run")
        verbose_name_plural = _("dream runs")
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["phase", "status", "-started_at"], name="dream_run_phase_idx")]

    def __str__(self) -> str:
        return f"{self.get_phase_display()} #{self.pk} ({self.get_status_display()})"

    @property
    def duration_seconds(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


class Memory(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        SUPERSEDED = "superseded", _("Superseded")
        ARCHIVED = "archived", _("Archived")

    MAX_SOURCES = 5

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="memories")
    persona = models.ForeignKey(
        Persona, null=True, blank=True, on_delete=models.CASCADE, related_name="memories", verbose_name=_("persona"),
        help_text=_("Scope: empty = the user's profile, shared by every persona."),
    )
    statement = models.TextField(_("statement"))
    category = models.CharField(_("category"), max_length=16, choices=Category.choices, default=Category.FACT)
    confidence = models.FloatField(_("confidence"), default=0.5)
    importance = models.FloatField(_("importance"), default=0.5)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE)
    user_set = models.BooleanField(_("set by the user"), default=False,
                                   help_text=_("Written or edited by the user in the memory center."))
    valid_from = models.DateTimeField(_("valid from"))
    valid_to = models.DateTimeField(_("valid until"), null=True, blank=True)
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="supersedes",
        verbose_name=_("superseded by"),
    )
    first_seen = models.DateTimeField(_("first seen"))
    last_seen = models.DateTimeField(_("last seen"))
    recurrence = models.PositiveIntegerField(_("recurrence"), default=1, help_text=_("Distinct sessions that said it."))
    half_life_days = models.FloatField(_("half-life (days)"), default=180.0)
    score = models.FloatField(_("score"), default=0.0)
    score_breakdown = models.JSONField(_("score breakdown"), default=dict, blank=True)
    embedding = VectorField(_("embedding"), dimensions=settings.EMBEDDING_DIM, null=True, blank=True)
    # Recall's shortlist key (64 dims: a fixed random projection of `embedding` scaled by the
    # score's factors, see dreaming/memory/recall.py). Written ONLY by the database (trigger
    # memory_recall_key_sync), so it follows every write path, ORM or raw SQL or COPY; whatever
    # Django sends for it is replaced.
    recall_key = VectorField(_("recall key"), dimensions=64, null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-confidence", "-importance"]
        verbose_name = _("memory")
        verbose_name_plural = _("memories")
        indexes = [
            models.Index(fields=["user", "status", "persona"], name="memory_user_status_idx"),
        ]

    def __str__(self) -> str:
        return self.statement[:80]

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def _recall_stat(self):
        try:
            return self.recall_stat
        except MemoryRecall.DoesNotExist:
            return None

    @property
    def recall_count(self) -> int:
        stat = self._recall_stat()
        return stat.count if stat else 0

    @property
    def last_recalled_at(self):
        stat = self._recall_stat()
        return stat.last_recalled_at if stat else None


class MemoryRecall(models.Model):
    """How often recall returned a memory, and when last. A table of its own, not columns of Memory:
    an UPDATE of a memory row clears its heap page's all-visible bit, which turns recall's index-only
    scan into heap fetches until the next VACUUM — the more a user recalled, the slower their recall
    got (751 heap fetches per query after 300 recalls in the bench)."""

    memory = models.OneToOneField(Memory, verbose_name=_("memory"), primary_key=True, on_delete=models.CASCADE,
                                  related_name="recall_stat")
    count = models.PositiveIntegerField(_("count"), default=0)
    last_recalled_at = models.DateTimeField(_("last recalled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("recall count")
        verbose_name_plural = _("recall counts")

    def __str__(self) -> str:
        return f"memory {self.memory_id}: recalled {self.count}×"


class MemorySource(models.Model):
    """One piece of evidence: the message a memory was learned from, and the user's own words."""

    memory = models.ForeignKey(Memory, verbose_name=_("memory"), on_delete=models.CASCADE, related_name="sources")
    message = models.ForeignKey(Message, verbose_name=_("message"), null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="memory_sources")
    quote = models.TextField(_("quote"))
    said_at = models.DateTimeField(_("said at"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("memory source")
        verbose_name_plural = _("memory sources")
        ordering = ["said_at"]

    def __str__(self) -> str:
        return self.quote[:80]


class Candidate(models.Model):
    """Something light sleep heard; deep sleep decides whether it becomes a memory."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        PROMOTED = "promoted", _("Promoted")
        MERGED = "merged", _("Merged into an existing memory")
        DISMISSED = "dismissed", _("Dismissed")
        REJECTED_UNVERIFIED = "rejected_unverified", _("Rejected: quote not in the message")

    class Audit(models.TextChoices):
        NONE = "", _("Not audited")
        CORRECT = "correct", _("Correct")
        EXTRACTION_ERROR = "extraction_error", _("Extraction error")

    # The reason a candidate the USER dismissed carries ("don't remember that"); deep sleep's own
    # dismissals (low score, expiry) say something else, and their turns stay recall's excerpts.
    USER_DISMISSED_REASON = "dismissed by the user"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="candidates")
    persona = models.ForeignKey(Persona, verbose_name=_("persona"), null=True, blank=True, on_delete=models.CASCADE,
                                related_name="candidates")
    session = models.ForeignKey(ChatSession, verbose_name=_("session"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="candidates")
    message = models.ForeignKey(Message, verbose_name=_("message"), null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="candidates")
    run = models.ForeignKey(DreamRun, verbose_name=_("run"), null=True, blank=True, on_delete=models.SET_NULL,
                            related_name="candidates")
    quote = models.TextField(_("quote"))
    statement = models.TextField(_("statement"))
    category = models.CharField(_("category"), max_length=16, choices=Category.choices, default=Category.FACT)
    importance = models.FloatField(_("importance"), default=0.5)
    user_initiated = models.BooleanField(
        _("raised by the user"), default=True, help_text=_("Raised by the user, not a passing answer.")
    )
    signals = models.JSONField(_("signals"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=24, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(_("reason"), blank=True)
    verified = models.BooleanField(_("verified"), default=False)
    score = models.FloatField(_("score"), null=True, blank=True)
    score_breakdown = models.JSONField(_("score breakdown"), default=dict, blank=True)
    memory = models.ForeignKey(Memory, verbose_name=_("memory"), null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="candidates")
    said_at = models.DateTimeField(_("said at"), help_text=_("When the user said it (the message time)."))
    embedding = VectorField(_("embedding"), dimensions=settings.EMBEDDING_DIM, null=True, blank=True)
    audit = models.CharField(_("audit"), max_length=24, choices=Audit.choices, default=Audit.NONE, blank=True)
    audit_note = models.TextField(_("audit note"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("candidate")
        verbose_name_plural = _("candidates")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "status"], name="candidate_user_status_idx"),
            models.Index(fields=["status", "-created_at"], name="candidate_status_idx"),
        ]

    def __str__(self) -> str:
        return self.statement[:80]


class Feedback(models.Model):
    class Verdict(models.TextChoices):
        AGREE = "agree", _("Agree")
        DOUBT = "doubt", _("Doubt")
        REJECT = "reject", _("Reject")

    DELTAS = {Verdict.AGREE: 0.10, Verdict.DOUBT: -0.15, Verdict.REJECT: -0.35}

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="memory_feedback")
    memory = models.ForeignKey(Memory, verbose_name=_("memory"), on_delete=models.CASCADE, related_name="feedback")
    verdict = models.CharField(_("verdict"), max_length=8, choices=Verdict.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)

    class Meta:
        verbose_name = _("feedback")
        verbose_name_plural = _("feedback")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "applied_at"], name="feedback_user_applied_idx")]

    def __str__(self) -> str:
        return f"{self.verdict} on {self.memory_id}"


class DiaryEntry(models.Model):
    """One night of DREAMS.md: a narrative for the user, never a source of memories."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="diary_entries")
    run = models.ForeignKey(DreamRun, verbose_name=_("run"), null=True, blank=True, on_delete=models.SET_NULL,
                            related_name="diary_entries")
    night = models.DateField(_("night"))
    narrative = models.TextField(_("narrative"))
    # One line per thing the night did, each naming the memories (and pending candidates) it
    # mentions by id: forgetting one removes exactly its lines and re-renders `narrative` from the
    # rest. Empty for entries written before lines existed (those are scrubbed sentence by sentence).
    lines = models.JSONField(_("lines"), default=list, blank=True, db_default=models.Value([], models.JSONField()))
    language = models.CharField(_("language"), max_length=8, default="en", db_default="en")
    memories = models.ManyToManyField(Memory, verbose_name=_("memories"), blank=True, related_name="diary_entries")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-night", "-created_at"]
        verbose_name = _("diary entry")
        verbose_name_plural = _("diary entries")

    def __str__(self) -> str:
        return f"{self.user} {self.night}"


class MemoryDocument(models.Model):
    """The rendered MEMORY.md for one user and scope: the only thing the chat path reads."""

    # The chat path's row must come from the scope's unique index (user_id, persona_id). So neither
    # key has a full index of its own: user lookups use the scope index's leading column, and the
    # persona index is partial (persona cascades only need real personas). With a full persona index
    # the planner, misled by stale statistics, read "persona_id IS NULL" through it and filtered by
    # user: every profile document in the table for one chat turn.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_documents", db_index=False,
        verbose_name=_("user"),
    )
    persona = models.ForeignKey(
        Persona, null=True, blank=True, on_delete=models.CASCADE, related_name="memory_documents", db_index=False,
        verbose_name=_("persona"),
    )
    content = models.TextField(_("content"))
    version = models.PositiveIntegerField(_("version"), default=1)
    token_count = models.PositiveIntegerField(_("token count"), default=0)
    token_budget = models.PositiveIntegerField(_("token budget"), default=0)
    memory_ids = models.JSONField(_("memory ids"), default=list, blank=True)
    rendered_at = models.DateTimeField(_("rendered at"))

    class Meta:
        verbose_name = _("MEMORY.md document")
        verbose_name_plural = _("MEMORY.md documents")
        constraints = [
            models.UniqueConstraint(fields=["user", "persona"], nulls_distinct=False, name="memory_document_unique_scope"),
        ]
        indexes = [
            models.Index(fields=["persona"], condition=models.Q(persona__isnull=False), name="memory_document_persona_idx"),
        ]

    def __str__(self) -> str:
        return f"MEMORY.md of {self.user} v{self.version}"


class Tombstone(models.Model):
    """A keyed hash of a statement the user made us forget, so it is never learned again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="tombstones")
    digest = models.CharField(_("digest"), max_length=64)
    # {keyed hash of a salient unit (word, name, number): weight}: stops paraphrases, other
    # languages included (dreaming/memory/tombstones.py). Hashes only; the words are not recoverable without the key.
    keys = models.JSONField(_("keys"), default=dict, blank=True, db_default=models.Value({}, models.JSONField()))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tombstone")
        verbose_name_plural = _("tombstones")
        constraints = [models.UniqueConstraint(fields=["user", "digest"], name="tombstone_unique_digest")]

    def __str__(self) -> str:
        return f"tombstone {self.digest[:12]}…"


class LLMCall(models.Model):
    class Status(models.TextChoices):
        OK = "ok", _("OK")
        UNUSABLE = "unusable", _("Unusable answer")
        ERROR = "error", _("Network / availability error")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="llm_calls")
    run = models.ForeignKey(DreamRun, verbose_name=_("run"), null=True, blank=True, on_delete=models.SET_NULL,
                            related_name="calls")
    phase = models.CharField(_("phase"), max_length=16, choices=Phase.choices)
    task = models.CharField(_("task"), max_length=16)
    backend = models.CharField(_("backend"), max_length=16, default="openai")
    model = models.CharField(_("model"), max_length=200)
    prompt_tokens = models.PositiveIntegerField(_("prompt tokens"), default=0)
    completion_tokens = models.PositiveIntegerField(_("completion tokens"), default=0)
    cost_usd = models.DecimalField(_("cost (USD)"), max_digits=12, decimal_places=6, default=0)
    latency_ms = models.PositiveIntegerField(_("latency (ms)"), default=0)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.OK)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["created_at"], name="llm_call_created_idx")]
        verbose_name = _("LLM call")
        verbose_name_plural = _("LLM calls")

    def __str__(self) -> str:
        return f"{self.task} {self.model} ({self.status})"


class NightUnit(models.Model):
    """One user's share of a night's deep sleep or weekly consolidation: the unit workers claim. The
    schedule plans one open unit per user and phase; workers claim with FOR UPDATE SKIP LOCKED and
    re-take a stale claim, like light sleep's sessions."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    phase = models.CharField(_("phase"), max_length=16, choices=Phase.choices)
    night = models.DateField(_("night"), help_text=_("The local date the night began on (TIME_ZONE)."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="night_units")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.WAITING)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    planned_at = models.DateTimeField(_("planned at"))
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=120, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    run = models.ForeignKey(DreamRun, verbose_name=_("run"), null=True, blank=True, on_delete=models.SET_NULL,
                            related_name="units")
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("night unit")
        verbose_name_plural = _("night units")
        # One open unit per user and phase (two clusters plan nothing twice); a finished one blocks nothing.
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "user"], condition=models.Q(status__in=["waiting", "running"]), name="night_unit_one_open"
            )
        ]
        indexes = [models.Index(fields=["phase", "night", "status"], name="night_unit_status_idx")]

    def __str__(self) -> str:
        return f"{self.phase} {self.night} user {self.user_id}: {self.status}"


class EmbeddingSpace(models.Model):
    """The embedder the stored vectors were made with (one row): written by `migrate` and `reembed`,
    checked before anything embeds or compares vectors (dreaming.providers.embedding_space)."""

    backend = models.CharField(_("backend"), max_length=16)
    model = models.CharField(_("model"), max_length=200)
    dimensions = models.PositiveIntegerField(_("dimensions"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now=True)

    class Meta:
        verbose_name = _("embedding space")
        verbose_name_plural = _("embedding spaces")

    def __str__(self) -> str:
        return f"{self.backend} {self.model} ({self.dimensions} dims)"
