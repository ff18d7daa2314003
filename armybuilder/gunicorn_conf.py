"""gunicorn settings for ``make run`` (the Procfile's web process); each one an env variable."""

import os

bind = os.environ.get("MUSTER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("MUSTER_WEB_THREADS", "2"))
# PDFs render in the worker, so no request should take long; a stuck one is recycled.
timeout = int(os.environ.get("MUSTER_WEB_TIMEOUT", "30"))
graceful_timeout = 10
accesslog = os.environ.get("MUSTER_ACCESS_LOG", "-") or None
# gunicorn itself trusts X-Forwarded-* only from these proxy addresses (Django has its own
# switches: DJANGO_PROXY_SSL_HEADER, DJANGO_USE_X_FORWARDED_HOST).
forwarded_allow_ips = os.environ.get("MUSTER_FORWARDED_ALLOW_IPS", "127.0.0.1")
