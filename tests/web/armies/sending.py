"""Operations sent as the builder page's script sends them: JSON to the operations
endpoint, with ``HX-Request`` so the answer carries the page's fragments."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

from django.test import Client

from armybuilder.armies.models import Army

HX = {"HX-Request": "true"}
# the status a result reads as, for tests written about one change at a time
STATUS = {"applied": 200, "duplicate": 200, "refused": 400, "conflict": 409, "stale": 409,
          "gone": 409}  # fmt: skip
UNSET: Any = object()
# one ``set`` through the endpoint: session, user, the army; the army's lists; the operation
# kernel's transaction (a savepoint and its release inside a test's), its SELECT ... FOR
# UPDATE of the army with whether the one-time key was applied, the versioned UPDATE, the
# revision's INSERT and the key's in the ledger (outside tests the transaction's BEGIN
# and COMMIT instead of the savepoint, and the rate limit's count)
QUERIES_PER_SET = 10
_keys = itertools.count(1)


@dataclass
class Answer:
    """One operation's answer: its result, the whole JSON, and the HTML the page gets
    (the field's message when not saved, else the out-of-band fragments)."""

    status_code: int
    result: dict[str, Any]
    json: dict[str, Any]
    html: str

    @property
    def content(self) -> bytes:
        return self.html.encode()


def operation(saved: Army, op: str, target: str = "army", field: str = "", value: Any = None,
              made_from: Any = UNSET, version: int | None = None,
              typing: bool = False) -> dict[str, Any]:  # fmt: skip
    found = {"key": f"test-{next(_keys)}", "army": saved.pk, "op": op, "target": target,
             "field": field, "value": value}  # fmt: skip
    if made_from is not UNSET:
        found["from"] = made_from
    if version is not None:
        found["base_version"] = version
    if typing:
        found["typing"] = True
    return found


def send_batch(client: Client, saved: Army, operations: list[dict[str, Any]], hx: bool = True):
    return client.post(
        f"/armies/{saved.pk}/operations/",
        json.dumps({"operations": operations}),
        content_type="application/json",
        headers=HX if hx else {},
    )


def send(client: Client, saved: Army, *args: Any, hx: bool = True, **kwargs: Any) -> Answer:
    """One operation (``operation``'s arguments); its answer."""
    response = send_batch(client, saved, [operation(saved, *args, **kwargs)], hx)
    if response.status_code != 200:  # refused whole: not the owner, no CSRF token, ...
        return Answer(response.status_code, {}, {}, response.content.decode())
    answer = response.json()
    result = answer["results"][0]
    html = result.get("html") or answer.get("html", "")
    return Answer(STATUS[result["status"]], result, answer, html)
