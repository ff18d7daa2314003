"""Production settings: everything secure; ``manage.py check --deploy`` is clean.

Every knob is an environment variable (docs/deploying.md). ``make run`` uses this module.
"""

import os
import secrets
from pathlib import Path

from whitenoise.compress import Compressor

from armybuilder.settings import *  # noqa: F403
from armybuilder.settings import BASE_DIR, LOGGING, MIDDLEWARE


def _flag(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def _secret_key() -> str:
    """DJANGO_SECRET_KEY, or one generated once into a git-ignored file beside the code."""
    if os.environ.get("DJANGO_SECRET_KEY"):
        return os.environ["DJANGO_SECRET_KEY"]
    path = Path(os.environ.get("DJANGO_SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = False
SECRET_KEY = _secret_key()

# Served over HTTPS (directly or by a TLS-terminating proxy): redirect, secure cookies, HSTS.
# DJANGO_HTTPS=0 is for a plain-HTTP club LAN only (``make run`` on 127.0.0.1 sets it).
HTTPS = _flag("DJANGO_HTTPS", "1")
SECURE_SSL_REDIRECT = HTTPS and _flag("DJANGO_SSL_REDIRECT", "1")
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
# Behind a reverse proxy only: trust its X-Forwarded-Proto / X-Forwarded-Host. The proxy
# MUST set (overwrite) these headers on every request, or a client could forge them.
if _flag("DJANGO_PROXY_SSL_HEADER", "0"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = _flag("DJANGO_USE_X_FORWARDED_HOST", "0")

# Static files served by the app itself (WhiteNoise): no CDN, works on a club LAN.
# ``make run`` runs collectstatic first; the manifest gives every file a hashed name.
MIDDLEWARE = [
    MIDDLEWARE[0],
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[1:],
]
# Kept by browsers for good: collectstatic's hashed names, and the page engine's runtime,
# whose path names its pinned version (armybuilder/pageengine.py).
WHITENOISE_IMMUTABLE_FILE_TEST = r"\.[0-9a-f]{12}\.[^/]+$|/pyodide-[0-9][^/]*/"
# the runtime's wasm comes compressed from `make vendor` (brotli takes a minute on it)
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "wasm")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "armybuilder.staticstorage.ModuleManifestStaticFilesStorage"},
}

# The worker and its render children run at this CPU niceness (0-19): pages come first.
MUSTER_WORKER_NICE = int(os.environ.get("MUSTER_WORKER_NICE", "10"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": LOGGING["filters"],  # an outage: one line, no stack per request
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["outages"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # WeasyPrint narrates every stylesheet it parses at INFO
    "loggers": {"django.request": {"level": "ERROR"}, "weasyprint": {"level": "WARNING"}},
}
