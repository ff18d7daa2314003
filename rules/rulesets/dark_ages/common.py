"""The logic the two Dark Ages rule sets share: checks and stat-line helpers.

dark-ages-2015 and dark-ages-d5 are revisions of one game. Where a rule reads the same in
both sources (skirmishers need a missile, a type carries only its own missiles, a unit-type
idea fixes its type and missile, personalities and banners, the shooting line), its logic
lives here once. Each rule set keeps its own data (dice, tables, labels, wording of the
rule it cites), passed in by the caller, so the two digests may still diverge.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from rules.base import Army, Issue, Unit, error

SHOOTERS = ("skirmishers", "cavalry")
PERSONALITY_RULE = "Personalities"


class VariantLike(Protocol):
    """What the checks read of a unit-type variant (either rule set's ``Variant``)."""

    @property
    def label(self) -> str: ...

    @property
    def types(self) -> tuple[str, ...]: ...

    @property
    def missiles(self) -> tuple[str | None, ...]: ...


def plural(count: int, word: str) -> str:
    """``1 unit``, ``2 units``, ``3 personalities``."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("ty") else f"{count} {word}s"


def die(base: str, modifier: int) -> str:
    """``d6``, ``d6+1``, ``d5-2``: the die and the modifier, none when it is zero."""
    return base if modifier == 0 else f"{base}{modifier:+d}"


def hero_bonus(unit: Unit) -> tuple[int, str]:
    """A hero's +1 to shooting and melee, and the note that shows it on a stat line."""
    return (1, " (hero +1)") if unit["personality"] == "hero" else (0, "")


def shoot_line(
    unit: Unit,
    army: Army,
    *,
    base: str,
    shoot: Mapping[str, tuple[int, int]],
    variant_shoot: int | None,
    roll: str,
    when: Mapping[str, str],
) -> str:
    """The unit's shooting: its missile, die, reach, supply and when it may shoot.

    Only skirmishers and cavalry with a missile of ``shoot`` (modifier, reach) shoot; a
    variant's own shooting modifier replaces the missile's. ``roll`` is the supply text of
    the rolled missile-supply option, ``when`` the timing of each missile.
    """
    missile = unit["missile"]
    if missile not in shoot or unit["type"] not in SHOOTERS:
        return "–"
    modifier, reach = shoot[missile]
    if variant_shoot is not None:
        modifier = variant_shoot
    supply = "3 shots" if army.options["missile_supply"] == "three_shots" else roll
    hero, hero_note = hero_bonus(unit)
    return (
        f'{missile} {die(base, modifier + hero)}{hero_note} at {reach}", {supply}; {when[missile]}'
    )


def missile_issues(
    unit: Unit, index: int, missiles: Mapping[str, tuple[str | None, ...]], cavalry_carry: str
) -> Iterator[Issue]:
    """skirmishers-need-missile, missile-not-allowed (``missiles``: each type's allowed; a
    type not named carries none)."""
    name, type_, missile = unit["name"], unit["type"], unit["missile"]
    if type_ == "skirmishers" and missile is None:
        yield error("skirmishers-need-missile",
                    f"{name}: skirmishers carry bows or javelins; choose one.", "Units",
                    unit=index)  # fmt: skip
    elif missile not in missiles.get(type_, (None,)):
        allowed = cavalry_carry if type_ == "cavalry" else "no missiles"
        yield error("missile-not-allowed",
                    f"{name}: {type_} carry {allowed}, not a {missile}.", "Units",
                    unit=index)  # fmt: skip


def variant_issues(unit: Unit, index: int, variant: VariantLike, rule: str) -> Iterator[Issue]:
    """variant-type-mismatch for a type or a missile the variant does not allow."""
    name = unit["name"]
    if unit["type"] not in variant.types:
        yield error("variant-type-mismatch",
                    f"{name}: {variant.label} are {' or '.join(variant.types)}, not "
                    f"{unit['type']}.", rule, unit=index)  # fmt: skip
    elif unit["missile"] not in variant.missiles:
        carry = "javelins" if "javelin" in variant.missiles else "no missiles"
        yield error("variant-type-mismatch",
                    f"{name}: {variant.label} carry {carry}, not a {unit['missile']}.",
                    rule, unit=index)  # fmt: skip


def personality_issues(unit: Unit, index: int, army: Army) -> Iterator[Issue]:
    """personalities-disabled, banner-needs-hero-or-leader."""
    name = unit["name"]
    if (unit["personality"] or unit["banner"]) and not army.options["personalities"]:
        yield error("personalities-disabled",
                    f"{name}: personalities are switched off; remove the "
                    f"{unit['personality'] or 'banner'} or switch them on.",
                    PERSONALITY_RULE, unit=index)  # fmt: skip
    if unit["banner"] and unit["personality"] not in ("hero", "leader"):
        yield error("banner-needs-hero-or-leader",
                    f"{name}: a banner is an upgrade to a hero or leader; this unit has "
                    f"{'a priest' if unit['personality'] else 'neither'}.",
                    PERSONALITY_RULE, unit=index)  # fmt: skip


def personality_limit_issues(army: Army) -> Iterator[Issue]:
    """too-many-personalities: one per three units, a banner counting as one."""
    if not army.options["personalities"]:
        return
    units = army.units
    n = len(units)
    used = sum(1 for u in units if u["personality"]) + sum(1 for u in units if u["banner"])
    if used > n // 3:
        yield error("too-many-personalities",
                    f"{plural(used, 'personality')} (banners count as one each); "
                    f"{plural(n, 'unit')} allow {n // 3}, one per three units.",
                    PERSONALITY_RULE)  # fmt: skip


def quality_count_message(elite: int, units: int, allowed: int) -> str:
    return (
        f"{plural(elite, 'Elite unit')}; {plural(units, 'unit')} allow {allowed} (one per six "
        "units)."
    )


def levy_balance_message(elite: int, levy: int) -> str:
    return (
        f"Each Elite unit must be balanced by a Levy unit: {plural(elite, 'Elite unit')}, "
        f"{plural(levy, 'Levy unit')}."
    )


def quality_issues(army: Army, rule: str) -> Iterator[Issue]:
    """elite-limit and elite-needs-levy of the VARIABLE QUALITY optional rule: "For each
    army of six Units, allow one Unit to be Elite, but one must be Levy to balance things
    out!" (one Elite per full six units, and a Levy for each)."""
    units = army.units
    elite = sum(1 for u in units if u["quality"] == "elite")
    levy = sum(1 for u in units if u["quality"] == "levy")
    allowed = len(units) // 6
    if elite > allowed:
        yield error("elite-limit", quality_count_message(elite, len(units), allowed), rule)
    if levy < elite:
        yield error("elite-needs-levy", levy_balance_message(elite, levy), rule)
