"""Form controls built from a rule set's vocabulary, and form values read back into JSON.

The builder never hard-codes a rule set's fields: every select, checkbox and number
input comes from ``rules.fields.Field`` (kind, choices, minimum/maximum, nullable), so a
unit can only be offered values its rule set has. Posted values arrive as strings; they
are turned into the JSON types the field expects here and then handed to the engine's
strict parser, which stays the judge of what is allowed.

Naming: every control is ``f.<field>`` (``f.<field>.<sub>`` inside an object field), so
no rule-set field can clash with the form's own ``version``. A field missing from the
post keeps its current value; booleans, multi-choices and optional objects post a hidden
marker first, so "unchecked" and "not in this form" differ.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import QueryDict

from rules.errors import MalformedDocument
from rules.fields import Field

PREFIX = "f."
TRUE_VALUES = ("1", "on", "true")
FALSE_VALUES = ("0", "", "false", "off")


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool
    disabled: bool = False  # not allowed for this unit (the control's ``reason`` says why)


@dataclass(frozen=True)
class Control:
    """One control of a form: what the template needs, nothing more."""

    widget: str  # text, textarea, number, checkbox, select, multi, object
    id: str
    name: str
    label: str
    value: str = ""
    checked: bool = False
    options: tuple[Option, ...] = ()
    minimum: str = ""
    maximum: str = ""
    step: str = ""
    maxlength: int | None = None
    required: bool = False
    nullable: bool = False
    help: str = ""
    datalist: str = ""
    children: tuple[Control, ...] = field(default_factory=tuple)
    field: str = ""  # the field path a change names (top-level controls only)
    from_json: str = ""  # the value shown, as JSON: what a change is made from
    reason: str = ""  # why some options are not offered (the army list's entry, a rule)
    disabled: bool = False  # a checkbox the unit may not tick (``reason`` says why)

    @property
    def debounced(self) -> bool:
        """Typed controls send after a pause; the others send on change."""
        return self.widget in ("text", "textarea", "number")


def as_text(value: Any) -> str:
    """A JSON value as a form value: null is empty, booleans lower-case."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _number_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def controls_for(
    fields: tuple[Field, ...],
    values: Mapping[str, Any],
    id_prefix: str,
    *,
    name_prefix: str = PREFIX,
    datalists: Mapping[str, str] | None = None,
) -> list[Control]:
    """The controls of ``fields`` showing ``values`` (a parsed unit, general or options)."""
    controls = []
    for f in fields:
        value = values.get(f.name, f.default)
        control = control_for(f, value, id_prefix, name_prefix, datalists or {})
        controls.append(replace(control, field=f.name, from_json=json.dumps(value)))
    return controls


def restrict(control: Control, allowed: tuple[Any, ...], reason: str) -> Control:
    """Disable the options a unit may not take (keeping the one it has, so nothing is
    changed behind the player's back), with the reason beside the control."""
    texts = {as_text(v) for v in allowed}
    options = tuple(
        replace(o, disabled=o.value not in texts and not o.selected and o.value != "")
        for o in control.options
    )
    return replace(control, options=options, reason=reason)


def control_for(
    f: Field, value: Any, id_prefix: str, name_prefix: str, datalists: Mapping[str, str]
) -> Control:
    ident = f"{id_prefix}-{f.name}".replace("_", "-").replace(".", "-")
    name = f"{name_prefix}{f.name}"
    common: dict[str, Any] = {"id": ident, "name": name, "label": f.label, "help": f.help}
    if f.kind in ("string", "text"):
        return Control(
            "textarea" if f.kind == "text" else "text",
            value=as_text(value),
            maxlength=int(f.maximum) if f.maximum is not None else None,
            required=f.required,
            datalist=datalists.get(f.name, ""),
            **common,
        )
    if f.kind in ("integer", "number"):
        return Control(
            "number",
            value=_number_text(value),
            minimum=_number_text(f.minimum),
            maximum=_number_text(f.maximum),
            step="1" if f.kind == "integer" else "any",
            required=not f.nullable,
            **common,
        )
    if f.kind == "boolean":
        return Control("checkbox", checked=bool(value), **common)
    if f.kind == "choice":
        options = [
            Option(as_text(c.value), c.label, c.value == value and type(c.value) is type(value))
            for c in f.choices
        ]
        if f.nullable and None not in f.values:
            options.insert(0, Option("", "— none —", value is None))
        return Control("select", options=tuple(options), **common)
    if f.kind == "multi":
        chosen = value or []
        options = [Option(as_text(c.value), c.label, c.value in chosen) for c in f.choices]
        return Control("multi", options=tuple(options), **common)
    if f.kind == "object":
        inner = value if isinstance(value, Mapping) else {}
        children = tuple(
            control_for(sub, inner.get(sub.name, sub.default), ident, f"{name}.", datalists)
            for sub in f.fields
        )
        return Control(
            "object",
            checked=value is not None,
            nullable=f.nullable,
            children=children,
            **common,
        )
    raise AssertionError(f"unknown field kind {f.kind}")  # pragma: no cover


