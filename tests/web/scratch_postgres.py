"""A PostgreSQL database of a test's own on the machine's server (127.0.0.1:5432), for
servers a test starts in processes of their own: made fresh, dropped afterwards."""

import psycopg

PG = "postgres://postgres@127.0.0.1:5432"


def postgres_answers() -> bool:
    try:
        psycopg.connect(f"{PG}/postgres", connect_timeout=2).close()
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
