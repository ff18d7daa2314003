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


# The web layer's apps, lowest first: an app imports only apps below it (and the shared
# helpers); apps of one rank are peers that never import each other. ARCHITECTURE.md,
# "The order of the apps", says why each sits where it does.
APP_ORDER: tuple[tuple[str, ...], ...] = (
    ("operations",),
    ("accounts",),
    ("catalog",),
    ("armies",),
    ("printing",),
    ("games",),
    ("events",),
    ("api", "ops"),
)
# Modules directly under armybuilder/ are shared helpers, below every app, but for the
# project's wiring, above every app: the URL map and the settings (which name apps).
WIRING = {
    "armybuilder",
    "armybuilder.urls",
    "armybuilder.settings",
    "armybuilder.settings_production",
}
SHARED, TOP = -1, len(APP_ORDER)
_MODEL_REFERENCE = re.compile(r"(\w+)\.[A-Z]\w*")


def layer_of(module: str) -> tuple[int, str]:
    """(rank, app) of a web-layer module: an app's rank in ``APP_ORDER``, ``SHARED`` for a
    helper directly under ``armybuilder/``, ``TOP`` for the wiring."""
    parts = module.split(".")
    if module in WIRING:
        return TOP, ""
    if len(parts) == 2 and parts[1] not in {app for rank in APP_ORDER for app in rank}:
        return SHARED, ""
    for rank, apps in enumerate(APP_ORDER):
        if parts[1] in apps:
            return rank, parts[1]
    raise AssertionError(f"{module}: an app missing from APP_ORDER")


def model_references(path: Path, source: str | None = None) -> set[str]:
    """The apps whose models a module names by label: ``apps.get_model("armies", ...)`` and
    lazy references such as ``ForeignKey("armies.Army")`` or ``sender="armies.Army"``."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    labels = {app for rank in APP_ORDER for app in rank}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "get_model":
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = _MODEL_REFERENCE.fullmatch(node.value)
            if match:
                found.add(match.group(1))
    return found & labels


def upward_imports(graph: dict[str, set[str]], labels: dict[str, set[str]]) -> list[str]:
    """Every import (or model named by label) of a web-layer module that reaches above its
    own app or into a peer's, as ``module -> imported (why)``."""
    found = []
    for module in sorted(m for m in graph if m.split(".")[0] == "armybuilder"):
        if ".migrations." in module:
            continue  # generated: each migration names the models it was made from
        rank, app = layer_of(module)
        targets = {n: n for n in graph[module] if n.split(".")[0] == "armybuilder"}
        targets.update({f"armybuilder.{label}": f'"{label}" model' for label in labels[module]})
        for target, shown in sorted(targets.items()):
            their_rank, their_app = layer_of(target)
            if their_app == app and their_rank == rank:
                continue
            if their_rank > rank:
                found.append(f"{module} -> {shown} ({their_app or 'wiring'} is above)")
            elif their_rank == rank and rank != SHARED:
                found.append(f"{module} -> {shown} ({their_app} is a peer)")
    return found


def test_the_order_finder_names_an_upward_import_a_peer_and_a_model_named_upward():
    graph = {
        "armybuilder.catalog.views": {"armybuilder.ops.serve", "armybuilder.accounts.support"},
        "armybuilder.api.views": {"armybuilder.ops.health", "armybuilder.headers"},
        "armybuilder.headers": {"armybuilder.catalog.views"},
        "armybuilder.ops.health": {"armybuilder.printing.jobs", "armybuilder.throttle"},
        "armybuilder.catalog.services": set(),
        "armybuilder.urls": {"armybuilder.ops.health"},
    }
    labels = {module: set() for module in graph}
    labels["armybuilder.catalog.services"] = model_references(
        MODULES["armybuilder.catalog.services"], 'apps.get_model("events", "AllowedList")'
    )
    assert upward_imports(graph, labels) == [
        "armybuilder.api.views -> armybuilder.ops.health (ops is a peer)",
        'armybuilder.catalog.services -> "events" model (events is above)',
        "armybuilder.catalog.views -> armybuilder.ops.serve (ops is above)",
        "armybuilder.headers -> armybuilder.catalog.views (catalog is above)",
    ]


