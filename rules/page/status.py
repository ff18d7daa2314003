"""What the worker says once it is ready."""

from __future__ import annotations

import sys
from typing import Any

from rules.registry import all_rulesets


def ping() -> dict[str, Any]:
    """The engine's rule sets and the Python it runs on."""
    return {
        "python": ".".join(str(part) for part in sys.version_info[:3]),
        "rulesets": sorted(ruleset.slug for ruleset in all_rulesets()),
    }
