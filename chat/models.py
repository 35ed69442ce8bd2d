import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Persona(models.Model):
    """A companion users talk to. Sessions without one talk to the assistant in general."""

    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("persona")
        verbose_name_plural = _("personas")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ChatSession(models.Model):
    class Source(models.TextChoices):
        API = "api", _("API")
        IMPORT = "import", _("Import")
        CHAT = "chat", _("Chat page")

    class Triage(models.TextChoices):
        NORMAL = "normal", _("Normal")
        EMPTY = "empty", _("Empty")
        ROLEPLAY = "roleplay", _("Roleplay")
        DOCUMENT = "document", _("Document")
        CODING = "coding", _("Coding")
        TRANSLATION = "translation", _("Translation")

    SKIPPED_KINDS = (Triage.ROLEPLAY, Triage.DOCUMENT, Triage.CODING, Triage.TRANSLATION)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                             related_name="chat_sessions")
    persona = models.ForeignKey(Persona, verbose_name=_("persona"), null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="sessions")
    external_id = models.CharField(_("external id"), max_length=200, blank=True)
    source = models.CharField(_("source"), max_length=16, choices=Source.choices, default=Source.API)
    title = models.CharField(_("title"), max_length=200, blank=True)
    started_at = models.DateTimeField(_("started at"))
    last_active_at = models.DateTimeField(_("last active at"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Light sleep bookkeeping: claimed = a worker is on it; done = processed up to processed_seq.
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    claimed_by = models.CharField(_("claimed by"), max_length=120, blank=True)
    dreamed_at = models.DateTimeField(_("dreamed at"), null=True, blank=True)
    processed_seq = models.IntegerField(_("processed up to turn"), default=0,
                                        help_text=_("Highest message seq light sleep has processed."))
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    triage_kind = models.CharField(_("triage"), max_length=16, choices=Triage.choices, blank=True)
    triage_reason = models.TextField(_("triage reason"), blank=True)
    skipped = models.BooleanField(_("skipped"), default=False)

    class Meta:
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")
        ordering = ["-last_active_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "external_id"], condition=~Q(external_id=""), name="chat_session_unique_external_id"
            ),
        ]
        indexes = [
            models.Index(fields=["dreamed_at", "last_active_at"], name="chat_session_sweep_idx"),
            models.Index(fields=["user", "-last_active_at"], name="chat_session_user_recent_idx"),
        ]

    def __str__(self) -> str:
        return self.external_id or f"session {self.pk}"

    def is_idle(self, now: datetime) -> bool:
        return self.last_active_at <= now - timedelta(seconds=settings.DREAM_IDLE_SECONDS)

    def dream_state(self) -> str:
        """Where light sleep is with this conversation: "dreamed", "skipped", "failed" (retried) or "waiting"."""
        if self.skipped:
            return "skipped"
        if self.dreamed_at:
            return "dreamed"
        if self.last_error:
            return "failed"
        return "waiting"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", _("User")
        ASSISTANT = "assistant", _("Assistant")
        SYSTEM = "system", _("System")

    session = models.ForeignKey(ChatSession, verbose_name=_("session"), on_delete=models.CASCADE,
                                related_name="messages")
    seq = models.PositiveIntegerField(_("turn"))
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    content = models.TextField(_("content"))
    created_at = models.DateTimeField(_("created at"))
    external_id = models.CharField(_("external id"), max_length=200, blank=True)
    # Recall's full-text search over the user's own words: set by light sleep for the user turns of
    # a session it kept (dreaming/memory/excerpts.py), NULL for everything else.
    search = SearchVectorField(_("search index"), null=True, blank=True, editable=False)
    # Set with `search`: the keyed hashes recall checks against the user's tombstones (the turn whole
    # and its long sentences, dreaming/memory/excerpts.py turn_digests), so the excerpt search leaves
    # out forgotten words in the same statement. NULL on a turn indexed before them: checked on read.
    forget_digests = ArrayField(models.CharField(max_length=64), verbose_name=_("forgetting digests"), null=True,
                                blank=True, editable=False)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["session_id", "seq"]
        indexes = [GinIndex(fields=["search"], name="chat_message_search_idx")]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="chat_message_unique_seq"),
            models.UniqueConstraint(
                fields=["session", "external_id"], condition=~Q(external_id=""), name="chat_message_unique_external_id"
            ),
        ]

    def __str__(self) -> str:
        # The turn's place, not its words: this text can reach logs (django_admin_log keeps an object's repr).
        return f"{self.role} turn {self.seq} of session {self.session_id}"


