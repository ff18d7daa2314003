"""The nodes of ``make soak``: each one ``make run`` as an operator starts it (supervisord
with granian's web processes and a render worker, production settings, prints made
ahead), on a port and run directory of its own, sharing one PostgreSQL and one Redis.

The faults reach them as they would reach a host: a render worker or one of granian's web
processes SIGKILLed (found under the node's supervisord by their command lines), and each
put back by supervisord or granian, never by this script."""

from __future__ import annotations

import os
import random
import signal
import subprocess
from collections import defaultdict
from contextlib import suppress
from pathlib import Path

from tests.support import ROOT
from tests.web.ops.redis_server import free_port


def children() -> dict[int, list[int]]:
    """Every process's children, read from /proc."""
    found: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold spaces
            found[parent].append(int(entry.name))
    return found


def command_line(pid: int) -> str:
    with suppress(OSError):
        return (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
    return ""


def descendants(pid: int) -> list[int]:
    tree, found, todo = children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class Node:
    """One ``make run``: its port, its run directory (supervisord's pid file) and its log."""

    def __init__(self, name: str, directory: Path, env: dict[str, str]) -> None:
        self.name, self.port = name, free_port()
        self.directory = directory / name
        self.directory.mkdir(parents=True, exist_ok=True)
        self.env = {
            **env,
            "MUSTER_BIND": f"127.0.0.1:{self.port}",
            "MUSTER_RUN_DIR": str(self.directory),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.killed: list[str] = []

    @property
    def log(self) -> Path:
        return self.directory / "run.log"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["make", "--no-print-directory", "run"], cwd=ROOT, env=self.env,
            stdout=self.log.open("a"), stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def supervisor(self) -> int | None:
        with suppress(OSError, ValueError):
            return int((self.directory / "supervisord.pid").read_text().strip())
        return None

    def processes(self) -> dict[str, list[int]]:
        """The node's render workers, granian's main process and its web processes."""
        top = self.supervisor()
        found: dict[str, list[int]] = {"worker": [], "granian": [], "web": []}
        if top is None:
            return found
        tree = children()
        for pid in tree.get(top, []):
            line = command_line(pid)
            if line.startswith("granian") or "/granian " in line:
                found["granian"].append(pid)
                found["web"].extend(descendants(pid))
            elif line:  # manage.py muster_worker, which RQ renames "rq:worker:<id>: ..."
                found["worker"].append(pid)
        return found

    def kill(self, kind: str) -> str:
        """SIGKILL one process of ``kind`` (worker, web or granian); what was killed."""
        pids = self.processes()[kind]
        if not pids:
            return f"no {kind} process on node {self.name} to kill"
        pid = random.choice(pids)
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        what = f"node {self.name}'s {kind} process {pid}"
        self.killed.append(what)
        return what

    def stop(self) -> None:
        """SIGTERM to ``make run``'s group, as Ctrl-C: supervisord stops its programs."""
        if self.process is None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
