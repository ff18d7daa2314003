"""Template filters shared by Muster's pages."""

import json
from typing import Any

from django import template

register = template.Library()


@register.filter
def as_json(value: Any) -> str:
    """A value as it is written in a document: ``false``, ``null``, ``"25mm"``, ``5.0``."""
    return json.dumps(value, ensure_ascii=False)
