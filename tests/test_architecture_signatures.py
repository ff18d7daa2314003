"""Services and selectors take one domain argument by position, every other by keyword.

A call such as ``submit(entrant, army, by)`` reads the same whichever army and player are
swapped; ``submit(entrant, army=army, by=by)`` does not. So every public module-level
function of a services or selectors module (``services.py``, ``selectors.py``, or a module
inside a package so named) takes at most one positional parameter besides a leading
``request``; the rest are keyword-only, after ``*``.

The scan is shown to find what is planted, so it cannot pass by seeing nothing.
(Beside ``test_architecture.py``, which keeps the apps' order and the other claims.)
"""

from __future__ import annotations

import ast

from tests.test_architecture import MODULES

MARKS = ("services", "selectors")


def is_services_or_selectors(module: str) -> bool:
    """``module`` is a services or selectors module of the web layer, or inside one."""
    parts = module.split(".")
    return parts[0] == "armybuilder" and any(
        part in MARKS or part.endswith(("_services", "_selectors")) for part in parts[1:]
    )


def positional_surplus(source: str) -> list[str]:
    """The public module-level functions in ``source`` that take more than one positional
    parameter besides a leading ``request`` (or take ``*args``)."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("_"):
            continue
        positional = [a.arg for a in node.args.posonlyargs + node.args.args]
        if positional[:1] == ["request"]:
            positional = positional[1:]
        if len(positional) > 1 or node.args.vararg is not None:
            found.append(node.name)
    return found


PLANTED = """
def join(event, user): ...
async def reopen(event, by, *, open_=True): ...
def start_game(owner, *armies): ...
def set_status(request, army_list, status): ...
class Refused(Exception):
    def __init__(self, message, code): ...
def _helper(a, b, c): ...
"""

COMPLIANT = """
def join(event, *, user): ...
def reopen(event, *, by, open_=True): ...
def army_view(request, army, *, version=None): ...
def nothing(): ...
def only_request(request): ...
def _helper(a, b, c): ...
"""


def test_the_signature_scan_names_every_function_with_a_second_positional_argument():
    assert positional_surplus(PLANTED) == ["join", "reopen", "start_game", "set_status"]


def test_the_signature_scan_accepts_one_positional_argument_after_request():
    assert positional_surplus(COMPLIANT) == []


def test_the_scan_reads_the_services_and_selectors_of_every_app():
    scanned = {m for m in MODULES if is_services_or_selectors(m)}
    for app in ("armies", "catalog", "events", "games"):
        assert f"armybuilder.{app}.services" in scanned
        assert f"armybuilder.{app}.selectors" in scanned
    assert "armybuilder.armies.saved" not in scanned


def test_services_and_selectors_take_every_argument_after_the_first_by_keyword():
    found = {
        module: positional_surplus(path.read_text(encoding="utf-8"))
        for module, path in sorted(MODULES.items())
        if is_services_or_selectors(module)
    }
    assert {module: names for module, names in found.items() if names} == {}
