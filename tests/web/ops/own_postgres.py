"""A PostgreSQL server of a test's own (``initdb`` on a free port, in a temporary
directory), which the test may stop and start: the machine's own server is never touched.

Needs root (to run the server as the ``postgres`` user), ``initdb`` and ``runuser``;
:func:`possible` says whether this machine has them.
"""

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psycopg

from tests.web.ops.redis_server import free_port


def possible() -> bool:
    if os.geteuid() != 0 or not (shutil.which("initdb") and shutil.which("runuser")):
        return False
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return True


class OwnPostgres:
    def __init__(self, data: Path, port: int) -> None:
        self.data, self.port = data, port
        self.server = f"postgres://postgres@127.0.0.1:{port}"

    def as_postgres(self, *args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                       capture_output=True, timeout=120)  # fmt: skip

    def pg_ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
        self.as_postgres("pg_ctl", "-D", str(self.data / "db"), "-o", options, "-w", *args)

    def start(self) -> None:
        self.pg_ctl("-l", str(self.data / "log"), "start")

    def stop(self, mode: str = "fast") -> None:
        self.pg_ctl("-m", mode, "stop")

    def create(self, name: str) -> str:
        """A new database ``name``; its URL."""
        with psycopg.connect(f"{self.server}/postgres", autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"{self.server}/{name}"


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    data = Path(tempfile.mkdtemp(prefix="muster-pg-"))
    shutil.chown(data, "postgres")
    server = OwnPostgres(data, free_port())
    try:
        server.as_postgres("initdb", "-D", str(data / "db"), "-A", "trust", "-U", "postgres")
        server.start()
        yield server
    finally:
        with suppress(subprocess.SubprocessError):
            server.stop("immediate")
        shutil.rmtree(data, ignore_errors=True)
