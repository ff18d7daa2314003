"""The rooms of ``armies`` point one way: the builder (the page, its forms read back, its
answers drawn) stands above the changes and the history, which never import it, so a change
is made and recorded without knowing how any page draws it. ARCHITECTURE.md draws the
arrows; this reads every import (``tests.test_architecture.imported_names``) and holds them.

And every hook a lower app offers and a higher app fills in its ``AppConfig.ready`` is
listed in ARCHITECTURE.md, where a reader looks first, not found only by grep.

Each scan is shown to find what is planted, so it cannot pass by seeing nothing.
(Beside ``test_architecture.py``, which keeps the apps' order and the other claims.)
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_architecture import ARCHITECTURE, MODULES, imported_names

# lowest first, peers together: a room imports only rooms of its rank or below (and the
# armies' root modules). A change is recorded in the history and undone from it, so those
# two stand side by side.
ROOMS = (
    ("armybuilder.armies.changes", "armybuilder.armies.history"),
    ("armybuilder.armies.builder",),
)
ARROWS = "`armies/builder/` → `armies/changes/` ↔ `armies/history/`"


def room_of(module: str) -> int | None:
    for rank, rooms in enumerate(ROOMS):
        if any(module.startswith(room + ".") for room in rooms):
            return rank
    return None


def upward(modules: dict[str, Path], sources: dict[str, str] | None = None) -> list[str]:
    """``module -> imported module`` for every import from a room into a room above it."""
    found = []
    for module, path in sorted(modules.items()):
        rank = room_of(module)
        if rank is None:
            continue
        source = (sources or {}).get(module)
        for name in sorted(imported_names(module, path, source)):
            other = room_of(name)
            if other is not None and other > rank:
                found.append(f"{module} -> {name}")
    return found


def test_the_room_scan_sees_an_import_from_the_changes_into_the_builder():
    module = "armybuilder.armies.changes.planted"
    path = Path("armybuilder/armies/changes/planted.py")
    planted = "from armybuilder.armies.builder.controls import Control\n"
    assert upward({module: path}, {module: planted}) == [
        "armybuilder.armies.changes.planted -> armybuilder.armies.builder.controls"
    ]
    below = "from armybuilder.armies.history.revisions import record\n"
    assert upward({module: path}, {module: below}) == []


def test_the_changes_and_the_history_never_import_the_builder():
    assert upward(MODULES) == []


def test_the_architecture_page_draws_the_arrows_of_the_rooms():
    assert ARROWS in ARCHITECTURE.read_text(encoding="utf-8")


# -- the hooks a lower app offers and a higher app fills in its AppConfig.ready --------------


def hooks_filled(source: str) -> set[str]:
    """The dotted names a ``ready`` fills: ``HOOK.append(...)`` of a name imported from a
    module, and ``module.register(...)`` of a module imported as a name."""
    tree = ast.parse(source)
    found = set()
    for function in ast.walk(tree):
        if not (isinstance(function, ast.FunctionDef) and function.name == "ready"):
            continue
        names = {}
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        for node in ast.walk(function):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            if not isinstance(owner, ast.Name) or owner.id not in names:
                continue
            if node.func.attr in ("append", "extend", "add"):
                found.add(names[owner.id])
            elif node.func.attr.startswith("register"):
                found.add(f"{names[owner.id]}.{node.func.attr}")
    return found


def test_the_hook_scan_sees_an_append_and_a_register():
    planted = (
        "class C:\n    def ready(self):\n        from a.b import HOOK\n        from c import d\n"
        "        HOOK.append(f)\n        d.register(x=1)\n        print(1)\n"
    )
    assert hooks_filled(planted) == {"a.b.HOOK", "c.d.register"}


def test_every_hook_an_app_fills_in_its_ready_is_listed_in_the_architecture_page():
    filled = set()
    for module, path in MODULES.items():
        if module.startswith("armybuilder.") and module.endswith(".apps"):
            filled |= hooks_filled(path.read_text(encoding="utf-8"))
    assert len(filled) >= 7
    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert sorted(h for h in filled if f"`{h}`" not in page) == []
