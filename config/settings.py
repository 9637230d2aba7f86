"""Reverie settings: every value is read once, here, through django-environ.

A bad value (say, ``DEBUG=maybe``) fails at start-up rather than at first use.
"""

import ipaddress
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)
# `make run` writes var/dev.env (DEBUG=1 and a generated SECRET_KEY) and
# manage.py names it here, so that the README's commands work in a plain
# shell; the WSGI application never names it, so a copied checkout is never
# served with DEBUG on.
if env.str("REVERIE_ENV_FILE", default=""):
    environ.Env.read_env(env.str("REVERIE_ENV_FILE"), overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="" if not DEBUG else "insecure-development-key")
if not SECRET_KEY:
    raise environ.ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for a development key).")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

# HTTPS. Outside DEBUG every default is the secure one. Behind a proxy that
# terminates TLS, set REVERIE_BEHIND_TLS_PROXY=1 so that its
# X-Forwarded-Proto header tells Django the request came over HTTPS (the proxy
# must set that header itself, never pass a client's on), and list the public
# origin in CSRF_TRUSTED_ORIGINS if it differs from the Host the proxy sends.
_behind_tls_proxy = env.bool("REVERIE_BEHIND_TLS_PROXY", default=False)
if _behind_tls_proxy:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The proxies whose X-Forwarded-For names the client (accounts/client_address.py):
# addresses or networks. A request from anywhere else is its own client,
# whatever header it carries.
REVERIE_TRUSTED_PROXIES = env.list(
    "REVERIE_TRUSTED_PROXIES", default=["127.0.0.1", "::1"] if _behind_tls_proxy else []
)
for _proxy in REVERIE_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise environ.ImproperlyConfigured(
            f"REVERIE_TRUSTED_PROXIES: {_proxy!r} is not an address or a network."
        ) from None
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# /healthz and /readyz answer probes that speak plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
# Preloading commits the whole domain to HTTPS in browsers for good: the
# operator's decision, so off unless asked for (and its deploy check silenced).
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True

INSTALLED_APPS = [
    # The admin, with the operator site (accounts.admin_site) as admin.site.
    "accounts.apps.OperatorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "accounts",
    "common",
    "memory",
    "providers",
    "formation",
    "reconsolidation",
    "evaluation",
]
# The benchmarks (seeding and timing commands) are a development tool: the
# scripts in benchmarks/ run with DEBUG=1, and a production deployment
# installs no benchmark code.
if env.bool("REVERIE_BENCHMARKS", default=DEBUG):
    INSTALLED_APPS.append("benchmarks")

MIDDLEWARE = [
    "common.api.middleware.RequestIdMiddleware",
    "common.api.middleware.ApiBodyLimitMiddleware",
    "common.middleware.NoStoreMiddleware",
    "common.middleware.SameOriginContentMiddleware",
    "common.middleware.RejectNulBytesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (the admin's and the review site's CSS) from STATIC_ROOT, as
    # `collectstatic` left them: no separate web server needed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "memory.middleware.PrincipalContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite is the embedded default. IMMEDIATE transactions take the write lock when
# they begin, so two processes (web and q2 worker) serialise instead of failing
# with "database is locked" halfway through a unit of work.
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'reverie.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # secure_delete overwrites deleted content with zeros, so erased text does
    # not linger in the file's free pages.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA secure_delete=ON;"}
    )
    # A file (not the in-memory default) so that tests can use several
    # connections and processes, as the web process and the worker do.
    DATABASES["default"]["TEST"] = {
        "NAME": env.str("REVERIE_SQLITE_TEST_DB", default=str(VAR_DIR / "test.sqlite3"))
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Server-side binding lets psycopg prepare a statement once it has run five
    # times on a connection: PostgreSQL then skips planning it again, which is
    # as costly as running it for the short queries of every request (row
    # security makes each plan larger).
    prepared = env.bool("REVERIE_DB_PREPARED_STATEMENTS", default=True)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": prepared, "prepare_threshold": 5 if prepared else None}
    )
# Persistent connections: opening one per request costs more than the request.
# Safe with row-level security because the principal is set per transaction.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# One date format everywhere: see config/formats/en/formats.py.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=VAR_DIR / "static")

