"""Server time of a combat worked out and applied on the game page, 30 units a side, for
Feudal and Dark Age (d5), against a floor.

Each case starts a game between two 30-unit armies of the owner's, goes to the mêlée
phase, and posts ``APPLIES`` combats the way the page's Apply button sends them (attacker,
target, no die: the dice are rolled from a new seed, the game's version), each a whole
request: middleware, session, the game's fetch, the replay of the log, the engine's
working, the action recorded under the game's row lock, and the redirect. The pair is
chosen outside the timing from the units still on the table, so every combat is one the
page would offer; when either side has fewer than two units left a new game is started
(so the log the replay reads grows to a real game's length, then starts again). The work
out (the page drawn with the steps, nothing saved) is timed the same way, and so is the
game page the apply redirects to (its log drawn in full). The floor is a
view that returns "ok" through the same middleware. Goal: an applied combat in at most
50 ms of server time.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

TITLE = "A combat worked out and applied (30 units a side)"
APPLIES = 150
WARM_UP = 10
SIZE = 30
GOAL_MS = 50
CASE_NAMES = {"work_out": "work out (page with steps)", "apply": "apply (redirect)",
              "operation": "apply (the page's queued operation)",
              "page": "game page after apply"}  # fmt: skip
CASES = {
    "feudal-2017": ("Feudal", ["knights", "serjeants", "freemen", "bowmen"]),
    "dark-ages-d5": ("Dark Age (d5)", ["infantry", "warriors", "raiders", "cavalry"]),
}


def army_document(slug: str, side: str) -> dict[str, Any]:
    kinds = CASES[slug][1]
    units = [{"name": f"{side} {kinds[i % len(kinds)]} {i + 1}", "type": kinds[i % len(kinds)]}
             for i in range(SIZE)]  # fmt: skip
    return {"format": "muster.army/1", "name": f"{side} {slug}", "ruleset": slug,
            "units": units}  # fmt: skip


def summarise(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), statistics.quantiles(ms, n=100, method="inclusive")[94]


def time_floor(client: Any, count: int) -> list[float]:
    samples = []
    for i in range(WARM_UP + count):
        started = time.perf_counter()
        client.post("/bench/floor/", {"version": i})
        if i >= WARM_UP:
            samples.append(time.perf_counter() - started)
    return samples


class Table:
    """One rule set's game at the table: starts games and chooses each combat's pair."""

    def __init__(self, client: Any, user: Any, slug: str) -> None:
        from armybuilder.armies.services import create_army

        self.client, self.user, self.slug = client, user, slug
        self.armies = [create_army(army_document(slug, s), owner=user) for s in ("A", "B")]
        self.games = 0
        self.refused = 0
        self.longest = 0
        self.new_game()

    def new_game(self) -> None:
        from armybuilder.games import services

        self.game = services.start_game(self.user, army_a=self.armies[0], army_b=self.armies[1])
        while self.game.phase != "melee":
            services.next_phase(self.game, version=self.game.version)
        self.games += 1
        self.turn = 0

    def pair(self) -> dict[str, str]:
        """The next attacker and target, both still on the table (outside the timing)."""
        from armybuilder.games import selectors

        self.game.refresh_from_db()
        state = selectors.state_of(self.game)
        self.longest = max(self.longest, len(state.actions))
        live = {side: [c.key for c in view.cards if not state.of(c.key).lost]
                for side, view in selectors.sides(self.game).items()}  # fmt: skip
        if min(len(keys) for keys in live.values()) < 2:
            self.new_game()
            return self.pair()
        self.turn += 1
        return {"attacker": live["a"][self.turn % len(live["a"])],
                "target": live["b"][(self.turn * 7) % len(live["b"])]}  # fmt: skip

    def apply(self, form: dict[str, Any] | None = None) -> float:
        form = {**(form or self.pair()), "die": "", "version": self.game.version}
        started = time.perf_counter()
        response = self.client.post(f"/games/{self.game.pk}/apply/", form)
        elapsed = time.perf_counter() - started
        self.refused += response.status_code != 302
        return elapsed

    def operation(self, form: dict[str, Any] | None = None) -> float:
        """The same combat as the page's script sends it: one keyed operation, JSON."""
        import json
        import secrets

        form = form or self.pair()
        self.game.refresh_from_db()
        body = {"operations": [{
            "key": secrets.token_hex(16), "base_version": self.game.version, "op": "combat",
            "value": {**form, "modifiers": [], "die": "", "numbers": "",
                      "seed": secrets.token_hex(8), "turn": self.game.turn,
                      "phase": self.game.phase},
        }]}  # fmt: skip
        started = time.perf_counter()
        response = self.client.post(f"/games/{self.game.pk}/operations/", json.dumps(body),
                                    content_type="application/json")  # fmt: skip
        elapsed = time.perf_counter() - started
        applied = response.status_code == 200 and response.json()["results"][0]["status"]
        self.refused += applied != "applied"
        return elapsed

    def work_out(self, form: dict[str, Any] | None = None) -> float:
        form = form or self.pair()
        started = time.perf_counter()
        response = self.client.post(f"/games/{self.game.pk}/work-out/", form)
        elapsed = time.perf_counter() - started
        self.refused += response.status_code != 200
        return elapsed

    def page(self, form: dict[str, Any] | None = None) -> float:
        """The game page the Apply button's redirect leads to, its log drawn in full."""
        started = time.perf_counter()
        response = self.client.get(f"/games/{self.game.pk}/")
        elapsed = time.perf_counter() - started
        self.refused += response.status_code != 200
        return elapsed

    def queries(self, what: str) -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        form = self.pair()  # chosen before: only the request's own statements count
        with CaptureQueriesContext(connection) as captured:
            getattr(self, what)(form)
        return len(captured.captured_queries)


