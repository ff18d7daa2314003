"""Into the Dark command & control: generals and their divisions (Command & Control).

"All units in the army are grouped together into divisions and put under the command of a
specific general. These divisions should average about 4 or 5 units each." With the
command & control option a unit outside every division is an error; a division's size
stays advice (a warning).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rules.base import Army, Issue, error, warning


def command_issues(army: Army) -> Iterable[Issue]:
    """no-commanding-general, unassigned-unit, unknown-division, division-size."""
    names = {g["name"] for g in army.generals}
    c_and_c = army.options["command_and_control"]
    if c_and_c:
        commanding = sum(1 for g in army.generals if g["commanding"])
        if commanding != 1:
            yield error("no-commanding-general", commanding_message(commanding),
                        "Generals")  # fmt: skip
    divisions: Counter[str] = Counter()
    for i, unit in enumerate(army.units):
        division = unit["division"]
        if division is None:
            if c_and_c:
                yield error("unassigned-unit",
                            f"{unit['name']}: in no division; with command & control all "
                            "units are grouped into divisions under a general.",
                            "Divisions", unit=i)  # fmt: skip
        elif division not in names:
            known = ", ".join(sorted(names)) or "none"
            yield error("unknown-division",
                        f"{unit['name']}: division {division!r} names no general "
                        f"(generals: {known}).", "Divisions", unit=i)  # fmt: skip
        else:
            divisions[division] += 1
    for general in army.generals:
        count = divisions[general["name"]]
        if count and not 3 <= count <= 6:
            yield warning("division-size", division_size_message(general["name"], count),
                          "Divisions")  # fmt: skip


def division_size_message(general: str, count: int) -> str:
    return (
        f"{general}'s division has {count} unit{'' if count == 1 else 's'}; the source advises "
        "about 4 or 5 (3 to 6)."
    )


def commanding_message(count: int) -> str:
    return (
        "With command & control the army needs exactly one commanding general; it has "
        f"{'none' if count == 0 else count}."
    )
