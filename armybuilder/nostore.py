"""``Cache-Control: private, no-store`` for an answer that differs by viewer or by the clock.

One helper, so every view that marks its answer says it the same way (Django's
``patch_cache_control``: a ``max-age`` or ``public`` already set would contradict it).
"""

from __future__ import annotations

from django.http import HttpResponseBase
from django.utils.cache import patch_cache_control


def no_store[R: HttpResponseBase](response: R) -> R:
    """``response`` marked private and never stored by any cache, shared or the browser's."""
    patch_cache_control(response, private=True, no_store=True)
    return response
