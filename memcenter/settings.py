"""memcenter settings. Every knob is an environment variable documented in README.md."""
import json
import sys
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from memcenter.database import database_from_url, embedded_database_url
from memcenter.env import env_bool, env_choice, env_float, env_int, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "pytest" in sys.modules or env_bool("MEMCENTER_TESTING")

DEBUG = env_bool("DJANGO_DEBUG", False)
# Production = neither debug nor a test run: the secure defaults below switch on.
PRODUCTION = not (DEBUG or TESTING)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "insecure-dev-key-only-for-debug-and-tests"
WEAK_SECRET_KEYS = {"changeme", "change-me", "secret", "password", "insecure-dev-key-only-for-debug-and-tests",
                    "please-change-me-to-a-long-random-string-of-at-least-fifty-characters"}
if PRODUCTION and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.lower() in WEAK_SECRET_KEYS
                   or SECRET_KEY.startswith("django-insecure-")):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is too weak: use at least 50 random characters, e.g. the output of "
        "`python -c \"import secrets; print(secrets.token_urlsafe(50))\"`"
    )

ALLOWED_HOSTS = [h.strip() for h in env_str("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in env_str("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.forms",  # the form renderer below finds Django's own widget templates here
    "django_htmx",
    "template_partials",
    "django_q",
    "ninja",  # serves Swagger UI's assets from static, so /api/docs works offline and under the CSP
    "axes",
    "chat",
    "dreaming",
    "memcenter",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "memcenter.middleware.private_pages_not_stored",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "memcenter.urls"
WSGI_APPLICATION = "memcenter.wsgi.application"
ASGI_APPLICATION = "memcenter.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Rendered memory cards (memcenter/cards.py), per process. Keyed by everything a card shows, so a
    # changed memory is simply a new key; 5,000 cards (3–4 kB each) are about 20 MB.
    "cards": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "memory-cards",
              "OPTIONS": {"MAX_ENTRIES": 5000}},
}
# Widgets render through TEMPLATES, so templates/admin/widgets/ can give admin's date and time boxes labels.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# --- Database: Postgres only -------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
MEMCENTER_PGDATA = Path(env_str("MEMCENTER_PGDATA", str(BASE_DIR / ".data" / "postgres"))).resolve()
DATABASES = {"default": database_from_url(DATABASE_URL or embedded_database_url(MEMCENTER_PGDATA))}
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0)
# Several developers or CI jobs may share one embedded server; each names its own test database.
DATABASES["default"]["TEST"] = {"NAME": env_str("MEMCENTER_TEST_DB", "test_memcenter")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out username + address before checking
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "memcenter:memories"
LOGOUT_REDIRECT_URL = "login"

# --- Language and time ------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles"))).resolve()
# whitenoise serves static files from the web processes; in production with compressed, hashed names
# (`collectstatic` first: `make setup` and `serve --prod` run it). Debug and tests read the sources.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage" if PRODUCTION
                    else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = not PRODUCTION

# --- Security: on by default outside debug and tests ----------------------------------------
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", PRODUCTION)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients): opt in.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer probes it over plain HTTP
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): this site's own files only; no inline script or style.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
if DEBUG:  # Django's debug pages use inline code: report violations in the console, do not block them
    CONTENT_SECURITY_POLICY_REPORT_ONLY, CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY, None
# Login throttling (django-axes, counted in the database so every web process shares the count):
# after this many failures for one username from one address, that pair is locked out for a while.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The address axes counts by: REMOTE_ADDR, or behind the proxy (SECURE_PROXY_SSL_HEADER on) the
# address it appended to X-Forwarded-For.
AXES_CLIENT_IP_CALLABLE = "memcenter.middleware.client_ip"
# /healthz shows only its status to the public; staff, or a request with this bearer token, see details.
HEALTHZ_TOKEN = env_str("HEALTHZ_TOKEN")

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "memcenter@localhost")
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 5 * 1024 * 1024, minimum=1024)

# --- `serve --prod`: gunicorn in front of Django --------------------------------------------
WEB_CONCURRENCY = env_int("WEB_CONCURRENCY", 2, minimum=1)  # gunicorn worker processes
GUNICORN_TIMEOUT = env_int("GUNICORN_TIMEOUT", 60, minimum=5)  # seconds before a stuck request's worker is replaced
Q_CLUSTERS = env_int("Q_CLUSTERS", 1, minimum=0)  # django-q2 clusters `serve --prod` starts beside gunicorn

# --- django-q2: the ORM broker on the same Postgres --------------------------------------
Q_CLUSTER = {
    "name": "memcenter",
    "orm": "default",
    "workers": env_int("Q_WORKERS", 2, minimum=1),
    "timeout": env_int("Q_TIMEOUT", 1800, minimum=10),
    "retry": env_int("Q_TIMEOUT", 1800, minimum=10) + 60,  # retry must exceed timeout
    "max_attempts": 1,
    "catch_up": False,
    "save_limit": 500,
    "poll": 2,
}

