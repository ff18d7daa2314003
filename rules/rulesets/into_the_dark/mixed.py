"""Into the Dark mixed units (a basic rule, ruling R5): a unit of two troop types.

Source (seeds/000, "Unit Organization"): "If different troop types are mixed in a unit,
it moves at the speed of the slowest. When in melee, the figures in contact with the enemy
determine the attack/defence values, or when giving or receiving missile fire the values of
the majority troop type are used. It is simpler to keep all troops in a unit the same type."

A troop type is the three-letter code (density, armour, foot/mounted). A mixed unit is its
main type (the unit's own ``figures``, ``density``, ``armour``, ``mounted``) plus the
``mixed`` part: ``{"figures", "density", "armour", "mounted"}``. Quality, training and
weapons are the unit's, shared by both parts. Each part pays its own troop cost per figure;
the command cost is paid once, and the unit total is rounded up once (ruling R1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rules.base import Issue, Unit, error
from rules.fields import Field, bool_field

RULE = "Unit Organization"
MAX_FIGURES = 400


def mixed_field(density: Field, armour: Field) -> Field:
    return Field(
        "mixed",
        "Mixed with a second troop type",
        "object",
        nullable=True,
        fields=(
            Field("figures", "Figures of the second type", "integer", default=4, minimum=1,
                  maximum=MAX_FIGURES - 1),
            density,
            armour,
            bool_field("mounted", "Mounted"),
        ),
        help="The unit moves at the speed of its slowest type; missile fire uses the majority "
        "type's values, melee those of the figures in contact.",
    )  # fmt: skip


@dataclass(frozen=True)
class Part:
    """One troop type of a unit and its figures."""

    figures: int
    density: str
    armour: str
    mounted: bool


def parts(unit: Unit) -> list[Part]:
    """The unit's troop types, the main one first."""
    found = [Part(unit["figures"], unit["density"], unit["armour"], unit["mounted"])]
    mixed = unit.get("mixed")
    if mixed:
        found.append(Part(mixed["figures"], mixed["density"], mixed["armour"], mixed["mounted"]))
    return found


def majority(unit: Unit) -> Part | None:
    """The troop type with most figures; None when two types have as many."""
    found = parts(unit)
    most = max(p.figures for p in found)
    top = [p for p in found if p.figures == most]
    return top[0] if len(top) == 1 else None


def slowest(unit: Unit, movement: Callable[[Part], tuple[int, str]]) -> tuple[int, str]:
    """(move, rout/evade dice) of the slowest troop type."""
    return min((movement(p) for p in parts(unit)), key=lambda m: m[0])


def same_type(a: Part, b: Part) -> bool:
    return (a.density, a.armour, a.mounted) == (b.density, b.armour, b.mounted)


def mixed_issues(unit: Unit, index: int) -> Iterable[Issue]:
    """mixed-unit: at most one error for the mixed part."""
    if not unit.get("mixed"):
        return
    name = unit["name"]
    main, other = parts(unit)
    total = main.figures + other.figures
    problem = None
    if unit["champion"]:
        problem = "a champion is a single figure and cannot be mixed"
    elif same_type(main, other):
        problem = "the second troop type is the same as the unit's; add its figures instead"
    elif main.figures == other.figures:
        problem = (
            f"{figures_phrase(main.figures)} of each type: missile fire uses the majority "
            "troop type's values, so one type must have more figures"
        )
    elif total > MAX_FIGURES:
        problem = f"{figures_phrase(total)} in all; a unit has at most {MAX_FIGURES}"
    if problem:
        yield error("mixed-unit", f"{name}: {problem}.", RULE, unit=index)


def figures_phrase(count: int) -> str:
    return f"{count} figure{'' if count == 1 else 's'}"