# -- reading a post back ----------------------------------------------------------------


def values_from_post(
    fields: tuple[Field, ...],
    data: QueryDict | Mapping[str, Any],
    current: Mapping[str, Any],
    path: str,
    *,
    name_prefix: str = PREFIX,
) -> dict[str, Any]:
    """``current`` with every posted field replaced by its typed value.

    Raises MalformedDocument (naming ``path``) for a value that cannot be read as its
    kind at all, e.g. letters in a number box; range and choice checks are the parser's.
    """
    result = dict(current)
    for f in fields:
        name = f"{name_prefix}{f.name}"
        f_path = f"{path}.{f.name}" if path else f.name
        present, value = _read(f, data, name, current.get(f.name, f.default), f_path)
        if present:
            result[f.name] = value
    return result


def _getlist(data: QueryDict | Mapping[str, Any], name: str) -> list[str] | None:
    if isinstance(data, QueryDict):
        return data.getlist(name) if name in data else None
    if name not in data:
        return None
    value = data[name]
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value)]


def _read(
    f: Field, data: QueryDict | Mapping[str, Any], name: str, current: Any, path: str
) -> tuple[bool, Any]:
    posted = _getlist(data, name)
    if f.kind == "object":
        return _read_object(f, data, name, posted, current, path)
    if posted is None:
        return False, None
    if f.kind == "multi":
        return True, [v for v in posted if v != ""]
    text = posted[-1]
    if f.kind == "boolean":
        lowered = text.strip().lower()
        if lowered in TRUE_VALUES:
            return True, True
        if lowered in FALSE_VALUES:
            return True, False
        raise MalformedDocument(path, f"{path}: tick or untick {f.label}, not {text!r}")
    if f.kind in ("string", "text"):
        if text.strip() == "" and f.nullable:
            return True, None
        return True, text
    if f.kind in ("integer", "number"):
        return True, _read_number(f, text, path)
    if f.kind == "choice":
        if text == "" and (f.nullable or None in f.values):
            return True, None
        for allowed in f.values:
            if as_text(allowed) == text:
                return True, allowed
        return True, text  # the parser names the allowed values
    raise AssertionError(f"unknown field kind {f.kind}")  # pragma: no cover


def _read_number(f: Field, text: str, path: str) -> int | float | None:
    text = text.strip()
    if text == "":
        if f.nullable:
            return None
        raise MalformedDocument(path, f"{path}: enter a number for {f.label}")
    try:
        exact = Decimal(text)
    except InvalidOperation:
        exact = None
    if exact is None or not exact.is_finite():
        what = "a whole number" if f.kind == "integer" else "a number"
        raise MalformedDocument(path, f"{path}: {text!r} is not {what}")
    if exact == exact.to_integral_value():
        return int(exact)
    if f.kind == "integer":
        raise MalformedDocument(path, f"{path}: {text!r} is not a whole number")
    return float(text)


def _read_object(
    f: Field,
    data: QueryDict | Mapping[str, Any],
    name: str,
    posted: list[str] | None,
    current: Any,
    path: str,
) -> tuple[bool, Any]:
    sub_posted = any(_getlist(data, f"{name}.{sub.name}") is not None for sub in f.fields)
    if posted is None and not sub_posted:
        return False, None
    on = True
    if posted is not None:
        on = posted[-1].strip().lower() in TRUE_VALUES
    elif current is None and f.nullable:
        on = False
    if not on and f.nullable:
        return True, None
    base = current if isinstance(current, Mapping) else {}
    base = {sub.name: base.get(sub.name, sub.default) for sub in f.fields}
    return True, values_from_post(f.fields, data, base, path, name_prefix=f"{name}.")


def control_id(prefix: str, field: str) -> str:
    """The HTML id of a field's control (as ``control_for`` makes it)."""
    return f"{prefix}-{field}".replace("_", "-").replace(".", "-")