# --- Dreaming ----------------------------------------------------------------------------
DREAM_IDLE_SECONDS = env_int("DREAM_IDLE_SECONDS", 1800, minimum=0)
DREAM_SWEEP_SECONDS = env_int("DREAM_SWEEP_SECONDS", 300, minimum=10)
DREAM_CLAIM_STALE_SECONDS = env_int("DREAM_CLAIM_STALE_SECONDS", 600, minimum=1)
DREAM_BATCH_SIZE = env_int("DREAM_BATCH_SIZE", 50, minimum=1)
DREAM_DEEP_HOUR = env_int("DREAM_DEEP_HOUR", 3, minimum=0)
DREAM_PENDING_MAX_DAYS = env_int("DREAM_PENDING_MAX_DAYS", 60, minimum=1)
# Score weights of deep sleep, all in one place (see dreaming/memory/scoring.py for what each part is).
# (area quality: "stability" added and the rest rebalanced so a volunteered lasting preference or
# relation is promoted the first night, while small talk of the moment waits for recurrence.)
DREAM_SCORE_WEIGHTS = {
    "importance": 0.25,
    "user_initiated": 0.15,
    "recurrence": 0.20,
    "specificity": 0.15,
    "timeliness": 0.05,
    "feedback": 0.05,
    "stability": 0.15,
}
DREAM_PROMOTE_THRESHOLD = env_float("DREAM_PROMOTE_THRESHOLD", 0.50)
DREAM_PENDING_THRESHOLD = env_float("DREAM_PENDING_THRESHOLD", 0.30)
MEMORY_MD_TOKENS = env_int("MEMORY_MD_TOKENS", 1024, minimum=64)
RECALL_TAU_WEEKS = env_float("RECALL_TAU_WEEKS", 26.0, minimum=0.1)
RECALL_DEFAULT_K = env_int("RECALL_DEFAULT_K", 10, minimum=1)
TOMBSTONE_KEY = env_str("TOMBSTONE_KEY", SECRET_KEY)

# --- context: the per-process MEMORY.md cache (dreaming/memory/context_cache.py, docs/context.md) --------
# Off under tests by default: a test's transaction never commits, so its NOTIFYs never arrive;
# the cache's own tests turn it on with transaction=True.
MEMORY_MD_CACHE = env_bool("MEMORY_MD_CACHE", not TESTING)
# Where the cache's listener connects (postgresql://… straight to Postgres); empty = the database's own
# settings. Needed behind PgBouncer in transaction mode, where LISTEN does not work (docs/deploy.md).
MEMORY_MD_LISTEN_URL = env_str("MEMORY_MD_LISTEN_URL")
MEMORY_MD_CACHE_SIZE = env_int("MEMORY_MD_CACHE_SIZE", 5000, minimum=1)  # documents per process (LRU)
# Recall's held memories (embeddings, factors, words: ~2.5 KB per 512-d memory) kept per process for
# at most this many users and this many MB (LRU), while MEMORY_MD_CACHE is on: recall then ranks a
# user's memories exactly in NumPy instead of estimating from the index (dreaming/memory/recall_held.py).
RECALL_KEY_CACHE_SIZE = env_int("RECALL_KEY_CACHE_SIZE", 64, minimum=1)
RECALL_CACHE_MB = env_int("RECALL_CACHE_MB", 256, minimum=1)
# Recall's statements on the held path are prepared once per database connection (PREPARE/EXECUTE,
# dreaming/memory/prepared.py). Off behind a pooler in transaction mode, where a connection's next
# transaction may run on another server session.
RECALL_PREPARED_STATEMENTS = env_bool("RECALL_PREPARED_STATEMENTS", True)
# Recall stats (how often a memory was recalled) are noted in the process and written by a flusher
# thread this often, in one statement, instead of a write on every recall (dreaming/memory/recall_stats.py);
# 0 = written with each recall. Off under tests by default: their transactions never commit.
RECALL_STATS_FLUSH_SECONDS = env_float("RECALL_STATS_FLUSH_SECONDS", 0.0 if TESTING else 1.0, minimum=0.0)

