"""Into the Dark: per-figure troop cost x figures + command cost; generals and divisions.

Digest: ../shared/spec/rulesets/into-the-dark.md. Source: seeds/000 Part I "Point Cost of
Troops", Part II movement/combat/morale, Part III special troops, SWAT, command & control.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from rules.base import (
    Army,
    CheckDoc,
    Cost,
    General,
    Issue,
    RuleSet,
    Ruling,
    Unit,
    entry_preset,
    error,
    warning,
)
from rules.fields import Field, bool_field, choice_field, name_field
from rules.into_the_dark_mixed import (
    Part,
    majority,
    mixed_field,
    mixed_issues,
    parts,
    slowest,
)
from rules.matching import fits

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

# The source's army lists never appeared ("(soon) found at the end of these rules"); an
# army "can be picked from any respectable set of army lists" (Choosing Your Army).
LIST_RULE = "Choosing Your Army"
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
            steps.append(f"{why} x {_num(factor)}: {_num(cost)} x {_num(factor)} = {_num(new)}")
            cost = new
    if shieldwall:
        steps.append(f"shieldwall +1 per figure: {_num(cost)} + 1 = {_num(cost + 1)}")
        cost += 1
    return cost, steps


def _num(value: Fraction | int) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}" if value.denominator in (2, 4, 5, 8, 10) else str(value)


def _inches(value: Fraction | int) -> str:
    return f'{_num(value)}"'


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
        bool_field(
            "mixed_units",
            "Mixed units",
            help="A unit may mix two troop types: it moves at the speed of the slowest; "
            "missile fire uses the majority type's values.",
        ),
    )
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
        Ruling("R5", "Mixed units are an option (\"It is simpler to keep all troops in a unit "
                     "the same type\"): a unit may add a second troop type (density, armour, "
                     "foot or mounted) with its own figures, sharing the unit's quality, "
                     "training and weapons. Each type pays its own troop cost; the command "
                     "cost is paid once. The unit moves (and routs) at the speed of its "
                     "slowest type; missile fire uses the majority type, so one type must "
                     "have more figures; in melee the figures in contact decide."),
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
        CheckDoc("mixed-units-disabled", "error", "unit",
                 "A unit with a second troop type while the mixed-units option is off."),
        CheckDoc("mixed-unit", "error", "unit",
                 "A mixed unit whose second type is its own, with as many figures of each "
                 "type (no majority), a mixed champion, or over 400 figures in all (R5)."),
        CheckDoc("over-points-limit", "error", "army", "The army costs more than its limit."),
        CheckDoc("no-commanding-general", "error", "army",
                 "With command & control, not exactly one commanding general."),
        CheckDoc("unknown-division", "error", "unit", "A unit's division names no general."),
        CheckDoc("unassigned-unit", "warning", "unit",
                 "With command & control, a unit in no division."),
        CheckDoc("division-size", "warning", "army",
                 "A division of fewer than 3 or more than 6 units."),
        CheckDoc("not-in-army-list", "error", "army_list",
                 "A unit that matches no entry of the army list."),
        CheckDoc("army-list-min", "error", "army_list",
                 "Fewer units of a list entry than its minimum."),
        CheckDoc("army-list-max", "error", "army_list",
                 "More units of a list entry than its maximum."),
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
            steps.append(f"champion: 10 x {_num(each)} = {_num(total)} (no command cost)")
        else:
            figures = unit["figures"]
            bodies = each * figures
            command = 10 * QUALITY[unit["quality"]]
            total = bodies + command
            steps.append(f"{figures} figures x {_num(each)} = {_num(bodies)}")
            steps.append(f"command {QUALITY[unit['quality']]} x 10 = {command}")
        cost = Cost(total, tuple(steps))
        if total.denominator != 1:
            cost = Cost(total, (*steps, f"{_num(total)} rounded up = {cost.points}"))
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
            steps.append(f"{part.figures} {code} figures x {_num(each)} = {_num(bodies)}")
            total += bodies
        command = 10 * QUALITY[unit["quality"]]
        steps.append(f"command {QUALITY[unit['quality']]} x 10 = {command} (once for the unit)")
        total += command
        cost = Cost(total, tuple(steps))
        if total.denominator != 1:
            cost = Cost(total, (*steps, f"{_num(total)} rounded up = {cost.points}"))
        return cost

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
                f"{', mounted' if general['mounted'] else ''}): 10 x {_num(each)} = {_num(extra)}"
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
            "move": _inches(move * k),
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
            stats["close"] = _inches(close * k)
            stats["long"] = _inches(far * k) if far else "–"
        if unit["training"] == "missile" and weapon:
            stats["zoc"] = _inches(RANGES[weapon][0] * k) + " (close range)"
        else:
            stats["zoc"] = _inches(Fraction(move) / 2 * k) + " (half move)"
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
        yield from mixed_issues(unit, index, army.options)
        total = sum(p.figures for p in parts(unit))
        if not unit["champion"] and 1 <= total < 4:
            yield warning("too-few-figures", too_few_figures_message(name, total), FIGURES_RULE,
                          **at)  # fmt: skip

    def check_army(self, army: Army) -> Iterable[Issue]:
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
                    yield warning("unassigned-unit",
                                  f"{unit['name']}: in no division; every unit serves under a "
                                  "general.", "Divisions", unit=i)  # fmt: skip
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
        if army.list_data is not None:
            yield from self.check_army_list(army, army.list_data)

    # -- army lists ------------------------------------------------------------------
    def _matches(self, unit: Unit, match: Mapping[str, Any]) -> bool:
        return all(unit.get(key) in allowed for key, allowed in match.items())

    def check_army_list(self, army: Army, data: Mapping[str, Any]) -> Iterable[Issue]:
        entries = data.get("entries", [])
        options: list[list[int]] = []
        for i, unit in enumerate(army.units):
            fitting = [e for e, entry in enumerate(entries) if self._matches(unit, entry["match"])]
            options.append(fitting)
            if not fitting:
                yield error("not-in-army-list",
                            f"{unit['name']}: matches no troop entry of this army list.",
                            LIST_RULE, unit=i)  # fmt: skip
        listed = [opt for opt in options if opt]
        minimum = [entry.get("min", 0) for entry in entries]
        maximum = [entry.get("max", len(army.units)) for entry in entries]
        per_entry = False
        for e, entry in enumerate(entries):
            could = sum(1 for opt in listed if e in opt)
            must = sum(1 for opt in listed if opt == [e])
            label = entry.get("name", entry.get("key", f"entry {e + 1}"))
            if could < minimum[e]:
                per_entry = True
                yield error("army-list-min",
                            f"The list needs at least {minimum[e]} {label}; the army has {could}.",
                            LIST_RULE)  # fmt: skip
            elif must > maximum[e]:
                per_entry = True
                yield error("army-list-max",
                            f"The list allows at most {maximum[e]} {label}; the army has {must}.",
                            LIST_RULE)  # fmt: skip
        # Each entry fits on its own; units that fit several entries may still not share out.
        if not per_entry and not fits(listed, minimum, maximum):
            if not fits(listed, [0] * len(entries), maximum):
                yield error("army-list-max",
                            "Too many units for the list's entries taken together: no way to "
                            "count them within every entry's maximum.", LIST_RULE)  # fmt: skip
            else:
                yield error("army-list-min",
                            "The units cannot fill every entry's minimum at once: some serve "
                            "two entries.", LIST_RULE)  # fmt: skip
        for limit in data.get("limits", []):
            yield from self._check_limit(army, limit)

    def _check_limit(self, army: Army, limit: Mapping[str, Any]) -> Iterable[Issue]:
        share = Fraction(str(limit["max_share"]))
        costs = [self.cost_unit(u, army).points for u in army.units]
        total = sum(costs)
        part = sum(
            c for u, c in zip(army.units, costs, strict=True) if self._matches(u, limit["match"])
        )
        if total and part > share * total:
            yield error("army-list-limit",
                        f"{limit.get('label', 'Restricted troops')}: {part} of {total} points; "
                        f"the list allows at most {_share(share)} of the points.", LIST_RULE)  # fmt: skip

    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        presets = []
        for n, entry in enumerate((list_data or {}).get("entries", [])):
            label, values = entry_preset(entry, f"Entry {n + 1}")
            for field, value, then in self.follow_ups:  # a champion entry: one open figure
                if values.get(field) == value:
                    values.update(then)
            presets.append((label, values))
        return presets

    def validate_army_list(self, data: Any) -> list[str]:
        problems = super().validate_army_list(data)
        if problems:
            return problems
        unknown = set(data) - {"entries", "limits", "notes"}
        if unknown:
            problems.append(
                f"unknown keys {', '.join(sorted(unknown))}; allowed: entries, limits, notes"
            )
        entries = data.get("entries")
        if not isinstance(entries, list) or not entries:
            return [*problems, "entries must be a non-empty list of troop entries"]
        fields = {f.name: f for f in self.unit_fields}
        matchable = {n: f for n, f in fields.items() if f.kind in ("choice", "boolean")}
        for e, entry in enumerate(entries):
            where = f"entries[{e}]"
            if not isinstance(entry, dict):
                problems.append(f"{where}: must be an object")
                continue
            extra = set(entry) - {"key", "name", "match", "min", "max", "note"}
            if extra:
                problems.append(f"{where}: unknown keys {', '.join(sorted(extra))}")
            if not isinstance(entry.get("name"), str) or not entry["name"].strip():
                problems.append(f"{where}.name: a name is required")
            low, high = entry.get("min", 0), entry.get("max")
            if (
                not isinstance(low, int)
                or low < 0
                or (high is not None and (not isinstance(high, int) or high < low))
            ):
                problems.append(f"{where}: min and max must be whole numbers with min <= max")
            problems.extend(self._validate_match(entry.get("match"), matchable, where))
        limits = data.get("limits", [])
        if not isinstance(limits, list):
            problems.append("limits must be a list")
        else:
            for n, limit in enumerate(limits):
                where = f"limits[{n}]"
                if not isinstance(limit, dict):
                    problems.append(f"{where}: must be an object")
                    continue
                try:
                    share = Fraction(str(limit.get("max_share")))
                    if not 0 <= share <= 1:
                        raise ValueError
                except (ValueError, ZeroDivisionError):
                    problems.append(f'{where}.max_share: a fraction from 0 to 1, e.g. "1/4"')
                problems.extend(self._validate_match(limit.get("match"), matchable, where))
        return problems

    @staticmethod
    def _validate_match(match: Any, matchable: Mapping[str, Field], where: str) -> list[str]:
        if not isinstance(match, dict):
            return [f"{where}.match: must be an object of unit field -> allowed values"]
        problems = []
        for key, allowed in match.items():
            field = matchable.get(key)
            if field is None:
                problems.append(
                    f"{where}.match.{key}: not a unit field that can be matched "
                    f"({', '.join(matchable)})"
                )
                continue
            values = (True, False) if field.kind == "boolean" else field.values
            if field.nullable:
                values = (*values, None)
            if not isinstance(allowed, list) or not allowed:
                problems.append(f"{where}.match.{key}: must be a non-empty list of values")
                continue
            for value in allowed:
                if not any(value == v and type(value) is type(v) for v in values):
                    problems.append(
                        f"{where}.match.{key}: {value!r} is not one of "
                        f"{', '.join(map(str, values))}"
                    )
        return problems


def too_few_figures_message(name: str, figures: int) -> str:
    verb = "rolls" if figures == 1 else "roll"
    return (
        f"{name}: {figures} figure{'' if figures == 1 else 's'} {verb} no combat die (one die "
        "per 4 figures fighting)."
    )


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


def part_code(part: Part) -> str:
    """The three-letter code of one troop type, e.g. ``CAF``."""
    return DENSITY_LETTER[part.density] + ARMOUR_LETTER[part.armour] + "MF"[not part.mounted]


def movement(part: Part) -> tuple[int, str]:
    """(move, rout/evade dice) of one troop type; encased armour slows it."""
    if part.armour == "encased":
        return ENCASED_MOVEMENT[part.mounted]
    return MOVEMENT[(part.density, part.mounted)]


def _share(share: Fraction) -> str:
    return f"{share.numerator}/{share.denominator}" if share.denominator != 1 else str(share)


RULESET = IntoTheDark()
