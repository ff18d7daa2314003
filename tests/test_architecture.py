"""The layout holds: arrows point one way (web -> rules root -> registry -> rule-set packages).

Imports are read with ast from rules/ and armybuilder/: module-level, function-level (a
deferred import is still a dependency) and ``if TYPE_CHECKING:`` imports all count (a type
named from a module is a dependency on it, and a circle through one is still a circle).
"""

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

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


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.walk(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child


def imported_names(module: str, path: Path, source: str | None = None) -> set[str]:
    """Every dotted name ``module`` imports (``from a import b`` gives ``a.b`` when that is a
    module, else ``a``); relative imports resolved; ``source`` stands in for the file's text."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
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


@cache
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


def test_imports_for_type_checking_only_count_as_dependencies():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from rules.rulesets.feudal_2017.ruleset import Feudal2017\n"
    )
    module = "rules.rulesets.feudal_2017.entries"
    names = imported_names(module, MODULES[module], source)
    assert "rules.rulesets.feudal_2017.ruleset" in names


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


MAX_LINES = 500


def _project_modules() -> Iterator[Path]:
    """Every Python module of the project but its tests and migrations."""
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", "mutants", "node_modules") or parts[0].startswith("."):
            continue
        if "migrations" in parts:
            continue
        yield path


def test_the_size_rule_reads_the_engine_the_web_layer_and_the_bench():
    scanned = {path.relative_to(ROOT).parts[0] for path in _project_modules()}
    assert {"rules", "armybuilder", "bench", "manage.py"} <= scanned


def test_no_module_is_longer_than_five_hundred_lines():
    """A longer module is split along a seam (the project's rule)."""
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in _project_modules()
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


# Receivers of another app's model signals that carry no business rule: they only queue
# work that can always be redone on demand, and the app they serve sits above the
# sender's (armies cannot call printing). Anything that changes what is stored is an
# explicit call in the save path instead.
SIDE_EFFECT_RECEIVERS = {
    # printing ahead: a render queued after a save; Print renders on demand without it
    "armybuilder.printing.apps._army_saved",
    "armybuilder.printing.apps._revision_saved",
}


def model_signal_receivers(prefix: str) -> list[tuple[str, str]]:
    """(receiver, sender model) for every receiver of a model signal (save, delete, init,
    many-to-many) defined in a module under ``prefix``; the sender ``*`` for any model."""
    import weakref

    from django.apps import apps
    from django.db.models import signals

    models = {id(model): model._meta.label for model in apps.get_models()}
    found = []
    for name in ("pre_init", "post_init", "pre_save", "post_save", "pre_delete", "post_delete",
                 "m2m_changed"):  # fmt: skip
        for lookup_key, receiver, *_ in getattr(signals, name).receivers:
            if isinstance(receiver, weakref.ReferenceType):
                receiver = receiver()
            module = getattr(receiver, "__module__", "") or ""
            if receiver is None or not (module == prefix or module.startswith(prefix + ".")):
                continue
            label = models.get(lookup_key[1], "*")
            found.append((f"{module}.{receiver.__qualname__}", label))
    return sorted(found)


def _outside_own_models(receivers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The receivers not defined in the models module of the sender's own app."""
    from django.apps import apps

    def own(receiver: str, label: str) -> bool:
        if label == "*":
            return False
        models = f"{apps.get_app_config(label.split('.')[0]).name}.models"
        return receiver.startswith(models + ".")

    return [(r, label) for r, label in receivers if not own(r, label)]


def _planted_pin(sender, instance, **kwargs):  # a business rule hidden in a signal
    instance.list_pins = {}


@pytest.mark.django_db
def test_the_signal_finder_sees_a_receiver_on_another_apps_model():
    from django.db.models.signals import pre_save

    pre_save.connect(_planted_pin, sender="armies.Army", weak=False)
    try:
        found = _outside_own_models(model_signal_receivers("tests"))
    finally:
        pre_save.disconnect(_planted_pin, sender="armies.Army")
    assert found == [("tests.test_architecture._planted_pin", "armies.Army")]
    assert model_signal_receivers("tests") == []


def test_no_model_signal_carries_a_business_rule():
    """A model's signals are received only in its own app's models module; what one app
    does when another app's row is saved is an explicit call in that save path."""
    outside = _outside_own_models(model_signal_receivers("armybuilder"))
    assert [(r, label) for r, label in outside if r not in SIDE_EFFECT_RECEIVERS] == []
    assert {r for r, _ in outside} == SIDE_EFFECT_RECEIVERS  # none listed that is gone


ARCHITECTURE = ROOT / "ARCHITECTURE.md"
FILE_SUFFIXES = (".py", ".toml", ".json", ".md", ".html")
_PATH_ROOTS = (ROOT, ROOT / "armybuilder")


def _is_path(token: str) -> bool:
    """A file or folder of the project (``armies/...`` is read under ``armybuilder/``)."""
    first = token.split("/")[0]
    return (
        "/" in token and bool(first) and any((top / first).is_dir() for top in _PATH_ROOTS)
    ) or (token.endswith(FILE_SUFFIXES) and "/" not in token)


def named_in_architecture(text: str) -> set[str]:
    """The file paths and dotted ``rules``/``armybuilder`` names written in backticks."""
    names = set()
    for token in re.findall(r"`([^`\s]+)`", text):
        token = token.split("(")[0]
        if _is_path(token) or token.split(".")[0] in ("rules", "armybuilder"):
            names.add(token)
    return names


def _path_exists(token: str) -> bool:
    if "/" not in token:  # a bare file name: somewhere in the project
        return any(_project_files(token))
    folder, _, last = token.rpartition("/")
    attribute = None
    if last and "." in last and not last.endswith(FILE_SUFFIXES) and "*" not in last:
        last, attribute = last.split(".", 1)  # armies/saving.save: a name in a module
        last += ".py"
    pattern = re.sub(r"<[^>]+>", "*", f"{folder}/{last}" if folder else last).rstrip("/")
    for top in _PATH_ROOTS:
        for found in top.glob(pattern):
            if attribute is None or _defines(found, attribute):
                return True
    return False


def _project_files(name: str) -> Iterator[Path]:
    for top in ("rules", "armybuilder", "tests", "bench"):
        yield from (ROOT / top).rglob(name)


def _defines(path: Path, name: str) -> bool:
    """Whether the module at ``path`` defines ``name`` (a function, class or assignment)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
    return False


def _dotted_exists(token: str) -> bool:
    """``rules.registry.get_ruleset``: the longest importable module, then attributes."""
    import importlib

    parts = [p for p in token.split(".") if p != "*"]
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def missing_names(names: set[str]) -> list[str]:
    return sorted(n for n in names if not (_path_exists(n) if _is_path(n) else _dotted_exists(n)))


def test_the_architecture_check_sees_a_path_or_a_name_that_is_gone():
    named = named_in_architecture(
        "`armies/saving.save` `armies/saving.gone` `armies/nowhere.py` `rules.base.RuleSet` "
        "`rules.base.Nothing` `rules/rulesets/<name>/` `fixtures/<slug>.json` `muster.army/1`"
    )
    assert "muster.army/1" not in named
    assert missing_names(named) == ["armies/nowhere.py", "armies/saving.gone", "rules.base.Nothing"]


def test_every_path_and_module_the_architecture_page_names_exists():
    named = named_in_architecture(ARCHITECTURE.read_text(encoding="utf-8"))
    assert "rules/engine.py" in named and "armies/pipeline.run" in named
    assert missing_names(named) == []


def test_the_architecture_page_lists_every_root_module_of_the_rules_engine():
    named = named_in_architecture(ARCHITECTURE.read_text(encoding="utf-8"))
    listed = {n for n in named if re.fullmatch(r"rules/\w+\.py", n)}
    assert listed == {f"rules/{path.name}" for path in RULES_DIR.glob("*.py")}
