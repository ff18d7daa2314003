"""Into the Dark: per-figure troop cost x figures + command cost; generals and divisions.

Digest: ../shared/spec/rulesets/into-the-dark.md. Source: seeds/000 Part I "Point Cost of
Troops", Part II movement/combat/morale, Part III special troops, SWAT, command & control.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rules.base import (
    OVER_POINTS_LIMIT,
    Army,
    CheckDoc,
    Cost,
    FigureCost,
    General,
    Issue,
    RuleSet,
    Ruling,
    Unit,
    error,
    warning,
)
from rules.fields import Field, bool_field, choice_field, name_field
from rules.list_entries import ENTRY_LIST_CHECKS
from rules.list_shape import ListShape
from rules.qrs import Sheet
from rules.rulesets.into_the_dark import entries as itd_entries
from rules.rulesets.into_the_dark import lists, qrs
from rules.rulesets.into_the_dark.combat import IntoTheDarkCombat
from rules.rulesets.into_the_dark.command import command_issues
from rules.rulesets.into_the_dark.lists import army_list_issues, list_problems, unit_presets
from rules.rulesets.into_the_dark.mixed import (
    Part,
    majority,
    mixed_field,
    mixed_issues,
    parts,
    slowest,
)
from rules.rulesets.into_the_dark.troops import (
    ARMOUR_FIELD,
    ARMOUR_LETTER,
    DENSITY_FIELD,
    DENSITY_LETTER,
    FIGURES_RULE,
    FOOT_ONLY,
    HIT_ON,
    MOUNTED_ONLY,
    QUALITY,
    QUALITY_FIELD,
    RANGES,
    RATING,
    SHIELDLESS_MISSILES,
    SWAT_MELEE,
    SWAT_MISSILE,
    inches_text,
    movement,
    num,
    part_code,
    per_figure,
    too_few_figures_message,
    unit_figure_cost,
)


class IntoTheDark(RuleSet):
    slug = "into-the-dark"
    title = "Into the Dark"
    source = "Into the Dark — Dark Age / Medieval mass combat rules"
    summary = (
        "Points: each figure's troop cost (quality + armour, doubled if mounted or "
        "cross-trained, x1.5 for longbow or pike) times its figures, plus 10 x quality "
        "per unit for command. Generals cost 25 per rating level."
    )
    order = 10
    uses_points = True
    points_rule = "Point Cost of Troops"
    has_generals = True
    options = (
        bool_field(
            "command_and_control",
            "Command & control",
            help="Generals and divisions are required.",
        ),
        choice_field(
            "figure_scale",
            "Figure scale",
            [("25mm", "25 mm"), ("15mm", "15 mm (halve every distance)")],
        ),
    )
    # Mixed units were an option once; they are a basic rule (R5). Stored armies that still
    # carry the switch parse, and the value is dropped: it changes nothing.
    retired_options = (bool_field("mixed_units", "Mixed units"),)
    unit_fields = (
        name_field(),
        Field(
            "figures",
            "Figures",
            "integer",
            default=12,
            minimum=1,
            maximum=400,
            help="1 to 400 (R6).",
        ),
        QUALITY_FIELD,
        DENSITY_FIELD,
        ARMOUR_FIELD,
        bool_field("mounted", "Mounted", help="Mounted doubles the troop cost."),
        choice_field(
            "training",
            "Training",
            [("melee", "Melee"), ("missile", "Missile"), ("cross_trained", "Cross-trained")],
            help="Cross-trained doubles the troop cost.",
        ),
        choice_field(
            "missile_weapon",
            "Missile weapon",
            [
                ("foot_bow", "Foot bow"),
                ("light_crossbow", "Light crossbow (as foot bow)"),
                ("mounted_bow", "Mounted bow"),
                ("sling", "Sling"),
                ("javelin", "Javelin"),
                ("longbow", "Longbow (SWAT, x1.5)"),
                ("heavy_crossbow", "Heavy crossbow (SWAT)"),
            ],
            nullable=True,
        ),  # fmt: skip
        choice_field(
            "melee_weapon",
            "Melee weapon",
            [("hand", "Hand weapon"), ("polearm", "Polearm (SWAT)"), ("pike", "Pike (SWAT, x1.5)")],
        ),
        bool_field("shieldwall", "Shieldwall", help="SWAT: +1 point per figure."),
        bool_field("warband", "Warband"),
        bool_field("skirmishers", "Skirmishers"),
        bool_field("champion", "Champion", help="A single heroic figure: 10 x the troop cost."),
        Field("division", "Division (general's name)", "string", nullable=True, maximum=120),
        mixed_field(DENSITY_FIELD, ARMOUR_FIELD),
    )
    general_fields = (
        name_field(),
        choice_field(
            "rating",
            "Rating",
            [("average", "Average (2)"), ("poor", "Poor (1)"), ("good", "Good (3)")],
        ),  # fmt: skip
        bool_field("mounted", "Mounted", default=True),
        bool_field("commanding", "Commanding general"),
        Field(
            "champion",
            "Champion",
            "object",
            nullable=True,
            fields=(QUALITY_FIELD, ARMOUR_FIELD),
            help="A general may be a champion: the champion's cost is added.",
        ),
    )
    combat_rules = IntoTheDarkCombat()
    rulings = (
        Ruling("R1", "Fractions (1.5 multipliers on odd costs) are summed exactly and the "
                     "unit total is rounded up once."),
        Ruling("R2", 'Shieldwall "pay 1 extra point" is +1 per figure, added after the '
                     "multipliers."),
        Ruling("R3", '"Wedge", "Hedgehog" and "Chariots" are named in the contents but have '
                     "no text: not offered."),
        Ruling("R4", "Missile weapons by arm: foot bow, light crossbow, sling, longbow and "
                     "heavy crossbow are foot only; mounted bow mounted only; javelin either. "
                     "The pike is a foot weapon: pikemen fight four ranks deep."),
        Ruling("R5", "Mixed units are a basic rule, always allowed (PART I, Unit "
                     "Organisation: \"If different troop types are mixed in a unit, it moves "
                     "at the speed of the slowest...\"; \"It is simpler to keep all troops in "
                     "a unit the same type\" is advice, not a switch): a unit may add a second "
                     "troop type (density, armour, foot or mounted) with its own figures, "
                     "sharing the unit's quality, training and weapons. Each type pays its own "
                     "troop cost; the command cost is paid once. The unit moves (and routs) at "
                     "the speed of its slowest type; missile fire uses the majority type, so "
                     "one type must have more figures; in melee the figures in contact "
                     "decide. Armies saved with the old mixed-units option still load; the "
                     "option is dropped."),
        Ruling("R6", "Figures outside 1-400 are refused as a malformed document naming the "
                     "field (HTTP 400, exit 2); such an army is never saved, so no check code "
                     "reports it."),
    )  # fmt: skip
    # "champion-not-open": champions are always open order, a single figure; the builder
    # sets both for the player when a unit is made a champion.
    follow_ups = (("champion", True, {"density": "open", "figures": 1}),)
    not_offered = (
        "Wedge, Hedgehog and Chariots: named in the source's contents but never described (R3).",
    )
    checks = (
        CheckDoc("champion-figures", "error", "unit", "A champion with other than 1 figure."),
        CheckDoc("missing-missile-weapon", "error", "unit",
                 "Missile or cross-trained training without a missile weapon."),
        CheckDoc("melee-with-missile-weapon", "error", "unit",
                 "Melee training with a missile weapon."),
        CheckDoc("swat-not-cross-trained", "error", "unit",
                 "Longbow or pike on a cross-trained unit."),
        CheckDoc("weapon-wrong-arm", "error", "unit",
                 "A missile weapon on the wrong arm (R4), or a pike on a mounted unit."),
        CheckDoc("shieldwall-not-close-foot", "error", "unit",
                 "Shieldwall on anything but close-order foot with large shields: foot-bow and "
                 "light-crossbow troops \"do not have shields unless cross trained\"."),
        CheckDoc("peasant-swat", "error", "unit",
                 "A peasant unit with longbow, heavy crossbow, polearm, pike or shieldwall."),
        CheckDoc("warband-mounted", "error", "unit", "Warband on a mounted unit."),
        CheckDoc("skirmishers-not-open-missile", "error", "unit",
                 "Skirmishers that are not open order with a missile weapon."),
        CheckDoc("champion-not-open", "error", "unit", "A champion that is not open order."),
        CheckDoc("too-few-figures", "warning", "unit",
                 "A non-champion unit under 4 figures rolls no combat die."),
        CheckDoc("mixed-unit", "error", "unit",
                 "A mixed unit whose second type is its own, with as many figures of each "
                 "type (no majority), a mixed champion, or over 400 figures in all (R5)."),
        OVER_POINTS_LIMIT,
        CheckDoc("no-commanding-general", "error", "army",
                 "With command & control, not exactly one commanding general."),
        CheckDoc("unknown-division", "error", "unit", "A unit's division names no general."),
        CheckDoc("unassigned-unit", "error", "unit",
                 "With command & control, a unit in no division: \"All units in the army are "
                 "grouped together into divisions and put under the command of a specific "
                 "general\" (Command & Control, Divisions)."),
        CheckDoc("division-size", "warning", "army",
                 "A division of fewer than 3 or more than 6 units."),
        *ENTRY_LIST_CHECKS,
        CheckDoc("army-list-limit", "error", "army_list",
                 "A list's share limit broken, e.g. more than a quarter of the points mounted."),
    )  # fmt: skip

    # -- costing -----------------------------------------------------------------
    def unit_per_figure(self, unit: Unit, part: Part | None = None) -> tuple[Fraction, list[str]]:
        """The troop cost of one figure of the unit (of ``part``, one of its troop types)."""
        return per_figure(
            unit["quality"],
            part.armour if part else unit["armour"],
            mounted=part.mounted if part else unit["mounted"],
            cross_trained=unit["training"] == "cross_trained",
            longbow=unit["missile_weapon"] == "longbow",
            pike=unit["melee_weapon"] == "pike",
            shieldwall=unit["shieldwall"],
        )

    def cost_unit(self, unit: Unit, army: Army) -> Cost:
        if unit.get("mixed") and not unit["champion"]:
            return self._cost_mixed(unit)
        each, steps = self.unit_per_figure(unit)
        if unit["champion"]:
            total = each * 10
            steps.append(f"champion: 10 x {num(each)} = {num(total)} (no command cost)")
        else:
            figures = unit["figures"]
            bodies = each * figures
            command = 10 * QUALITY[unit["quality"]]
            total = bodies + command
            steps.append(f"{figures} figures x {num(each)} = {num(bodies)}")
            steps.append(f"command {QUALITY[unit['quality']]} x 10 = {command}")
        cost = Cost(total, tuple(steps))
        if total.denominator != 1:
            cost = Cost(total, (*steps, f"{num(total)} rounded up = {cost.points}"))
        return cost

    def _cost_mixed(self, unit: Unit) -> Cost:
        """Each troop type pays its own troop cost per figure; command once (R5)."""
        steps: list[str] = []
        total = Fraction(0)
        for part in parts(unit):
            code = part_code(part)
            each, part_steps = self.unit_per_figure(unit, part)
            steps += [f"{code}: {step}" for step in part_steps]
            bodies = each * part.figures
            steps.append(f"{part.figures} {code} figures x {num(each)} = {num(bodies)}")
            total += bodies
        command = 10 * QUALITY[unit["quality"]]
        steps.append(f"command {QUALITY[unit['quality']]} x 10 = {command} (once for the unit)")
        total += command
        cost = Cost(total, tuple(steps))
        if total.denominator != 1:
            cost = Cost(total, (*steps, f"{num(total)} rounded up = {cost.points}"))
        return cost

    def figure_cost(self, unit: Unit, army: Army) -> FigureCost:
        return unit_figure_cost(unit, self.unit_field("figures"), self.unit_per_figure)

    def cost_general(self, general: General, army: Army) -> Cost:
        rating = RATING[general["rating"]]
        total = Fraction(25 * rating)
        steps = [f"{general['rating']} general {rating} x 25 = {25 * rating}"]
        champion = general["champion"]
        if champion:
            each, _ = per_figure(
                champion["quality"], champion["armour"], mounted=general["mounted"]
            )
            extra = each * 10
            steps.append(
                f"champion ({champion['quality']}, {champion['armour']}"
                f"{', mounted' if general['mounted'] else ''}): 10 x {num(each)} = {num(extra)}"
            )
            total += extra
        return Cost(total, tuple(steps))

    # -- stat line -----------------------------------------------------------------
    def scale(self, army: Army) -> Fraction:
        return Fraction(1, 2) if army.options.get("figure_scale") == "15mm" else Fraction(1)

    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        k = self.scale(army)
        move, rout = slowest(unit, movement)
        weapon = unit["missile_weapon"]
        mixed = len(parts(unit)) > 1
        most = majority(unit) or parts(unit)[0]
        stats: dict[str, Any] = {
            "code": " + ".join(f"{p.figures} {part_code(p)}" for p in parts(unit))
            if mixed
            else self.code(unit),
            "move": inches_text(move * k),
            "rout_evade": rout,
            "hit_on": HIT_ON[most.armour],
        }
        if unit["champion"]:
            stats["combat_dice"] = "2 (1 when wounded)"
            stats["hits"] = "3 (the first removes the mount)" if unit["mounted"] else "2"
        else:
            ranks = "four ranks" if unit["melee_weapon"] == "pike" else "first two ranks"
            figures = sum(p.figures for p in parts(unit))
            stats["combat_dice"] = f"1 per 4 figures fighting ({ranks}); at most {figures // 4}"
        if weapon:
            close, far = RANGES[weapon]
            stats["close"] = inches_text(close * k)
            stats["long"] = inches_text(far * k) if far else "–"
        if unit["training"] == "missile" and weapon:
            stats["zoc"] = inches_text(RANGES[weapon][0] * k) + " (close range)"
        else:
            stats["zoc"] = inches_text(Fraction(move) / 2 * k) + " (half move)"
        stats["morale"] = str(QUALITY[unit["quality"]])
        notes = self.notes(unit)
        if mixed:
            in_contact = ", ".join(f"{part_code(p)} {HIT_ON[p.armour]}" for p in parts(unit))
            notes.append(
                f"mixed unit: moves as its slowest type, missile fire uses the majority "
                f"({part_code(most)}), in melee the figures in contact decide ({in_contact})"
            )
        if notes:
            stats["notes"] = "; ".join(notes)
        return stats

    @staticmethod
    def code(unit: Unit) -> str:
        return (
            DENSITY_LETTER[unit["density"]]
            + ARMOUR_LETTER[unit["armour"]]
            + ("M" if unit["mounted"] else "F")
        )

    @staticmethod
    def notes(unit: Unit) -> list[str]:
        notes = []
        if unit["quality"] == "fanatic":
            notes.append("steady fanatics +1 in melee")
        if unit["quality"] == "peasant":
            notes.append("peasants -1 in melee")
        if unit["training"] == "missile":
            notes.append("missile troops -1 in melee unless cross-trained")
        if unit["missile_weapon"] == "longbow":
            notes.append("longbow +1 to hit at close range")
        if unit["missile_weapon"] == "heavy_crossbow":
            notes.append("heavy crossbow +1 to hit at close range, cannot move and fire")
        if unit["melee_weapon"] == "polearm":
            notes.append("polearm +1 in melee, opponents +1 (shieldless)")
        if unit["melee_weapon"] == "pike":
            notes.append("pike fights four ranks")
        if unit["shieldwall"]:
            notes.append('shieldwall: move 4", frontal opponents -1, +1 morale')
        if unit["warband"]:
            notes.append("warband: may charge impetuously after a control test")
        if unit["skirmishers"]:
            notes.append("skirmishers: may back up at half speed and fire; always evade")
        if unit["champion"]:
            notes.append("champion: cannot pin or flank, always strikes back")
        return notes

    # -- checks --------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        name = unit["name"]
        at = {"unit": index}
        weapon = unit["missile_weapon"]
        training = unit["training"]
        figures = unit["figures"]
        # a mixed unit has two troop types: a rule of arm or density holds for both
        arms = {p.mounted for p in parts(unit)}
        densities = {p.density for p in parts(unit)}
        mounted = True in arms
        if unit["champion"] and figures != 1:
            yield error("champion-figures",
                        f"{name}: a champion is a single figure, not {figures}.", "Champions", **at)  # fmt: skip
        if training in ("missile", "cross_trained") and weapon is None:
            yield error("missing-missile-weapon",
                        f"{name}: {training.replace('_', '-')} troops need a missile weapon.",
                        "Missile Weapons", **at)  # fmt: skip
        if training == "melee" and weapon is not None:
            yield error("melee-with-missile-weapon",
                        f"{name}: melee troops carry no missile weapon; make them missile or "
                        "cross-trained, or remove the weapon.", "Missile Weapons", **at)  # fmt: skip
        if training == "cross_trained" and (weapon == "longbow" or unit["melee_weapon"] == "pike"):
            what = "longbow" if weapon == "longbow" else "pike"
            rule = "Longbow" if weapon == "longbow" else "Pike"
            yield error("swat-not-cross-trained",
                        f"{name}: units with a {what} may not be cross-trained.", rule, **at)  # fmt: skip
        if weapon in FOOT_ONLY and mounted:
            yield error("weapon-wrong-arm",
                        f"{name}: {weapon.replace('_', ' ')} is a foot weapon; mounted troops "
                        "use the mounted bow or javelins.", "Ruling R4", **at)  # fmt: skip
        if weapon in MOUNTED_ONLY and False in arms:
            yield error("weapon-wrong-arm",
                        f"{name}: the mounted bow is for mounted troops only.",
                        "Missile Weapons", **at)  # fmt: skip
        if unit["melee_weapon"] == "pike" and mounted:
            yield error("weapon-wrong-arm", f"{name}: pikes are for foot troops only.",
                        "Ruling R4", **at)  # fmt: skip
        if unit["shieldwall"]:
            if densities != {"close"} or mounted:
                yield error("shieldwall-not-close-foot",
                            f"{name}: only close-order foot may use shieldwall.", "Shieldwall",
                            **at)  # fmt: skip
            elif training == "missile" and weapon in SHIELDLESS_MISSILES:
                yield error("shieldwall-not-close-foot",
                            f"{name}: shieldwall is for troops with large shields, and "
                            f"{weapon.replace('_', ' ')} troops \"do not have shields unless "
                            "cross trained\"; make them cross-trained or drop shieldwall.",
                            "Shieldwall", **at)  # fmt: skip
        if unit["quality"] == "peasant":
            swat = [w.replace("_", " ") for w in (weapon,) if w in SWAT_MISSILE]
            swat += [unit["melee_weapon"]] if unit["melee_weapon"] in SWAT_MELEE else []
            swat += ["shieldwall"] if unit["shieldwall"] else []
            if swat:
                yield error("peasant-swat",
                            f"{name}: peasants may not use SWAT ({', '.join(swat)}).", "SWAT", **at)  # fmt: skip
        if unit["warband"] and mounted:
            yield error("warband-mounted", f"{name}: only foot units may be a warband.",
                        "Warbands", **at)  # fmt: skip
        if unit["skirmishers"] and (densities != {"open"} or weapon is None):
            yield error("skirmishers-not-open-missile",
                        f"{name}: skirmishers must be open-order troops with a missile weapon.",
                        "Skirmishers", **at)  # fmt: skip
        if unit["champion"] and unit["density"] != "open":
            yield error("champion-not-open",
                        f"{name}: champions are always open order.", "Champions", **at)  # fmt: skip
        yield from mixed_issues(unit, index)
        total = sum(p.figures for p in parts(unit))
        if not unit["champion"] and 1 <= total < 4:
            yield warning("too-few-figures", too_few_figures_message(name, total), FIGURES_RULE,
                          **at)  # fmt: skip

    def check_army(self, army: Army) -> Iterable[Issue]:
        yield from command_issues(army)
        if army.list_data is not None:
            yield from self.check_army_list(army, army.list_data)

    # -- army lists ------------------------------------------------------------------
    def check_army_list(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
        return army_list_issues(self, army, data)

    def list_entries(
        self, list_data: Mapping[str, Any] | None, army: Army | None
    ) -> tuple[itd_entries.EntryStatus, ...]:
        return itd_entries.list_entries(self, list_data, army)

    def allowed_values(
        self, list_data: Mapping[str, Any] | None, unit: Mapping[str, Any]
    ) -> Mapping[str, itd_entries.Allowed]:
        return itd_entries.allowed_values(self, list_data, unit)

    def describe_list(self, list_data: Mapping[str, Any] | None) -> itd_entries.ListDescription:
        return itd_entries.describe_list(self, list_data)

    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        return unit_presets(list_data, self.follow_ups)

    def validate_army_list(self, data: Any) -> list[str]:
        return super().validate_army_list(data) or list_problems(data, self.unit_fields)

    def list_shape(self) -> ListShape:
        """Entries (a name, how many, the values each unit field may take) for the editor."""
        return lists.list_shape(self.unit_fields)

    def quick_reference(
        self, options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()
    ) -> Sheet:
        return qrs.build(options, army, extras=extras)


RULESET = IntoTheDark()
