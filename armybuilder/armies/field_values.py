"""A field's value as posted, read back into the JSON its rule set's field expects.

One wire format for a field's value, whether a form posts it without JavaScript or the
page's operation carries it: text under the control's name (``f.<field>``, or
``f.<field>.<sub>`` inside an object field), typed here by the field's kind and then handed
to the engine's strict parser, which stays the judge of what is allowed. A field missing
from the post keeps its current value; booleans, multi-choices and optional objects post a
hidden marker first, so "unchecked" and "not in this form" differ.

And the other way, a stored value in words (``shown``): what a conflict's message and
History's notes give for a value no field's labels name.

It sits below the builder (which draws the controls, ``builder.controls``) and the changes
(whose settings command reads an army's options with it), so neither reaches into the
other for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import QueryDict

from rules.errors import MalformedDocument
from rules.fields import Field

PREFIX = "f."
TRUE_VALUES = ("1", "on", "true")
FALSE_VALUES = ("0", "", "false", "off")


def as_text(value: Any) -> str:
    """A JSON value as a form value: null is empty, booleans lower-case."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def shown(value: Any) -> str:
    """A value as a player reads it (a conflict's message, History's notes)."""
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {as_text(v)}" for k, v in value.items())
    return as_text(value)


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
