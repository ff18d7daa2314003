"""What an item costs: ``Cost``, the exact cost of one unit or general, and ``FigureCost``,
how a unit's cost follows its figure count while the rest of it stays as it is.

``FigureCost`` is what a page needs to work out a unit's points without asking the server
(offline, or before the server confirms a change): it is exact (``Fraction``), it rounds as
``Cost.points`` rounds, and the army's total is the sum of its items' rounded points
(``rules.engine``), so a page adds the changed unit's difference to the total and is right.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

# how an item's exact cost becomes its points: up, once, at the end of the item
ROUNDING: Literal["up"] = "up"


@dataclass(frozen=True)
class Cost:
    """Exact cost of one item with the human-readable steps that produced it."""

    exact: Fraction
    breakdown: tuple[str, ...]

    @property
    def points(self) -> int:
        """The single rounding: up, once, at the end of the item (Into the Dark R1)."""
        return math.ceil(self.exact)


@dataclass(frozen=True)
class FigureCost:
    """How one unit's cost follows its figure count, the rest of the unit as it stands.

    ``field`` is the unit field that counts (``figures``, or ``stands`` of a fixed size);
    for any ``count`` from ``minimum`` to ``maximum`` the unit costs exactly
    ``each * count + fixed``, rounded as ``Cost.points`` rounds. ``count`` is the unit's
    own count now. ``free`` names the unit fields whose value changes no cost at all (a
    name, a division): a change to any other field needs the rule set to price it.
    """

    field: str
    count: int
    each: Fraction
    fixed: Fraction
    minimum: int
    maximum: int
    free: tuple[str, ...] = ()

    def exact(self, count: int) -> Fraction:
        return self.each * count + self.fixed

    def points(self, count: int) -> int:
        """The unit's points with ``count``: rounded exactly as the engine rounds an item."""
        return Cost(self.exact(count), ()).points

    @property
    def as_json(self) -> str:
        """``to_json`` as text, for a page's ``data-`` attribute."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        """Whole numbers over one denominator, so a page works it out without fractions:
        points = ``per * count + fixed`` over ``den``, rounded ``round``."""
        den = math.lcm(self.each.denominator, self.fixed.denominator)
        return {
            "field": self.field,
            "count": self.count,
            "per": int(self.each * den),
            "fixed": int(self.fixed * den),
            "den": den,
            "round": ROUNDING,
            "min": self.minimum,
            "max": self.maximum,
            "free": list(self.free),
        }
