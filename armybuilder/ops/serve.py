"""``python -m armybuilder.ops.serve``: the web server of ``make run`` (granian), its
settings taken from the environment (README, "Running"), then ``exec``'d in place so the
process supervisor stops and restarts granian itself."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path


def granian_args(env: Mapping[str, str]) -> list[str]:
    """granian's command-line arguments for ``env`` (``MUSTER_BIND``, ``WEB_CONCURRENCY``...)."""
    host, _, port = env.get("MUSTER_BIND", "127.0.0.1:8000").rpartition(":")
    header_ms = int(float(env.get("MUSTER_HEADER_READ_SECONDS", "10")) * 1000)
    args = [
        "--interface", "asgi",
        "--no-ws",
        "--host", host.strip("[]") or "127.0.0.1",
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
    return [*args, "armybuilder.asgi:application"]


def main() -> None:
    here = Path(sys.executable).parent
    granian = str(here / "granian") if (here / "granian").exists() else shutil.which("granian")
    if granian is None:
        raise SystemExit("granian is not installed (make install)")
    os.execv(granian, [granian, *granian_args(os.environ)])  # noqa: S606 (our own server)


if __name__ == "__main__":
    main()
