"""Muster settings: SQLite by default, PostgreSQL through DATABASE_URL.

Production overrides live in ``armybuilder/settings_production.py``.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

from armybuilder import limits
from armybuilder.runtime_pin import RUNTIME_PREFIX

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-muster-development-key-do-not-use-in-production"
)
DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
]
if DEBUG:
    ALLOWED_HOSTS += ["testserver", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    # the operation kernel: below every app (one ledger of applied keys, one Outcome)
    "armybuilder.operations",
    "armybuilder.catalog",
    "armybuilder.api",
    "armybuilder.accounts",
    "armybuilder.armies",
    "armybuilder.printing",
    "armybuilder.events",
    "armybuilder.games",
    # production: the tasks queue's database backend and RQ, /healthz, schedules
    "django_tasks_db",
    "django_rq",
    "armybuilder.ops",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # the site a change came through: the share link of a roster rendered ahead of Print
    "armybuilder.printing.prerender.OriginMiddleware",
    # private pages never kept by HTTP caches; whose pages the offline copies are (sw.js)
    "armybuilder.ops.offline.OfflineCopiesMiddleware",
    # production: Django's own Content-Security-Policy header (SECURE_CSP below)
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "armybuilder.urls"
CSRF_FAILURE_VIEW = "armybuilder.errors.csrf_failure"  # a refused post, said for players

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
                # cached pages hold a placeholder for the CSRF token (armybuilder.pages)
                "armybuilder.pages.cached_page_csrf",
                "armybuilder.pageengine.page_engine",
            ],
        },
    },
]

WSGI_APPLICATION = "armybuilder.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # a connection the database dropped (a restart) is replaced, not handed to a request
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Every transaction takes SQLite's write lock at BEGIN and a second writer waits up to
    # 20 s for it, instead of failing when its read turns into a write (armies.changes.saving).
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)

# Seconds a Redis that does not answer (down, paused, unreachable) may cost one call,
# connecting or reading: the cache then falls back as when Redis is down (armybuilder.ops.
# rediscache) and the queue's callers as when it is away (printing.jobs).
MUSTER_REDIS_TIMEOUT = float(os.environ.get("MUSTER_REDIS_TIMEOUT", "0.25"))
REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "armybuilder.ops.rediscache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": MUSTER_REDIS_TIMEOUT,
                "socket_timeout": MUSTER_REDIS_TIMEOUT,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# the vendored browser runtime, when `make vendor` put it here (armybuilder/pageengine.py)
_RUNTIME = BASE_DIR / "vendor" / RUNTIME_PREFIX
STATICFILES_DIRS = [
    BASE_DIR / "static",
    *([(RUNTIME_PREFIX, _RUNTIME)] if _RUNTIME.is_dir() else []),
]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # engine/rules.zip, the rules package a page's worker runs (armybuilder/pageengine.py)
    "armybuilder.pageengine.RulesArchiveFinder",
]
# Pages that work figures out work them out on the device too, with the same rules/ run in
# a Web Worker (armybuilder/pageengine.py); off, they show the server's figures only.
MUSTER_PAGE_ENGINE = os.environ.get("MUSTER_PAGE_ENGINE", "1").strip().lower() in (
    "1",
    "true",
    "yes",
    "on",
)
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts (accounts app): visitors build drafts (armies app) tied to their session; a 30-day
# session keeps a returning visitor's drafts until they sign up, when the drafts are claimed.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "armies:list"
LOGOUT_REDIRECT_URL = "catalog:home"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30

# The API refuses bodies over 1 MiB itself (413); Django's own ceiling sits above that.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
MUSTER_MAX_DOCUMENT_BYTES = 512 * 1024  # what an army needs: see docs/api.md, "Limits"
# Drafts a visitor without an account may keep in one session.
MUSTER_MAX_DRAFTS = 25

# -- Hardening: malformed headers, rate limits, log-in lock-out, drafts, passwords --
# Malformed headers answer 400 before anything reads them; limits apply by URL name.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "armybuilder.headers.MalformedHeadersMiddleware",
)
# Then URLs: a control character in the path is a 404, in the query a 400 (badinput).
MIDDLEWARE.insert(
    MIDDLEWARE.index("armybuilder.headers.MalformedHeadersMiddleware") + 1,
    "armybuilder.badinput.ControlCharactersMiddleware",
)
# A method the view does not take is a 405 before the CSRF check calls it a refused post.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.csrf.CsrfViewMiddleware"),
    "armybuilder.badinput.MethodsMiddleware",
)
# Then bodies: 413 before reading one over its URL's limit; chunked ones read to the end.
MIDDLEWARE.insert(
    MIDDLEWARE.index("armybuilder.headers.MalformedHeadersMiddleware") + 1,
    "armybuilder.requestsize.RequestSizeMiddleware",
)
MIDDLEWARE.append("armybuilder.throttle.ThrottleMiddleware")
MIDDLEWARE.append("armybuilder.accounts.lockout.LockOutMiddleware")
# Around all but the security headers: a 503 always says when to come back, and the first
# page answered ends an outage (armybuilder/outage.py).
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "armybuilder.outage.OutageMiddleware",
)
# Counters live in their own cache, shared by every web process and node and counted
# atomically: a table in the app's database (accounts.counters), with or without Redis. A
# limited request writes to the database anyway (a render, an army, an account), so one
# more statement costs little, and a Redis that is down or restarts empty then neither
# lets requests through unchecked nor forgets a lock-out.
CACHES["ratelimit"] = {"BACKEND": "armybuilder.accounts.counters.CounterCache"}
MUSTER_RATE_LIMIT_CACHE = "ratelimit"


# A limited request gets 429 and Retry-After. Per signed-in player's account, then per
# address of visitors without one (a hall of 30-40 of them behind one address, and every
# sign-up): docs/running.md, "Rate limits", says why each default.
MUSTER_RATE_LIMITS = limits.from_environment("MUSTER_LIMIT_", limits.DEFAULT_LIMITS)
MUSTER_VISITOR_RATE_LIMITS = limits.from_environment(
    "MUSTER_VISITOR_LIMIT_", limits.DEFAULT_VISITOR_LIMITS
)
# Wrong passwords (Muster's log-in and /admin/): lock out with backoff, doubling per failure.
MUSTER_LOGIN_LOCKOUT = {
    "account_failures": 5,
    "address_failures": 20,
    "base_seconds": 60,
    "max_seconds": 3600,
    "memory_seconds": 86400,
}
# Behind a proxy: the META key holding the client's address, e.g. HTTP_X_REAL_IP.
MUSTER_CLIENT_IP_HEADER = os.environ.get("MUSTER_CLIENT_IP_HEADER", "")
# ...believed only from these peers (comma-separated addresses or networks): the proxies.
MUSTER_TRUSTED_PROXIES = [
    p.strip() for p in os.environ.get("MUSTER_TRUSTED_PROXIES", "127.0.0.1,::1").split(",")
]
MUSTER_MAX_VISITOR_DRAFTS = 5000  # all visitors' drafts together (armies/making/drafts.py)
MUSTER_DRAFT_PRUNE_EVERY = 500  # prune abandoned drafts every so many new drafts
MUSTER_BODY_READ_SECONDS = 10  # a posted document must arrive within this time
AUTH_PASSWORD_VALIDATORS += [
    {"NAME": "armybuilder.accounts.passwords.RepeatedCharacterValidator"},
    {"NAME": "armybuilder.accounts.passwords.GuessablePasswordValidator"},
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # a database or Redis outage: one line when it begins, no stack per request (armybuilder/outage.py)
    "filters": {"outages": {"()": "armybuilder.outage.OneLinePerOutage"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["outages"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# -- production: CSP, background tasks, PDF renders -------------------------------
# A strict policy: scripts and styles only from our own static files (no inline <script>,
# no style="" attributes, no eval; htmx is configured by a <meta> tag not to need them).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Django's tasks framework. The database backend (django-tasks-db) is the default: nothing
# but the app's own database has to run. MUSTER_TASK_BACKEND=rq puts the queue on Redis
# (django-tasks-rq; MUSTER_QUEUE_URL, default redis://127.0.0.1:6379/0) for larger installs.
MUSTER_TASK_BACKEND = os.environ.get("MUSTER_TASK_BACKEND", "database")
MUSTER_QUEUE_URL = os.environ.get("MUSTER_QUEUE_URL", "redis://127.0.0.1:6379/0")
if "timeout=" not in MUSTER_QUEUE_URL:  # redis-py reads the timeouts from the URL
    MUSTER_QUEUE_URL += ("&" if "?" in MUSTER_QUEUE_URL else "?") + (
        f"socket_connect_timeout={MUSTER_REDIS_TIMEOUT}&socket_timeout={MUSTER_REDIS_TIMEOUT}"
    )
TASK_BACKENDS = {
    "database": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]},
    # "probe": the workers' test job (ops.probe), taken before the renders of "default"
    "rq": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default", "probe"]},
    "immediate": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"},
}
TASKS = {"default": TASK_BACKENDS[MUSTER_TASK_BACKEND]}
RQ_QUEUES = {
    "default": {"URL": MUSTER_QUEUE_URL, "DEFAULT_TIMEOUT": 300},
    "probe": {"URL": MUSTER_QUEUE_URL, "DEFAULT_TIMEOUT": 60},
}

# Seconds an army must stay still before the worker renders its roster and QRS ahead of
# Print (printing.prerender); a negative number switches that off.
MUSTER_PRERENDER_DELAY = float(os.environ.get("MUSTER_PRERENDER_DELAY", "3"))

# Seconds one PDF render may take in the worker before it is stopped.
MUSTER_PDF_TIME_LIMIT = float(os.environ.get("MUSTER_PDF_TIME_LIMIT", "60"))
