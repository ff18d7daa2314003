"""Slug -> rule set, discovered from the modules of ``rules.rulesets``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from rules import rulesets as _package
from rules.base import RuleSet


@cache
def _registry() -> dict[str, RuleSet]:
    found: list[RuleSet] = []
    for info in pkgutil.iter_modules(_package.__path__):
        module = importlib.import_module(f"{_package.__name__}.{info.name}")
        ruleset = getattr(module, "RULESET", None)
        if isinstance(ruleset, RuleSet):
            found.append(ruleset)
    found.sort(key=lambda r: (r.order, r.slug))
    return {r.slug: r for r in found}


def all_rulesets() -> list[RuleSet]:
    """Every rule set, in display order."""
    return list(_registry().values())


def get_ruleset(slug: str) -> RuleSet:
    """The rule set for ``slug``; KeyError when there is none."""
    return _registry()[slug]


def slugs() -> list[str]:
    return list(_registry())