def test_lazy_model_references_count_as_dependencies():
    source = 'army = models.ForeignKey("armies.Army", on_delete=models.CASCADE)\n'
    assert model_references(MODULES["armybuilder.printing.models"], source) == {"armies"}


def test_every_app_has_its_place_in_the_order():
    from django.conf import settings

    ours = {a.split(".")[1] for a in settings.INSTALLED_APPS if a.startswith("armybuilder.")}
    assert ours == {app for rank in APP_ORDER for app in rank}


def test_apps_import_only_apps_below_them_and_helpers_import_no_app():
    """A lower app that needs to hear from a higher one offers a hook (a list or a
    registration function) that the higher app fills in its ``AppConfig.ready``."""
    labels = {m: model_references(p) for m, p in MODULES.items() if m.startswith("armybuilder")}
    assert upward_imports(import_graph(), labels) == []


def test_the_architecture_page_writes_the_order_of_the_apps():
    written = " → ".join(" / ".join(f"`{app}`" for app in rank) for rank in APP_ORDER)
    assert written in ARCHITECTURE.read_text(encoding="utf-8")


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


def test_no_script_of_ours_is_longer_than_five_hundred_lines():
    """The same rule for the browser's modules (a vendored library is not ours to split)."""
    scripts = [p for p in (ROOT / "static" / "js").rglob("*.js") if "vendor" not in p.parts]
    assert len(scripts) > 20, "the rule reads the static scripts"
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in scripts
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


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


def test_no_model_signal_is_received_in_the_project():
    """What follows a save is an explicit call in that save path (``armies.models.army_saved``), never a
    receiver of a model signal, in its own app or another's."""
    assert model_signal_receivers("armybuilder") == []


MODEL_SIGNAL_USE = re.compile(
    r"\b(?:pre_init|post_init|pre_save|post_save|pre_delete|post_delete|m2m_changed)"
    r"\s*\.\s*connect\s*\(|@receiver\s*\("
)


def model_signal_uses(source: str) -> list[int]:
    """Line numbers where ``source`` connects a model signal or declares a receiver."""
    return [n for n, line in enumerate(source.splitlines(), 1) if MODEL_SIGNAL_USE.search(line)]


def test_the_signal_scan_sees_a_connect_and_a_receiver():
    planted = (
        "from django.db.models.signals import post_save\n"
        "post_save.connect(handler, sender='armies.Army')\n"
        "@receiver(pre_delete, sender=Army)\n"
        "def handler(**kwargs): ...\n"
        "user_logged_in.connect(other)\n"
    )
    assert model_signal_uses(planted) == [2, 3]


def test_no_module_connects_a_model_signal_or_declares_a_receiver():
    found = {
        str(path.relative_to(ROOT)): model_signal_uses(path.read_text(encoding="utf-8"))
        for path in _project_modules()
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


ARCHITECTURE = ROOT / "ARCHITECTURE.md"
FILE_SUFFIXES = (".py", ".toml", ".json", ".md", ".html", ".js", ".css")
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
        last, attribute = last.split(".", 1)  # armies/changes/saving.save: a name in a module
        last += ".py"
    pattern = re.sub(r"<[^>]+>", "*", f"{folder}/{last}" if folder else last).rstrip("/")
    for top in _PATH_ROOTS:
        for found in top.glob(pattern):
            if attribute is None or _defines(found, attribute):
                return True
    return False


def _project_files(name: str) -> Iterator[Path]:
    for top in ("rules", "armybuilder", "tests", "bench", "static"):
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
        "`armies/changes/saving.save` `armies/changes/saving.gone` `armies/nowhere.py` `rules.base.RuleSet` "
        "`rules.base.Nothing` `rules/rulesets/<name>/` `fixtures/<slug>.json` `muster.army/1`"
    )
    assert "muster.army/1" not in named
    assert missing_names(named) == [
        "armies/changes/saving.gone",
        "armies/nowhere.py",
        "rules.base.Nothing",
    ]


