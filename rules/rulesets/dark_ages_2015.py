"""NT Dark Ages Rules, 1-hour update (January 2015): six d6 units, no points.

Digest: ../shared/spec/rulesets/dark-ages-2015.md. Source: seeds/004 (Units, Movement,
Shooting, Melee, Optional rules: Personalities, Variable Quality, Additional Unit Types,
Missile Supply) and its two battle reports, whose armies the tests check.

An army is a number of units (six is the norm, twelve a "double army"), balanced by the
rules rather than by costs. Army lists use the format of ``rules.dark_ages_lists`` (no
fixed units here); a list is written for six units and doubles for a 12-unit army.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules import dark_ages_common as common
from rules.base import Army, CheckDoc, Issue, RuleSet, Ruling, Unit, error, warning
from rules.dark_ages_common import die, plural
from rules.dark_ages_lists import (
    LIST_SIZE,
    ListSpec,
    VariantRule,
    fit,
    list_issues,
    unit_presets,
    validate,
)
from rules.fields import Field, bool_field, choice_field, name_field

DIE = "d6"
MOVE = {"infantry": "1d6+1", "warband": "2d6+2", "skirmishers": "2d6+2", "cavalry": "3d6+3"}
TYPE_LABEL = {
    "infantry": "Infantry",
    "warband": "Warband",
    "cavalry": "Cavalry",
    "skirmishers": "Skirmishers",
}
# melee modifier of each type (skirmishers by missile)
MELEE = {"infantry": 0, "warband": 2, "cavalry": -1}
SKIRMISH_MELEE = {"bow": -2, "javelin": -1}
SHOOT = {"bow": (-2, 12), "javelin": (-1, 6)}
SHOOT_WHEN = {"bow": "not after moving", "javelin": "or a moving shot in the Movement phase"}
ROLL_SUPPLY = "from the 2nd shot an unmodified 5 or 6 is the last"
HITS = {"standard": 15, "elite": 18, "levy": 12}
TURNS = {
    "infantry": "1, at the start or the end of its move",
    "warband": "1, at the start or the end of its move",
    "skirmishers": "2, one at the start and one at the end of its move",
    "cavalry": "2, one at the start and one at the end of its move",
}
# which missiles each type may carry (cavalry: null is read as its javelins, ruling R3)
MISSILES: dict[str, tuple[str | None, ...]] = {
    "infantry": (None,),
    "warband": (None,),
    "cavalry": ("javelin",),
    "skirmishers": ("bow", "javelin"),
}


class Variant:
    """An additional unit type: the type(s) it has, what it fixes, how it fights."""

    def __init__(
        self,
        label: str,
        types: tuple[str, ...],
        missiles: tuple[str | None, ...],
        melee: int | None,
        *,
        shoot: int | None = None,
        quality: str | None = None,
        source: str,
    ) -> None:
        self.label = label
        self.types = types
        self.missiles = missiles
        self.melee = melee  # None: as its type
        self.shoot = shoot  # None: as its missile
        self.quality = quality
        self.source = source


VARIANTS = {
    "roman_militia": Variant("Roman militia", ("infantry",), (None,), -1,
                             source="Infantry who melee at d6-1."),
    "roman_cavalry": Variant("Roman cavalry", ("cavalry",), ("javelin",), 0, shoot=0,
                             source="Better-equipped cavalry on bigger horses: shoot and melee "
                                    "at d6."),
    "arthurs_cavalry": Variant("Arthur's cavalry", ("cavalry",), ("javelin",), 0, shoot=0,
                               quality="elite", source="As Roman cavalry, but Elite."),
    "the_knights": Variant('"The Knights"', ("cavalry",), ("javelin",), 1, shoot=0,
                           quality="elite", source="Arthur's cavalry fighting at d6+1."),
    "mounted_servants": Variant("Mounted servants", ("cavalry",), ("javelin",), -2,
                                source="Javelin cavalry fighting at d6-2; may be Elite beside "
                                       "an Elite cavalry unit, then a second Levy unit."),
    "irish_nobles": Variant("Irish nobles", ("skirmishers",), ("javelin",), 0,
                            source="Javelin skirmishers who fight at d6."),
    "scots_nobles": Variant("Scots nobles", ("warband",), (None,), 1, quality="elite",
                            source="Stubborn warband fighting at d6+1, Elite."),
    "viking_veterans": Variant("Viking veterans", ("infantry", "warband"), (None,), None,
                               source="Fight as infantry or warband, chosen after deployment."),
}  # fmt: skip

PERSONALITY_NOTES = {
    "hero": "hero: +1 in shooting and melee",
    "leader": "leader: one extra turn at any time in its move",
    "priest": "priest: rallies 2-4 hits (half a d6, rounded up, +1)",
}
BANNER_NOTE = "banner: rallies 1-3 hits (half a d6, rounded up) if not in melee, not moved or shot"

LIST_RULE = "Ruling R11"  # the source prints no army lists: Muster compiled them (R11)


class DarkAges2015(RuleSet):
    slug = "dark-ages-2015"
    title = "NT Dark Ages Rules (2015)"
    source = "NT Dark Ages Rules — One-Hour Wargames update (January 2015), d6"
    summary = (
        "No points: an army is six units (twelve for a double army) of infantry, warband, "
        "cavalry and skirmishers, balanced by the rules. Optional variable quality (one "
        "Elite unit per six, paid for with a Levy unit), personalities with banners, and "
        "additional unit types such as Arthur's cavalry and Viking veterans. All dice are d6."
    )
    order = 60
    uses_points = False
    options = (
        Field("army_size", "Army size (units)", "integer", default=6, minimum=3, maximum=24,
              help="The scenario's number of units: six is the norm, twelve a double army."),
        bool_field("variable_quality", "Variable quality", default=True,
                   help="One Elite unit (18 hits) per six units, each balanced by a Levy "
                        "unit (12 hits)."),
        bool_field("personalities", "Personalities", default=True,
                   help="One hero, leader, priest or banner per three units."),
        choice_field("missile_supply", "Missile supply",
                     [("three_shots", "Three shots"),
                      ("roll", "Roll: from the second shot an unmodified 5 or 6 is the last")]),
    )  # fmt: skip
    unit_fields = (
        name_field(),
        choice_field("type", "Type",
                     [("infantry", "Infantry (shieldwall)"), ("warband", "Warband"),
                      ("cavalry", "Cavalry"), ("skirmishers", "Skirmishers")]),
        choice_field("missile", "Missile",
                     [("bow", "Bow (12\", d6-2)"), ("javelin", "Javelin (6\", d6-1)")],
                     nullable=True,
                     help="Skirmishers need one; cavalry carry javelins; infantry and warband "
                          "none."),
        choice_field("quality", "Quality",
                     [("standard", "Standard (15 hits)"), ("elite", "Elite (18 hits)"),
                      ("levy", "Levy (12 hits)")],
                     help="Variable quality: one Elite per six units, and a Levy for each "
                          "Elite."),
        choice_field("variant", "Additional unit type",
                     [(key, v.label) for key, v in VARIANTS.items()], nullable=True,
                     help="Fixes the unit's type (and quality where the source says so)."),
        choice_field("personality", "Personality",
                     [("hero", "Hero (+1 shooting and melee)"),
                      ("leader", "Leader (one extra turn)"),
                      ("priest", "Priest (rallies 2-4 hits)")], nullable=True),
        bool_field("banner", "Banner",
                   help="An upgrade to a hero or leader: rallies 1-3 hits. Counts as a "
                        "personality."),
    )  # fmt: skip
    rulings = (
        Ruling("R1", 'The source runs two lines together: "Viking VeteransAfter deployment '
                     'choose..." is read as "Viking Veterans. After deployment choose to fight '
                     'as Infantry OR Warband." The roster prints both lines.'),
        Ruling("R2", 'Declared Movement ends with a stray fragment ("...if you use this rule.f '
                     'the movement rolled permits them to do so."): read as the end of "Warband '
                     'must contact an enemy Unit if the movement rolled permits them to do so."'),
        Ruling("R3", "Every cavalry unit carries javelins (\"hurl missiles\"; cavalry shoot in "
                     "the Shooting phase): a cavalry unit with no missile is read as javelin "
                     "cavalry; a bow on cavalry is refused."),
        Ruling("R4", "Roman cavalry \"shoot & melee at d6\": their javelins shoot at d6 (not "
                     "d6-1) and they fight at d6 (not d6-1). Arthur's cavalry are the same but "
                     "Elite; \"the Knights\" fight at d6+1."),
        Ruling("R5", "Mounted servants \"fight with javelin but at d6-2\": their melee is "
                     "d6-2; their javelins shoot at the usual d6-1."),
        Ruling("R6", "Elite units: one per full six units (floor(units / 6)), so a 12-unit "
                     "double army may have two and an army under six none. Mounted servants "
                     "may be Elite only when another Elite cavalry unit is in play, and then "
                     "as one Elite more than the allowance; every Elite needs a Levy."),
        Ruling("R7", "\"One Unit may be Elite\" under Irish nobles and Viking veterans restates "
                     "the Variable Quality allowance; it gives no extra Elite unit."),
        Ruling("R8", "With variable quality off no unit is Elite or Levy, so the Elite-by-"
                     "definition types (Arthur's cavalry, \"the Knights\", Scots nobles) cannot "
                     "be fielded."),
        Ruling("R9", "The personality limit is floor(units / 3); a banner counts as one of "
                     "them, as the source says. A hero's +1 shows in the unit's melee and shoot "
                     "lines while he is with it."),
        Ruling("R10", "The battle reports' playtest tweaks (9\" javelins for cavalry, light "
                      "cavalry at d6-2, 2d6-1 infantry movement) are not the rules text; Muster "
                      "follows the rules text. The reports' light cavalry are mounted servants, "
                      "their armoured Teulu javelin cavalry."),
        Ruling("R11", "The source prints no army lists. Muster's starter lists are six-unit "
                      "lists compiled from the unit descriptions and the battle reports; for a "
                      "double (triple...) army every number in the list doubles (triples...), "
                      "so with a list the army size must be a multiple of six."),
    )  # fmt: skip
    not_offered = (
        "Force morale, initiative, fall back and declared movement: rules of play with "
        "nothing to choose when building an army (they appear on the quick-reference sheet).",
    )
    checks = (
        CheckDoc("skirmishers-need-missile", "error", "unit",
                 "Skirmishers without a bow or javelins."),
        CheckDoc("missile-not-allowed", "error", "unit",
                 "A missile the type cannot carry: infantry and warband carry none, cavalry "
                 "only javelins."),
        CheckDoc("variant-type-mismatch", "error", "unit",
                 "An additional unit type with a type, quality or missile it does not allow "
                 "(e.g. Arthur's cavalry that are not Elite cavalry)."),
        CheckDoc("banner-needs-hero-or-leader", "error", "unit",
                 "A banner on a unit without a hero or leader."),
        CheckDoc("quality-disabled", "error", "unit",
                 "An Elite or Levy unit while variable quality is off."),
        CheckDoc("personalities-disabled", "error", "unit",
                 "A personality or banner while personalities are off."),
        CheckDoc("army-size", "warning", "army",
                 "The number of units is not the scenario's army size."),
        CheckDoc("too-many-personalities", "error", "army",
                 "Heroes, leaders, priests and banners together exceed one per three units."),
        CheckDoc("elite-limit", "error", "army",
                 "More Elite units than one per six units (plus one Elite mounted servants "
                 "beside another Elite cavalry unit), or Elite mounted servants with no other "
                 "Elite cavalry."),
        CheckDoc("elite-needs-levy", "error", "army", "Fewer Levy units than Elite units."),
        CheckDoc("army-list-size", "error", "army_list",
                 "An army list used with an army size that is not a multiple of six."),
        CheckDoc("missing-required-unit", "error", "army_list",
                 "Fewer of a required unit than the list requires."),
        CheckDoc("choice-not-allowed", "error", "army_list",
                 "A unit that is neither a required unit nor a choice of the list."),
        CheckDoc("too-many-of-choice", "error", "army_list",
                 "More of a choice than its maximum, or more choices than the list picks."),
    )  # fmt: skip

    # -- parsing -----------------------------------------------------------------------
    def normalise_unit(self, unit: Unit, options: Mapping[str, Any], path: str) -> Unit:
        if unit["type"] == "cavalry" and unit["missile"] is None:
            return {**unit, "missile": "javelin"}  # R3
        return unit

    # -- stat line --------------------------------------------------------------------------
    def melee_modifier(self, unit: Unit, type_: str | None = None) -> int:
        """The unit's own melee modifier (no hero), as ``type_`` for Viking veterans."""
        type_ = type_ or unit["type"]
        variant = VARIANTS.get(unit["variant"] or "")
        if variant is not None and variant.melee is not None:
            return variant.melee
        if type_ == "skirmishers":
            return SKIRMISH_MELEE.get(unit["missile"] or "", 0)
        return MELEE[type_]

    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        hero, hero_note = common.hero_bonus(unit)
        variant = VARIANTS.get(unit["variant"] or "")
        if unit["variant"] == "viking_veterans":
            label = "Viking veterans: infantry or warband, chosen after deployment"
            move = f'{MOVE["infantry"]}" as infantry / {MOVE["warband"]}" as warband'
            melee = (
                f"{die(DIE, self.melee_modifier(unit, 'infantry') + hero)} as infantry / "
                f"{die(DIE, self.melee_modifier(unit, 'warband') + hero)} as warband{hero_note}"
            )
            turns = TURNS["infantry"]
        else:
            label = TYPE_LABEL[unit["type"]]
            if variant is not None:
                label = f"{variant.label} ({label.lower()})"
            move = f'{MOVE[unit["type"]]}"'
            melee = die(DIE, self.melee_modifier(unit) + hero) + hero_note
            turns = TURNS[unit["type"]]
        if unit["personality"] == "leader":
            turns += "; +1 at any time (leader)"
        stats: dict[str, Any] = {
            "type": label,
            "die": DIE,
            "move": move,
            "melee": melee,
            "shoot": common.shoot_line(
                unit,
                army,
                base=DIE,
                shoot=SHOOT,
                variant_shoot=variant.shoot if variant is not None else None,
                roll=ROLL_SUPPLY,
                when=SHOOT_WHEN,
            ),
            "hits": str(HITS[unit["quality"]])
            + {"standard": "", "elite": " (Elite)", "levy": " (Levy)"}[unit["quality"]],
            "turns": turns,
        }
        notes = ['road +3" when moving entirely along it, not charging']
        if unit["type"] == "infantry" or unit["variant"] == "viking_veterans":
            notes.append(
                "shieldwall"
                + (" (as infantry)" if unit["variant"] == "viking_veterans" else "")
                + ": halves shooting hits from front and flank, halves melee hits"
            )
        notes.append("may enter woods" if unit["type"] == "skirmishers" else "may not enter woods")
        notes.append("rear attacks double hits")
        if unit["personality"]:
            notes.append(PERSONALITY_NOTES[unit["personality"]])
        if unit["banner"]:
            notes.append(BANNER_NOTE)
        stats["notes"] = "; ".join(notes)
        return stats

    # -- checks ----------------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        name = unit["name"]
        yield from common.missile_issues(unit, index, MISSILES, "javelins only")
        variant = VARIANTS.get(unit["variant"] or "")
        if variant is not None:
            yield from self._check_variant(unit, variant, index)
        quality = unit["quality"]
        if quality != "standard" and not army.options["variable_quality"]:
            yield error("quality-disabled",
                        f"{name}: {quality.capitalize()} needs the variable quality option; "
                        "switch it on or make the unit standard.", "Variable Quality",
                        unit=index)  # fmt: skip
        yield from common.personality_issues(unit, index, army)

    def _check_variant(self, unit: Unit, variant: Variant, index: int) -> Iterable[Issue]:
        name = unit["name"]
        rule = "Additional Unit Types"
        yield from common.variant_issues(unit, index, variant, rule)
        if variant.quality and unit["quality"] != variant.quality:
            yield error("variant-type-mismatch",
                        f"{name}: {variant.label} are {variant.quality.capitalize()}; set "
                        f"quality to {variant.quality}.", rule, unit=index)  # fmt: skip

    def check_army(self, army: Army) -> Iterable[Issue]:
        n = len(army.units)
        size = army.options["army_size"]
        if n != size:
            yield warning("army-size",
                          f"The army has {plural(n, 'unit')}; the scenario's army size is "
                          f"{size}.", "Units")  # fmt: skip
        yield from common.personality_limit_issues(army)
        if army.options["variable_quality"]:
            yield from self._check_quality(army)
        if army.list_data is not None:
            yield from self._check_list(army, army.list_data)

    def _check_quality(self, army: Army) -> Iterable[Issue]:
        units = army.units
        rule = "Variable Quality"
        elite = [i for i, u in enumerate(units) if u["quality"] == "elite"]
        levy = [i for i, u in enumerate(units) if u["quality"] == "levy"]
        servants = [i for i in elite if units[i]["variant"] == "mounted_servants"]
        other_cavalry = any(
            units[i]["type"] == "cavalry" and units[i]["variant"] != "mounted_servants"
            for i in elite
        )
        if not other_cavalry:
            for i in servants:
                yield error("elite-limit",
                            f"{units[i]['name']}: mounted servants may be Elite only when "
                            "another Elite cavalry unit is in play.", "Additional Unit Types",
                            unit=i)  # fmt: skip
        allowed = len(units) // 6
        extra = 1 if servants and other_cavalry else 0
        if len(elite) > allowed + extra:
            plus = " plus Elite mounted servants beside Elite cavalry" if extra else ""
            yield error("elite-limit",
                        f"{plural(len(elite), 'Elite unit')}; {plural(len(units), 'unit')} "
                        f"allow {allowed} (one per six units){plus}.", rule)  # fmt: skip
        if len(levy) < len(elite):
            yield error("elite-needs-levy",
                        f"Each Elite unit must be balanced by a Levy unit: "
                        f"{plural(len(elite), 'Elite unit')}, {plural(len(levy), 'Levy unit')}.",
                        rule)  # fmt: skip

    def _check_list(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
        size = army.options["army_size"]
        if size % LIST_SIZE:
            yield error("army-list-size",
                        f"Army lists are written for six units (twelve for a double army); "
                        f"an army size of {size} cannot use one. Choose 6, 12, 18 or 24.",
                        LIST_RULE)  # fmt: skip
            return
        spec = ListSpec.from_data(data)
        result = fit(list(enumerate(army.units)), spec, scale=size // LIST_SIZE)
        yield from list_issues(result, dict(enumerate(army.units)), LIST_RULE)

    # -- army lists ---------------------------------------------------------------------
    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        return unit_presets(list_data)

    def validate_army_list(self, data: Any) -> list[str]:
        return validate(
            data,
            fields={f.name: f for f in self.unit_fields},
            variants={k: VariantRule(v.label, v.types, v.missiles) for k, v in VARIANTS.items()},
            allow_fixed=False,
        )


RULESET = DarkAges2015()
