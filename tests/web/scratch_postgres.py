"""A PostgreSQL database of a test's own, for servers a test starts in processes of their
own: on the server ``MUSTER_TEST_POSTGRES`` names (else the local one), under a name no one
else has, made fresh and dropped afterwards. Nothing here drops a database it did not make.
"""

import os
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

PG = "postgres://postgres@127.0.0.1:5432"


def server_url() -> str:
    """The PostgreSQL server tests that need one of their own databases use: ``MUSTER_TEST_
    POSTGRES`` (e.g. ``postgres://postgres@db.example:5433``), else the local one."""
    return os.environ.get("MUSTER_TEST_POSTGRES", PG).rstrip("/")


def postgres_answers(server: str | None = None) -> bool:
    try:
        psycopg.connect(f"{server or server_url()}/postgres", connect_timeout=2).close()
        return True
    except psycopg.Error:
        return False


def unique_name(prefix: str) -> str:
    """``prefix``, this process and a random part: a name two runs at once never share."""
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", prefix):
        raise ValueError(f"not a plain database name prefix: {prefix!r}")
    return f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"


@contextmanager
def own_database(prefix: str, server: str | None = None) -> Iterator[str]:
    """A database with a name no one else has (:func:`unique_name`), made here and dropped
    afterwards: only ever the one it made, so it is safe on a server where anything else
    lives (no ``DROP`` of a name that may be someone's)."""
    name = unique_name(prefix)
    server = server or server_url()
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")  # fails, rather than reuse, if taken
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
