"""The layout holds: arrows point one way (web -> rules root -> registry -> rule-set packages).

Imports are read with ast from rules/ and armybuilder/: module-level and function-level imports
both count (a deferred import is still a dependency); only ``if TYPE_CHECKING:`` imports are
left out, since they never run.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import rules
from tests.support import ROOT

RULES_DIR = Path(rules.__file__).parent
SCANNED = ("rules", "armybuilder")
PACKAGES = "rules.rulesets"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            found[_module_name(path)] = path
    return found


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for orelse in child.orelse:
                yield from _import_nodes(orelse)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _import_nodes(child)


def imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name ``module`` imports (``from a import b`` gives ``a.b`` when that is a
    module, else ``a``); relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = module.split(".")
            anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            names.add(sub if sub in MODULES else base)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (outside names dropped)."""
    return {
        module: {n for n in imported_names(module, path) if n in MODULES and n != module}
        for module, path in MODULES.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package_of(module: str) -> str | None:
    """The rule-set package a module belongs to (``rules.rulesets.<name>``), or None."""
    parts = module.split(".")
    if module.startswith(PACKAGES + ".") and len(parts) >= 3:
        return ".".join(parts[:3])
    return None


def test_the_cycle_finder_sees_a_circle_and_a_straight_line():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_imports_are_resolved_as_modules():
    graph = import_graph()
    # registry reaches the packages only by discovery: it names the namespace, not a package
    assert "rules.rulesets" in graph["rules.registry"]
    assert "rules.base" in graph["rules.registry"]
    assert "rules.rulesets.feudal_2017.troops" in graph["rules.rulesets.feudal_2017.entries"]


def test_no_import_circles_between_modules():
    assert cycles(import_graph()) == []


def test_rule_set_packages_never_import_each_other():
    offenders = {
        module: sorted(n for n in names if _package_of(n) not in (None, _package_of(module)))
        for module, names in import_graph().items()
        if _package_of(module)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_rules_root_reaches_rule_sets_only_through_the_registry():
    offenders = {
        module: sorted(n for n in names if _package_of(n))
        for module, names in import_graph().items()
        if module.startswith("rules") and not _package_of(module)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_web_layer_imports_only_the_rules_root():
    offenders = {
        module: sorted(n for n in names if _package_of(n))
        for module, names in import_graph().items()
        if module.startswith("armybuilder")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rules_engine_has_no_django_import():
    offenders = {
        module: sorted(n for n in imported_names(module, path) if n.split(".")[0] == "django")
        for module, path in MODULES.items()
        if module.split(".")[0] == "rules"
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_rules_engine_imports_nothing_from_the_web_layer():
    offenders = {
        module: sorted(n for n in names if n.startswith("armybuilder"))
        for module, names in import_graph().items()
        if module.split(".")[0] == "rules"
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_every_ruleset_describes_its_checks_and_options_as_data():
    for ruleset in rules.all_rulesets():
        vocabulary = ruleset.vocabulary()
        assert vocabulary["slug"] == ruleset.slug
        assert vocabulary["unit_fields"][0]["name"] == "name"
        assert vocabulary["checks"], ruleset.slug
        codes = [c["code"] for c in vocabulary["checks"]]
        assert len(codes) == len(set(codes)), ruleset.slug
