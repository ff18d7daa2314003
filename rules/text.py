"""The one text rule for every string that enters Muster.

A string is accepted when it

- is valid Unicode that encodes as UTF-8 (no lone UTF-16 surrogates, which JSON's
  ``\\ud800`` escapes can produce and which no database, page or PDF can hold);
- holds no control character, except newline and tab in multi-line text (notes);
- holds no invisible formatting character: bidirectional overrides, embeddings, isolates
  and marks (U+202E can make a name read backwards on a share page or PDF), zero-width
  spaces and joiners, the byte-order mark, and the rest of Unicode's "format" category;
- in a one-line field, holds no line or paragraph separator either.

``text_problem`` says what is wrong (or None), ``check_text`` raises MalformedDocument
naming the path, ``check_tree`` applies the rule to every key and string of a JSON value,
``safe_text`` renders any string harmlessly for an error message, and ``repair`` turns a
stored string that slipped through into one that keeps the rule (the data migration and
the model's read path use it).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from rules.errors import MalformedDocument

# Named for the message a player reads; every other "Cf" character is refused as well.
_NAMED = {
    "\u061c": "ARABIC LETTER MARK",
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2060": "WORD JOINER",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE (byte-order mark)",
}
_MULTILINE_ALLOWED = frozenset("\n\t")
_LINE_BREAKS = frozenset("\u2028\u2029\u0085")


def _character(char: str) -> str:
    code = f"U+{ord(char):04X}"
    name = _NAMED.get(char) or unicodedata.name(char, "")
    return f"{code} {name}".strip()


def _bad_char(char: str, multiline: bool) -> str | None:
    """Why one character breaks the rule, or None."""
    if char.isprintable():
        return None  # the common case: letters, digits, punctuation, symbols, spaces
    category = unicodedata.category(char)
    if category == "Cs":
        return f"a lone UTF-16 surrogate ({_character(char)}) that is not valid Unicode text"
    if category == "Cc" or char in _LINE_BREAKS:
        if multiline and (char in _MULTILINE_ALLOWED or char in "\u2028\u2029"):
            return None
        if multiline:
            return f"a control character ({_character(char)}); only newline and tab are allowed"
        return f"a control character or line break ({_character(char)}); this field is one line"
    if category == "Cf":
        return (
            f"an invisible formatting character ({_character(char)}); "
            "bidirectional controls and zero-width characters are not allowed"
        )
    if category == "Zl" or category == "Zp":
        if multiline:
            return None
        return f"a line break ({_character(char)}); this field is one line"
    return None  # other non-printables (spaces such as U+00A0, unassigned code points) pass


def text_problem(value: str, *, multiline: bool = False) -> str | None:
    """What makes ``value`` break the text rule (the first fault), or None when it keeps it."""
    if value.isprintable():  # every character the rule refuses is non-printable (fast, in C)
        return None
    for char in value:
        problem = _bad_char(char, multiline)
        if problem:
            return problem
    return None


def check_text(value: str, path: str, *, multiline: bool = False) -> str:
    """``value`` unchanged if it keeps the rule, else MalformedDocument naming ``path``."""
    problem = text_problem(value, multiline=multiline)
    if problem:
        where = path or "text"
        raise MalformedDocument(path, f"{where}: contains {problem}")
    return value


def safe_text(value: str, limit: int = 60) -> str:
    """``value`` for an error message: every character the rule refuses written as \\uXXXX."""
    if value.isprintable():
        return value if len(value) <= limit else value[: limit - 3] + "..."
    out = "".join(_escaped(c) if _bad_char(c, False) else c for c in value)
    return out if len(out) <= limit else out[: limit - 3] + "..."


def _escaped(char: str) -> str:
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


def check_tree(value: Any, path: str = "") -> None:
    """Apply the rule to every key (one line) and string (multi-line allowed) of ``value``.

    The strict parser then applies the one-line rule to the fields that are one line. A
    printable string keeps the rule, so the common case costs one C call per string and a
    path is only spelled out for the fault that is reported.
    """
    if not path and _plainly_printable(value):
        return
    if isinstance(value, str):
        if not value.isprintable():
            _refuse(text_problem(value, multiline=True), path, "contains")
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and not key.isprintable():
                where = f"{path}.{safe_text(key)}" if path else safe_text(key)
                _refuse(text_problem(key), where, "the key contains")
            if isinstance(item, str):
                if not item.isprintable():
                    _refuse(
                        text_problem(item, multiline=True),
                        f"{path}.{key}" if path else key,
                        "contains",
                    )
            elif isinstance(item, dict | list | tuple):
                check_tree(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if isinstance(item, str | dict | list | tuple):
                check_tree(item, f"{path}[{i}]")


def _plainly_printable(value: Any) -> bool:
    """True when every key and string of a JSON value is printable, with no escape at all:
    one pass in C over the value written as JSON. ``json.dumps`` writes the characters the
    rule refuses as themselves (then the text is not printable), except the C0 controls,
    which it escapes (then it holds a backslash). A backslash or a quote in a string, or a
    value that is not plain JSON, only means the caller looks closer (False)."""
    try:
        text = json.dumps(value, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return text.isprintable() and "\\" not in text


def _refuse(problem: str | None, where: str, what: str) -> None:
    if problem:
        raise MalformedDocument(where, f"{where}: {what} {problem}")


def repair_text(value: str, *, multiline: bool = False) -> str:
    """``value`` made to keep the rule: surrogates become U+FFFD, other faults are dropped
    (a refused line break in a one-line field becomes a space)."""
    out = []
    for char in value:
        problem = _bad_char(char, multiline)
        if not problem:
            out.append(char)
        elif unicodedata.category(char) == "Cs":
            out.append("\ufffd")
        elif char in "\n\t\r\u2028\u2029\u0085":
            out.append(" ")
    return "".join(out)


def repair(value: Any, *, multiline: bool = False) -> tuple[Any, bool]:
    """A JSON value with every key and string repaired, and whether anything changed.

    Strings under a ``notes`` key may keep newlines and tabs; every other string is one
    line. A value that keeps the rule is returned as it is (the same object).
    """
    if isinstance(value, dict | list) and _plainly_printable(value):
        return value, False  # the common case, every army read: one pass in C
    return _repair(value, multiline=multiline)


def _repair(value: Any, *, multiline: bool = False) -> tuple[Any, bool]:
    if isinstance(value, str):
        if value.isprintable():  # every character the rule refuses is non-printable
            return value, False
        fixed = repair_text(value, multiline=multiline)
        return (fixed, True) if fixed != value else (value, False)
    if isinstance(value, dict):
        pairs = []
        changed = False
        for key, item in value.items():
            new_key, key_changed = _repair(key) if isinstance(key, str) else (key, False)
            new_item, item_changed = _repair(item, multiline=key == "notes")
            pairs.append((new_key, new_item))
            changed = changed or key_changed or item_changed
        return (dict(pairs), True) if changed else (value, False)
    if isinstance(value, list):
        items = [_repair(item) for item in value]
        if any(c for _, c in items):
            return [i for i, _ in items], True
        return value, False
    return value, False
