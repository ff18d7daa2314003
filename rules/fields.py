"""Vocabulary as data: a field describes one key of a unit, a general or the options.

The same description drives the strict parser (``parse_value``), the JSON vocabulary of
the API and the controls of the browser builder, so a unit can never hold a value its
rule set lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rules.errors import MalformedDocument
from rules.text import check_text, safe_text

Kind = Literal["string", "text", "integer", "number", "boolean", "choice", "multi", "object"]


@dataclass(frozen=True)
class Choice:
    """One allowed value of a choice field, with the label a player reads."""

    value: Any
    label: str
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"value": self.value, "label": self.label}
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Field:
    """One key of a unit, general, option set or nested object.

    ``kind`` picks the parser: ``string`` (one line), ``text`` (newlines allowed),
    ``integer``, ``number`` (exact decimal, kept as given), ``boolean``, ``choice``
    (one of ``choices``, or null when ``nullable``), ``multi`` (a list of distinct
    choices) and ``object`` (nested ``fields``, or null when ``nullable``).
    """

    name: str
    label: str
    kind: Kind
    default: Any = None
    choices: tuple[Choice, ...] = ()
    nullable: bool = False
    minimum: int | float | None = None
    maximum: int | float | None = None
    required: bool = False
    fields: tuple[Field, ...] = ()
    help: str = ""

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(c.value for c in self.choices)

    def label_for(self, value: Any) -> str:
        for choice in self.choices:
            if choice.value == value:
                return choice.label
        return "none" if value is None else str(value)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "label": self.label,
            "type": self.kind,
            "default": self.default,
            "required": self.required,
        }
        if self.kind in ("choice", "multi"):
            data["choices"] = [c.to_json() for c in self.choices]
        if self.kind in ("choice", "object", "string"):
            data["nullable"] = self.nullable
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.fields:
            data["fields"] = [f.to_json() for f in self.fields]
        if self.help:
            data["help"] = self.help
        return data


def describe(value: Any) -> str:
    """A short rendering of a bad value for an error message."""
    text = repr(value) if isinstance(value, str) else _json_repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_repr(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _choice_list(field: Field) -> str:
    values = [_json_repr(v) if not isinstance(v, str) else v for v in field.values]
    if field.nullable:
        values.append("null")
    return ", ".join(values)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def parse_value(field: Field, value: Any, path: str) -> Any:
    """Check one value against its field and return it normalised (strings stripped)."""
    kind = field.kind
    if value is None:
        if field.nullable or (kind in ("choice", "object") and None in field.values):
            return None
        raise MalformedDocument(path, f"{path}: must not be null")
    if kind in ("string", "text"):
        if not isinstance(value, str):
            raise MalformedDocument(path, f"{path}: must be a string, not {describe(value)}")
        check_text(value, path, multiline=kind == "text")  # rules/text.py: the text rule
        value = value.strip()
        low = int(field.minimum) if field.minimum is not None else 0
        high = int(field.maximum) if field.maximum is not None else None
        if len(value) < low:
            if low == 1:
                raise MalformedDocument(path, f"{path}: must not be empty")
            raise MalformedDocument(path, f"{path}: must be at least {low} characters")
        if high is not None and len(value) > high:
            raise MalformedDocument(path, f"{path}: must be at most {high} characters")
        return value
    if kind == "boolean":
        if not isinstance(value, bool):
            raise MalformedDocument(path, f"{path}: must be true or false, not {describe(value)}")
        return value
    if kind in ("integer", "number"):
        if kind == "integer" and not (isinstance(value, int) and not isinstance(value, bool)):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise MalformedDocument(
                    path, f"{path}: must be a whole number, not {describe(value)}"
                )
        if kind == "number" and not _is_number(value):
            raise MalformedDocument(path, f"{path}: must be a number, not {describe(value)}")
        if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            raise MalformedDocument(path, f"{path}: must be a finite number")
        exact = exact_number(value)
        if field.minimum is not None and exact < exact_number(field.minimum):
            raise MalformedDocument(
                path, f"{path}: {describe(value)} is below the minimum {field.minimum}"
            )
        if field.maximum is not None and exact > exact_number(field.maximum):
            raise MalformedDocument(
                path, f"{path}: {describe(value)} is above the maximum {field.maximum}"
            )
        return value
    if kind == "choice":
        for allowed in field.values:
            if type(allowed) is type(value) and allowed == value:
                return allowed
        raise MalformedDocument(
            path, f"{path}: {describe(value)} is not one of {_choice_list(field)}"
        )
    if kind == "multi":
        if not isinstance(value, list):
            raise MalformedDocument(path, f"{path}: must be a list, not {describe(value)}")
        seen: list[Any] = []
        for i, item in enumerate(value):
            item_path = f"{path}[{i}]"
            if not isinstance(item, str) or item not in field.values:
                raise MalformedDocument(
                    item_path, f"{item_path}: {describe(item)} is not one of {_choice_list(field)}"
                )
            if item in seen:
                raise MalformedDocument(item_path, f"{item_path}: {item!r} is listed twice")
            seen.append(item)
        return seen
    if kind == "object":
        return parse_object(field.fields, value, path)
    raise AssertionError(f"unknown field kind {kind}")  # pragma: no cover


def parse_object(
    fields: tuple[Field, ...], value: Any, path: str, *, what: str = "an object"
) -> dict[str, Any]:
    """Parse a JSON object strictly: unknown keys refused, defaults filled."""
    if not isinstance(value, Mapping):
        raise MalformedDocument(path, f"{path}: must be {what}, not {describe(value)}")
    known = {f.name: f for f in fields}
    for key in value:
        if key not in known:
            shown = safe_text(str(key))
            key_path = f"{path}.{shown}" if path else shown
            allowed = ", ".join(known) or "no keys"
            raise MalformedDocument(
                key_path, f"{key_path}: unknown key {shown!r}; allowed keys: {allowed}"
            )
    result: dict[str, Any] = {}
    for f in fields:
        f_path = f"{path}.{f.name}" if path else f.name
        if f.name in value:
            result[f.name] = parse_value(f, value[f.name], f_path)
        elif f.required:
            raise MalformedDocument(f_path, f"{f_path}: is required")
        else:
            result[f.name] = _copy_default(f.default)
    return result


def _copy_default(default: Any) -> Any:
    if isinstance(default, list):
        return list(default)
    if isinstance(default, dict):
        return dict(default)
    return default


def exact_number(value: int | float | str | Fraction) -> Fraction:
    """An exact fraction for a JSON number: 4.72 is 472/100, not its binary float."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(str(value))


def name_field(label: str = "Name") -> Field:
    return Field("name", label, "string", required=True, minimum=1, maximum=120)


def choice_field(
    name: str,
    label: str,
    choices: list[tuple[Any, str]] | tuple[tuple[Any, str], ...],
    *,
    nullable: bool = False,
    default: Any = ...,
    help: str = "",
) -> Field:
    """A choice field whose default is its first value (or null when nullable)."""
    built = tuple(Choice(v, lbl) for v, lbl in choices)
    if default is ...:
        default = None if nullable else built[0].value
    return Field(
        name, label, "choice", default=default, choices=built, nullable=nullable, help=help
    )


def bool_field(name: str, label: str, *, default: bool = False, help: str = "") -> Field:
    return Field(name, label, "boolean", default=default, help=help)
