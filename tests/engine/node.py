"""The page engine under Node: the same Pyodide runtime and rules archive a page's worker
loads (tests/engine/node_engine.mjs), for tests that compare the browser's engine with the
server's without a browser."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "node_engine.mjs"


class NodeEngine:
    """One Node process running Pyodide with the rules archive; ``call`` is one JSON call."""

    def __init__(self, runtime: Path, archive: Path) -> None:
        self.process = subprocess.Popen(  # noqa: S603 (our own harness)
            [shutil.which("node") or "node", str(HARNESS), str(runtime), str(archive)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        first = json.loads(self._line())
        if not first.get("ready"):
            raise RuntimeError(f"the engine did not start: {first}")
        self.ready_ms: float = first["ms"]
        self.last_ms: float | None = None  # the engine's own time for the last call
        self._next = 0

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the Node engine stopped (exit {self.process.poll()})")
        return line

    def call(self, target: str, **kwargs: Any) -> Any:
        """The answer of ``target`` ("rules.page.<module>:<function>") in the browser's
        engine; raises ``EngineError`` with the engine's words when it refused."""
        self._next += 1
        assert self.process.stdin is not None
        request = {"id": self._next, "target": target, "args": kwargs}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self._line())
        assert answer["id"] == self._next
        self.last_ms = answer.get("ms")
        if "error" in answer:
            raise EngineError(answer["error"])
        return answer["ok"]

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class EngineError(RuntimeError):
    """The browser's engine answered an error (its Python exception's type and message)."""


def start_node_engine() -> NodeEngine:
    """The engine as a page runs it; fails with the reason when it cannot start here (make
    test vendors the runtime and the machine has Node)."""
    from armybuilder.pageengine import build_archive
    from armybuilder.runtime_pin import RUNTIME_PREFIX

    runtime = ROOT / "vendor" / RUNTIME_PREFIX
    if not (runtime / ".verified").exists():
        raise RuntimeError(f"the runtime is not vendored at {runtime}: run `make vendor`")
    if not shutil.which("node"):
        raise RuntimeError("Node is not installed (`make vendor` installs it with npm as root)")
    archive = Path(tempfile.mkdtemp(prefix="muster-engine-")) / "rules.zip"
    archive.write_bytes(build_archive(ROOT / "rules"))
    return NodeEngine(runtime, archive)
