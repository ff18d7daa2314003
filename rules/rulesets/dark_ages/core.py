"""The one Dark Ages rule set that both editions are: the 2015 one-hour update and the d5
revision differ in their tables, dice and a few rules, not in how a unit is read.

``DarkAgesRuleSet`` holds the stat line, the unit and army checks and the army-list hooks
once; an edition is a subclass that gives its data (class attributes: tables, labels, the
rule each message cites) and the hooks where its rules really differ (``modifiers``,
``hits_text``, ``edition_unit_issues``, ``edition_army_issues``...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from rules.base import Army, CheckDoc, Issue, RuleSet, Unit, warning
from rules.fields import Field, bool_field, choice_field
from rules.list_entries import FieldRule
from rules.list_shape import ListShape
from rules.qrs import Section, Sheet
from rules.rulesets.dark_ages import common, entries, shape, sheet
from rules.rulesets.dark_ages.combat import DarkAgesCombat
from rules.rulesets.dark_ages.common import die, plural
from rules.rulesets.dark_ages.lists import VariantRule, unit_presets, validate

VETERANS = "viking_veterans"


@dataclass(frozen=True)
class Variant:
    """An additional unit type ("idea for a unit type"): the type(s) it has, its missiles
    and how it fights. ``modifier`` None fights as its type; ``shoot`` None shoots as its
    missile; ``quality`` (2015) is the quality it must have; ``hits`` (d5) its casualties."""

    label: str
    types: tuple[str, ...]
    missiles: tuple[str | None, ...]
    modifier: int | None
    shoot: int | None = None
    quality: str | None = None
    hits: int = 15
    source: str = ""


# what both editions offer in the same words
PERSONALITY_FIELD = choice_field(
    "personality",
    "Personality",
    [
        ("hero", "Hero (+1 shooting and melee)"),
        ("leader", "Leader (one extra turn)"),
        ("priest", "Priest (rallies 2-4 hits)"),
    ],
    nullable=True,
)
BANNER_FIELD = bool_field(
    "banner",
    "Banner",
    help="An upgrade to a hero or leader: rallies 1-3 hits. Counts as a personality.",
)
PERSONALITIES_OPTION = bool_field(
    "personalities",
    "Personalities",
    default=True,
    help="One hero, leader, priest or banner per three units.",
)
NOT_OFFERED = (
    "Force morale, initiative, fall back and declared movement: rules of play with "
    "nothing to choose when building an army (they appear on the quick-reference sheet).",
)
SKIRMISHERS_NEED_MISSILE = CheckDoc(
    "skirmishers-need-missile", "error", "unit", "Skirmishers without a bow or javelins."
)
BANNER_NEEDS_HERO = CheckDoc(
    "banner-needs-hero-or-leader", "error", "unit", "A banner on a unit without a hero or leader."
)
QUALITY_DISABLED = CheckDoc(
    "quality-disabled", "error", "unit", "An Elite or Levy unit while variable quality is off."
)
PERSONALITIES_DISABLED = CheckDoc(
    "personalities-disabled",
    "error",
    "unit",
    "A personality or banner while personalities are off.",
)
TOO_MANY_PERSONALITIES = CheckDoc(
    "too-many-personalities",
    "error",
    "army",
    "Heroes, leaders, priests and banners together exceed one per three units.",
)
LIST_CHECKS = (
    CheckDoc(
        "missing-required-unit",
        "error",
        "army_list",
        "Fewer of a required unit than the list requires.",
    ),
    CheckDoc(
        "choice-not-allowed",
        "error",
        "army_list",
        "A unit that is neither a required unit nor a choice of the list.",
    ),
    CheckDoc(
        "too-many-of-choice",
        "error",
        "army_list",
        "More of a choice than its maximum, or more choices than the list picks.",
    ),
)


def variant_field(label: str, variants: Mapping[str, Variant], help: str) -> Field:
    """The unit field that picks an additional unit type of the edition."""
    choices = [(key, v.label) for key, v in variants.items()]
    return choice_field("variant", label, choices, nullable=True, help=help)


def quality_field(label: str, elite: str, levy: str, help: str) -> Field:
    """Variable quality's unit field: standard (15 hits), Elite or Levy as the edition words it."""
    choices = [("standard", "Standard (15 hits)"), ("elite", elite), ("levy", levy)]
    return choice_field("quality", label, choices, help=help)


def missile_check(carry: str) -> CheckDoc:
    return CheckDoc(
        "missile-not-allowed", "error", "unit", f"A missile the type cannot carry: {carry}"
    )


def variant_check(description: str) -> CheckDoc:
    return CheckDoc("variant-type-mismatch", "error", "unit", description)


