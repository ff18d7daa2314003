"""A cache backend for counters, on the app's own database: shared by every web process.

Rate limits and the log-in lock-out count with ``add`` then ``incr``. Without Redis, a
memory cache gives each gunicorn process its own counts (two processes let twice the
limit through), and Django's ``DatabaseCache`` shares them but its ``incr`` is a read then
a write, so two processes can both read 29 and both write 30. Here every call is one SQL
statement the database runs atomically on SQLite (3.35+) and PostgreSQL:

- ``incr``: ``UPDATE … SET value = value + n … RETURNING value``, so each caller sees its
  own count, exactly once;
- ``add``: ``INSERT … ON CONFLICT DO UPDATE … WHERE expired``, so of two processes adding
  one key only one wins;
- ``count`` (what a rate limit calls, ``add`` and ``incr`` in one): ``INSERT … ON CONFLICT
  DO UPDATE SET value = value + 1 (or 1 once expired) … RETURNING value``, one statement
  per limited request.

Only numbers are stored (a count, or when a lock-out ends). Expired rows are ignored at
once and deleted every ``CULL_EVERY`` writes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.db import connections, router

from armybuilder.accounts.models import Counter

# Stands for "no expiry" (timeout=None) in a column of seconds since the epoch.
FOREVER = 2.0**62
CULL_EVERY = 500


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"the counter cache stores numbers only, not {type(value).__name__}")
    return float(value)


def _out(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


class CounterCache(BaseCache):
    """``BACKEND: armybuilder.accounts.counters.CounterCache`` (no LOCATION needed)."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        self._writes = itertools.count(1)

    # -- plumbing ------------------------------------------------------------------------

    def _db(self, write: bool) -> str:
        return (router.db_for_write if write else router.db_for_read)(Counter) or "default"

    def _sql(self, sql: str, params: list[Any]) -> tuple[int, list[tuple[Any, ...]]]:
        connection = connections[self._db(write=True)]
        table = connection.ops.quote_name(Counter._meta.db_table)
        key, value, expires = (connection.ops.quote_name(c) for c in ("key", "value", "expires"))
        sql = sql.format(table=table, key=key, value=value, expires=expires)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
            return cursor.rowcount, rows

    def _expires(self, timeout: Any) -> float:
        expires = self.get_backend_timeout(timeout)
        return FOREVER if expires is None else float(expires)

    def _live(self, key: str) -> Any:
        return Counter.objects.using(self._db(write=False)).filter(key=key, expires__gt=time.time())

    def _after_write(self) -> None:
        if next(self._writes) % CULL_EVERY == 0:
            Counter.objects.using(self._db(write=True)).filter(expires__lte=time.time()).delete()

    # -- the cache API -------------------------------------------------------------------

    def add(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        changed, _ = self._sql(
            "INSERT INTO {table} ({key}, {value}, {expires}) VALUES (%s, %s, %s) "
            "ON CONFLICT ({key}) DO UPDATE SET {value} = excluded.{value}, "
            "{expires} = excluded.{expires} WHERE {table}.{expires} <= %s",
            [key, _number(value), self._expires(timeout), time.time()],
        )
        self._after_write()
        return changed == 1

    def set(
        self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        key = self.make_and_validate_key(key, version=version)
        self._sql(
            "INSERT INTO {table} ({key}, {value}, {expires}) VALUES (%s, %s, %s) "
            "ON CONFLICT ({key}) DO UPDATE SET {value} = excluded.{value}, "
            "{expires} = excluded.{expires}",
            [key, _number(value), self._expires(timeout)],
        )
        self._after_write()

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int | float:
        key = self.make_and_validate_key(key, version=version)
        _, rows = self._sql(
            "UPDATE {table} SET {value} = {value} + %s "
            "WHERE {key} = %s AND {expires} > %s RETURNING {value}",
            [_number(delta), key, time.time()],
        )
        if not rows:
            raise ValueError(f"Key '{key}' not found")
        return _out(rows[0][0])

    def count(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> int:
        """One more for ``key`` (made, or made afresh once expired, with ``timeout``): the
        count including this one, in one statement."""
        key = self.make_and_validate_key(key, version=version)
        now = time.time()
        _, rows = self._sql(
            "INSERT INTO {table} ({key}, {value}, {expires}) VALUES (%s, 1, %s) "
            "ON CONFLICT ({key}) DO UPDATE SET "
            "{value} = CASE WHEN {table}.{expires} <= %s THEN 1 ELSE {table}.{value} + 1 END, "
            "{expires} = CASE WHEN {table}.{expires} <= %s THEN excluded.{expires} "
            "ELSE {table}.{expires} END "
            "RETURNING {value}",
            [key, self._expires(timeout), now, now],
        )
        self._after_write()
        return int(rows[0][0])

    def decr(self, key: str, delta: int = 1, version: int | None = None) -> int | float:
        return self.incr(key, -delta, version=version)

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        value = self._live(key).values_list("value", flat=True).first()
        return default if value is None else _out(value)

    def touch(self, key: str, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        return bool(self._live(key).update(expires=self._expires(timeout)))

    def delete(self, key: str, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        deleted, _ = Counter.objects.using(self._db(write=True)).filter(key=key).delete()
        return bool(deleted)

    def delete_many(self, keys: Iterable[str], version: int | None = None) -> None:
        names = [self.make_and_validate_key(k, version=version) for k in keys]
        if names:
            Counter.objects.using(self._db(write=True)).filter(key__in=names).delete()

    def clear(self) -> None:
        Counter.objects.using(self._db(write=True)).all().delete()
