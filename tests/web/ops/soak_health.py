"""``make soak``'s watch on the health endpoints: each node's ``/healthz``, ``/healthz/redis``
and ``/healthz/workers`` sampled every second, and how long each took to answer 200 again
after each fault ended (tests/web/ops/soak.py)."""

from __future__ import annotations

import http.client
import threading
import time
from collections import defaultdict

ENDPOINTS = ("/healthz", "/healthz/redis", "/healthz/workers")


def status(port: int, path: str) -> int:
    """The status ``path`` answers with within 5 s; 0 for no answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


class HealthWatch(threading.Thread):
    def __init__(self, ports: list[int]) -> None:
        super().__init__(daemon=True)
        self.ports = ports
        self.stop = threading.Event()
        # endpoint -> [(when, every node answered 200)]
        self.samples: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        self.faults: list[tuple[str, float, float]] = []  # (fault, began, ended)
        self.lock = threading.Lock()

    def fault(self, name: str, began: float, ended: float) -> None:
        with self.lock:
            self.faults.append((name, began, ended))

    def run(self) -> None:
        while not self.stop.is_set():
            for endpoint in ENDPOINTS:
                ok = all(status(port, endpoint) == 200 for port in self.ports)
                with self.lock:
                    self.samples[endpoint].append((time.monotonic(), ok))
            self.stop.wait(1)

    def recovery(self, endpoint: str, after: float) -> float | None:
        """Seconds from ``after`` until every node answered ``endpoint`` with 200."""
        for when, ok in self.samples[endpoint]:
            if when >= after and ok:
                return when - after
        return None

    def down_during(self, endpoint: str, began: float, ended: float) -> int:
        """Samples of ``endpoint`` not 200 on every node between ``began`` and ``ended``."""
        return sum(1 for when, ok in self.samples[endpoint] if began <= when <= ended and not ok)

    def report(self) -> tuple[list[str], dict[str, float]]:
        """Lines for the operator, and each endpoint's longest recovery (-1: never)."""
        lines, worst = [], dict.fromkeys(ENDPOINTS, 0.0)
        for name, began, ended in self.faults:
            parts = []
            for endpoint in ENDPOINTS:
                seconds = self.recovery(endpoint, ended)
                down = self.down_during(endpoint, began, ended)
                if seconds is None:
                    worst[endpoint] = -1.0
                    parts.append(f"{endpoint} not back")
                else:
                    if worst[endpoint] >= 0:
                        worst[endpoint] = max(worst[endpoint], seconds)
                    parts.append(f"{endpoint} {down} s down, back {seconds:.0f} s after")
            lines.append(f"  {name} ({ended - began:.0f} s): " + "; ".join(parts))
        return lines, worst