# --- Deep sleep and weekly consolidation (area: deep; see docs/deep.md) --------------
# Cosine similarity at which two candidates are "the same topic" (clustering) and two active
# memories are "the same memory" (weekly merge). Tuned for the local n-gram embedder.
DREAM_CLUSTER_SIMILARITY = env_float("DREAM_CLUSTER_SIMILARITY", 0.80)
DREAM_MERGE_SIMILARITY = env_float("DREAM_MERGE_SIMILARITY", 0.90)
DREAM_COMPARE_NEIGHBOURS = env_int("DREAM_COMPARE_NEIGHBOURS", 8, minimum=1)
DREAM_REINFORCE_DELTA = env_float("DREAM_REINFORCE_DELTA", 0.05)
DREAM_WEEKLY_WEEKDAY = env_int("DREAM_WEEKLY_WEEKDAY", 6, minimum=0)  # 0 = Monday .. 6 = Sunday
DREAM_WEEKLY_HOUR = env_int("DREAM_WEEKLY_HOUR", 4, minimum=0)
DREAM_HALF_LIFE_DAYS = {
    "fact": env_float("DREAM_HALF_LIFE_FACT", 365.0, minimum=1),
    "relation": env_float("DREAM_HALF_LIFE_RELATION", 365.0, minimum=1),
    "preference": env_float("DREAM_HALF_LIFE_PREFERENCE", 180.0, minimum=1),
    "event": env_float("DREAM_HALF_LIFE_EVENT", 30.0, minimum=1),
    "emotion": env_float("DREAM_HALF_LIFE_EMOTION", 14.0, minimum=1),
}
DREAM_AGREE_HALF_LIFE_FACTOR = env_float("DREAM_AGREE_HALF_LIFE_FACTOR", 2.0, minimum=1)
DREAM_EVICT_CONFIDENCE = env_float("DREAM_EVICT_CONFIDENCE", 0.15)
DREAM_EVICT_IDLE_DAYS = env_int("DREAM_EVICT_IDLE_DAYS", 90, minimum=1)
DREAM_PLAN_WINDOW_DAYS = env_int("DREAM_PLAN_WINDOW_DAYS", 14, minimum=1)

# --- Light sleep (area: light; see docs/light.md) ----------------------------------
# A session that fails this many times with an unexpected error is stamped done (error kept) so it
# cannot be retried forever. Provider outages do not count: those claims are simply released.
DREAM_MAX_ATTEMPTS = env_int("DREAM_MAX_ATTEMPTS", 5, minimum=1)
# Sweeps one light_sleep_task may run back to back before leaving the rest to the next schedule tick.
# Deep sleep and weekly run as claimable per-user units (dreaming/pipeline/units.py). A worker runs up
# to DREAM_MODEL_CONCURRENCY users' model calls at once (remote models only; the local engine is
# CPU-bound and runs one at a time); the nightly task fans out to DREAM_NIGHT_TASKS queued tasks
# (any cluster's workers take them), each working until DREAM_NIGHT_TASK_SECONDS and then re-queueing.
DREAM_MODEL_CONCURRENCY = env_int("DREAM_MODEL_CONCURRENCY", 4, minimum=1)
DREAM_NIGHT_TASKS = env_int("DREAM_NIGHT_TASKS", 2, minimum=1)
DREAM_NIGHT_TASK_SECONDS = env_int("DREAM_NIGHT_TASK_SECONDS", 900, minimum=10)
# Unusable model answers in a row that stop a light sweep (claims released, run failed): a broken
# model must not burn every session's attempts.
DREAM_UNUSABLE_STREAK = env_int("DREAM_UNUSABLE_STREAK", 3, minimum=1)
DREAM_TASK_MAX_SWEEPS = env_int("DREAM_TASK_MAX_SWEEPS", 20, minimum=1)

# --- Providers: the LLM ("dreamer") and embeddings ----------------------------------------
LLM_API_KEY = env_str("LLM_API_KEY") or env_str("OPENAI_API_KEY")
LLM_BACKEND = env_choice("LLM_BACKEND", "openai" if LLM_API_KEY else "local", ("local", "openai"))
LLM_BASE_URL = env_str("LLM_BASE_URL", "https://api.openai.com/v1")
LLM_MODEL = env_str("LLM_MODEL", "gpt-4o-mini")
LLM_TASKS = ("extract", "compare", "merge", "narrate", "reply")  # extract = triage + extraction, one call
# Per-task models; empty = LLM_MODEL.
LLM_TASK_MODELS = {task: env_str(f"LLM_MODEL_{task.upper()}") for task in LLM_TASKS}
# Per-task answer limits (max_tokens; 0 = the server's default) and sampling temperature (empty = server default).
LLM_MAX_TOKENS = {
    task: env_int(f"LLM_MAX_TOKENS_{task.upper()}", default, minimum=0)
    for task, default in {"extract": 2000, "compare": 1500, "merge": 300, "narrate": 400, "reply": 1000}.items()
}
# A session longer than the model's context is read in parts of at most this many (estimated) tokens.
LLM_SPLIT_TOKENS = env_int("LLM_SPLIT_TOKENS", 8000, minimum=100)
LLM_TEMPERATURE = env_float("LLM_TEMPERATURE", 0.0, minimum=0.0) if env_str("LLM_TEMPERATURE", "0") else None
LLM_FALLBACK_MODEL = env_str("LLM_FALLBACK_MODEL")
LLM_TIMEOUT = env_float("LLM_TIMEOUT", 60.0, minimum=0.1)
LLM_MAX_RETRIES = env_int("LLM_MAX_RETRIES", 2, minimum=0)
LLM_JSON_SCHEMA = env_bool("LLM_JSON_SCHEMA", True)
try:
    # USD per million tokens: {"model": [prompt, completion]}.
    LLM_PRICES = json.loads(env_str("LLM_PRICES", "") or "{}") or {
        "gpt-4o-mini": [0.15, 0.60],
        "gpt-4.1-mini": [0.40, 1.60],
        "gpt-4.1-nano": [0.10, 0.40],
        "anthropic/claude-haiku-4.5": [1.00, 5.00],
        "anthropic/claude-sonnet-4.6": [3.00, 15.00],
    }