LOGIN_URL = "admin:login"
# Where owners reach the service, for the set-password links printed at the
# shell (accounts/onboarding.py); the links last PASSWORD_RESET_TIMEOUT.
REVERIE_PUBLIC_URL = env.str("REVERIE_PUBLIC_URL", default="http://127.0.0.1:8000")
PASSWORD_RESET_TIMEOUT = env.int("REVERIE_PASSWORD_LINK_SECONDS", default=24 * 3600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO").upper()},
    # httpx logs every provider request at INFO; the extraction audit already counts them.
    "loggers": {"httpx": {"level": "WARNING"}, "httpcore": {"level": "WARNING"}},
}

# The API's request budgets and recently read flags live in the default cache:
# per process unless REDIS_URL names Redis. The sign-in counters
# (accounts/login_throttle.py) must be shared by every process, or each web
# worker would allow the full number of attempts: in Redis with REDIS_URL,
# otherwise in a table of the database that `migrate` creates.
if env.str("REDIS_URL", default=""):
    _redis = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env.str("REDIS_URL"),
    }
    CACHES = {"default": _redis, "sign_in": _redis}
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "sign_in": {
            "BACKEND": "accounts.sign_in_cache.SignInDatabaseCache",
            "LOCATION": "accounts_sign_in_cache",
        },
    }

# Sign-in throttling of the review site and the operator admin (see
# accounts/login_throttle.py), over a window that starts at the first failure:
# failures per client address and per username at one address refuse that
# address; failures of a username from anywhere start its backoff, which an
# address with no failures of its own never meets.
REVERIE_LOGIN = {
    "failures_per_address": env.int("REVERIE_LOGIN_FAILURES_PER_ADDRESS", default=50),
    "failures_per_pair": env.int("REVERIE_LOGIN_FAILURES_PER_PAIR", default=10),
    "failures_per_username": env.int("REVERIE_LOGIN_FAILURES_PER_USERNAME", default=10),
    "backoff_max_seconds": env.int("REVERIE_LOGIN_BACKOFF_MAX_SECONDS", default=60),
    "window_seconds": env.int("REVERIE_LOGIN_WINDOW_SECONDS", default=900),
}
for _name, _value in REVERIE_LOGIN.items():
    if _value < 1:
        raise environ.ImproperlyConfigured(f"REVERIE_LOGIN_{_name.upper()} must be at least 1.")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "memory.api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["common.api.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_THROTTLE_CLASSES": ["memory.api.throttling.PrincipalRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"principal": env.str("REVERIE_API_RATE", default="1200/min")},
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Reverie memory API",
    "DESCRIPTION": (
        "Long-term memory for AI assistants: sessions, events, runs, memories and recall. "
        'Every error has the body {"error": {"code", "message", "details", '
        '"request_id"}} with a code from a closed vocabulary.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema depends on flags in the database, which `check --deploy` may
    # run before; the test suite validates the schema instead.
    "ENABLE_DJANGO_DEPLOY_CHECK": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Routes behind a surface flag that is off are left out, as they do not exist then.
    "PREPROCESSING_HOOKS": ["memory.api.schema.hide_switched_off_surfaces"],
    "ENUM_NAME_OVERRIDES": {
        "MemoryTypeEnum": "memory.enums.BeliefType",
        "MessageTypeEnum": "memory.enums.MESSAGE_EVENT_TYPE_CHOICES",
        "PartTypeEnum": "memory.enums.PartType",
        "PolarityEnum": "memory.enums.Polarity",
        "PortabilityEnum": "memory.enums.Portability",
        "SensitivityEnum": "memory.enums.Sensitivity",
        "LiveStatusEnum": "memory.enums.LIVE_BELIEF_STATUS_CHOICES",
        "OperationKindEnum": "reconsolidation.api.serializers.OPERATION_KINDS",
        "OperationStateEnum": "reconsolidation.api.serializers.OPERATION_STATES",
        "ChallengeStateEnum": "formation.api.serializers.CHALLENGE_STATES",
        "ContextPositionEnum": "memory.api.serializers.CONTEXT_POSITIONS",
    },
}