def test_every_path_and_module_the_architecture_page_names_exists():
    named = named_in_architecture(ARCHITECTURE.read_text(encoding="utf-8"))
    assert "rules/engine.py" in named and "armies/changes/pipeline.run" in named
    assert missing_names(named) == []


def test_the_architecture_page_lists_every_root_module_of_the_rules_engine():
    named = named_in_architecture(ARCHITECTURE.read_text(encoding="utf-8"))
    listed = {n for n in named if re.fullmatch(r"rules/\w+\.py", n)}
    assert listed == {f"rules/{path.name}" for path in RULES_DIR.glob("*.py")}


# -- test files mirror modules ---------------------------------------------------------------

WEB_TESTS = ROOT / "tests" / "web"
# Test files named for no one module, each with why.
CROSS_CUTTING = {
    # every route of every app, walked from tests/web/routes.py
    "test_routes_access.py",
    "test_routes_csrf.py",
    "test_routes_head.py",
    # every player-facing page: no rule-set slug shown where a title belongs
    "test_no_slugs_for_players.py",
    # a plug-in rule set (tests/toy_ruleset/) through the pages, the API, the CLI and printing
    "test_toy_ruleset.py",
}


def module_stems(package: str) -> set[str]:
    """The last name of every module of ``package`` but its migrations (``views``,
    ``list_editor``, ``muster`` for ``management/commands/muster.py``); for ``armybuilder``
    only the modules directly under it."""
    stems = set()
    for module in MODULES:
        parts = module.split(".")
        if not module.startswith(package + ".") or "migrations" in parts:
            continue
        if package == "armybuilder" and len(parts) != 2:
            continue
        stems.add(parts[-1])
    return stems


def unmirrored(names: list[str], stems: set[str]) -> list[str]:
    """The test file names that name no module: ``test_<module>.py`` or, for one module's
    tests split in several files, ``test_<module>_<what>.py``."""
    return sorted(
        name
        for name in names
        if not any(name[5:-3] == stem or name[5:-3].startswith(stem + "_") for stem in stems)
    )


def _test_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("test_*.py"))


def test_the_mirror_check_sees_a_test_file_named_for_a_feature():
    stems = module_stems("armybuilder.catalog")
    assert {"views", "list_editor", "services"} <= stems
    names = ["test_views.py", "test_list_editor_shapes.py", "test_cli.py", "test_viewsx.py"]
    assert unmirrored(names, stems) == ["test_cli.py", "test_viewsx.py"]
    assert "muster" in module_stems("armybuilder.ops")  # management/commands/muster.py
    assert "throttle" in module_stems("armybuilder") and "views" not in module_stems("armybuilder")


def test_every_web_test_file_mirrors_a_module_of_its_app():
    found = {}
    for rank in APP_ORDER:
        for app in rank:
            names = [n for n in _test_files(WEB_TESTS / app) if f"{app}/{n}" not in CROSS_CUTTING]
            found[app] = unmirrored(names, module_stems(f"armybuilder.{app}"))
    names = [n for n in _test_files(WEB_TESTS) if n not in CROSS_CUTTING]
    found["(armybuilder/)"] = unmirrored(names, module_stems("armybuilder"))
    assert {app: names for app, names in found.items() if names} == {}


def test_every_cross_cutting_test_file_exists():
    assert sorted(n for n in CROSS_CUTTING if not (WEB_TESTS / n).is_file()) == []


# Parameters named for a model of the project: typed ``Any`` they hide which app's row
# a function reads (the catalog reads an army through ``catalog.selectors.PinnedArmy``).
MODEL_PARAMETERS = {
    "army", "revision", "army_list", "submission", "event", "entrant", "game",
}  # fmt: skip


