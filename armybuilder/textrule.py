"""The text rule (``rules/text.py``) as Django validators, for forms, models and the admin.

Every string that enters Muster keeps one rule: valid Unicode, no control characters
(newline and tab only in multi-line text), no bidirectional or zero-width characters.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from rules.text import check_tree, text_problem


def validate_line(value: Any) -> None:
    """A one-line field (names, slugs, usernames)."""
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            raise ValidationError(f"This contains {problem}.", code="text_rule")


def validate_text(value: Any) -> None:
    """A multi-line field (notes): newlines and tabs are allowed."""
    if isinstance(value, str):
        problem = text_problem(value, multiline=True)
        if problem:
            raise ValidationError(f"This contains {problem}.", code="text_rule")


def validate_json(value: Any) -> None:
    """Every key and string of stored JSON (army-list data)."""
    from rules.errors import MalformedDocument

    try:
        check_tree(value)
    except MalformedDocument as exc:
        raise ValidationError(exc.message, code="text_rule") from None