def run() -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client, override_settings

    user = User.objects.create_user("bench-games")  # force_login needs no password
    client = Client()
    client.force_login(user)
    rows, notes = [], []
    with override_settings(ROOT_URLCONF="bench._urls", DEBUG=False,
                           MUSTER_RATE_LIMITS={"write": (10**6, 600)}):  # fmt: skip
        floor = summarise(time_floor(client, APPLIES))
        rows.append({"case": "floor: minimal view", "rule set": "", "median ms": floor[0],
                     "p95 ms": floor[1], "median / floor": 1.0, "queries": "",
                     "goal": ""})  # fmt: skip
        for slug, (title, _) in CASES.items():
            table = Table(client, user, slug)
            for _ in range(WARM_UP):
                table.apply()
            for what in ("work_out", "apply", "operation", "page"):
                queries = table.queries(what)
                samples = []
                for _ in range(APPLIES):
                    samples.append(getattr(table, what)())
                    if what == "page":
                        table.apply()  # the log grows as in a game
                median, p95 = summarise(samples)
                rows.append({"case": CASE_NAMES[what], "rule set": title,
                             "median ms": median, "p95 ms": p95,
                             "median / floor": median / floor[0], "queries": queries,
                             "goal": f"<= {GOAL_MS} ms" if what in ("apply", "operation")
                             else ""})  # fmt: skip
            notes.append(f"{title}: {table.games} games played through, the longest log "
                         f"{table.longest} live actions; {table.refused} requests not "
                         "answered as the page expects (should be 0)")  # fmt: skip
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
    return {
        "title": TITLE,
        "rows": rows,
        "notes": [
            *notes,
            f"goal: an applied combat in at most {GOAL_MS} ms (median, server time)",
            f"database: {database}; times through django.test.Client, in-process (no network)",
            "queries: SQL statements of one request (apply: session, user, the rate limit's "
            "count, the game; under the lock: BEGIN, the game again, the log, each side's "
            "pinned army lists, the next number, the INSERT, the UPDATE, the game read "
            "back, COMMIT)",
        ],
    }