class SearchTerm(models.Model):
    """How many of a user's indexed turns hold each word (lexeme): recall's excerpt search reads it to
    weigh a query's words (a rare word says more) and to search only by the rarer ones, so a question
    full of common words does not rank thousands of turns. Kept exact by triggers on the message
    table (migration 0006): a turn's words are counted when its search vector is set and uncounted
    when it is cleared or deleted, so a deleted conversation leaves no word behind. `user_id` is read
    from the turn's owner token, not a foreign key: the counts go with the messages, whatever deletes
    them."""

    pk = models.CompositePrimaryKey("user_id", "lexeme")
    user_id = models.BigIntegerField(_("user id"))
    lexeme = models.TextField(_("word"))
    turns = models.IntegerField(_("turns"))

    class Meta:
        verbose_name = _("search term")
        verbose_name_plural = _("search terms")

    def __str__(self) -> str:
        # No word of the user's: this text can reach logs (django_admin_log keeps an object's repr).
        return f"user {self.user_id}: a word in {self.turns} turn(s)"


class Client(models.Model):
    """One chat product. Its API keys (several, so they can be rotated) see only the users it created,
    each addressed by the client's own username; web sign-ups belong to no client."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("client")
        verbose_name_plural = _("clients")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClientUser(models.Model):
    """A client's name for one of its users. The Django user behind it has an internal username
    (`account_username`) that the sign-up and admin forms cannot produce, so no web account can
    squat it and no client can reach a web account or another client's user by naming it."""

    client = models.ForeignKey(Client, verbose_name=_("client"), on_delete=models.PROTECT, related_name="users")
    username = models.CharField(_("username"), max_length=150)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
                                related_name="client_account")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("client user")
        verbose_name_plural = _("client users")
        ordering = ["client", "username"]
        constraints = [models.UniqueConstraint(fields=["client", "username"], name="chat_client_user_unique_username")]

    def __str__(self) -> str:
        return f"{self.username} ({self.client})"

    @staticmethod
    def account_username(*, client: "Client", username: str) -> str:
        # '~' is outside Django's username validator (letters, digits, @ . + - _).
        name = f"{username}~{client.pk}"
        if len(name) > 150:
            name = f"{hashlib.sha256(username.encode()).hexdigest()[:40]}~{client.pk}"
        return name


class ApiKey(models.Model):
    """A service client's key. Only a SHA-256 of the secret is stored; the secret is shown once."""

    PREFIX = "mc_"

    client = models.ForeignKey(Client, verbose_name=_("client"), on_delete=models.PROTECT, related_name="keys")
    name = models.CharField(_("name"), max_length=120, unique=True)
    prefix = models.CharField(_("prefix"), max_length=16, db_index=True)
    hashed_key = models.CharField(_("hashed key"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    # Per-key rate limit: a fixed one-minute window counted in Postgres (one UPDATE … RETURNING per
    # request), so every web worker shares the same count; a per-process cache would not.
    rate_window_start = models.DateTimeField(_("rate window start"), null=True, blank=True)
    rate_window_count = models.PositiveIntegerField(_("requests in the window"), default=0)

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def hash(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()

    @classmethod
    def generate_secret(cls) -> str:
        return cls.PREFIX + secrets.token_urlsafe(32)

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
