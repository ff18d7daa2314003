"""Form controls built from a rule set's vocabulary (their values are read back into JSON
by ``armies.field_values``).

The builder never hard-codes a rule set's fields: every select, checkbox and number
input comes from ``rules.fields.Field`` (kind, choices, minimum/maximum, nullable), so a
unit can only be offered values its rule set has.

Naming: every control is ``f.<field>`` (``f.<field>.<sub>`` inside an object field), so
no rule-set field can clash with the form's own ``version``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from armybuilder.armies.field_values import PREFIX, as_text
from rules.fields import Field


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


def control_id(prefix: str, field: str) -> str:
    """The HTML id of a field's control (as ``control_for`` makes it)."""
    return f"{prefix}-{field}".replace("_", "-").replace(".", "-")
