"""One ``Outcome`` class and one model of applied keys in the web layer: the operation
kernel's. The scan is shown to see a class planted in a small source."""

from __future__ import annotations

import ast

from tests.test_architecture import MODULES


def outcome_and_ledger_classes(source: str) -> list[str]:
    """The classes ``source`` defines that are an operation's outcome or a ledger of
    applied keys (by name: ``...Outcome``, and ``Applied...`` among models)."""
    return sorted(
        node.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef)
        and (node.name.endswith("Outcome") or (node.name.startswith("Applied") and _model(node)))
    )


def _model(node: ast.ClassDef) -> bool:
    return any(ast.unparse(base).endswith("Model") for base in node.bases)


def test_the_scan_sees_an_outcome_class_and_a_ledger_model():
    planted = (
        "class Outcome:\n    pass\n\nclass AppliedListChange(models.Model):\n    pass\n\n"
        "class Applied:\n    pass\n"  # an applied operation's record, no ledger
    )
    assert outcome_and_ledger_classes(planted) == ["AppliedListChange", "Outcome"]


def test_the_web_layer_has_one_outcome_class_and_one_ledger_of_applied_keys():
    found = {
        name: classes
        for name, path in MODULES.items()
        if name.startswith("armybuilder.") and ".migrations." not in name
        for classes in [outcome_and_ledger_classes(path.read_text(encoding="utf-8"))]
        if classes
    }
    assert found == {
        "armybuilder.operations.kernel": ["Outcome"],
        "armybuilder.operations.models": ["AppliedKey"],
    }