# django-q2: the ORM broker works on both databases with nothing else installed;
# set REDIS_URL to use Redis instead.
Q_CLUSTER = {
    "name": "reverie",
    "workers": env.int("Q_WORKERS", default=2),
    "timeout": env.int("Q_TIMEOUT", default=120),
    "retry": env.int("Q_RETRY", default=180),
    "max_attempts": 3,
    "catch_up": False,
    "save_limit": 250,
    "poll": 1,
}
if env.str("REDIS_URL", default=""):
    Q_CLUSTER["redis"] = env.str("REDIS_URL")
else:
    Q_CLUSTER["orm"] = "default"

# Limits. Each is a ceiling that a request or task may not exceed; the services
# raise validation_error (or payload_too_large) above it.
REVERIE_LIMITS = {
    "event_max_bytes": env.int("REVERIE_EVENT_MAX_BYTES", default=64 * 1024),
    "event_max_parts": env.int("REVERIE_EVENT_MAX_PARTS", default=32),
    "statement_max_chars": env.int("REVERIE_STATEMENT_MAX_CHARS", default=2000),
    "recall_max_limit": env.int("REVERIE_RECALL_MAX_LIMIT", default=100),
    "recall_default_limit": env.int("REVERIE_RECALL_DEFAULT_LIMIT", default=10),
    "recall_default_budget_chars": env.int("REVERIE_RECALL_BUDGET_CHARS", default=4000),
    # Matches ranked per source on PostgreSQL. Bounds recall's cost on very
    # large banks: past the cap, the strongest matches are ranked (see
    # memory.search.postgres and docs/benchmarks.md).
    "recall_candidate_cap": env.int("REVERIE_RECALL_CANDIDATE_CAP", default=500),
    "expiry_sweep_batch": env.int("REVERIE_EXPIRY_SWEEP_BATCH", default=500),
    # Request bodies of the API; a message's text may take up to event_max_bytes
    # and JSON escaping can double it.
    "api_body_max_bytes": env.int("REVERIE_API_BODY_MAX_BYTES", default=256 * 1024),
    "api_page_max": env.int("REVERIE_API_PAGE_MAX", default=200),
}

# Who read the owner's memories (memory.services.access_log): a content-free record of
# every read made with an API token, kept this many days and then purged.
REVERIE_ACCESS = {
    "retention_days": env.int("REVERIE_ACCESS_RETENTION_DAYS", default=90),
    # Not read from the environment: an owner is promised that every token read is
    # recorded. Only the load benchmark's comparison server (benchmarks.unrecorded_settings)
    # turns it off, to measure what recording costs.
    "record": True,
}
if REVERIE_ACCESS["retention_days"] < 1:
    raise environ.ImproperlyConfigured("REVERIE_ACCESS_RETENTION_DAYS must be at least 1.")

# Automatic memory formation.
REVERIE_FORMATION = {
    # A session is consolidated once it has been quiet this long (or at close).
    "idle_seconds": env.int("REVERIE_FORMATION_IDLE_SECONDS", default=30),
    # How often the maintenance sweep runs; django-q2 looks at its schedules
    # every 30 s, so shorter intervals act as 30 s.
    "sweep_seconds": env.int("REVERIE_FORMATION_SWEEP_SECONDS", default=30),
    # Sessions consolidated per sweep.
    "batch": env.int("REVERIE_FORMATION_BATCH", default=100),
    # A sweep starts no consolidation after this long, so that one with a slow
    # provider (up to 60 s a session) ends within the worker's Q_TIMEOUT (120 s).
    "sweep_deadline_seconds": env.int("REVERIE_FORMATION_SWEEP_DEADLINE", default=45),
    "extractor": env.str(
        "REVERIE_FORMATION_EXTRACTOR",
        default="formation.extractor.DeterministicExtractor",
    ),
    # A consolidation that fails leaves its messages pending and is tried again
    # after retry_seconds, four times longer after each further failure, until
    # retry_attempts have failed: then the session waits for its owner's retry.
    "retry_attempts": env.int("REVERIE_FORMATION_RETRY_ATTEMPTS", default=5),
    "retry_seconds": env.int("REVERIE_FORMATION_RETRY_SECONDS", default=300),
}

