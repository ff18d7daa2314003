"""Dark Age Wargame Rules, d5 revision: six-unit army lists, upgrades paid by downgrades.

Digest: ../shared/spec/rulesets/dark-ages-d5.md. Source: seeds/001 (Units, Dice, Movement,
Shooting, Melee, Optional rules, Ideas for Unit Types, Army Lists, Variations for All
Armies, Allied Forces).

No points. The "d5" is the UK average die, faces 2, 3, 3, 4, 4, 5; the ``dice`` option
switches to a d6. Army lists use the format of ``rules.rulesets.dark_ages.lists`` (with fixed
units: the source's italics). A unit's ``ally`` holds the slug of another list of this
rule set when the unit belongs to an allied contingent drawn from that list's required
units; ``normalise_army`` refuses slugs that name no list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import Army, CheckDoc, Issue, Ruling, Unit, error, warning
from rules.errors import MalformedDocument
from rules.fields import Field, bool_field, choice_field, name_field
from rules.qrs import Section
from rules.rulesets.dark_ages import common, core, entries
from rules.rulesets.dark_ages.allies import (
    allies_section,
    ally_entries,
    ally_issues,
    changed,
    fixed_issues,
)
from rules.rulesets.dark_ages.common import plural
from rules.rulesets.dark_ages.fit import fit, list_issues
from rules.rulesets.dark_ages.lists import ListSpec

ARMY_SIZE = 6
AVERAGE_DIE = "d5 (average die: 2, 3, 3, 4, 4, 5)"
# the movement die count and bonus of each type
MOVE = {"infantry": (1, 2), "warriors": (2, 2), "raiders": (2, 2), "skirmishers": (2, 2),
        "cavalry": (3, 2)}  # fmt: skip
ATTACK = {"infantry": 0, "warriors": 1, "raiders": 0, "cavalry": 0}
MISSILE_ATTACK = {("cavalry", "javelin"): -1, ("skirmishers", "javelin"): -1,
                  ("skirmishers", "bow"): -2}  # fmt: skip
SHOOT_WHEN = {
    "bow": "not after moving (turning is not moving)",
    "javelin": "or a moving shot before or after its move",
}
ROLL_SUPPLY = "a natural 5 is the last shot"
CHANGE_ATTACK = {"household": 1, "levy": -1}
CHANGE_HITS = {"determined": 18, "reluctant": 12}
UPGRADES = ("household", "determined")
DOWNGRADES = ("levy", "reluctant")
ATTACK_CAP = 2


VARIANTS = {
    "roman_militia": core.Variant("Roman militia", ("infantry",), (None,), -1),
    "roman_cavalry": core.Variant("Roman cavalry", ("cavalry",), ("javelin",), 0, shoot=0),
    "arthurs_cavalry": core.Variant("Arthur's cavalry", ("cavalry",), ("javelin",), 1, shoot=0),
    "roundtable_knights": core.Variant(
        "Round-table knights", ("cavalry",), ("javelin",), 2, shoot=0
    ),
    "mounted_servants": core.Variant("Mounted servants", ("cavalry",), ("javelin",), -2),
    "irish_nobles": core.Variant("Irish nobles", ("skirmishers",), ("javelin",), 0),
    "scots_nobles": core.Variant("Scots nobles", ("warriors",), (None,), 1, hits=18),
    "viking_veterans": core.Variant("Viking veterans", ("infantry", "warriors"), (None,), None),
}
ARTHURIAN = ("arthurs_cavalry", "roundtable_knights")

LIST_RULE = "Army Lists"
CHANGE_RULE = "Variations for All Armies"
QUALITY_RULE = "VARIABLE QUALITY"
QUALITY_HITS = {"elite": 18, "levy": 12}


class DarkAgesD5(core.DarkAgesRuleSet):
    slug = "dark-ages-d5"
    title = "Dark Age Wargame Rules (d5)"
    source = 'Dark Age Wargame Rules — later revision with d5 "average dice"'
    summary = (
        "No points: six-unit army lists of required units plus choices. One unit may be "
        "upgraded (Household +1 attack, or Determined 18 hits) if another is downgraded "
        '(Levy -1 attack, or Reluctant 12 hits). Dice are the d5 "average die" with faces '
        "2, 3, 3, 4, 4, 5 (or a d6 for wilder results). Warband are Warriors or Raiders; "
        "1-3 allied units may come from another list's required units."
    )
    order = 70
    uses_points = False
    options = (
        choice_field("dice", "Dice",
                     [("d5", "d5: the average die, faces 2, 3, 3, 4, 4, 5"),
                      ("d6", "d6: wilder results")],
                     help="Every roll (movement, shooting, melee, rallies) uses this die."),
        core.PERSONALITIES_OPTION,
        choice_field("missile_supply", "Missile supply",
                     [("three_shots", "Three shots"),
                      ("roll", "Roll: a natural 5 is the last shot")]),
        bool_field("rally_variation", "Rally variation",
                   help="A unit with 5 or more hits cannot rally below 5."),
        bool_field("variable_quality", "Variable quality",
                   help="One Elite unit (18 casualties) per six units, balanced by a Levy "
                        "(12 casualties); separate from the upgrade and downgrade."),
    )  # fmt: skip
    unit_fields = (
        name_field(),
        choice_field("type", "Type",
                     [("infantry", "Infantry (shieldwall)"),
                      ("warriors", "Warriors (warband, +1 attack)"),
                      ("raiders", "Raiders (warband, enter woods and marsh)"),
                      ("cavalry", "Cavalry"), ("skirmishers", "Skirmishers")]),
        choice_field("missile", "Missile",
                     [("javelin", "Javelin (6\", -1)"), ("bow", "Bow (12\", -2)")],
                     nullable=True,
                     help="Skirmishers need one; cavalry may carry javelins; others none."),
        choice_field("change", "Upgrade or downgrade",
                     [("household", "Household (upgrade: +1 attack)"),
                      ("determined", "Determined (upgrade: 18 hits)"),
                      ("levy", "Levy (downgrade: -1 attack)"),
                      ("reluctant", "Reluctant (downgrade: 12 hits)")], nullable=True,
                     help="One upgrade per army, paid for by one downgrade; one change per unit."),
        core.quality_field("Quality (variable quality)", "Elite / stubborn (18 casualties)",
                           "Levy / nervous (12 casualties)",
                           "Only with the variable-quality option: one Elite per six units, "
                           "and a Levy for each Elite."),
        core.variant_field("Unit type idea", VARIANTS, "Fixes the unit's type and attack."),
        Field("ally", "Allied from list", "string", nullable=True, maximum=80,
              help="The army list this allied unit comes from, by its name (the unit is "
                   "one of that list's required units); none for the army's own units."),
        core.PERSONALITY_FIELD,
        core.BANNER_FIELD,
    )  # fmt: skip
    rulings = (
        Ruling("R1", "The d5 is the UK \"average die\": faces 2, 3, 3, 4, 4, 5 (no 1 or 6). "
                     "With the d6 option every d5 in the rules (movement, shooting, melee, "
                     "rallies) becomes a d6; the stat lines print the die chosen."),
        Ruling("R2", "Missile supply: \"a natural 5\" ends the missiles with either die (on "
                     "the d5 and on the d6 alike a 1-in-6 chance)."),
        Ruling("R3", "Warband are Warriors (d5+1, terrain as infantry) or Raiders (d5, may "
                     "enter woods and marsh like skirmishers), as the source's Unit "
                     "Definitions say."),
        Ruling("R4", "Cavalry fight at d5, or d5-1 with javelins (\"Cavalry, javelins ... "
                     "attack at d5-1\"); a cavalry unit may carry javelins or nothing."),
        Ruling("R5", "\"Arthur's Cavalry. As above, but are d5+1\": they shoot like Roman "
                     "cavalry (javelins at d5) and fight at d5+1; round-table knights fight at "
                     "d5+2 and count as Arthur's cavalry for the mounted servants' upgrade."),
        Ruling("R6", "Mounted servants fight at d5-2; their javelins shoot at the usual d5-1."),
        Ruling("R7", "Household and Levy change the melee attack only; a hero's +1 applies "
                     "to shooting and melee. The ±2 cap counts the unit's own attack modifier "
                     "(type or unit-type idea) plus its change, not a hero, who moves between "
                     "units."),
        Ruling("R8", "Scots nobles are Determined by definition (18 hits): a further "
                     "Determined change gains nothing (warned); Reluctant makes them 12 hits."),
        Ruling("R9", "One upgrade per army, counting allied units too; mounted servants may "
                     "take a second upgrade only when Arthur's cavalry (or round-table knights) "
                     "are in play, and every upgrade needs its own downgrade (a downgrade "
                     "without an upgrade is refused too)."),
        Ruling("R10", "\"Units in italics may not be changed\": the italics did not survive, so "
                      "Muster's lists mark such units `fixed`; a change on a unit that can only "
                      "fill a fixed place is refused."),
        Ruling("R11", "The source's lists did not survive. Muster's starter lists are six-unit "
                      "lists compiled from the source's unit descriptions and battle reports."),
        Ruling("R12", "Allies: one allied contingent, from one other list, of 1-3 of that "
                      "list's required units (within their numbers). Allied units take the "
                      "places of the army list's choices first, then of its required units. "
                      "Only a 3-unit contingent may have a personality, and only one: any "
                      "other personality on an allied unit would be the host's, on a unit of "
                      "another list. Allies without their personality do not move on a "
                      "natural 2 for movement."),
        Ruling("R13", "The personality limit is floor(units / 3), counting allied units and "
                      "the allies' personality; a banner counts as one."),
        Ruling("R14", "VARIABLE QUALITY is an optional rule, off by default: \"For each army "
                      "of six Units, allow one Unit to be Elite, but one must be Levy to "
                      "balance things out!\" Elite (18 casualties) and Levy (12) are a unit's "
                      "quality, separate from the one upgrade and one downgrade. Quality and a "
                      "Determined or Reluctant change both set a unit's casualties, so a unit "
                      "takes one or the other; Scots nobles have 18 already and cannot be "
                      "Elite."),
    )  # fmt: skip
    checks = (
        core.SKIRMISHERS_NEED_MISSILE,
        core.missile_check("only skirmishers and cavalry carry missiles, cavalry only "
                           "javelins."),
        core.variant_check("A unit-type idea with a type or missile it does not allow (e.g. "
                           "Scots nobles that are not warriors)."),
        CheckDoc("attack-modifier-cap", "error", "unit",
                 "An attack modifier above +2 or below -2 after the unit's change (e.g. "
                 "round-table knights made Household)."),
        CheckDoc("change-has-no-effect", "warning", "unit",
                 "A Determined change on Scots nobles, who are Determined already."),
        core.BANNER_NEEDS_HERO,
        core.QUALITY_DISABLED,
        CheckDoc("quality-conflicts-change", "error", "unit",
                 "Elite or Levy quality with a Determined or Reluctant change (both set the "
                 "unit's casualties), or Elite Scots nobles (R14)."),
        core.PERSONALITIES_DISABLED,
        CheckDoc("army-size", "warning", "army", "Not six units."),
        core.TOO_MANY_PERSONALITIES,
        CheckDoc("upgrade-limit", "error", "army",
                 "More than one upgraded unit, except a second upgrade on mounted servants "
                 "when Arthur's cavalry is in play."),
        CheckDoc("downgrade-required", "error", "army",
                 "Upgrades and downgrades are not equal in number."),
        CheckDoc("elite-limit", "error", "army",
                 "With variable quality, more Elite units than one per six units."),
        CheckDoc("elite-needs-levy", "error", "army",
                 "With variable quality, fewer Levy units than Elite units."),
        CheckDoc("fixed-unit-changed", "error", "army_list",
                 "A change on a unit the army list marks as fixed (the source's italics)."),
        CheckDoc("ally-count", "error", "army",
                 "An allied contingent of more than 3 units, or allies from more than one list."),
        CheckDoc("ally-not-required", "error", "unit",
                 "An allied unit that is not one of the required units of its own list."),
        CheckDoc("ally-personality", "error", "unit",
                 "A personality on an allied contingent of fewer than 3 units, or a second "
                 "personality on allied units (a host personality on another list's unit)."),
        *core.LIST_CHECKS,
    )  # fmt: skip

    variants = VARIANTS
    shoot_when = SHOOT_WHEN
    roll_supply = ROLL_SUPPLY
    type_labels = {"warriors": "Warriors (warband)", "raiders": "Raiders (warband)"}
    cavalry_missiles = (None, "javelin")
    cavalry_carry = "javelins or nothing"
    veteran_types = ("infantry", "warriors")
    fight_key = "attack"
    road_note = 'road +3" moving entirely along it, neither charging nor turning'
    veterans_shieldwall = ""
    woods_types = ("skirmishers", "raiders")
    woods_notes = ("may enter woods and marsh", "may not enter woods or marsh")
    rear_note = "defensive benefits stack to at most 1/4 hits; rear attacks double hits"
    variant_rule = "Ideas for Unit Types"
    list_rule = LIST_RULE
    size_rule = LIST_RULE
    field_rules = entries.FIELD_RULES_D5
    describe = {"allies": True}
    list_fields = ("ally",)
    allow_fixed = True
    sheet_file = "sheet_d5.toml"

    def sheet_sections(self, army: Army | None) -> Iterable[Section | None]:
        return (allies_section(army),)

    # -- parsing ---------------------------------------------------------------------------
    def normalise_unit(self, unit: Unit, options: Mapping[str, Any], path: str) -> Unit:
        if unit["ally"] == "":
            return {**unit, "ally": None}  # an emptied form field: the army's own unit
        return unit

    def normalise_army(self, army: Army) -> Army:
        own = army.list_family(army.army_list)
        for i, unit in enumerate(army.units):
            ally = unit["ally"]
            if ally is None:
                continue
            path = f"units[{i}].ally"
            if ally not in army.ruleset_lists:
                known = sorted(army.list_title(s) for s in army.ruleset_lists)
                raise MalformedDocument(
                    path, f"{path}: {ally!r} is not an army list of {self.title}; known "
                    f"lists: {', '.join(known) or 'none yet'}"
                )  # fmt: skip
            if army.list_family(ally) == own:
                copy = "" if ally == army.army_list else " (one is a copy of the other)"
                raise MalformedDocument(
                    path, f"{path}: {army.list_title(ally)} is the army's own list{copy}; "
                    "allies come from another list (leave ally empty for the army's own units)"
                )  # fmt: skip
        return army

    # -- stat line ----------------------------------------------------------------------------
    def die_of(self, army: Army) -> str:
        return str(army.options["dice"])

    def die_label(self, army: Army) -> str:
        return AVERAGE_DIE if army.options["dice"] == "d5" else "d6"

    def move(self, type_: str, d: str) -> str:
        count, bonus = MOVE[type_]
        return f'{count}{d}+{bonus}"'

    @staticmethod
    def own_attack(unit: Unit, type_: str | None = None) -> int:
        """The unit's attack modifier from its type or unit-type idea, before its change."""
        type_ = type_ or unit["type"]
        variant = VARIANTS.get(unit["variant"] or "")
        if variant is not None and variant.modifier is not None:
            return variant.modifier
        missile_mod = MISSILE_ATTACK.get((type_, unit["missile"]))
        if missile_mod is not None:
            return missile_mod
        return ATTACK.get(type_, 0)

    def modifiers(self, unit: Unit) -> list[int]:
        """Attack modifier with the change, per line (Viking veterans have two)."""
        change = CHANGE_ATTACK.get(unit["change"] or "", 0)
        if unit["variant"] == "viking_veterans":
            return [self.own_attack(unit, t) + change for t in self.veteran_types]
        return [self.own_attack(unit) + change]

    @staticmethod
    def hits(unit: Unit) -> int:
        """15; Determined 18 (Scots nobles by definition); Reluctant 12; Elite 18, Levy 12."""
        if unit["quality"] in QUALITY_HITS:
            return QUALITY_HITS[unit["quality"]]
        if unit["change"] in CHANGE_HITS:
            return CHANGE_HITS[unit["change"]]
        variant = VARIANTS.get(unit["variant"] or "")
        return variant.hits if variant is not None else 15

    def hits_text(self, unit: Unit) -> str:
        hits = self.hits(unit)
        return str(hits) + _hits_note(unit, hits)

    def label_suffix(self, unit: Unit, army: Army) -> str:
        change = f", {unit['change'].capitalize()}" if unit["change"] else ""
        return change + (f", allied ({army.list_title(unit['ally'])})" if unit["ally"] else "")

    def unit_context(self, army: Army) -> Any:
        """An allied unit's stat line says whether its contingent has a personality, and
        names its list."""
        allies = {u["ally"] for u in army.units if u["ally"]}
        return [
            sorted({u["ally"] for u in army.units if u["ally"] and u["personality"]}),
            [[slug, army.list_title(slug)] for slug in sorted(allies)],
        ]

    def extra_notes(self, unit: Unit, army: Army, d: str) -> list[str]:
        notes = []
        if army.options["rally_variation"] and (unit["personality"] == "priest" or unit["banner"]):
            notes.append("rally variation: a unit with 5+ hits cannot rally below 5")
        if unit["ally"] and not any(
            u["ally"] == unit["ally"] and u["personality"] for u in army.units
        ):
            notes.append(f"allied: does not move on a natural 2 for movement ({d})")
        return notes

    # -- unit checks ------------------------------------------------------------------------
    def edition_unit_issues(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        name, at = unit["name"], {"unit": index}
        change = unit["change"]
        mods = self.modifiers(unit)
        worst = max(mods, key=abs)
        if abs(worst) > ATTACK_CAP:
            own = worst - CHANGE_ATTACK.get(change or "", 0)
            yield error("attack-modifier-cap",
                        f"{name}: attack {_signed(own)} made {change or 'changed'} would be "
                        f"{_signed(worst)}; units cannot be upgraded past +2 or downgraded "
                        "past -2.", CHANGE_RULE, **at)  # fmt: skip
        if change == "determined" and unit["variant"] == "scots_nobles":
            yield warning("change-has-no-effect",
                          f"{name}: Scots nobles are Determined already (18 hits); the upgrade "
                          "gains nothing.", CHANGE_RULE, **at)  # fmt: skip

    def late_unit_issues(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        return quality_issues(unit, index, army)

    # -- army checks --------------------------------------------------------------------------
    def army_size(self, army: Army) -> int:
        return ARMY_SIZE

    def size_message(self, size: int) -> str:
        return "every army list has six."

    def edition_army_issues(self, army: Army) -> Iterable[Issue]:
        yield from self._check_changes(army)
        if army.options["variable_quality"]:
            yield from common.quality_issues(army, QUALITY_RULE)
        yield from ally_issues(army)

    def list_check(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
        units = army.units
        host = [(i, u) for i, u in enumerate(units) if u["ally"] is None]
        result = fit(host, ListSpec.from_data(data), changed=changed)
        yield from fixed_issues(result.fixed_changed, units, LIST_RULE)
        yield from list_issues(result, dict(host), LIST_RULE, stand_ins=len(units) - len(host))

    def _check_changes(self, army: Army) -> Iterable[Issue]:
        units = army.units
        upgraded = [i for i, u in enumerate(units) if u["change"] in UPGRADES]
        downgraded = [i for i, u in enumerate(units) if u["change"] in DOWNGRADES]
        arthur = any(u["variant"] in ARTHURIAN for u in units)
        servants = [i for i in upgraded if units[i]["variant"] == "mounted_servants"]
        allowed = 1 + (1 if arthur and servants else 0)
        if len(upgraded) > allowed:
            names = ", ".join(units[i]["name"] for i in upgraded)
            extra = (
                " (two with upgraded mounted servants beside Arthur's cavalry)"
                if allowed == 2
                else ""
            )
            yield error("upgrade-limit",
                        f"{len(upgraded)} upgraded units ({names}); a list may upgrade one"
                        f"{extra}.", CHANGE_RULE)  # fmt: skip
        if len(upgraded) != len(downgraded):
            yield error("downgrade-required",
                        downgrade_message(len(upgraded), len(downgraded)), CHANGE_RULE)  # fmt: skip

    # -- army lists -----------------------------------------------------------------------------
    def list_entries(
        self, list_data: Mapping[str, Any] | None, army: Army | None
    ) -> tuple[entries.EntryStatus, ...]:
        host = [(i, u) for i, u in enumerate(army.units) if u["ally"] is None] if army else []
        own = entries.list_entries(self, list_data, army, units=host, changed=changed)
        return own + ally_entries(army) if army is not None else own


def downgrade_message(upgrades: int, downgrades: int) -> str:
    """Upgrades and downgrades out of balance (they are never equal here)."""
    if upgrades > downgrades:
        each = " each" if upgrades > 1 else ""
        return (
            f"{plural(upgrades, 'upgrade')} must{each} be paid for by a downgrade (Levy or "
            f"Reluctant); the army has {plural(downgrades, 'downgrade')}."
        )
    return (
        f"{plural(downgrades, 'downgrade')} but {plural(upgrades, 'upgrade')}: a downgrade "
        "pays for an upgrade, one for one."
    )


def _hits_note(unit: Unit, hits: int) -> str:
    if unit["quality"] in QUALITY_HITS:
        return f" ({unit['quality'].capitalize()})"
    return {18: " (Determined)", 12: " (Reluctant)"}.get(hits, "")


def quality_issues(unit: Unit, index: int, army: Army) -> Iterable[Issue]:
    """quality-disabled, quality-conflicts-change (VARIABLE QUALITY, R14)."""
    quality, name = unit["quality"], unit["name"]
    if quality == "standard":
        return
    if not army.options["variable_quality"]:
        yield error("quality-disabled",
                    f"{name}: {quality.capitalize()} needs the variable quality option; switch "
                    "it on or make the unit standard.", QUALITY_RULE, unit=index)  # fmt: skip
    elif unit["change"] in CHANGE_HITS:
        yield error("quality-conflicts-change",
                    f"{name}: {quality.capitalize()} and {unit['change'].capitalize()} both set "
                    "the unit's casualties; choose one.", QUALITY_RULE, unit=index)  # fmt: skip
    elif quality == "elite" and unit["variant"] == "scots_nobles":
        yield error("quality-conflicts-change",
                    f"{name}: Scots nobles take 18 hits already; Elite gains nothing.",
                    QUALITY_RULE, unit=index)  # fmt: skip


def _signed(value: int) -> str:
    return f"{value:+d}"


RULESET = DarkAgesD5()
