"""ARCHITECTURE.md's "every refusal is mapped once", checked by reading the source (``ast``):
only ``armies/changes/operations.py`` turns an army's refusals into what a page is told
(``operations.outcome_of``: the message, the page-wide notice, the HTTP status); no view
tells refusals apart, words a conflict or keeps its own table of refused statuses.

The scan is shown to find each planted source string, so it cannot pass by seeing nothing.
(Beside ``test_architecture.py``, which keeps the imports, the rooms and the other claims.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.test_architecture import MODULES, ROOT

WEB = ROOT / "armybuilder"
TEMPLATES = ROOT / "templates"


def _web_modules() -> Iterator[tuple[str, Path]]:
    for name, path in sorted(MODULES.items()):
        if name.startswith("armybuilder.") and ".migrations." not in name:
            yield name, path


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- every refusal mapped once ---------------------------------------------------------------

REFUSAL_MAPPER = "armybuilder/armies/changes/operations.py"
REFUSALS = {"FieldConflict", "ItemGone", "StaleVersion", "ItemNotFound", "NothingToUndo"}
REFUSALS |= {"HistoryMissing", "MalformedDocument", "BadOperation"}
REFUSED_STATUSES = {"refused", "conflict", "stale", "gone"}
CONFLICT_WORDS = {"theirs_text", "yours_text"}  # a conflict's values, as the player reads them


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def refusal_mappings(source: str) -> list[str]:
    """Each place in ``source`` that maps an army's refusal to words or a status: a refusal
    told apart with ``isinstance``, a conflict's values worded, an outcome's status compared
    with a refused status, or a table keyed by refused statuses."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
            and _names(node.args[1]) & REFUSALS
        ):
            found.append(f"line {line}: isinstance of a refusal")
        elif isinstance(node, ast.Attribute) and node.attr in CONFLICT_WORDS:
            found.append(f"line {line}: a conflict worded ({node.attr})")
        elif (
            isinstance(node, ast.Compare)
            and any(isinstance(n, ast.Attribute) and n.attr == "status" for n in ast.walk(node))
            and _strings(node) & REFUSED_STATUSES
        ):
            found.append(f"line {line}: a refused status compared")
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if len(keys & REFUSED_STATUSES) >= 2:
                found.append(f"line {line}: a table of refused statuses")
    return found


def test_the_refusal_scan_sees_each_way_of_mapping_a_refusal_again():
    planted = [
        "def f(exc):\n    if isinstance(exc, ItemGone):\n        return 'gone'\n",
        "def f(exc):\n    return isinstance(exc, StaleVersion | HistoryMissing)\n",
        "def f(c):\n    return f'{c.label} is now {c.theirs_text}'\n",
        "def f(o):\n    return o.status == 'stale'\n",
        "def f(o):\n    return o.status in ('refused', 'conflict')\n",
        "STATUS = {'refused': 400, 'conflict': 409}\n",
    ]
    for source in planted:
        assert refusal_mappings(source), source
    assert not refusal_mappings("def f(o):\n    return o.status == 'duplicate' or o.ok\n")
    assert not refusal_mappings("def f(o):\n    return o.http_status, o.notice\n")


def test_an_armys_refusals_are_mapped_only_by_operations():
    found = {
        _relative(path): mapped
        for name, path in _web_modules()
        if name.startswith("armybuilder.armies.")
        if (mapped := refusal_mappings(path.read_text(encoding="utf-8")))
    }
    assert REFUSAL_MAPPER in found  # the scan reads the one mapping it allows
    del found[REFUSAL_MAPPER]
    found.pop("armybuilder/armies/changes/conflicts.py", None)  # defines the words it maps
    assert found == {}, "read Outcome.notice / http_status / at_field from outcome_of"