# Recall by meaning: each memory's vector, and each query's, from an embedder
# (memory.embeddings). "local" runs the bundled multilingual-e5-small model in the
# service's own processes, "off" leaves recall to words alone.
REVERIE_EMBEDDINGS = {
    "mode": env.str("REVERIE_EMBEDDINGS", default="local"),
    # The local embedder's adapter; the test suite puts a deterministic fake in its place.
    "local": "memory.embeddings.local.E5Embedder",
    # With "remote": an OpenAI-compatible /v1/embeddings server (hosted, Ollama, vLLM,
    # llama.cpp's server) for what the egress policy lets leave; the local model embeds
    # the rest (docs/providers.md, "Embeddings from a server").
    "remote": {
        "base_url": env.str("REVERIE_EMBEDDINGS_REMOTE_BASE_URL", default=""),
        "model": env.str("REVERIE_EMBEDDINGS_REMOTE_MODEL", default=""),
        "api_key": env.str("REVERIE_EMBEDDINGS_REMOTE_API_KEY", default=""),
        "api_key_file": env.str("REVERIE_EMBEDDINGS_REMOTE_API_KEY_FILE", default=""),
        # The length of the model's vectors, and the cosine a memory must reach on it.
        "dimensions": env.int("REVERIE_EMBEDDINGS_REMOTE_DIMENSIONS", default=0),
        "floor": env.float("REVERIE_EMBEDDINGS_REMOTE_FLOOR", default=None),
        # US dollars per million input tokens; 0 only with the operator's statement.
        "price": env.float("REVERIE_EMBEDDINGS_REMOTE_PRICE", default=0.0),
        "price_free": env.bool("REVERIE_EMBEDDINGS_REMOTE_PRICE_FREE", default=False),
        "residency": env.str("REVERIE_EMBEDDINGS_REMOTE_RESIDENCY", default=""),
        # A batch of memories in the sweep, and a query on recall's path.
        "timeout_seconds": env.float("REVERIE_EMBEDDINGS_REMOTE_TIMEOUT_SECONDS", default=10.0),
        "query_timeout_seconds": env.float(
            "REVERIE_EMBEDDINGS_REMOTE_QUERY_TIMEOUT_SECONDS", default=2.0
        ),
        # For models trained with prefixes ("query: ", "passage: "), and servers that take
        # an input_type.
        "query_prefix": env.str("REVERIE_EMBEDDINGS_REMOTE_QUERY_PREFIX", default=""),
        "passage_prefix": env.str("REVERIE_EMBEDDINGS_REMOTE_PASSAGE_PREFIX", default=""),
        "input_type": env.bool("REVERIE_EMBEDDINGS_REMOTE_INPUT_TYPE", default=False),
    },
}
if REVERIE_EMBEDDINGS["mode"] not in ("local", "remote", "off"):
    raise environ.ImproperlyConfigured("REVERIE_EMBEDDINGS must be local, remote or off.")

# A language-model provider: any OpenAI-compatible chat-completions server (a
# hosted API, vLLM, Ollama, llama.cpp's server). Configured or not, nothing is
# sent to it unless a certified capability that uses it is on, the owner has not
# opted out and REVERIE_EGRESS allows the item (docs/providers.md).
REVERIE_PROVIDER = {
    "base_url": env.str("REVERIE_PROVIDER_BASE_URL", default=""),
    "model": env.str("REVERIE_PROVIDER_MODEL", default=""),
    "api_key": env.str("REVERIE_PROVIDER_API_KEY", default=""),
    "api_key_file": env.str("REVERIE_PROVIDER_API_KEY_FILE", default=""),
    # US dollars per million input and output tokens.
    "input_price": env.float("REVERIE_PROVIDER_INPUT_PRICE", default=0.0),
    "output_price": env.float("REVERIE_PROVIDER_OUTPUT_PRICE", default=0.0),
    # The operator's statement that the provider costs nothing: without it a price of 0
    # keeps provider capabilities off (providers.config.price_refusal).
    "price_free": env.bool("REVERIE_PROVIDER_PRICE_FREE", default=False),
    # Where the provider processes requests, as the operator labels it ("eu", "local").
    "residency": env.str("REVERIE_PROVIDER_RESIDENCY", default=""),
    # One call's deadline; at most the 60 s of formation's budget.
    "timeout_seconds": env.float("REVERIE_PROVIDER_TIMEOUT_SECONDS", default=60.0),
}
# One ledger for every provider call: daily caps in US dollars.
REVERIE_PROVIDER_SPEND = {
    "daily_usd_per_principal": env.float("REVERIE_PROVIDER_DAILY_USD_PER_PRINCIPAL", default=1.0),
    "daily_usd_global": env.float("REVERIE_PROVIDER_DAILY_USD", default=20.0),
}
# What may leave the machine. Default: nothing. "residency" lists the provider
# residency labels allowed; "allow" is a list of rules, each naming the
# sensitivities, portabilities and scopes ("principal", "assistant:<slug>",
# "assistant:*") it allows, e.g.
# REVERIE_EGRESS_ALLOW='[{"sensitivity": ["normal"], "portability": ["portable"],
#   "scope": ["principal"]}]'.
REVERIE_EGRESS = {
    "residency": env.list("REVERIE_EGRESS_RESIDENCY", default=[]),
    "allow": env.json("REVERIE_EGRESS_ALLOW", default=[]),
}

