"""The one rule for an operation's one-time key, whatever it changes (an army, an army list,
a game): the page makes one per action (``static/js/changes/keys.js``) and the server
applies each key once. A UUID fits it, and so does the page's random hex.
"""

from __future__ import annotations

import re
from typing import Any

MAX_LENGTH = 64  # the columns that keep applied keys hold this many characters
ONCE_KEY = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_LENGTH}}}")
RULE = f"1 to {MAX_LENGTH} letters, digits, '-' or '_'"


def is_once_key(value: Any) -> bool:
    """Whether ``value`` reads as a one-time key."""
    return isinstance(value, str) and ONCE_KEY.fullmatch(value) is not None
