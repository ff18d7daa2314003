"""Medieval Wargaming Rules (Brian Dewitt, PW Review, March 1987): points per figure.

Digest: ../shared/spec/rulesets/dewitt-medieval.md. Source: seeds/002 "PIECE COST",
"MODIFICATION COST", "Melee / TROOP POINTS", "Movement", "Morale", "Risk to General".
Units are stands of up to three figures; figures are never removed, and a unit that fails
morale four times is gone.
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
    EntryStatus,
    FigureCost,
    Issue,
    RuleSet,
    Ruling,
    Unit,
    error,
    warning,
)
from rules.fields import Choice, Field, bool_field, choice_field, name_field
from rules.list_entries import ENTRY_LIST_CHECKS
from rules.list_shape import ListShape
from rules.qrs import Sheet
from rules.rulesets.dewitt_medieval import lists, qrs
from rules.rulesets.dewitt_medieval.combat import DewittCombat

# piece cost per figure: (class, arm) -> points ("HEAVY FOOT a" is 8, super heavy cavalry 19)
PIECE_COST = {
    ("light", "cavalry"): 8,
    ("medium", "cavalry"): 10,
    ("heavy", "cavalry"): 12,
    ("super_heavy", "cavalry"): 19,
    ("light", "foot"): 4,
    ("medium", "foot"): 6,
    ("heavy", "foot"): 8,
    ("super_heavy", "foot"): 12,
}
# modification cost per figure, in the order the source prints them
WEAPON_COST = {
    "two_handed": 2,
    "pike": 2,
    "mace": 1,
    "spear": 1,
    "crossbow": 1,
    "sling": 1,
    "longbow": 2,
    "bow": 2,
    "ss": 2,
    "lance": 2,
    "cut_and_thrust": 2,
}
NO_SHIELD = -1
COMMAND_COST = {"c_in_c": 100, "general": 50}
COMMAND_NAME = {"c_in_c": "C-in-C", "general": "general"}

WEAPON_NAME = {
    "lance": "lance",
    "two_handed": "two-handed",
    "pike": "pike",
    "spear": "spear",
    "mace": "mace",
    "cut_and_thrust": "cut-and-thrust",
    "crossbow": "crossbow",
    "sling": "sling",
    "longbow": "longbow",
    "bow": "bow",
    "ss": "SS",
}
CLASS_NAME = {
    "light": "light",
    "medium": "medium",
    "heavy": "heavy",
    "super_heavy": "super heavy",
}
MISSILE = ("crossbow", "sling", "longbow", "bow", "ss")
CAVALRY_ONLY = {"lance"}  # R2
FOOT_ONLY = {"pike", "longbow"}  # R2
# rows that fight, the first that applies: pikes, cavalry, cut and thrust, two-handed
FIGHTING_ROWS = (("pike", 4), ("cavalry", 1), ("cut_and_thrust", 2), ("two_handed", 1))
OTHER_ROWS = 2

MOVE_PER_IMPULSE = {"light": 4, "medium": 3, "heavy": 3, "super_heavy": 2}
ROAD_BONUS = 1
TROOP_POINTS = {"light": 1, "medium": 2, "heavy": 3, "super_heavy": 4}
MORALE_TRACK = "8 (no hits) · 7 · 6 · 5 · destroyed at 4 hits"

STANDS_MIN, STANDS_MAX = 1, 12
ADVISED_MIN, ADVISED_MAX = 2, 6
FIGURES_PER_STAND = (3, 2, 1)


def _num(value: Fraction | int) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def _signed(value: Fraction | int) -> str:
    return f"+{_num(value)}" if value >= 0 else f"−{_num(-value)}"


def _inches(value: Fraction | int) -> str:
    return f'{_num(value)}"'


class DewittMedieval(RuleSet):
    slug = "dewitt-medieval"
    title = "Medieval Wargaming Rules (Dewitt, 1987)"
    source = "Medieval Wargaming Rules by Brian Dewitt, PW Review, March 1987"
    summary = (
        "Points: each figure costs its piece cost (by class, foot or cavalry) plus its "
        "weapon modifications, times stands x figures per stand; a C-in-C adds 100 and a "
        "general 50 to the unit he rides with. Figures are never removed: a unit that fails "
        "morale four times is gone."
    )
    order = 40
    uses_points = True
    points_rule = "PIECE COST"
    has_generals = False
    source_has_lists = False  # the 1987 rules give troop classes, no historical army lists
    options = (
        choice_field(
            "figure_scale",
            "Figure scale",
            [("25mm", "25 mm"), ("15mm", "15 mm (halve every distance)")],
            help="15 mm halves the distances on the roster and quick-reference sheet.",
        ),
    )
    unit_fields = (
        name_field(),
        choice_field("arm", "Arm", [("foot", "Foot"), ("cavalry", "Cavalry")]),
        choice_field(
            "class",
            "Class",
            [
                ("light", "Light (unarmoured)"),
                ("medium", "Medium (mail shirt)"),
                ("heavy", "Heavy (full mail, or covered horse)"),
                ("super_heavy", "Super heavy (plate, or armoured horse)"),
            ],
            help="Piece cost per figure: cavalry 8/10/12/19, foot 4/6/8/12.",
        ),
        Field(
            "stands",
            "Stands",
            "integer",
            default=4,
            minimum=STANDS_MIN,
            maximum=STANDS_MAX,
            help="From about two 3-man stands for heavy cavalry to six for archers.",
        ),
        Field(
            "figures_per_stand",
            "Figures per stand",
            "choice",
            default=3,
            choices=(
                Choice(3, "3 figures"),
                Choice(2, "2 figures"),
                Choice(1, "1 figure", "a 1-man stand fights at −2"),
            ),
        ),
        Field(
            "weapons",
            "Weapons",
            "multi",
            default=[],
            choices=(
                Choice("lance", "Lance (+2)", "cavalry only"),
                Choice("two_handed", "Two-handed (+2)"),
                Choice("pike", "Pike (+2)", "foot only"),
                Choice("spear", "Spear (+1)"),
                Choice("mace", "Mace (+1)"),
                Choice("cut_and_thrust", "Cut-and-thrust (+2)"),
                Choice("crossbow", "Crossbow (+1)"),
                Choice("sling", "Sling (+1)"),
                Choice("longbow", "Longbow (+2)", "foot only"),
                Choice("bow", "Bow (+2)"),
                Choice("ss", "SS (as printed) (+2)", 'printed "SS" beside the bows'),
            ),
            help="Each weapon adds its modification cost per figure.",
        ),
        bool_field("shield", "Shield", default=True, help="No shield: −1 point per figure."),
        choice_field(
            "command",
            "Command",
            [
                ("general", "General rides with this unit (+50)"),
                ("c_in_c", "C-in-C rides with this unit (+100)"),
            ],
            nullable=True,
        ),  # fmt: skip
    )
    rulings = (
        Ruling("R1", '"PIECE COST" is per figure ("piece"), not per stand.'),
        Ruling("R2", "Lance is a cavalry weapon and pike a foot weapon; longbow is foot only."),
        Ruling("R3", 'The shooting-points "TABLE X" is not in the source: the quick-reference '
                     "sheet prints the formula (points x men x impulses / 10, halved for horse "
                     "archers, long range and indirect fire) and leaves the table column blank "
                     "for the players' own values."),
        Ruling("R4", '"Unit sizes may range from six 3-man stands for archers to about two '
                     '3-man stands for heavy cavalry" (the introduction) is advice: a unit of '
                     "fewer than 2 or more than 6 stands is warned, not refused."),
        Ruling("R5", "Stands outside 1-12 and figures per stand other than 3, 2 or 1 are "
                     "refused as a malformed document naming the field (HTTP 400, exit 2); "
                     "such an army is never saved, so no check code reports it."),
        Ruling("R6", "The source has no army lists: a player's own list (entries of arm, "
                     "class, weapons, stands and how many units) is checked as its author "
                     "wrote it."),
    )  # fmt: skip
    not_offered = (
        "Artillery, rams and siege towers: the source moves and fights them but gives no "
        "piece cost (the siege section is on the quick-reference sheet only).",
        'The shooting-points "TABLE X" values (R3).',
        "Stakes: the source gives defenders behind stakes -1 (infantry) or -2 (cavalry) in "
        "melee but no cost, so they are placed as terrain, not bought with a unit (on the "
        "quick-reference sheet's melee modifiers).",
    )
    checks = (
        CheckDoc("weapon-wrong-arm", "error", "unit",
                 "A lance on foot, or a pike or longbow on cavalry (R2)."),
        CheckDoc("unit-size", "warning", "unit",
                 "Fewer than 2 or more than 6 stands (the source: from about two 3-man stands "
                 "of heavy cavalry to six of archers; R4)."),
        OVER_POINTS_LIMIT,
        CheckDoc("c-in-c-count", "error", "army",
                 "More than one C-in-C is an error; an army without one gets a warning."),
        *ENTRY_LIST_CHECKS,
    )  # fmt: skip

    # -- costing -----------------------------------------------------------------
    def per_figure(self, unit: Unit) -> tuple[int, str]:
        """Piece cost plus modifications for one figure, with the step that shows it."""
        piece = PIECE_COST[(unit["class"], unit["arm"])]
        parts = [f"{CLASS_NAME[unit['class']]} {unit['arm']} {piece}"]
        total = piece
        for weapon in unit["weapons"]:
            total += WEAPON_COST[weapon]
            parts.append(f"{WEAPON_NAME[weapon]} {_signed(WEAPON_COST[weapon])}")
        if not unit["shield"]:
            total += NO_SHIELD
            parts.append(f"no shield {_signed(NO_SHIELD)}")
        return total, f"{_join_terms(parts)} = {total} per figure"

    def cost_unit(self, unit: Unit, army: Army) -> Cost:
        each, step = self.per_figure(unit)
        stands, per_stand = unit["stands"], unit["figures_per_stand"]
        figures = stands * per_stand
        bodies = figures * each
        steps = [step, stands_step(stands, per_stand, each, bodies)]
        total = bodies
        command = unit["command"]
        if command is not None:
            total += COMMAND_COST[command]
            steps.append(f"{COMMAND_NAME[command]} +{COMMAND_COST[command]} = {total}")
        return Cost(Fraction(total), tuple(steps))

    def figure_cost(self, unit: Unit, army: Army) -> FigureCost:
        """Stands of a fixed size: each stand pays its figures' "PIECE COST" and
        "MODIFICATION COST" (per figure, R1); "C-IN-C 100", "GENERAL 50" ride on top.
        Whole points: nothing to round."""
        each, _ = self.per_figure(unit)
        command = unit["command"]
        fixed = COMMAND_COST[command] if command is not None else 0
        per_stand = Fraction(each * unit["figures_per_stand"])
        return FigureCost("stands", unit["stands"], per_stand, Fraction(fixed), STANDS_MIN,
                          STANDS_MAX, ("name",))  # fmt: skip

    # -- stat line -----------------------------------------------------------------
    def scale(self, army: Army) -> Fraction:
        return Fraction(1, 2) if army.options.get("figure_scale") == "15mm" else Fraction(1)

    def melee_points(self, unit: Unit) -> tuple[Fraction, list[str]]:
        """Melee troop points with the terms that make them up."""
        points = Fraction(TROOP_POINTS[unit["class"]])
        terms = [f"{CLASS_NAME[unit['class']]} {points}"]
        weapons = unit["weapons"]
        if "lance" in weapons:
            points += 1
            terms.append("lance +1")
        if not unit["shield"] and not ({"two_handed", "pike"} & set(weapons)):
            points -= 1
            terms.append("no shield −1")
        if "two_handed" in weapons:
            points += Fraction(3, 2)
            terms.append("two-handed +1.5")
        if unit["figures_per_stand"] == 1:
            points -= 2
            terms.append("1-man stand −2")
        return points, terms

    @staticmethod
    def fighting_rows(unit: Unit) -> int:
        """The rows that fight: the first of ``FIGHTING_ROWS`` the unit's arm or weapons name."""
        traits = {unit["arm"], *unit["weapons"]}
        return next((rows for trait, rows in FIGHTING_ROWS if trait in traits), OTHER_ROWS)

    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        k = self.scale(army)
        cavalry = unit["arm"] == "cavalry"
        points, terms = self.melee_points(unit)
        stats: dict[str, Any] = {
            "move": f"{_inches(MOVE_PER_IMPULSE[unit['class']] * k)} per impulse",
            "road": f"+{_inches(ROAD_BONUS * k)} per impulse",
            "impulses": "both dice (4–10)" if cavalry else "first die (2–5)",
            "facing": "2 impulses" if cavalry else "1 impulse",
            "melee_points": _num(points),
            "melee_terms": _join_terms(terms),
            "fighting_rows": str(self.fighting_rows(unit)),
            "morale": MORALE_TRACK,
        }
        missiles = [WEAPON_NAME[w] for w in unit["weapons"] if w in MISSILE]
        if missiles:
            halved = " / 2 (horse archers)" if cavalry else ""
            stats["shooting"] = (
                f"{', '.join(missiles)}: points x men x impulses / 10{halved}; "
                "half the men at long range or indirect"
            )
        notes = self.notes(unit, k)
        if notes:
            stats["notes"] = "; ".join(notes)
        return stats

    @staticmethod
    def notes(unit: Unit, k: Fraction) -> list[str]:
        weapons = set(unit["weapons"])
        notes = []
        if unit["command"] == "c_in_c":
            notes.append(
                f"C-in-C: may add 10 morale points in the game to units within {_inches(10 * k)}"
            )
        elif unit["command"] == "general":
            notes.append("general: may raise morale 1 or 2, at risk of double")
        if "spear" in weapons:
            notes.append("spear +1 vs lights or medium")
        if weapons & {"pike", "cut_and_thrust"}:
            notes.append("pike or thrusters +2 vs cavalry")
        if "mace" in weapons:
            notes.append("mace +1 vs super heavy")
        if unit["class"] == "super_heavy":
            notes.append("counts shieldless only against crossbow")
        if weapons & {"two_handed", "pike"} and not unit["shield"]:
            notes.append("two-handed and pike do not count as shieldless in melee")
        if unit["arm"] == "foot":
            notes.append("may move backwards at half speed")
        return notes

    # -- checks --------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        name = unit["name"]
        at = {"unit": index}
        stands = unit["stands"]
        for weapon in unit["weapons"]:
            if weapon in CAVALRY_ONLY and unit["arm"] != "cavalry":
                yield error("weapon-wrong-arm",
                            f"{name}: the {WEAPON_NAME[weapon]} is a cavalry weapon; foot "
                            "cannot carry it.", "Ruling R2", **at)  # fmt: skip
            if weapon in FOOT_ONLY and unit["arm"] != "foot":
                yield error("weapon-wrong-arm",
                            f"{name}: the {WEAPON_NAME[weapon]} is a foot weapon; cavalry "
                            "cannot carry it.", "Ruling R2", **at)  # fmt: skip
        if STANDS_MIN <= stands < ADVISED_MIN or ADVISED_MAX < stands <= STANDS_MAX:
            yield warning("unit-size", unit_size_message(name, stands), "Ruling R4", **at)

    def check_army(self, army: Army) -> Iterable[Issue]:
        if army.list_data is not None:  # a player's own list (the source has none)
            yield from lists.issues(army, army.list_data)
        chiefs = [i for i, u in enumerate(army.units) if u["command"] == "c_in_c"]
        if len(chiefs) > 1:
            names = ", ".join(army.units[i]["name"] for i in chiefs)
            yield error("c-in-c-count", c_in_c_message(len(chiefs), names), "Risk to General")
        elif not chiefs and army.units:
            yield warning("c-in-c-count",
                          "The army has no C-in-C: give one unit the C-in-C (+100).",
                          "Risk to General")  # fmt: skip

    # -- players' army lists ------------------------------------------------------------
    def combat(self) -> DewittCombat:
        """Shooting impacts, melee pair-offs and morale tests at the table."""
        return DewittCombat(self)

    def list_shape(self) -> ListShape:
        return lists.shape(self.unit_fields)

    def validate_army_list(self, data: Any) -> list[str]:
        return super().validate_army_list(data) or lists.problems(data, self.unit_fields)

    def list_entries(
        self, list_data: Mapping[str, Any] | None, army: Army | None
    ) -> tuple[EntryStatus, ...]:
        return lists.entries(self, list_data, army)

    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        return [(e.label, dict(e.values)) for e in lists.entries(self, list_data, None)]

    def quick_reference(
        self, options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()
    ) -> Sheet:
        return qrs.build(options, army, extras=extras)


