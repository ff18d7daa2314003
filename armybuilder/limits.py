"""The rate limits' defaults and how the environment sets them: plain Python, read by the
settings at start-up (nothing of Django is ready then) and by ``armybuilder.throttle``.
docs/running.md, "Rate limits", says why each default."""

from __future__ import annotations

import os

# Per account (signed-in players). docs/running.md says why each number.
DEFAULT_LIMITS: dict[str, tuple[int, int]] = {
    "pdf": (30, 600),  # PDF renders queued (army, shared, rule-set QRS, API) per 10 minutes
    "import": (30, 3600),  # army files imported per hour
    "create": (60, 3600),  # armies started, duplicated or copied, games started, per hour
    "list-create": (60, 3600),  # army lists made or copied per hour
    "list-import": (30, 3600),  # army-list files imported per hour
    "write": (1200, 600),  # any other POST (builder edits, sharing, deleting) per 10 minutes
}
# Per client address, for visitors without an account: a hall of 30-40 of them behind one
# address, and every sign-up (anonymous by nature: 40 in an hour, 120 in a day).
DEFAULT_VISITOR_LIMITS: dict[str, tuple[int, int]] = {
    "pdf": (120, 600),
    "import": (120, 3600),
    "create": (240, 3600),
    "list-create": (120, 3600),
    "list-import": (60, 3600),
    "write": (4800, 600),
    "signup": (40, 3600),  # accounts made per hour
    "signup-day": (120, 86400),  # ...and per day
}


def from_environment(
    prefix: str, defaults: dict[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """Each limit (requests, seconds) from ``<prefix><NAME>`` (e.g. MUSTER_LIMIT_PDF=30/600),
    else its default; a value that does not read stops the start, naming the variable."""
    limits = {}
    for name, default in defaults.items():
        variable = prefix + name.upper().replace("-", "_")
        text = os.environ.get(variable, "").strip()
        try:
            count, seconds = (int(part) for part in text.split("/")) if text else default
        except ValueError:
            raise ValueError(f"{variable}={text!r}: write requests/seconds, e.g. 30/600") from None
        limits[name] = (count, seconds)
    return limits
