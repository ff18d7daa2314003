"""A Redis of a test's own: ``redis-server`` on a free port, no persistence, stopped after.

It gives two databases (the cache's and the queue's). Where ``redis-server`` is not
installed (``make system-deps`` installs it when it can), the machine's Redis on
127.0.0.1:6379 serves instead: both in ``FALLBACK_DB`` (the cache's keys and RQ's never
meet), flushed before and after, one test at a time (a lock file) even when test files run
side by side. With ``MUSTER_TESTS_NEED_REDIS=1`` (CI, where Redis answers) a test that finds no
Redis fails instead of being skipped, so the Redis queue is really exercised there.
"""

import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

FALLBACK_DB = 4  # only without redis-server: one test at a time, under the lock below


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def no_redis(reason: str) -> None:
    if os.environ.get("MUSTER_TESTS_NEED_REDIS") == "1":
        pytest.fail(f"{reason} (MUSTER_TESTS_NEED_REDIS=1)")
    pytest.skip(reason)


@contextmanager
def own_redis(directory: Path) -> Iterator[tuple[str, str]]:
    """The URLs of two Redis databases for this test alone (0 and 1 of its own server; on
    the machine's Redis, one database for both)."""
    if shutil.which("redis-server") is None:
        url = f"redis://127.0.0.1:6379/{FALLBACK_DB}"
        client = redis.Redis.from_url(url, socket_connect_timeout=1)
        with open(Path(tempfile.gettempdir()) / "muster-ops-redis.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                client.flushdb()
            except redis.RedisError as exc:
                no_redis(f"no redis-server to start and none answers on 6379: {exc}")
            try:
                yield url, url
            finally:
                client.flushdb()
        return
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(directory)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(url, socket_connect_timeout=1).ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        yield url, f"redis://127.0.0.1:{port}/1"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def module_redis(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """:func:`own_redis` for a whole test file (its cache's and its queue's URLs)."""
    with own_redis(tmp_path_factory.mktemp("redis")) as urls:
        yield urls