def stands_step(stands: int, per_stand: int, each: int, bodies: int) -> str:
    """``4 stands x 3 figures x 14 = 168``; ``1 stand x 1 figure x 8 = 8``."""
    return (
        f"{stands} stand{'' if stands == 1 else 's'} x {per_stand} "
        f"figure{'' if per_stand == 1 else 's'} x {each} = {bodies}"
    )


def unit_size_message(name: str, stands: int) -> str:
    return (
        f"{name}: {stands} stand{'' if stands == 1 else 's'}; units run from about "
        f"{ADVISED_MIN} stands (heavy cavalry) to {ADVISED_MAX} (archers)."
    )


def c_in_c_message(count: int, names: str) -> str:
    """More than one C-in-C: the army names one commander-in-chief."""
    return (
        f"The army has {count} C-in-C{'' if count == 1 else 's'} ({names}); an army has "
        "one C-in-C: make the others generals."
    )


def _join_terms(terms: list[str]) -> str:
    """'heavy cavalry 12', 'lance +2', 'no shield −1' -> 'heavy cavalry 12 + lance 2 − no ...'."""
    out = terms[0]
    for term in terms[1:]:
        label, _, value = term.rpartition(" ")
        if value.startswith("−"):
            out += f" − {label} {value[1:]}"
        else:
            out += f" + {label} {value.lstrip('+')}"
    return out


RULESET = DewittMedieval()