except json.JSONDecodeError as exc:
    raise ImproperlyConfigured(f"LLM_PRICES must be JSON like {{\"model\": [in, out]}}: {exc}") from None

VOYAGE_API_KEY = env_str("VOYAGE_API_KEY")
EMBEDDING_BACKEND = env_choice(
    "EMBEDDING_BACKEND", "voyage" if VOYAGE_API_KEY else "local", ("local", "openai", "voyage")
)
EMBEDDING_MODEL = env_str(
    "EMBEDDING_MODEL",
    {"local": "local-ngram-v1", "openai": "text-embedding-3-small", "voyage": "voyage-3.5-lite"}[EMBEDDING_BACKEND],
)
EMBEDDING_DIM = env_int(
    "EMBEDDING_DIM", {"local": 512, "openai": 1536, "voyage": 1024}[EMBEDDING_BACKEND], minimum=8
)
EMBEDDING_BASE_URL = env_str("EMBEDDING_BASE_URL", LLM_BASE_URL)
EMBEDDING_API_KEY = env_str("EMBEDDING_API_KEY", LLM_API_KEY)
EMBEDDING_BATCH_SIZE = env_int("EMBEDDING_BATCH_SIZE", 64, minimum=1)
EMBEDDING_PRICE_PER_MTOK = env_float("EMBEDDING_PRICE_PER_MTOK", 0.02, minimum=0)
# providers: timeouts/retries for embedding calls, Voyage endpoint (empty = the SDK's default),
# tool rounds the chat reply may spend on recall_memory, and whether embed calls get LLMCall rows.
EMBEDDING_TIMEOUT = env_float("EMBEDDING_TIMEOUT", 30.0, minimum=0.1)
EMBEDDING_MAX_RETRIES = env_int("EMBEDDING_MAX_RETRIES", 2, minimum=0)
EMBEDDING_RECORD_CALLS = env_bool("EMBEDDING_RECORD_CALLS", True)
VOYAGE_BASE_URL = env_str("VOYAGE_BASE_URL")
# Send the `dimensions` / `output_dimension` parameter: auto = only to models known to accept it.
EMBEDDING_SEND_DIMENSIONS = env_choice("EMBEDDING_SEND_DIMENSIONS", "auto", ("auto", "true", "false"))
LLM_REPLY_TOOL_ROUNDS = env_int("LLM_REPLY_TOOL_ROUNDS", 3, minimum=0)

# --- API ---------------------------------------------------------------------------------
API_RATE_LIMIT_PER_MINUTE = env_int("API_RATE_LIMIT_PER_MINUTE", 600, minimum=1)
API_MAX_MESSAGES_PER_REQUEST = env_int("API_MAX_MESSAGES_PER_REQUEST", 500, minimum=1)
API_MAX_MESSAGE_CHARS = env_int("API_MAX_MESSAGE_CHARS", 100_000, minimum=100)

# --- center: the memory-center pages -------------------------------------------------------
# Off by default: users arrive from their chat product through login links (or staff create them).
# A standalone install turns it on; `make run` does for the demo.
MEMCENTER_SIGNUP_ENABLED = env_bool("MEMCENTER_SIGNUP_ENABLED", False)
# How long a login link from POST /api/v1/users/{username}/login-link stays usable (it works once).
LOGIN_LINK_SECONDS = env_int("LOGIN_LINK_SECONDS", 600, minimum=10)
# The site's address as users' browsers see it (https://memory.example.com), for login links; empty =
# taken from the API request's Host (right when the chat product calls the public address).
MEMCENTER_PUBLIC_URL = env_str("MEMCENTER_PUBLIC_URL")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "memcenter": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
        "dreaming": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
        "chat": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    },
}
