"""A PostgreSQL database of a test's own on the machine's server (127.0.0.1:5432), for
servers a test starts in processes of their own: made fresh, dropped afterwards."""

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

PG = "postgres://postgres@127.0.0.1:5432"


def postgres_answers(server: str = PG) -> bool:
    try:
        psycopg.connect(f"{server}/postgres", connect_timeout=2).close()
        return True
    except psycopg.Error:
        return False


def fresh_postgres(name: str) -> str:
    """The URL of database ``name``, dropped first if a run left it."""
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}")
    return f"{PG}/{name}"


def drop_postgres(name: str) -> None:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def server_url() -> str:
    """The PostgreSQL server tests that need one of their own databases use: ``MUSTER_TEST_
    POSTGRES`` (e.g. ``postgres://postgres@db.example:5433``), else the local one."""
    return os.environ.get("MUSTER_TEST_POSTGRES", PG).rstrip("/")


@contextmanager
def own_database(prefix: str) -> Iterator[str]:
    """A database with a name no one else has (``prefix``, this process, a random part),
    made here and dropped afterwards: only ever the one it made, so it is safe on a server
    where anything else lives (no ``DROP`` of a name that may be someone's)."""
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    server = server_url()
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")  # fails, rather than reuse, if taken
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