def stand_ins(source: str) -> list[str]:
    """``SimpleNamespace`` used, and model-named parameters typed ``Any``, in ``source``."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "SimpleNamespace":
            found.append(f"SimpleNamespace at line {node.lineno}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            for arg in arguments:
                typed = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                if arg.arg in MODEL_PARAMETERS and typed in {"Any", "typing.Any"}:
                    found.append(f"{node.name}({arg.arg}: Any)")
    return found


def test_the_stand_in_scan_sees_a_fake_army_and_an_any_typed_model():
    planted = (
        "from types import SimpleNamespace\n"
        "def check(army: Any, note: Any) -> None:\n"
        "    frame = SimpleNamespace(list_pins={})\n"
    )
    assert stand_ins(planted) == ["check(army: Any)", "SimpleNamespace at line 3"]


def test_no_fake_object_or_any_typed_parameter_stands_in_for_a_model():
    found = {
        str(path.relative_to(ROOT)): stand_ins(path.read_text(encoding="utf-8"))
        for path in _project_modules()
        if path.parts[len(ROOT.parts)] == "armybuilder"
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


# The rules engine's check, by every name it goes by: the one module of the web layer
# that calls it is ``catalog.services`` (ARCHITECTURE.md: "the check every interface
# shares"); every other module checks an army through it.
ENGINE_CHECKS = {"check", "check_document", "check_state", "recheck_document", "recheck_unit"}
ENGINE_MODULES = {"rules", "rules.engine"}
CHECKING_MODULE = "armybuilder/catalog/services.py"


def engine_check_calls(source: str) -> list[str]:
    """Where ``source`` reaches the engine's check: ``rules.check_document(...)`` (or
    ``rules.engine.check``), or one of those names imported from ``rules``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in ENGINE_MODULES:
            found += [
                f"import of {alias.name} at line {node.lineno}"
                for alias in node.names
                if alias.name in ENGINE_CHECKS
            ]
        if isinstance(node, ast.ImportFrom) and node.module == "rules":
            found += [
                f"import of rules.engine at line {node.lineno}"
                for alias in node.names
                if alias.name == "engine"
            ]
        if isinstance(node, ast.Attribute) and node.attr in ENGINE_CHECKS:
            owner = ast.unparse(node.value)
            if owner in ENGINE_MODULES or owner == "engine":
                found.append(f"{owner}.{node.attr} at line {node.lineno}")
    return found


def test_the_engine_check_scan_sees_every_way_of_reaching_the_check():
    planted = (
        "import rules\n"
        "from rules import check_document, parse_document\n"
        "from rules.engine import recheck_document\n"
        "from rules import engine\n"
        "report = rules.check(rules.parse_document(raw, lookup))\n"
        "state = rules.engine.check_state(army)\n"
        "found = services.check_document(raw)\n"  # through the services: allowed
        "ruleset.check(army)\n"  # a rule set's own hook, not the engine
    )
    assert engine_check_calls(planted) == [
        "import of check_document at line 2",
        "import of recheck_document at line 3",
        "import of rules.engine at line 4",
        "rules.check at line 5",
        "rules.engine.check_state at line 6",
    ]


def test_only_the_catalog_services_call_the_engines_check():
    found = {
        str(path.relative_to(ROOT)): engine_check_calls(path.read_text(encoding="utf-8"))
        for path in _project_modules()
        if path.parts[len(ROOT.parts)] == "armybuilder"
    }
    assert engine_check_calls((ROOT / CHECKING_MODULE).read_text(encoding="utf-8"))
    assert {name: hits for name, hits in found.items() if hits and name != CHECKING_MODULE} == {}


# An entry or unit is named by its stable id, never by its place: an ``int`` in a URL
# names a row or a version (its primary key, a revision's number), and no URL, form or
# operation reads an index or a position.
ROW_KEYS = {"pk", "snapshot", "version", "number", "entrant", "submission", "pack", "game", "seat"}
URL_INT = re.compile(r"<int:(\w+)>")


