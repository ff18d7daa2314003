"""Django's Redis cache, bounded: a Redis that does not answer costs a request a fraction of
a second, not the operating system's TCP timeouts.

Every connection has connect and read timeouts (``MUSTER_REDIS_TIMEOUT``, set in the
settings' ``OPTIONS``). A paused Redis (SIGSTOP, a stalled host) still accepts connections,
so each command would wait out its read timeout: after one command times out or cannot
connect, this process treats Redis as away for ``MUSTER_REDIS_AWAY_SECONDS`` (5) and every
command fails at once with ``redis.ConnectionError``, the error the callers already fall
back on when Redis is down (the page and PDF caches render instead, ``/healthz/redis`` says
503). The first command after that window tries Redis again.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient

FAILURES = (redis.ConnectionError, redis.TimeoutError)
_lock = threading.Lock()
_away_until: dict[str, float] = {}  # per Redis server (host:port/db): a monotonic time


def away_seconds() -> float:
    return float(getattr(settings, "MUSTER_REDIS_AWAY_SECONDS", 5))


def _where(client: redis.Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db')}"


def is_away(where: str) -> bool:
    with _lock:
        return _away_until.get(where, 0.0) > time.monotonic()


def mark_away(where: str) -> None:
    with _lock:
        _away_until[where] = time.monotonic() + away_seconds()


def forget() -> None:
    """Try every Redis again at the next command (tests, or after an operator's fix)."""
    with _lock:
        _away_until.clear()


class BoundedRedis(redis.Redis):
    """A Redis client that fails at once while its server was found away a moment ago."""

    def execute_command(self, *args: Any, **options: Any) -> Any:
        where = _where(self)
        if is_away(where):
            raise redis.ConnectionError(f"Redis at {where} did not answer a moment ago")
        try:
            return super().execute_command(*args, **options)
        except FAILURES:
            mark_away(where)
            raise


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._client = BoundedRedis


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` on :class:`BoundedRedis`."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
