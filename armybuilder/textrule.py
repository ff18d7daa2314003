"""The text rule (``rules/text.py``) as Django validators, for forms, models and the admin.

Every string that enters Muster keeps one rule: valid Unicode, no control characters
(newline and tab only in multi-line text), no bidirectional or zero-width characters.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from rules.text import check_tree, safe_text, text_problem


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


class TextRuleJSONField(forms.JSONField):
    """The admin's JSON box: a refused character is shown as its ``\\uXXXX`` escape, so a
    form sent back with an error (or a row that slipped through) still renders."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, forms.fields.InvalidJSONInput):
            text = str(value)  # as typed: keep its line breaks
        else:
            text = json.dumps(value, ensure_ascii=False, cls=self.encoder)
        return "".join(c if c in "\r\n\t" or not text_problem(c) else safe_text(c) for c in text)