PERSONALITY_NOTES = {
    "hero": "hero: +1 in shooting and melee",
    "leader": "leader: one extra turn at any time in its move",
    "priest": "priest: rallies 2-4 hits (half a {d}, rounded up, +1)",
}
BANNER_NOTE = "banner: rallies 1-3 hits (half a {d}, rounded up) if not in melee, not moved or shot"
# (modifier, reach in inches) of each missile
SHOOT = {"bow": (-2, 12), "javelin": (-1, 6)}
ONE_TURN = "1, at the start or the end of its move"
TWO_TURNS = "2, one at the start and one at the end of its move"
SHIELDWALL_NOTE = (
    "shieldwall{veterans}: halves shooting hits from front and flank, halves melee hits"
)


class DarkAgesRuleSet(RuleSet):
    """Both Dark Ages editions; subclasses give the data and the hooks."""

    not_offered = NOT_OFFERED

    # -- an edition's data ---------------------------------------------------------------
    variants: ClassVar[Mapping[str, Variant]]
    type_labels: ClassVar[Mapping[str, str]] = {}  # where a type's label is not its name
    cavalry_missiles: ClassVar[tuple[str | None, ...]]
    shoot_when: ClassVar[Mapping[str, str]]
    roll_supply: ClassVar[str]  # the rolled missile supply, as the stat line says it
    cavalry_carry: ClassVar[str]  # what cavalry may carry, for the missile message
    veteran_types: ClassVar[tuple[str, str]]  # what Viking veterans fight as
    fight_key: ClassVar[str]  # the stat-line key of the melee die ("melee", "attack")
    road_note: ClassVar[str]
    veterans_shieldwall: ClassVar[str]  # how the shieldwall note names veterans
    woods_types: ClassVar[tuple[str, ...]]
    woods_notes: ClassVar[tuple[str, str]]  # (may enter, may not enter)
    rear_note: ClassVar[str]
    variant_rule: ClassVar[str]
    list_rule: ClassVar[str]
    size_rule: ClassVar[str]
    field_rules: ClassVar[tuple[FieldRule, ...]]
    describe: ClassVar[Mapping[str, bool]]  # how the list page describes a list
    allow_fixed: ClassVar[bool]  # lists may mark units fixed (the source's italics)
    sheet_file: ClassVar[str]  # the edition's QRS as data (see sheet.py)

    # -- an edition's hooks ----------------------------------------------------------------
    def die_of(self, army: Army) -> str:
        """The die every roll uses."""
        raise NotImplementedError

    def die_label(self, army: Army) -> str:
        return self.die_of(army)

    def move(self, type_: str, d: str) -> str:
        """A type's movement roll, with the inch mark."""
        raise NotImplementedError

    def modifiers(self, unit: Unit) -> list[int]:
        """The unit's melee modifiers (no hero), one per line it fights as."""
        raise NotImplementedError

    def hits_text(self, unit: Unit) -> str:
        raise NotImplementedError

    def hits(self, unit: Unit) -> int:
        """The hits that remove the unit."""
        raise NotImplementedError

    def label_suffix(self, unit: Unit, army: Army) -> str:
        return ""

    def extra_notes(self, unit: Unit, army: Army, d: str) -> list[str]:
        return []

    def army_size(self, army: Army) -> int:
        raise NotImplementedError

    def size_message(self, size: int) -> str:
        raise NotImplementedError

    def edition_unit_issues(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        """Checks of one unit before the personality checks."""
        return ()

    def late_unit_issues(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        """Checks of one unit after the personality checks."""
        return ()

    def variant_issues(self, unit: Unit, variant: Variant, index: int) -> Iterable[Issue]:
        return common.variant_issues(unit, index, variant, self.variant_rule)

    def edition_army_issues(self, army: Army) -> Iterable[Issue]:
        return ()

    def list_check(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
        raise NotImplementedError

    @cached_property
    def _combat(self) -> DarkAgesCombat:
        return DarkAgesCombat(self)

    def combat(self) -> DarkAgesCombat:
        """Both editions' combat rules on one working (``combat.EDITIONS``)."""
        return self._combat

    # -- the tables both editions read alike ------------------------------------------------
    def type_label(self, type_: str) -> str:
        return self.type_labels.get(type_, type_.capitalize())

    @staticmethod
    def turns(type_: str) -> str:
        """Skirmishers and cavalry turn twice, at the start and the end of the move."""
        return TWO_TURNS if type_ in common.SHOOTERS else ONE_TURN

    def missiles(self) -> dict[str, tuple[str | None, ...]]:
        """The missiles each type may carry (a type not named carries none)."""
        return {"skirmishers": ("bow", "javelin"), "cavalry": self.cavalry_missiles}

    # -- stat line -------------------------------------------------------------------------
    def variant_of(self, unit: Unit) -> Variant | None:
        return self.variants.get(unit["variant"] or "")

    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        d = self.die_of(army)
        hero, hero_note = common.hero_bonus(unit)
        variant = self.variant_of(unit)
        mods = self.modifiers(unit)
        if unit["variant"] == VETERANS:
            first, second = self.veteran_types
            label = f"Viking veterans: {first} or {second}, chosen after deployment"
            move = f"{self.move(first, d)} as {first} / {self.move(second, d)} as {second}"
            fight = (
                f"{die(d, mods[0] + hero)} as {first} / {die(d, mods[1] + hero)} as {second}"
                f"{hero_note}"
            )
            turns = self.turns("infantry")
        else:
            label = self.type_label(unit["type"])
            if variant is not None:
                label = f"{variant.label} ({label.lower()})"
            move = self.move(unit["type"], d)
            fight = die(d, mods[0] + hero) + hero_note
            turns = self.turns(unit["type"])
        label += self.label_suffix(unit, army)
        if unit["personality"] == "leader":
            turns += "; +1 at any time (leader)"
        stats: dict[str, Any] = {
            "type": label,
            "die": self.die_label(army),
            "move": move,
            self.fight_key: fight,
            "shoot": common.shoot_line(
                unit,
                army,
                base=d,
                shoot=SHOOT,
                variant_shoot=variant.shoot if variant is not None else None,
                roll=self.roll_supply,
                when=self.shoot_when,
            ),
            "hits": self.hits_text(unit),
            "turns": turns,
            "notes": "; ".join(self.notes(unit, army, d)),
        }
        return stats

    def notes(self, unit: Unit, army: Army, d: str) -> list[str]:
        notes = [self.road_note]
        veterans = unit["variant"] == VETERANS
        if unit["type"] == "infantry" or veterans:
            notes.append(
                SHIELDWALL_NOTE.format(veterans=self.veterans_shieldwall if veterans else "")
            )
        notes.append(self.woods_notes[0 if unit["type"] in self.woods_types else 1])
        notes.append(self.rear_note)
        if unit["personality"]:
            notes.append(PERSONALITY_NOTES[unit["personality"]].format(d=d))
        if unit["banner"]:
            notes.append(BANNER_NOTE.format(d=d))
        return notes + self.extra_notes(unit, army, d)

    # -- checks ------------------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        yield from common.missile_issues(unit, index, self.missiles(), self.cavalry_carry)
        variant = self.variant_of(unit)
        if variant is not None:
            yield from self.variant_issues(unit, variant, index)
        yield from self.edition_unit_issues(unit, index, army)
        yield from common.personality_issues(unit, index, army)
        yield from self.late_unit_issues(unit, index, army)

    def check_army(self, army: Army) -> Iterable[Issue]:
        n, size = len(army.units), self.army_size(army)
        if n != size:
            yield warning(
                "army-size",
                f"The army has {plural(n, 'unit')}; {self.size_message(size)}",
                self.size_rule,
            )
        yield from common.personality_limit_issues(army)
        yield from self.edition_army_issues(army)
        if army.list_data is not None:
            yield from self.list_check(army, army.list_data)

    # -- army lists -----------------------------------------------------------------------
    def allowed_values(
        self, list_data: Mapping[str, Any] | None, unit: Mapping[str, Any]
    ) -> Mapping[str, entries.Allowed]:
        return entries.allowed_values(self, list_data, unit, self.field_rules)

    def describe_list(self, list_data: Mapping[str, Any] | None) -> entries.ListDescription:
        return entries.describe_list(self, list_data, **self.describe)

    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        return unit_presets(list_data)

    def list_shape(self) -> ListShape:
        """Required units and choice groups with their options, for the list editor."""
        return shape.list_shape(
            self.unit_fields, allow_fixed=self.allow_fixed, validator=self.validate_army_list
        )

    def validate_army_list(self, data: Any) -> list[str]:
        return validate(
            data,
            fields={f.name: f for f in self.unit_fields},
            variants={
                k: VariantRule(v.label, v.types, v.missiles) for k, v in self.variants.items()
            },
            allow_fixed=self.allow_fixed,
        )

    # -- quick-reference sheet ----------------------------------------------------------
    def sheet_sections(self, army: Army | None) -> Iterable[Section | None]:
        """The edition's own sections of the army part of its QRS."""
        return ()

    def quick_reference(
        self, options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()
    ) -> Sheet:
        return sheet.build(
            self.slug,
            sheet.load(self.sheet_file),
            {**self.default_options(), **options},
            army,
            extras=extras,
            army_sections=self.sheet_sections(army),
        )
