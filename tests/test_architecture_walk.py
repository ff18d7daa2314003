"""ARCHITECTURE.md's walk of one army field edit: the files of ``armybuilder/`` a field
edit enters while its view runs, sent as the builder's script sends it (JSON with
``HX-Request``, answered with the drawn fragments) and as a JSON client sends it (the
outcome only), and how often it comes back to a file it had left. The page states the
counts; this measures them with ``sys.setprofile`` and holds the page to them, so a
change that lengthens the walk says so where a newcomer reads it."""

from __future__ import annotations

import json
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import armybuilder
from tests.test_architecture import ROOT
from tests.web.armies.changes.test_operations import item_id, make

WEB = Path(armybuilder.__file__).parent
VIEW = ("apply", str(WEB / "armies" / "builder" / "operation_views.py"))
STATED = re.compile(
    r"enters (\d+) files of `armybuilder/` and comes back to one it had left (\d+) times".replace(
        " ", r"\s+"
    )
)


@dataclass(frozen=True)
class Walk:
    files: list[str]  # in the order they were first entered
    returns: int


def walk_of(entered: list[str]) -> Walk:
    """The files in the order first entered, and how often a file left was entered again."""
    left: set[str] = set()
    files: list[str] = []
    returns = 0
    for previous, current in zip([None, *entered], entered, strict=False):
        if current == previous:
            continue
        if previous is not None:
            left.add(previous)
        if current in left:
            returns += 1
        if current not in files:
            files.append(current)
    return Walk(files, returns)


def test_the_walk_counts_each_file_once_and_each_return_to_a_file_left():
    walk = walk_of(["views", "views", "changes", "saving", "changes", "views", "saving"])
    assert walk == Walk(["views", "changes", "saving"], 3)


def _entered_by_one_edit(client, saved, drawn: bool) -> list[str]:
    def body(value: int) -> str:
        op = {"key": secrets.token_hex(8), "op": "set", "target": item_id(saved, 0),
              "field": "figures", "value": value}  # fmt: skip
        return json.dumps({"operations": [op]})

    url, headers = f"/armies/{saved.pk}/operations/", {"HX-Request": "true"} if drawn else {}
    client.post(url, body(9), content_type="application/json", headers=headers)  # warm
    entered: list[str] = []
    depth = 0

    def profile(frame, event, _arg):
        nonlocal depth
        code = frame.f_code
        if (code.co_name, code.co_filename) == VIEW:
            depth += {"call": 1, "return": -1}.get(event, 0)
        if event != "call" or not depth or code.co_name == "<module>":
            return
        if code.co_filename.startswith(str(WEB)) and "/migrations/" not in code.co_filename:
            entered.append(Path(code.co_filename).relative_to(WEB).as_posix())

    sys.setprofile(profile)
    try:
        answer = client.post(url, body(8), content_type="application/json", headers=headers)
    finally:
        sys.setprofile(None)
    assert answer.json()["results"][0]["status"] == "applied"
    return entered


def _stated() -> list[tuple[int, int]]:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    return [(int(files), int(returns)) for files, returns in STATED.findall(text)]


@pytest.mark.django_db
def test_the_architecture_page_states_the_walk_of_an_army_field_edit(owner_client, user):
    saved = make(user, 2)
    drawn = walk_of(_entered_by_one_edit(owner_client, saved, drawn=True))
    bare = walk_of(_entered_by_one_edit(owner_client, saved, drawn=False))
    measured = [(len(drawn.files), drawn.returns), (len(bare.files), bare.returns)]
    assert measured == _stated(), "\n".join(drawn.files)
