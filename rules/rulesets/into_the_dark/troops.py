"""Into the Dark troop types: what a figure costs and how a troop type moves and shoots
(Part I "Point Cost of Troops", Part II movement and missile ranges), and the unit fields
the rule set and its mixed units share.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rules.base import FigureCost, Unit
from rules.fields import Field, choice_field
from rules.rulesets.into_the_dark.mixed import Part, parts

QUALITY = {"average": 3, "levy": 2, "elite": 4, "fanatic": 5, "peasant": 1}
ARMOUR = {"unarmoured": 0, "protected": 1, "armoured": 2, "mailed": 3, "encased": 4}
ARMOUR_LETTER = {
    "unarmoured": "U",
    "protected": "P",
    "armoured": "A",
    "mailed": "M",
    "encased": "E",
}
HIT_ON = {"unarmoured": "3+", "protected": "4+", "armoured": "5+", "mailed": "6+",
          "encased": "7+ (a natural 6)"}  # fmt: skip
DENSITY_LETTER = {"close": "C", "loose": "L", "open": "O"}
RATING = {"poor": 1, "average": 2, "good": 3}

FOOT_ONLY = {"foot_bow", "light_crossbow", "sling", "longbow", "heavy_crossbow"}
MOUNTED_ONLY = {"mounted_bow"}
SWAT_MISSILE = {"longbow", "heavy_crossbow"}
SWAT_MELEE = {"polearm", "pike"}

# (density, mounted) -> (move inches, rout/evade dice)
MOVEMENT = {
    ("close", False): (6, "3d6"),
    ("loose", False): (8, "3d6"),
    ("open", False): (8, "3d6"),
    ("close", True): (8, "4d6"),
    ("loose", True): (12, "4d6"),
    ("open", True): (16, "5d6"),
}
ENCASED_MOVEMENT = {False: (4, "2d6"), True: (8, "3d6")}
# weapon -> (close, long or None)
RANGES = {
    "foot_bow": (6, 18),
    "light_crossbow": (6, 18),
    "mounted_bow": (6, 12),
    "sling": (6, 12),
    "javelin": (6, None),
    "longbow": (8, 24),
    "heavy_crossbow": (6, 24),
}

QUALITY_FIELD = choice_field(
    "quality",
    "Quality",
    [("average", "Average (3)"), ("levy", "Levy (2)"), ("elite", "Elite (4)"),
     ("fanatic", "Fanatic (5)"), ("peasant", "Peasant (1)")],
    help="The number is both the cost and the morale level.",
)  # fmt: skip
ARMOUR_FIELD = choice_field(
    "armour",
    "Armour",
    [("unarmoured", "Unarmoured (U, +0, hit on 3+)"), ("protected", "Protected (P, +1, 4+)"),
     ("armoured", "Armoured (A, +2, 5+)"), ("mailed", "Mailed (M, +3, 6+)"),
     ("encased", "Encased (E, +4, natural 6)")],
)  # fmt: skip

DENSITY_FIELD = choice_field(
    "density",
    "Density",
    [("close", "Close (C)"), ("loose", "Loose (L)"), ("open", "Open (O)")],
)  # fmt: skip
# foot-bow troops "do not have shields unless cross trained" (Missile Weapons); shieldwall is
# for "Close order foot troops with large shields" (Shieldwall)
SHIELDLESS_MISSILES = {"foot_bow", "light_crossbow"}

FIGURES_RULE = "COMBAT"  # "For each four figures fighting (rounded down) one 6 sided die"


def per_figure(
    quality: str,
    armour: str,
    *,
    mounted: bool = False,
    cross_trained: bool = False,
    longbow: bool = False,
    pike: bool = False,
    shieldwall: bool = False,
) -> tuple[Fraction, list[str]]:
    """The troop cost of one figure, exact, with its steps."""
    base = Fraction(QUALITY[quality] + ARMOUR[armour])
    steps = [f"{quality} {QUALITY[quality]} + {armour} {ARMOUR[armour]} = {base} per figure"]
    cost = base
    for flag, factor, why in (
        (mounted, 2, "mounted"),
        (cross_trained, 2, "cross-trained"),
        (longbow, Fraction(3, 2), "longbow"),
        (pike, Fraction(3, 2), "pike"),
    ):
        if flag:
            new = cost * factor
            steps.append(f"{why} x {num(factor)}: {num(cost)} x {num(factor)} = {num(new)}")
            cost = new
    if shieldwall:
        steps.append(f"shieldwall +1 per figure: {num(cost)} + 1 = {num(cost + 1)}")
        cost += 1
    return cost, steps


def num(value: Fraction | int) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}" if value.denominator in (2, 4, 5, 8, 10) else str(value)


def inches_text(value: Fraction | int) -> str:
    return f'{num(value)}"'


def part_code(part: Part) -> str:
    """The three-letter code of one troop type, e.g. ``CAF``."""
    return DENSITY_LETTER[part.density] + ARMOUR_LETTER[part.armour] + "MF"[not part.mounted]


def movement(part: Part) -> tuple[int, str]:
    """(move, rout/evade dice) of one troop type; encased armour slows it."""
    if part.armour == "encased":
        return ENCASED_MOVEMENT[part.mounted]
    return MOVEMENT[(part.density, part.mounted)]


def too_few_figures_message(name: str, figures: int) -> str:
    verb = "rolls" if figures == 1 else "roll"
    return (
        f"{name}: {figures} figure{'' if figures == 1 else 's'} {verb} no combat die (one die "
        "per 4 figures fighting)."
    )


# unit fields no cost reads: a change to one of them leaves the unit's points as they are
COSTLESS_FIELDS = ("name", "density", "warband", "skirmishers", "division")


def unit_figure_cost(
    unit: Unit,
    figures: Field,
    per_figure_of: Callable[[Unit, Part | None], tuple[Fraction, list[str]]],
) -> FigureCost:
    """How the unit's points follow its ``figures``, everything else as it is.

    Part I "Point Cost of Troops", Unit Cost: "multiply the final troop cost by the number
    of figures in the unit. Then ... add the troop quality level x 10". Part III
    "Champions": "Their point cost is 10 times that of a normal warrior ... There is no
    command cost for champions": a champion's cost does not follow its figures. A mixed
    unit's second type pays its own figures and the command is paid once (ruling R5), so
    both are the fixed part. The unit total is rounded up once (ruling R1).
    """
    each, _ = per_figure_of(unit, None)
    low, high = int(figures.minimum or 1), int(figures.maximum or 1)
    if unit["champion"]:
        return FigureCost("figures", unit["figures"], Fraction(0), each * 10, low, high,
                          COSTLESS_FIELDS)  # fmt: skip
    fixed = Fraction(10 * QUALITY[unit["quality"]])
    for part in parts(unit)[1:]:
        fixed += per_figure_of(unit, part)[0] * part.figures
    return FigureCost("figures", unit["figures"], each, fixed, low, high, COSTLESS_FIELDS)