def _is_position(name: str) -> bool:
    # (an event's "place" is where it is held, not a position)
    return name in {"index", "position", "idx"} or name.endswith(("_index", "_position"))


def positions_addressed(source: str) -> list[str]:
    """Where ``source`` addresses something by its place: an ``int`` in a URL that names
    no row or version, a form field or a key read from a request, a form or an
    operation named for an index or a position."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [
                f"<int:{name}> at line {node.lineno}"
                for name in URL_INT.findall(node.value)
                if name not in ROW_KEYS
            ]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            first = node.args[0] if node.args else None
            if (
                node.func.attr in {"get", "getlist", "pop", "__getitem__"}
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and _is_position(first.value)
            ):
                found.append(f"reads {first.value!r} at line {node.lineno}")
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
            and _is_position(node.slice.value)
            and isinstance(node.ctx, ast.Load)
        ):
            found.append(f"reads {node.slice.value!r} at line {node.lineno}")
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            field = ast.unparse(node.value.func)
            for target in node.targets:
                if (
                    isinstance(target, ast.Name)
                    and _is_position(target.id)
                    and field.startswith("forms.")
                ):
                    found.append(f"form field {target.id} at line {node.lineno}")
    return found


def test_the_position_scan_sees_a_url_a_form_field_and_an_operation_by_place():
    planted = (
        'path("armies/<int:pk>/units/<int:index>/", view)\n'
        'path("events/<str:code>/armies/<int:submission>/", view)\n'
        "class MoveForm(forms.Form):\n"
        "    position = forms.IntegerField(min_value=0)\n"
        'where = request.POST.get("index")\n'
        'unit = raw["unit_index"]\n'
        'target = raw.get("target", "army")\n'
    )
    assert sorted(positions_addressed(planted)) == [
        "<int:index> at line 1",
        "form field position at line 4",
        "reads 'index' at line 5",
        "reads 'unit_index' at line 6",
    ]


def test_no_url_form_or_operation_addresses_an_entry_or_a_unit_by_its_place():
    found = {
        str(path.relative_to(ROOT)): positions_addressed(path.read_text(encoding="utf-8"))
        for path in _project_modules()
        if path.parts[len(ROOT.parts)] == "armybuilder"
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


# Every refusal of an army's change is mapped once, by ``operations.outcome_of``, to an
# outcome: no other module makes a refused, conflict, gone or stale outcome of its own.
REFUSALS = {"refused", "conflict", "gone", "stale"}
MAPPING_MODULE = "armybuilder/armies/changes/operations.py"


def refusals_mapped(source: str) -> list[int]:
    """Lines where ``source`` makes an ``Outcome`` with a refusal's status."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("Outcome")):
            continue
        given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "status")]
        if any(isinstance(v, ast.Constant) and v.value in REFUSALS for v in given):
            found.append(node.lineno)
    return sorted(found)


def test_the_refusal_scan_sees_an_outcome_made_outside_the_mapping():
    planted = (
        "def view(request, army, operation):\n"
        "    try:\n"
        "        run(army, operation)\n"
        "    except ItemGone:\n"
        '        outcome = Outcome(operation.key, "gone", "deleted")\n'
        '    done = operations.Outcome(operation.key, status="stale")\n'
        '    fine = Outcome(operation.key, "applied")\n'
    )
    assert refusals_mapped(planted) == [5, 6]


def test_every_refusal_is_mapped_by_the_one_mapping():
    found = {
        str(path.relative_to(ROOT)): refusals_mapped(path.read_text(encoding="utf-8"))
        for path in (ROOT / "armybuilder" / "armies").rglob("*.py")
        if "migrations" not in path.parts
    }
    assert found[MAPPING_MODULE]  # the mapping itself is seen
    assert {name: lines for name, lines in found.items() if lines and name != MAPPING_MODULE} == {}
