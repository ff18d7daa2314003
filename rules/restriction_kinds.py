"""The kinds of event restriction, one class each: the keys it takes, how it is parsed,
put in words and checked. A new kind is one class here, added to ``KIND_CLASSES``.

``rules.restrictions`` reads an event's restrictions through this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.base import Army, Issue, RuleSet, error
from rules.errors import MalformedDocument
from rules.fields import Field, describe, parse_value

MAX_COUNT = 500  # the most units an army document holds
PERSONALITY = "personality"  # the unit field naming a personality, where a rule set has one


@dataclass(frozen=True)
class Restriction:
    """One restriction: ``kind`` and the keys that kind takes."""

    kind: str
    count: int | None = None
    option: str = ""
    field: str = ""
    value: Any = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for key in KIND_CLASSES[self.kind].keys:
            data[key] = getattr(self, key)
        return data


def units_words(count: int) -> str:
    return "1 unit" if count == 1 else f"{count} units"


def value_words(field_: Field, value: Any) -> str:
    if field_.kind == "boolean":
        return "on" if value else "off"
    return f"“{field_.label_for(value)}”"


def choice_unit_field(ruleset: RuleSet, name: str, path: str) -> Field:
    for candidate in ruleset.unit_fields:
        if candidate.name == name and candidate.kind in ("choice", "boolean"):
            return candidate
    allowed = [f.name for f in ruleset.unit_fields if f.kind in ("choice", "boolean")]
    raise MalformedDocument(
        path,
        f"{path}: {describe(name)} is not a unit field of {ruleset.title} ({', '.join(allowed)})",
    )


def option_field(ruleset: RuleSet, name: str, path: str) -> Field:
    for candidate in ruleset.options:
        if candidate.name == name:
            return candidate
    allowed = ", ".join(o.name for o in ruleset.options) or "none"
    raise MalformedDocument(
        path, f"{path}: {describe(name)} is not an option of {ruleset.title} ({allowed})"
    )


def parse_count(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
        raise MalformedDocument(
            path, f"{path}: a whole number from 1 to {MAX_COUNT}, not {describe(value)}"
        )
    return value


@dataclass(frozen=True)
class FormField:
    """How the event form asks for one kind of restriction, as data (the web layer makes
    the form field): ``value`` is "count" (a whole number from 1 to ``MAX_COUNT``), "flag"
    (on or off) or "choice" (one of ``choices``: the field or option named, its value and
    the words for it); a "choice" with ``count`` asks for a number of units too."""

    name: str
    label: str
    value: str
    choices: tuple[tuple[str, Any, str], ...] = ()
    count: str = ""  # the name of the count asked with a choice, "" when none is
    count_label: str = ""


def _choices(fields: Any) -> tuple[tuple[str, Any, str], ...]:
    """Every value of every choice or yes/no field: (field name, value, words)."""
    found: list[tuple[str, Any, str]] = []
    for f in fields:
        if f.kind == "boolean":
            found += [(f.name, v, f"{f.label}: {'on' if v else 'off'}") for v in (True, False)]
        elif f.kind == "choice":
            found += [(f.name, v, f"{f.label}: {f.label_for(v)}") for v in f.values]
    return tuple(found)


class RestrictionKind:
    """One kind of restriction. ``parse`` gets a mapping with exactly ``keys`` (and
    ``kind``), already checked; ``check`` gives the issues, each citing ``rule``."""

    name: ClassVar[str]
    title: ClassVar[str]  # what the kind is, for a list of kinds
    keys: ClassVar[tuple[str, ...]]  # the keys it takes besides ``kind``
    missing: ClassVar[str] = "nothing to choose for it"  # what a rule set without it lacks

    def parse(self, raw: Mapping[str, Any], ruleset: RuleSet, path: str) -> Restriction:
        raise NotImplementedError

    def describe(self, restriction: Restriction, ruleset: RuleSet) -> str:
        raise NotImplementedError

    def check(
        self, army: Army, restriction: Restriction, ruleset: RuleSet, rule: str
    ) -> list[Issue]:
        raise NotImplementedError

    def form_field(self, ruleset: RuleSet) -> FormField | None:
        """The event form's field for this kind in ``ruleset`` (None: nothing to ask, e.g.
        no personalities in a rule set without any)."""
        raise NotImplementedError


class MaxUnits(RestrictionKind):
    name, title, keys = "max_units", "At most a number of units", ("count",)

    def parse(self, raw: Mapping[str, Any], ruleset: RuleSet, path: str) -> Restriction:
        return Restriction(self.name, count=parse_count(raw["count"], f"{path}.count"))

    def describe(self, restriction: Restriction, ruleset: RuleSet) -> str:
        return f"At most {units_words(restriction.count or 0)}."

    def check(
        self, army: Army, restriction: Restriction, ruleset: RuleSet, rule: str
    ) -> list[Issue]:
        if len(army.units) <= (restriction.count or 0):
            return []
        message = (
            f"The army has {units_words(len(army.units))}; the event allows at most "
            f"{restriction.count}."
        )
        return [error("event-max-units", message, rule)]

    def form_field(self, ruleset: RuleSet) -> FormField | None:
        return FormField(self.name, "At most this many units", "count")


class NoPersonalities(RestrictionKind):
    name, title, keys = "no_personalities", "No personalities", ()

    def parse(self, raw: Mapping[str, Any], ruleset: RuleSet, path: str) -> Restriction:
        choice_unit_field(ruleset, PERSONALITY, f"{path}.kind")  # the rule set has them
        return Restriction(self.name)

    def describe(self, restriction: Restriction, ruleset: RuleSet) -> str:
        return "No unit may have a personality."

    def check(
        self, army: Army, restriction: Restriction, ruleset: RuleSet, rule: str
    ) -> list[Issue]:
        return [
            error(
                "event-personality",
                f"{unit.get('name') or f'Unit {index + 1}'} has a personality; "
                "the event allows none.",
                rule,
                unit=index,
            )
            for index, unit in enumerate(army.units)
            if unit.get(PERSONALITY)
        ]

    missing = "no personalities"

    def form_field(self, ruleset: RuleSet) -> FormField | None:
        if not any(f.name == PERSONALITY for f in ruleset.unit_fields):
            return None
        return FormField(self.name, "No personalities", "flag")


class RequiredOption(RestrictionKind):
    name, title, keys = "required_option", "An option must be chosen", ("option", "value")
    verb, code, wanted = "must be", "event-option-required", True

    def parse(self, raw: Mapping[str, Any], ruleset: RuleSet, path: str) -> Restriction:
        option = option_field(ruleset, raw["option"], f"{path}.option")
        value = parse_value(option, raw["value"], f"{path}.value")
        return Restriction(self.name, option=option.name, value=value)

    def describe(self, restriction: Restriction, ruleset: RuleSet) -> str:
        option = next(o for o in ruleset.options if o.name == restriction.option)
        value = value_words(option, restriction.value)
        return f"The option “{option.label}” {self.verb} {value}."

    def check(
        self, army: Army, restriction: Restriction, ruleset: RuleSet, rule: str
    ) -> list[Issue]:
        if (army.options.get(restriction.option) == restriction.value) == self.wanted:
            return []
        return [error(self.code, self.describe(restriction, ruleset), rule)]

    label = "An option every army must have"

    def form_field(self, ruleset: RuleSet) -> FormField | None:
        choices = _choices(ruleset.options)
        return FormField(self.name, self.label, "choice", choices) if choices else None


class ForbiddenOption(RequiredOption):
    name, title = "forbidden_option", "An option must not be chosen"
    verb, code, wanted = "must not be", "event-option-forbidden", False
    label = "An option no army may have"


class MinUnitType(RestrictionKind):
    name, title = "min_unit_type", "At least a number of units of one kind"
    keys = ("field", "value", "count")

    def parse(self, raw: Mapping[str, Any], ruleset: RuleSet, path: str) -> Restriction:
        unit_field = choice_unit_field(ruleset, raw["field"], f"{path}.field")
        value = parse_value(unit_field, raw["value"], f"{path}.value")
        count = parse_count(raw["count"], f"{path}.count")
        return Restriction(self.name, field=unit_field.name, value=value, count=count)

    def describe(self, restriction: Restriction, ruleset: RuleSet) -> str:
        unit_field = next(f for f in ruleset.unit_fields if f.name == restriction.field)
        value = value_words(unit_field, restriction.value)
        return f"At least {units_words(restriction.count or 0)} with {unit_field.label} {value}."

    def check(
        self, army: Army, restriction: Restriction, ruleset: RuleSet, rule: str
    ) -> list[Issue]:
        have = sum(1 for unit in army.units if unit.get(restriction.field) == restriction.value)
        if have >= (restriction.count or 0):
            return []
        unit_field = next(f for f in ruleset.unit_fields if f.name == restriction.field)
        message = (
            f"The army has {have} with {unit_field.label} "
            f"{value_words(unit_field, restriction.value)}; the event requires "
            f"at least {restriction.count}."
        )
        return [error("event-min-units", message, rule)]

    def form_field(self, ruleset: RuleSet) -> FormField | None:
        fields = [f for f in ruleset.unit_fields if f.name != PERSONALITY]
        choices = tuple(c for c in _choices(fields) if c[1] is not None)
        if not choices:
            return None
        return FormField(
            self.name,
            "Armies need units of this kind",
            "choice",
            choices,
            "min_unit_count",
            "At least this many of that kind",
        )


# every kind an event may use, by the name its data gives
KIND_CLASSES: dict[str, RestrictionKind] = {
    k.name: k
    for k in (MaxUnits(), NoPersonalities(), RequiredOption(), ForbiddenOption(), MinUnitType())
}
