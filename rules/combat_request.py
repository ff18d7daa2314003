"""One combat as JSON, read strictly: what ``muster hits`` and ``POST /api/v1/hits`` take.

::

    {"ruleset": "feudal-2017", "phase": "melee",
     "attacker": {"type": "knights"}, "target": {"type": "serjeants"},
     "modifiers": ["flank"], "die": 5,
     "options": {"dice": "d6"}, "target_hits": 3}

``attacker`` and ``target`` are units in the rule set's own vocabulary (as in an army
document; ``name`` may be left out), ``options`` the game's option values (defaults
filled), ``die`` one die or ``dice`` several, ``numbers`` what else the rule set's sums
read (``CombatRules.dice`` and the package say which). A refusal names the field and its
allowed values (``MalformedDocument``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import RuleSet
from rules.combat import Combat, CombatRules, Result
from rules.errors import MalformedDocument
from rules.fields import describe, parse_object
from rules.registry import all_rulesets, get_ruleset

KEYS = ("ruleset", "phase", "attacker", "target", "modifiers", "die", "dice", "options",
        "target_hits", "attacker_hits", "numbers", "target_list")  # fmt: skip
MAX_NUMBER = 10_000


def combat_rulesets() -> tuple[RuleSet, ...]:
    """The rule sets whose combat Muster works out."""
    return tuple(r for r in all_rulesets() if r.combat() is not None)


def parse_combat(raw: Any) -> tuple[RuleSet, CombatRules, Combat]:
    """The rule set, its combat rules and the combat of a request, or MalformedDocument."""
    if not isinstance(raw, Mapping):
        raise MalformedDocument("", f"a combat must be a JSON object, not {describe(raw)}")
    for key in raw:
        if key not in KEYS:
            raise MalformedDocument(
                str(key), f"{key}: unknown key; allowed keys: {', '.join(KEYS)}"
            )
    slugs = [r.slug for r in combat_rulesets()]
    slug = raw.get("ruleset")
    if slug not in slugs:
        raise MalformedDocument(
            "ruleset", f"ruleset: {describe(slug)} is not a rule set whose combat Muster "
                       f"works out; allowed: {', '.join(slugs)}")  # fmt: skip
    ruleset = get_ruleset(slug)
    rules_ = ruleset.combat()
    options = parse_object(ruleset.options, raw.get("options", {}), "options")
    phase = raw.get("phase")
    if not isinstance(phase, str):
        allowed = ", ".join(p.key for p in rules_.phases(options))
        raise MalformedDocument("phase", f"phase: is required, one of: {allowed}")
    attacker = _unit(ruleset, options, raw.get("attacker"), "attacker")
    target = _unit(ruleset, options, raw.get("target"), "target")
    modifiers = raw.get("modifiers", [])
    if not isinstance(modifiers, list) or not all(isinstance(m, str) for m in modifiers):
        raise MalformedDocument("modifiers", "modifiers: must be a list of modifier keys")
    target_list = raw.get("target_list")
    if target_list is not None:
        problems = ruleset.validate_army_list(target_list)
        if problems:
            raise MalformedDocument("target_list", f"target_list: {problems[0]}")
    numbers = {
        "target_hits": _count(raw.get("target_hits", 0), "target_hits"),
        "attacker_hits": _count(raw.get("attacker_hits", 0), "attacker_hits"),
    }
    given = raw.get("numbers", {})
    if not isinstance(given, Mapping):
        raise MalformedDocument("numbers", "numbers: must be an object of whole numbers")
    for key, value in given.items():
        numbers[str(key)] = _count(value, f"numbers.{key}")
    combat = Combat(attacker, target, phase, frozenset(modifiers), _dice(raw), options,
                    numbers, target_list)  # fmt: skip
    return ruleset, rules_, combat


def work_out(raw: Any) -> tuple[RuleSet, Result]:
    """The combat of a request worked out: the one call the CLI and the API share."""
    ruleset, rules_, combat = parse_combat(raw)
    return ruleset, rules_.work_out_hits(combat)


def answer(ruleset: RuleSet, result: Result) -> dict[str, Any]:
    """The JSON answer: the result and the rule set it was worked out under."""
    return {"ruleset": ruleset.slug, **result.to_json()}


def _unit(ruleset: RuleSet, options: Mapping[str, Any], raw: Any, path: str) -> dict[str, Any]:
    if raw is None:
        raise MalformedDocument(path, f"{path}: is required, a unit of {ruleset.title}")
    if isinstance(raw, Mapping) and "name" not in raw:
        raw = {"name": path.capitalize(), **raw}
    parsed = parse_object(ruleset.unit_fields, raw, path, what="a unit (an object)")
    return ruleset.normalise_unit(parsed, options, path)


def _count(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
        raise MalformedDocument(
            path, f"{path}: must be a whole number from 0 to {MAX_NUMBER}, not {describe(value)}"
        )
    return value


def _dice(raw: Mapping[str, Any]) -> tuple[int, ...]:
    if "die" in raw and "dice" in raw:
        raise MalformedDocument("dice", "dice: give die (one) or dice (a list), not both")
    if "die" in raw:
        return (_die(raw["die"], "die"),)
    dice = raw.get("dice")
    if not isinstance(dice, list) or not dice or len(dice) > 200:
        raise MalformedDocument(
            "die", "die: is required, the die rolled (or dice: the list of dice rolled)"
        )
    return tuple(_die(d, f"dice[{i}]") for i, d in enumerate(dice))


def _die(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedDocument(path, f"{path}: must be a whole number, not {describe(value)}")
    return value