# Reconsolidation passes: a lease lasts lease_seconds and is renewed at most every
# heartbeat_seconds while a pass works; a pass reads at most slice_beliefs.
REVERIE_RECONSOLIDATION = {
    "lease_seconds": env.int("REVERIE_RECONSOLIDATION_LEASE_SECONDS", default=120),
    "heartbeat_seconds": 30,
    "slice_beliefs": env.int("REVERIE_RECONSOLIDATION_SLICE", default=2000),
    # A hypothesis lives this long after the newest evidence of its sources, and
    # never past their own expiry or validity.
    "hypothesis_lifetime_days": env.int("REVERIE_HYPOTHESIS_LIFETIME_DAYS", default=30),
    # The scheduled tick: every tick_seconds it passes over due principals, oldest
    # pass first, until tick_deadline_seconds; a principal whose full scan has
    # wrapped is due again pass_interval_seconds after its last pass.
    "tick_seconds": env.int("REVERIE_RECONSOLIDATION_TICK_SECONDS", default=60),
    "tick_deadline_seconds": env.int("REVERIE_RECONSOLIDATION_TICK_DEADLINE", default=45),
    "principals_per_tick": env.int("REVERIE_RECONSOLIDATION_PRINCIPALS_PER_TICK", default=20),
    "pass_interval_seconds": env.int("REVERIE_RECONSOLIDATION_PASS_INTERVAL", default=600),
    # Work budgets over a rolling day, in beliefs read: for all principals
    # together, and for each principal's share of it.
    "budget_units_per_day": env.int("REVERIE_RECONSOLIDATION_BUDGET", default=2_000_000),
    "budget_units_per_principal_per_day": env.int(
        "REVERIE_RECONSOLIDATION_BUDGET_PER_PRINCIPAL", default=200_000
    ),
}

