"""Template helpers for the print sheets."""

from collections.abc import Sequence

from django import template

register = template.Library()

PADDING = 3  # characters' worth of cell padding and border
MAX_CHARS = 36  # a column longer than this wraps rather than crowd the others


@register.filter
def column_widths(rows: Sequence[Sequence[object]], available: int = 110) -> list[str]:
    """Whole-percent widths for a fixed-layout table, from the text in each column.

    Fixed layout keeps WeasyPrint from measuring every cell (the slow part of long
    rosters). Each column first gets its longest word, so nothing breaks mid-word;
    what is left of the ``available`` characters of width goes to the columns whose
    text is longer than that, in proportion.
    """
    rows = [[str(cell) for cell in r] for r in rows if r]
    if not rows:
        return []
    count = max(len(r) for r in rows)
    floor, extra = [], []
    for c in range(count):
        cells = [r[c] for r in rows if c < len(r)]
        word = max((len(w) for cell in cells for w in cell.split()), default=1)
        longest = min(max((len(cell) for cell in cells), default=1), MAX_CHARS)
        floor.append(word + PADDING)
        extra.append(max(longest - word, 0))
    spare = max(int(available) - sum(floor), 0)
    grown = sum(extra)
    widths = [
        f + (spare * e / grown if grown else spare / count)
        for f, e in zip(floor, extra, strict=True)
    ]
    total = sum(widths)
    # whole percents, each a class of print.css (col.w1 ... col.w100): no style="" attribute,
    # so the HTML preview keeps to the Content-Security-Policy
    return [str(p) for p in _whole_percents([100 * w / total for w in widths])]


def _whole_percents(shares: Sequence[float]) -> list[int]:
    """Whole percents at least 1 each, summing to 100 at most (rounded ones may make 101 or
    more, a table wider than its card): the largest remainders get the spare points."""
    floors = [max(1, int(share)) for share in shares]
    spare = 100 - sum(floors)
    by_remainder = sorted(range(len(shares)), key=lambda i: floors[i] - shares[i])
    for i in by_remainder[: max(spare, 0)]:
        floors[i] += 1
    return floors


@register.filter
def stat_rows(stats: Sequence[tuple[str, str]]) -> list[list[str]]:
    """A unit's stat line as the two rows of its table (labels, values)."""
    return [[label for label, _ in stats], [value for _, value in stats]]


@register.filter
def table_rows(table: object) -> list[list[str]]:
    """Headings and rows of a QRS table, for ``column_widths``."""
    columns = list(getattr(table, "columns", ()))
    rows = [list(r) for r in getattr(table, "rows", ())]
    return [columns, *rows] if columns else rows
