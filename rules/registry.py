"""Slug -> rule set: the packages of ``rules.rulesets``, found by discovery, plus any rule set
registered from outside (a plug-in, or a test's toy rule set).

This is the one door between the engine and the rule sets: nothing else at the ``rules``
root imports a rule-set package, and each package knows only the root.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from rules import rulesets as _package
from rules.base import RuleSet

_registered: dict[str, RuleSet] = {}


def rulesets_of(module: ModuleType) -> list[RuleSet]:
    """The rule sets a package offers: its ``RULESETS`` (a family of several) or ``RULESET``."""
    found = getattr(module, "RULESETS", None)
    if found is None:
        found = (getattr(module, "RULESET", None),)
    return [r for r in found if isinstance(r, RuleSet)]


@cache
def _registry() -> dict[str, RuleSet]:
    found: list[RuleSet] = []
    for info in pkgutil.iter_modules(_package.__path__):
        found += rulesets_of(importlib.import_module(f"{_package.__name__}.{info.name}"))
    found += _registered.values()
    found.sort(key=lambda r: (r.order, r.slug))
    return {r.slug: r for r in found}


def register(ruleset: RuleSet) -> RuleSet:
    """Add a rule set that lives outside ``rules.rulesets``; returns it.

    ValueError when its slug is taken by another rule set.
    """
    taken = _registry().get(ruleset.slug)
    if taken is not None and taken is not ruleset:
        raise ValueError(f"a rule set {ruleset.slug!r} is already registered")
    _registered[ruleset.slug] = ruleset
    _registry.cache_clear()
    return ruleset


def register_package(name: str) -> list[RuleSet]:
    """Import the package ``name`` (a dotted path) and register the rule sets it offers."""
    return [register(r) for r in rulesets_of(importlib.import_module(name))]


def unregister(slug: str) -> None:
    """Forget a rule set added by :func:`register` (a discovered package stays)."""
    _registered.pop(slug, None)
    _registry.cache_clear()


def all_rulesets() -> list[RuleSet]:
    """Every rule set, in display order."""
    return list(_registry().values())


def get_ruleset(slug: str) -> RuleSet:
    """The rule set for ``slug``; KeyError when there is none."""
    return _registry()[slug]


def slugs() -> list[str]:
    return list(_registry())
