"""``python -m armybuilder.ops.serve``: the web server of ``make run`` (granian), its
settings taken from the environment (docs/running.md), then ``exec``'d in place so the
process supervisor stops and restarts granian itself.

granian shares a port with any server already listening on it, so before it starts the
address is checked (``--check`` alone: the first step of ``make run``): a port another
server holds is refused with a message, and the command exits 1. The web processes serve
``armybuilder.ops.web``, which ends them when granian's main process is gone.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import sys
from collections.abc import Mapping
from pathlib import Path


def bind_address(env: Mapping[str, str]) -> tuple[str, str]:
    """The host and port of ``MUSTER_BIND`` (127.0.0.1:8000)."""
    host, _, port = env.get("MUSTER_BIND", "127.0.0.1:8000").rpartition(":")
    return host.strip("[]") or "127.0.0.1", port


def address_in_use(host: str, port: int) -> bool:
    """Whether a server already listens on ``host:port`` (a port left in TIME_WAIT by one
    that stopped is free: SO_REUSEADDR, as servers bind)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True
            raise
    return False


def refuse_a_served_port(env: Mapping[str, str]) -> None:
    """Exit 1 with a message when ``MUSTER_BIND``'s port is already served."""
    host, port = bind_address(env)
    if address_in_use(host, int(port)):
        raise SystemExit(
            f"make run: {host}:{port} is already in use (another make run, or another "
            f"server, listens there). Stop it first, or choose another address: "
            f"MUSTER_BIND=127.0.0.1:8001 make run"
        )


def granian_args(env: Mapping[str, str]) -> list[str]:
    """granian's command-line arguments for ``env`` (``MUSTER_BIND``, ``WEB_CONCURRENCY``...)."""
    host, port = bind_address(env)
    header_ms = int(float(env.get("MUSTER_HEADER_READ_SECONDS", "10")) * 1000)
    args = [
        "--interface", "asgi",
        "--no-ws",
        "--host", host,
        "--port", port,
        "--workers", env.get("WEB_CONCURRENCY", "2"),
        # a client gets this long to send its headers, however steadily they trickle in
        "--http1-header-read-timeout", str(min(max(header_ms, 1), 60000)),
        # a web process that dies is started again by granian; granian itself by supervisord
        "--respawn-failed-workers",
        "--workers-kill-timeout", "10",
    ]  # fmt: skip
    if env.get("MUSTER_ACCESS_LOG", "-"):
        args.append("--access-log")
    return [*args, "armybuilder.ops.web:application"]


def main() -> None:
    refuse_a_served_port(os.environ)
    if sys.argv[1:] == ["--check"]:
        return
    here = Path(sys.executable).parent
    granian = str(here / "granian") if (here / "granian").exists() else shutil.which("granian")
    if granian is None:
        raise SystemExit("granian is not installed (make install)")
    os.execv(granian, [granian, *granian_args(os.environ)])  # noqa: S606 (our own server)


if __name__ == "__main__":
    main()
