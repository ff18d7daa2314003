"""Feudal Wargame Rules (13 September 2017): six units, one row of a d6 force matrix.

Digest: ../shared/spec/rulesets/feudal-2017.md. Source: seeds/003 (Game conventions 0.x,
Shoot 1.x, Move 2.x, Mêlée 3.x, Rallies 4.x, 6-Hit variant, Optional rules, Feudal Force
Matrix and regional variations). No points; every distance follows from the base width.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import (
    Allowed,
    Army,
    CheckDoc,
    EntryStatus,
    Issue,
    ListDescription,
    RuleSet,
    Ruling,
    Unit,
    error,
)
from rules.errors import MalformedDocument
from rules.fields import Field, bool_field, choice_field, name_field
from rules.list_shape import ListShape
from rules.qrs import Sheet
from rules.rulesets.feudal_2017 import entries as feudal_entries
from rules.rulesets.feudal_2017 import lists, qrs
from rules.rulesets.feudal_2017.checks import (
    advantage_issues,
    army_size_message,
    balance_count_message,
    crossbow_count_message,
    modification_issues,
    personality_count_message,
)
from rules.rulesets.feudal_2017.combat import FeudalCombat
from rules.rulesets.feudal_2017.matrix import (
    COLUMN_LABELS,
    COLUMNS,
    FORCE_SIZE,
    ForceList,
    force_list,
    list_problems,
    matching_rows,
    mismatch_message,
)
from rules.rulesets.feudal_2017.roll import rolled_force
from rules.rulesets.feudal_2017.stat_line import stat_line
from rules.rulesets.feudal_2017.troops import (
    ADVANTAGE_RULE,
    BALANCE_TYPE,
    DEFAULT_LIST,
    DEFAULT_LIST_SLUG,
    HORSE_MARSHAL_TYPES,
    MATRIX_RULE,
    MODIFIER_CAP,
    PERSONALITY_RULE,
    SHOOTING,
    TYPE_NAME,
    UNIT_TYPES,
    banner_fault,
    matrix_type,
    melee_modifier,
    shooting_modifier,
)


class Feudal2017(RuleSet):
    slug = "feudal-2017"
    title = "Feudal Wargame Rules (2017)"
    source = "Feudal Wargame Rules, 13 September 2017"
    summary = (
        "No points: a force is six units, one row of the d6 force matrix (core, type 1, "
        "type 2, type 3), with the unit types and replacements of its army list. Every "
        "distance is a multiple of the base width (BW) and base depth (BD = BW/2)."
    )
    order = 50
    uses_points = False
    points_rule = MATRIX_RULE
    can_roll = True
    default_list = DEFAULT_LIST_SLUG
    options = (
        choice_field(
            "dice",
            "Dice (Dx)",
            [("d6", "d6 (1-6)"), ("d5", "d5 average dice (2, 3, 3, 4, 4, 5)")],
            help="The die used for every game roll; the rules call it Dx.",
        ),
        Field(
            "base_width_in",
            "Base width BW (inches)",
            "number",
            default=5.0,
            minimum=2.0,
            maximum=8.0,
            help="Base depth BD is half of it; every distance is computed from BW "
            '(12 cm is 4.72").',
        ),
        bool_field(
            "diced_movement",
            "Diced movement",
            help='Class 1/2/3 move 3"/6"/9", fast +Dx", road +3"; bows 12", javelins 6".',
        ),
        bool_field(
            "six_hit_variant",
            "6-hit units",
            help="Units take 6 hits and roll 3/2/1 attack dice for Dx+2/Dx/Dx-2.",
        ),
        bool_field(
            "trained_units",
            "Trained units",
            help="All rolls are made with a d6; units marked trained roll Dx.",
        ),
        choice_field(
            "missile_supply",
            "Missile supply",
            [
                ("three_shots", "Three shots"),
                ("natural_5", "Out on a natural 5"),
                ("four_shots", "Four shots (well supplied)"),
            ],
        ),  # fmt: skip
        bool_field("tired_units", "Tired units", help="-1 to all rolls past ten hits."),
    )
    unit_fields = (
        name_field(),
        choice_field("type", "Type", UNIT_TYPES),
        bool_field(
            "dismounted",
            "Dismounted knights",
            help="Serjeants only: knights that dismounted before the game. They fight as "
            "serjeants and still count as knights in the force matrix.",
        ),
        bool_field("mercenary_crossbows", "Mercenary crossbows", help="Bowmen only: shoot Dx+1."),
        choice_field(
            "balance",
            "Balance for crossbows",
            [
                ("mounted_serjeants", "Mounted serjeants (knights mêlée Dx+1)"),
                ("unwilling_levy", "Unwilling levy (freemen mêlée Dx-1)"),
            ],
            nullable=True,
        ),  # fmt: skip
        choice_field(
            "advantage",
            "Advantage",
            [
                ("determined", "Determined (18 hits)"),
                ("melee_plus", "Mêlée +1"),
                ("shoot_plus", "Shoot +1"),
                ("extra_missiles", "Extra missiles (4 shots)"),
                ("impetuous", "Impetuous"),
                ("woods", "May enter woods (freemen, bowmen)"),
            ],
            nullable=True,
        ),  # fmt: skip
        choice_field(
            "disadvantage",
            "Disadvantage",
            [
                ("unenthusiastic", "Unenthusiastic (12 hits)"),
                ("melee_minus", "Mêlée -1"),
                ("shoot_minus", "Shoot -1"),
                ("runs_out_5_6", "Runs out of missiles on a 5-6"),
                ("three_shots", "Only 3 shots (when the army has more)"),
            ],
            nullable=True,
        ),  # fmt: skip
        bool_field("trained", "Trained", help="Only with the trained-units option: rolls Dx."),
        choice_field(
            "personality",
            "Personality",
            [
                ("knight_errant", "Knight errant"),
                ("constable", "Constable"),
                ("horse_marshal", "Horse marshal"),
                ("bow_marshal", "Bow marshal"),
                ("brabanter", "Brabanter"),
                ("priest", "Priest"),
                ("strategos", "Strategos (+3 once to seize the initiative)"),
            ],
            nullable=True,
        ),  # fmt: skip
        bool_field(
            "banner",
            "Banner",
            help="An upgrade to the unit's personality; counts as another personality.",
        ),
    )
    combat_rules = FeudalCombat()
    rulings = (
        Ruling("R1", 'The Norse Irish list prints "T4 Cavalry": read as T3, the fourth '
                     "column of the matrix."),
        Ruling("R2", "Advantages and disadvantages are always available; the source permits "
                     'both "to balance", so an advantage needs a disadvantage elsewhere in '
                     "the army (a disadvantage on its own is allowed)."),
        Ruling("R3", "Dismounted knights are entered as serjeants marked dismounted: they "
                     "fight as serjeants and count as knights in the force matrix."),
        Ruling("R4", "Brigans with bows and mounted brigans are brigans armed otherwise: "
                     "they count as brigans in the force matrix."),
        Ruling("R5", "Mercenary crossbows with their balance, and dismounting, are allowed "
                     "with every army list, not only the standard one."),
        Ruling("R6", "6-hit variant: units a bit inferior (Dx+1, Dx-1) hit on 4+ with the "
                     "dice of the next better grade; determined units take 7 hits, "
                     "unenthusiastic 5, as the source's approximations."),
        Ruling("R7", "A unit may carry one advantage and one disadvantage (the source's own "
                     "examples: \"an unpaid mercenary crossbow unit may shoot Dx+1 but have "
                     "only 12 Hits\"; \"A German Knight Unit may Melee Dx+1 but have 18 "
                     "Hits\"), never two of either."),
        Ruling("R8", "Missile modifications change one unit's supply against the army's: extra "
                     "missiles (4 shots) only where the army has three shots; \"only have 3 "
                     "shots\" only where the army is well supplied (4 shots) or rolls for its "
                     "supply; running out on a 5-6 anywhere. Missile and shooting "
                     "modifications need a unit that shoots; the woods advantage needs freemen "
                     "or bowmen."),
        Ruling("R9", "Strategos, named among the initiative options (\"a one-time bonus of "
                     "+3 to seize Initiative\"), is a personality: he counts against the "
                     "one-per-three-units limit and rides with any unit."),
        Ruling("R10", "Opposite modifications on one unit net out on their axis: determined "
                      "with unenthusiastic takes 15 hits, mêlée +1 with -1 and shoot +1 with -1 "
                      "roll the unit's own dice, extra missiles with only 3 shots keep the "
                      "army's supply; a warning says they are spent for nothing."),
    )  # fmt: skip
    not_offered = (
        "Savings rolls, initiative, force morale and alternative rallying: played at the "
        "table, nothing to build (they appear on the quick-reference sheet).",
    )
    checks = (
        CheckDoc("matrix-mismatch", "error", "army",
                 "The units fit no row of the force matrix under the list's columns and "
                 "replacements; the message says what the nearest row would need."),
        CheckDoc("army-size", "error", "army", "Not six units."),
        CheckDoc("crossbow-balance", "error", "army",
                 "Mercenary crossbows without exactly one balancing unit, a balance without "
                 "crossbows, more than one of either, crossbows on a unit that is not bowmen, "
                 "or a balance on the wrong type (mounted serjeants on knights, unwilling levy "
                 "on freemen)."),
        CheckDoc("too-many-personalities", "error", "army",
                 "Personalities plus banners above one for every three units."),
        CheckDoc("banner-unit", "error", "unit",
                 "A banner not with knights or serjeants, or with no personality to carry it "
                 "(a priest or a strategos cannot: the banner upgrades the five before it)."),
        CheckDoc("horse-marshal-unit", "error", "unit",
                 "A horse marshal not with knights or cavalry (the Bretons' cavalry \"move as "
                 "Knights\": \"[Try a Horse Master personality!]\")."),
        CheckDoc("bow-marshal-unit", "error", "unit", "A bow marshal not with bowmen."),
        CheckDoc("advantage-limit", "error", "army",
                 "More than one unit with an advantage or more than one with a disadvantage; "
                 "or the woods advantage on a unit other than freemen or bowmen."),
        CheckDoc("advantage-unbalanced", "error", "army",
                 "An advantage without a disadvantage to balance it (R2)."),
        CheckDoc("one-modification-per-unit", "error", "unit",
                 "An advantage or a disadvantage together with mercenary crossbows or a "
                 "balance (one advantage and one disadvantage on a unit is allowed, R7)."),
        CheckDoc("modification-not-applicable", "error", "unit",
                 "A shooting or missile modification on a unit that does not shoot, or one "
                 "that changes nothing under the army's missile supply (R8)."),
        CheckDoc("modifications-cancel", "warning", "unit",
                 "An advantage and its opposite disadvantage on one unit: they net out and "
                 "use up the army's advantage and disadvantage for nothing (R10)."),
        CheckDoc("modifier-cap", "error", "unit",
                 "A mêlée or shooting modifier above +2 or below -2 (knights with mêlée +1)."),
        CheckDoc("trained-disabled", "error", "unit",
                 "A unit marked trained while the trained-units option is off."),
        CheckDoc("dismounted-not-serjeants", "error", "unit",
                 "Dismounted on a unit that is not entered as serjeants: dismounted knights "
                 "fight as serjeants (and still count as knights in the matrix)."),
    )  # fmt: skip

    # -- parsing -------------------------------------------------------------------
    def normalise_army(self, army: Army) -> Army:
        if army.list_data is not None:
            problems = self.validate_army_list(army.list_data)
            if problems:
                raise MalformedDocument(
                    "army_list",
                    f"army_list: the list {army.army_list!r} is malformed: {'; '.join(problems)}",
                )
        return army

    def unit_context(self, army: Army) -> Any:
        """A serjeants' stat line reads the list in force: the default list's when the
        army has none (the army's own list is in every unit's context already)."""
        if army.list_data is not None:
            return None
        return bool(self.list_in_force(army).get("schiltrons"))

    # -- the army list in force ----------------------------------------------------------
    def list_in_force(self, army: Army) -> Mapping[str, Any]:
        """The army's list, or the default `feudal` list (database copy, else built in)."""
        if army.list_data is not None:
            return army.list_data
        stored = army.ruleset_lists.get(DEFAULT_LIST_SLUG)
        if stored is not None and not self.validate_army_list(stored):
            return stored
        return DEFAULT_LIST

    def force(self, army: Army) -> ForceList:
        return force_list(self.list_in_force(army))

    # -- stat line -------------------------------------------------------------------
    def stats(self, unit: Unit, army: Army) -> dict[str, Any]:
        return stat_line(unit, army, self.list_in_force(army))

    # -- checks ------------------------------------------------------------------------
    def check_unit(self, unit: Unit, index: int, army: Army) -> Iterable[Issue]:
        name = unit["name"]
        kind = unit["type"]
        at = {"unit": index}
        type_name = TYPE_NAME[kind].lower()
        if unit["dismounted"] and kind != "serjeants":
            yield error("dismounted-not-serjeants",
                        f"{name}: dismounted knights fight as serjeants, so enter this unit as "
                        f"serjeants, not {type_name} (it still counts as knights in the matrix).",
                        MATRIX_RULE, **at)  # fmt: skip
        if unit["mercenary_crossbows"] and kind != "bowmen":
            yield error("crossbow-balance",
                        f"{name}: only bowmen may be mercenary crossbows, not {type_name}.",
                        MATRIX_RULE, **at)  # fmt: skip
        balance = unit["balance"]
        if balance is not None and (kind != BALANCE_TYPE[balance] or unit["dismounted"]):
            what = "mounted serjeants" if balance == "mounted_serjeants" else "unwilling levy"
            yield error("crossbow-balance",
                        f"{name}: {what} must be a {BALANCE_TYPE[balance]} unit, not "
                        f"{'dismounted knights' if unit['dismounted'] else type_name}.",
                        MATRIX_RULE, **at)  # fmt: skip
        if unit["banner"]:
            reason = banner_fault(kind, type_name, unit["personality"])
            if reason:
                yield error("banner-unit", f"{name}: {reason}.", PERSONALITY_RULE, **at)
        if unit["personality"] == "horse_marshal" and kind not in HORSE_MARSHAL_TYPES:
            yield error("horse-marshal-unit",
                        f"{name}: a horse marshal manoeuvres knights (or cavalry, who move as "
                        f"knights); he cannot lead {type_name}.", PERSONALITY_RULE, **at)  # fmt: skip
        if unit["personality"] == "bow_marshal" and kind != "bowmen":
            yield error("bow-marshal-unit",
                        f"{name}: a bow marshal leads bowmen, not {type_name}.",
                        PERSONALITY_RULE, **at)  # fmt: skip
        modified = [
            label
            for label, present in (
                ("an advantage", unit["advantage"] is not None),
                ("a disadvantage", unit["disadvantage"] is not None),
            )
            if present
        ]
        crossbow = "mercenary crossbows" if unit["mercenary_crossbows"] else None
        if balance is not None:
            crossbow = "a crossbow balance"
        if modified and crossbow:
            yield error("one-modification-per-unit",
                        f"{name}: has {' and '.join(modified)} besides {crossbow}; a unit "
                        "takes no advantage or disadvantage on top of the crossbow "
                        "arrangement.", ADVANTAGE_RULE, **at)  # fmt: skip
        yield from modification_issues(
            unit,
            index,
            army.options["missile_supply"],
            shoots=kind in SHOOTING,
            type_name=type_name,
        )
        melee = melee_modifier(unit)
        if abs(melee) > MODIFIER_CAP:
            yield error("modifier-cap",
                        f"{name}: mêlée Dx{melee:+d}; no unit is better than +2 or worse than -2.",
                        ADVANTAGE_RULE, **at)  # fmt: skip
        shooting = shooting_modifier(unit)
        if shooting is not None and abs(shooting) > MODIFIER_CAP:
            yield error("modifier-cap",
                        f"{name}: shoots Dx{shooting:+d}; no unit is better than +2 or worse "
                        "than -2.", ADVANTAGE_RULE, **at)  # fmt: skip
        if unit["trained"] and not army.options["trained_units"]:
            yield error("trained-disabled",
                        f"{name}: marked trained, but the trained-units option is off; switch "
                        "it on or untick trained.", "Trained Units", **at)  # fmt: skip

    def check_army(self, army: Army) -> Iterable[Issue]:
        units = army.units
        force = self.force(army)
        types = [matrix_type(u) for u in units]
        if len(units) != FORCE_SIZE:
            # one mistake, one error: the wrong size says which rows are nearest
            nearest = f" {mismatch_message(types, force).split('. ', 1)[1]}" if units else ""
            yield error("army-size", army_size_message(len(units)) + nearest, MATRIX_RULE)
        elif not matching_rows(types, force):
            yield error("matrix-mismatch", mismatch_message(types, force), MATRIX_RULE)
        yield from self._check_crossbows(army)
        allowed = len(units) // 3
        personalities = sum(1 for u in units if u["personality"]) + sum(
            1 for u in units if u["banner"]
        )
        if personalities > allowed:
            yield error("too-many-personalities",
                        f"{personality_count_message(personalities, len(units))}.",
                        PERSONALITY_RULE)  # fmt: skip
        yield from advantage_issues(army.units)

    def _check_crossbows(self, army: Army) -> Iterable[Issue]:
        """One mistake, one error: crossbows on a unit that is not bowmen, or a balance on
        the wrong type, are reported on that unit; they still pair off here, and only a
        rightly placed unit is reported for lacking its partner."""
        units = army.units
        crossbows = [u["name"] for u in units if u["mercenary_crossbows"]]
        balances = [u["name"] for u in units if u["balance"] is not None]
        placed_crossbows = [
            u["name"] for u in units if u["mercenary_crossbows"] and u["type"] == "bowmen"
        ]
        placed_balances = [
            u["name"]
            for u in units
            if u["balance"] is not None
            and u["type"] == BALANCE_TYPE[u["balance"]]
            and not u["dismounted"]
        ]
        problem = None
        if len(crossbows) > 1:
            problem = crossbow_count_message(crossbows)
        elif len(balances) > 1:
            problem = balance_count_message(balances)
        elif placed_crossbows and not balances:
            problem = (
                f"{placed_crossbows[0]}: mercenary crossbows with nothing to balance them; "
                "make one knights unit mounted serjeants or one freemen unit unwilling levy"
            )
        elif placed_balances and not crossbows:
            problem = f"{placed_balances[0]}: balances mercenary crossbows the army does not have"
        if problem:
            yield error("crossbow-balance", f"{problem}.", MATRIX_RULE)

    def composition(self, army: Army) -> dict[str, Any]:
        force = self.force(army)
        return {
            "matrix_rows": matching_rows([matrix_type(u) for u in army.units], force),
            "columns": force.column_types(),
        }

    # -- rolling a force ---------------------------------------------------------------
    def roll_force(
        self,
        list_slug: str | None,
        list_data: Mapping[str, Any] | None,
        seed: int,
        *,
        list_name: str | None = None,
    ) -> dict[str, Any]:
        """Roll the d6 on the force matrix and field that row of the list, seeded (no list
        data: the built-in default list, and the document names no list)."""
        data = DEFAULT_LIST if list_data is None else list_data
        problems = self.validate_army_list(data)
        if problems:
            raise MalformedDocument("army_list", f"army_list: {'; '.join(problems)}")
        named = list_data is not None
        return rolled_force(self.slug, list_slug, data, seed, named=named, list_name=list_name)

    # -- army lists --------------------------------------------------------------------
    def _valid_list(self, list_data: Mapping[str, Any] | None, army: Army | None) -> Any:
        """The list the picker reads (``list_data``, else the army's list in force, else the
        default list), or None when it is malformed."""
        data = list_data if list_data is not None else DEFAULT_LIST
        data = self.list_in_force(army) if list_data is None and army is not None else data
        return None if self.validate_army_list(data) else data

    def list_entries(self, list_data: Any, army: Army | None) -> tuple[EntryStatus, ...]:
        data = self._valid_list(list_data, army)
        return () if data is None else feudal_entries.list_entries(data, army)

    def allowed_values(self, list_data: Any, unit: Unit) -> Mapping[str, Allowed]:
        return feudal_entries.allowed_values(self, self._valid_list(list_data, None), unit)

    def describe_list(self, list_data: Mapping[str, Any] | None) -> ListDescription:
        data = self._valid_list(list_data, None)
        return ListDescription() if data is None else feudal_entries.describe_list(self, data)

    def unit_presets(self, list_data: Mapping[str, Any] | None) -> list[tuple[str, Unit]]:
        """One unit of each column's type, the list's (or the default list's) columns."""
        columns = (list_data or DEFAULT_LIST).get("columns", {})
        return [
            (f"{COLUMN_LABELS[c].capitalize()}: {TYPE_NAME[columns[c]]}",
             {"type": columns[c], "name": TYPE_NAME[columns[c]]})
            for c in COLUMNS
            if columns.get(c) in TYPE_NAME
        ]  # fmt: skip

    def validate_army_list(self, data: Any) -> list[str]:
        return super().validate_army_list(data) or list_problems(data)

    def list_shape(self) -> ListShape:
        """The matrix's columns, the replacements and the list's settings, for the editor."""
        return lists.list_shape(self.validate_army_list)

    def quick_reference(
        self, options: Mapping[str, Any], army: Army | None, *, extras: tuple[str, ...] = ()
    ) -> Sheet:
        return qrs.build(options, army, extras=extras)


RULESET = Feudal2017()
