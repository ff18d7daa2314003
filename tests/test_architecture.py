"""The rules engine stays plain Python: nothing under rules/ imports Django."""

import ast
from pathlib import Path

import rules

RULES_DIR = Path(rules.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_rules_engine_has_no_django_import():
    offenders = {
        str(path.relative_to(RULES_DIR)): sorted(
            m for m in imported_modules(path) if m.split(".")[0] == "django"
        )
        for path in RULES_DIR.rglob("*.py")
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