# Capabilities that stay off until evaluated: a flag naming one may only be
# on while a certificate of the capability's current code exists. Each names the
# evaluation arm that measures it, the policy part its code digest covers and
# the thresholds its metrics must meet ({"metric": {"min" | "max": value}}).
# The flag of the same name (REVERIE_FLAG_DEFAULTS) turns each on.
#
# Both reconsolidation capabilities are certified on the labelled synthetic banks
# and held to the same bars: no false merge, no privacy failure, no drop of
# original beliefs in recall with derived memories included, on every case of a
# fixture of meaningful size.
_RECONSOLIDATION_BANKS = {
    # certify reads the labels from this fixture, never from results.json.
    "datasets": {"fixtures": "604a0a7561de7bacdbb6ae1a1e0b76a45289a9eb7793773e05e756a8f3b477e7"},
    "fixture_minimums": {"merges": 16, "notices": 9, "no_merge_traps": 16},
    "thresholds": {
        "cases": {"min": 40},
        "failed": {"max": 0},
        "false_merges": {"max": 0},
        "privacy_failures": {"max": 0},
        "atomic_recall_drop": {"max": 0.0},
        # Summaries and hypotheses propose connections; a wrong one misleads.
        "connection_precision": {"min": 0.9},
    },
}
# SHA-256 of the provider qualification data shipped in evaluation/qualification/:
# certify reads the labels from those files, never from a qualification file.
_QUALIFICATION_PINS = {
    "formation": "358f962d62de10f24a01889a28b7a2e473059e9d850e481aca7c7901d75aca7e",
    "reconsolidation": "d06aebbdf5dd2310f1524d361f1b2fc8ea3a9a3ac92debdc7d6da8cb995dffba",
}
REVERIE_CAPABILITIES = {
    # Certified by `manage.py qualify_provider formation` with the provider configured:
    # on the formation sessions shipped in evaluation/qualification/, under the live
    # egress rules, the provider-assisted arm must find more of the labelled facts than
    # the deterministic extractor alone in one-message and in longer sessions, at no
    # loss of precision, with nothing unsafe stored, no explicit memory overruled, no
    # fabricated memory, and few of its proposals refused by the local rules.
    "formation_provider": {
        "arm": "formation_provider",
        "policy": "formation_provider",
        "evaluation": "qualification",
        "qualification": "formation",
        "provider": True,
        "datasets": {"qualification": _QUALIFICATION_PINS["formation"]},
        "thresholds": {
            "cases": {"min": 36},
            "expected_single_message": {"min": 30},
            "expected_multi_message": {"min": 60},
            "failed": {"max": 0},
            "recall_lift_single_message": {"min": 0.02},
            "recall_lift_multi_message": {"min": 0.02},
            "precision_margin": {"min": 0.0},
            "unsafe_stored": {"max": 0},
            "overrules": {"max": 0},
            "fabricated": {"max": 0},
            "model_refused_share": {"max": 0.25},
        },
    },
    # Certified by `manage.py evaluate_reconsolidation` on the banks above.
    "reconsolidation": {
        "arm": "reconsolidation",
        "policy": "reconsolidation",
        "evaluation": "reconsolidation",
        **_RECONSOLIDATION_BANKS,
    },
    # Certified by `manage.py qualify_provider reconsolidation` with the provider
    # configured, on the banks shipped in evaluation/qualification/: the provider's
    # reviews must find labelled merges or connections the deterministic passes do not,
    # with no false merge, no loss of connection precision, no more missed notices, no
    # privacy failure and no drop of original beliefs in recall. It binds the provider,
    # its prices and the egress policy, and holds only while a formation_provider
    # certificate does.
    "reconsolidation_provider": {
        "arm": "reconsolidation_provider",
        "policy": "reconsolidation_provider",
        "evaluation": "qualification",
        "qualification": "reconsolidation",
        "provider": True,
        "upstream": ("formation_provider",),
        "datasets": {"qualification": _QUALIFICATION_PINS["reconsolidation"]},
        "thresholds": {
            "cases": {"min": 30},
            "labelled_merges": {"min": 24},
            "labelled_notices": {"min": 10},
            "connections_labelled": {"min": 10},
            "failed": {"max": 0},
            "found_lift": {"min": 1},
            "false_merges": {"max": 0},
            "connection_precision_margin": {"min": 0.0},
            "missed_notices_increase": {"max": 0},
            "privacy_failures": {"max": 0},
            "atomic_recall_drop": {"max": 0.0},
            "model_refused_share": {"max": 0.25},
        },
    },
}
REVERIE_CERTIFICATE_CHECK = "evaluation.certificates.certificate_refusal"

# Defaults for operator-toggled flags; a row in memory.Flag overrides its default.
REVERIE_FLAG_DEFAULTS = {
    "memory_api": env.bool("REVERIE_FLAG_MEMORY_API", default=True),
    "formation": env.bool("REVERIE_FLAG_FORMATION", default=True),
    # A certified capability (REVERIE_CAPABILITIES), like reconsolidation.
    "formation_provider": env.bool("REVERIE_FLAG_FORMATION_PROVIDER", default=False),
    "maintenance_kill_switch": env.bool("REVERIE_FLAG_MAINTENANCE_KILL_SWITCH", default=False),
    # The owner's view of what reconsolidation did (API routes and review pages).
    "reconsolidation_surface": env.bool("REVERIE_FLAG_RECONSOLIDATION_SURFACE", default=False),
    # A certified capability: see REVERIE_CAPABILITIES. Effectively on only with
    # reconsolidation_surface on as well.
    "reconsolidation": env.bool("REVERIE_FLAG_RECONSOLIDATION", default=False),
    # A certified capability, effectively on only with reconsolidation on as well.
    "reconsolidation_provider": env.bool("REVERIE_FLAG_RECONSOLIDATION_PROVIDER", default=False),
}
