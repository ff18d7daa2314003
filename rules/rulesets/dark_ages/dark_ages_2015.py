"""NT Dark Ages Rules, 1-hour update (January 2015): six d6 units, no points.

Digest: ../shared/spec/rulesets/dark-ages-2015.md. Source: seeds/004 (Units, Movement,
Shooting, Melee, Optional rules: Personalities, Variable Quality, Additional Unit Types,
Missile Supply) and its two battle reports, whose armies the tests check.

An army is a number of units (six is the norm, twelve a "double army"), balanced by the
rules rather than by costs. Army lists use the format of ``rules.rulesets.dark_ages.lists`` (no
fixed units here); a list is written for six units and doubles for a 12-unit army.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import Army, CheckDoc, Issue, Ruling, Unit, error
from rules.fields import Field, bool_field, choice_field, name_field
from rules.rulesets.dark_ages import common, core, entries
from rules.rulesets.dark_ages.common import plural
from rules.rulesets.dark_ages.fit import fit, list_issues
from rules.rulesets.dark_ages.lists import LIST_SIZE, ListSpec

DIE = "d6"
MOVE = {"infantry": "1d6+1", "warband": "2d6+2", "skirmishers": "2d6+2", "cavalry": "3d6+3"}
# melee modifier of each type (skirmishers by missile)
MELEE = {"infantry": 0, "warband": 2, "cavalry": -1}
SKIRMISH_MELEE = {"bow": -2, "javelin": -1}
SHOOT_WHEN = {"bow": "not after moving", "javelin": "or a moving shot in the Movement phase"}
ROLL_SUPPLY = "from the 2nd shot an unmodified 5 or 6 is the last"
HITS = {"standard": 15, "elite": 18, "levy": 12}


VARIANTS = {
    "roman_militia": core.Variant("Roman militia", ("infantry",), (None,), -1,
                             source="Infantry who melee at d6-1."),
    "roman_cavalry": core.Variant("Roman cavalry", ("cavalry",), ("javelin",), 0, shoot=0,
                             source="Better-equipped cavalry on bigger horses: shoot and melee "
                                    "at d6."),
    "arthurs_cavalry": core.Variant("Arthur's cavalry", ("cavalry",), ("javelin",), 0, shoot=0,
                               quality="elite", source="As Roman cavalry, but Elite."),
    "the_knights": core.Variant('"The Knights"', ("cavalry",), ("javelin",), 1, shoot=0,
                           quality="elite", source="Arthur's cavalry fighting at d6+1."),
    "mounted_servants": core.Variant("Mounted servants", ("cavalry",), ("javelin",), -2,
                                source="Javelin cavalry fighting at d6-2; may be Elite beside "
                                       "an Elite cavalry unit, then a second Levy unit."),
    "irish_nobles": core.Variant("Irish nobles", ("skirmishers",), ("javelin",), 0,
                            source="Javelin skirmishers who fight at d6."),
    "scots_nobles": core.Variant("Scots nobles", ("warband",), (None,), 1, quality="elite",
                            source="Stubborn warband fighting at d6+1, Elite."),
    "viking_veterans": core.Variant("Viking veterans", ("infantry", "warband"), (None,), None,
                               source="Fight as infantry or warband, chosen after deployment."),
}  # fmt: skip

LIST_RULE = "Ruling R11"  # the source prints no army lists: Muster compiled them (R11)


class DarkAges2015(core.DarkAgesRuleSet):
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
        core.PERSONALITIES_OPTION,
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
        core.quality_field("Quality", "Elite (18 hits)", "Levy (12 hits)",
                           "Variable quality: one Elite per six units, and a Levy for each "
                           "Elite."),
        core.variant_field("Additional unit type", VARIANTS,
                           "Fixes the unit's type (and quality where the source says so)."),
        core.PERSONALITY_FIELD,
        core.BANNER_FIELD,
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
    checks = (
        core.SKIRMISHERS_NEED_MISSILE,
        core.missile_check("infantry and warband carry none, cavalry only javelins."),
        core.variant_check("An additional unit type with a type, quality or missile it does "
                           "not allow (e.g. Arthur's cavalry that are not Elite cavalry)."),
        core.BANNER_NEEDS_HERO,
        core.QUALITY_DISABLED,
        core.PERSONALITIES_DISABLED,
        CheckDoc("army-size", "warning", "army",
                 "The number of units is not the scenario's army size."),
        core.TOO_MANY_PERSONALITIES,
        CheckDoc("elite-limit", "error", "army",
                 "More Elite units than one per six units (plus one Elite mounted servants "
                 "beside another Elite cavalry unit), or Elite mounted servants with no other "
                 "Elite cavalry."),
        CheckDoc("elite-needs-levy", "error", "army", "Fewer Levy units than Elite units."),
        CheckDoc("army-list-size", "error", "army_list",
                 "An army list used with an army size that is not a multiple of six."),
        *core.LIST_CHECKS,
    )  # fmt: skip

    variants = VARIANTS
    shoot_when = SHOOT_WHEN
    roll_supply = ROLL_SUPPLY
    # cavalry carry javelins (a null missile is read as javelins, ruling R3)
    cavalry_missiles = ("javelin",)
    cavalry_carry = "javelins only"
    veteran_types = ("infantry", "warband")
    fight_key = "melee"
    road_note = 'road +3" when moving entirely along it, not charging'
    veterans_shieldwall = " (as infantry)"
    woods_types = ("skirmishers",)
    woods_notes = ("may enter woods", "may not enter woods")
    rear_note = "rear attacks double hits"
    variant_rule = "Additional Unit Types"
    list_rule = LIST_RULE
    size_rule = "Units"
    field_rules = entries.FIELD_RULES_2015
    describe = {"doubles": True}
    allow_fixed = False
    sheet_file = "sheet_2015.toml"

    # -- parsing -----------------------------------------------------------------------
    def normalise_unit(self, unit: Unit, options: Mapping[str, Any], path: str) -> Unit:
        if unit["type"] == "cavalry" and unit["missile"] is None:
            return {**unit, "missile": "javelin"}  # R3
        return unit

    # -- stat line --------------------------------------------------------------------------
    def die_of(self, army: Army) -> str:
        return DIE

    def move(self, type_: str, d: str) -> str:
        return f'{MOVE[type_]}"'

    def melee_modifier(self, unit: Unit, type_: str | None = None) -> int:
        """The unit's own melee modifier (no hero), as ``type_`` for Viking veterans."""
        type_ = type_ or unit["type"]
        variant = self.variant_of(unit)
        if variant is not None and variant.modifier is not None:
            return variant.modifier
        if type_ == "skirmishers":
            return SKIRMISH_MELEE.get(unit["missile"] or "", 0)
        return MELEE[type_]

    def modifiers(self, unit: Unit) -> list[int]:
        if unit["variant"] == "viking_veterans":
            return [self.melee_modifier(unit, t) for t in self.veteran_types]
        return [self.melee_modifier(unit)]

    @staticmethod
    def hits(unit: Unit) -> int:
        return HITS[unit["quality"]]

    def hits_text(self, unit: Unit) -> str:
        quality = unit["quality"]
        return str(HITS[quality]) + ("" if quality == "standard" else f" ({quality.capitalize()})")

    # -- checks ----------------------------------------------------------------------------
    def variant_issues(self, unit: Unit, variant: core.Variant, index: int) -> Iterable[Issue]:
        yield from common.variant_issues(unit, index, variant, self.variant_rule)
        if variant.quality and unit["quality"] != variant.quality:
            yield error("variant-type-mismatch",
                        f"{unit['name']}: {variant.label} are {variant.quality.capitalize()}; "
                        f"set quality to {variant.quality}.", self.variant_rule, unit=index)  # fmt: skip

    def edition_unit_issues(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        quality = unit["quality"]
        if quality != "standard" and not army.options["variable_quality"]:
            yield error("quality-disabled",
                        f"{unit['name']}: {quality.capitalize()} needs the variable quality "
                        "option; switch it on or make the unit standard.", "Variable Quality",
                        unit=index)  # fmt: skip

    def army_size(self, army: Army) -> int:
        return int(army.options["army_size"])

    def size_message(self, size: int) -> str:
        return f"the scenario's army size is {size}."

    def edition_army_issues(self, army: Army) -> Iterable[Issue]:
        if army.options["variable_quality"]:
            yield from self._check_quality(army)

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
            yield error("elite-needs-levy", common.levy_balance_message(len(elite), len(levy)),
                        rule)  # fmt: skip

    def list_check(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
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
    def list_entries(
        self, list_data: Mapping[str, Any] | None, army: Army | None
    ) -> tuple[entries.EntryStatus, ...]:
        size = army.options["army_size"] if army is not None else LIST_SIZE
        scale = size // LIST_SIZE if size % LIST_SIZE == 0 else 1
        units = list(enumerate(army.units)) if army is not None else []
        return entries.list_entries(self, list_data, army, units=units, scale=scale)


RULESET = DarkAges2015()
