"""Which characters of an army's text no font can print (the PDF then says so).

The sheets print in DejaVu Sans with the bundled Noto Emoji (static/fonts) as fallback,
then whatever fontconfig finds on the machine. A character none of them has would come out
as an empty box; the sheet lists those characters instead of dropping them silently.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from fontTools.ttLib import TTFont

logger = logging.getLogger(__name__)

EMOJI_FONT = Path(settings.BASE_DIR) / "static" / "fonts" / "NotoEmoji-Regular.ttf"
# joiners and variation selectors shape emoji sequences; they print nothing themselves
_INVISIBLE = {0x200C, 0x200D, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}


@functools.cache
def _fc_file(family: str) -> Path | None:
    fc_match = shutil.which("fc-match")
    if not fc_match:
        return None
    try:
        out = subprocess.run(  # noqa: S603 (fixed arguments, no shell)
            [fc_match, "-f", "%{file}", family],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out) if out else None


@functools.cache
def _known_cmap() -> frozenset[int]:
    codepoints: set[int] = set()
    for path in (_fc_file("DejaVu Sans"), EMOJI_FONT):
        if path and path.exists():
            try:
                codepoints.update(TTFont(str(path), lazy=True).getBestCmap())
            except Exception:  # an unreadable font only weakens the check
                logger.warning("cannot read the character map of %s", path, exc_info=True)
    return frozenset(codepoints)


@functools.cache
def _any_font_has(codepoint: int) -> bool:
    fc_list = shutil.which("fc-list")
    if not fc_list:
        return True  # cannot tell: say nothing rather than something wrong
    try:
        out = subprocess.run(  # noqa: S603 (fixed arguments, no shell)
            [fc_list, f":charset={codepoint:x}", "file"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return True
    return bool(out.strip())


def unprintable(texts: Iterable[str]) -> list[str]:
    """Each character no font can print, once, as ``漢 (U+6F22)``, in order of appearance."""
    known = _known_cmap()
    if not known:
        return []
    missing: dict[str, None] = {}
    for text in texts:
        for char in text:
            code = ord(char)
            if code < 0x80 or code in known or code in _INVISIBLE or char in missing:
                continue
            if unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp"):
                continue
            if not _any_font_has(code):
                missing[char] = None
    return [f"{char} (U+{ord(char):04X})" for char in missing]


def strings_in(value: object) -> Iterable[str]:
    """Every string in a JSON document (names, notes, list names)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
