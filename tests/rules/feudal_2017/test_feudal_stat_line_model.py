"""Feudal 2017 stat lines against an independent model written from the source's own table
of modifications (seeds/003, "Advantages and Disadvantages": "Determined / Unenthusiastic:
18 Hits / 12 Hits, Mêlée +1 / -1, Shoot +1 / -1, Extra Missiles for 4 Shots total, ...
only have 3 shots, or run out on a 5-6") and the digest's amended ruling: opposite
modifications on one unit net out on their axis, with the warning ``modifications-cancel``.

The model shares no code with the rule set: each modification is an (axis, step) and a
unit's value on an axis is its base plus the sum of its steps."""

import copy
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import check_document
from tests.support import army, example, fixture_lists

# the source's modifications: name -> (axis, step); None for those with no number
MODIFICATION_TABLE = {
    "determined": ("hits", +3),
    "unenthusiastic": ("hits", -3),
    "melee_plus": ("melee", +1),
    "melee_minus": ("melee", -1),
    "shoot_plus": ("shoot", +1),
    "shoot_minus": ("shoot", -1),
    "extra_missiles": ("shots", +1),
    "three_shots": ("shots", -1),
    "runs_out_5_6": ("runs_out", +1),
    "impetuous": None,
    "woods": None,
}
ADVANTAGES = ["determined", "melee_plus", "shoot_plus", "extra_missiles", "impetuous", "woods"]
DISADVANTAGES = ["unenthusiastic", "melee_minus", "shoot_minus", "runs_out_5_6", "three_shots"]
# Mêlée 3.x and Shoot 1.x, "Alternative Troop Types": the Dx modifier of each type
MELEE = {"knights": 2, "serjeants": 0, "freemen": 0, "bowmen": -2, "brigans": -2,
         "brigans_bows": -2, "mounted_brigans": -2, "cavalry": 0}  # fmt: skip
SHOOT = {"bowmen": 0, "brigans": -2, "brigans_bows": -2, "mounted_brigans": -2, "cavalry": -2}
SIX_HIT_VARIANT = {15: 6, 18: 7, 12: 5}
SUPPLIES = ["three_shots", "four_shots", "natural_5"]
LISTS = fixture_lists("feudal-2017")


def axis_sums(unit):
    sums = {"hits": 0, "melee": 0, "shoot": 0, "shots": 0, "runs_out": 0}
    for slot in ("advantage", "disadvantage"):
        entry = MODIFICATION_TABLE.get(unit.get(slot))
        if entry:
            sums[entry[0]] += entry[1]
    return sums


def opposite_pair(unit):
    """The advantage and the disadvantage sit on one axis with opposite steps."""
    a = MODIFICATION_TABLE.get(unit.get("advantage"))
    d = MODIFICATION_TABLE.get(unit.get("disadvantage"))
    return bool(a and d and a[0] == d[0] and a[1] == -d[1])


def model(unit, options):
    sums = axis_sums(unit)
    die = options["dice"]
    hits = 15 + sums["hits"]
    expected = {
        "hits": (
            f"{SIX_HIT_VARIANT[hits]} (removed above {SIX_HIT_VARIANT[hits]})"
            if options["six_hit_variant"]
            else f"{hits} (removed at {hits})"
        )
    }
    if not options["six_hit_variant"]:
        melee = MELEE[unit["type"]] + sums["melee"]
        expected["melee"] = die if melee == 0 else f"{die}{melee:+d}"
    if unit["type"] in SHOOT:
        limit, roll = {"three_shots": ("3", None), "four_shots": ("4", None),
                       "natural_5": (None, "5")}[options["missile_supply"]]  # fmt: skip
        if sums["runs_out"]:
            limit, roll = None, "5 or 6"
        if sums["shots"] < 0:
            limit, roll = "3", None
        if sums["shots"] > 0:
            limit = "4"
        expected["shots"] = (
            limit if roll is None else f"{limit}, or until a natural {roll}" if limit
            else f"until a natural {roll}"
        )  # fmt: skip
        if not options["six_hit_variant"]:
            shoot = SHOOT[unit["type"]] + sums["shoot"]
            expected["shoot_dice"] = die if shoot == 0 else f"{die}{shoot:+d}"
    return expected


def checked(unit, options):
    """The unit in place of the roll-4 example's first unit, checked with the options."""
    units = copy.deepcopy(example("feudal-2017-roll-4.json")["units"])
    units[0] = unit
    doc = army("feudal-2017", units, army_list="feudal", options=options)
    return check_document(doc, lambda _: LISTS)[1]


def observed(report, unit_type, six_hit):
    stats = report.units[0].stats
    seen = {"hits": stats["hits"]}
    if not six_hit:
        seen["melee"] = stats["melee"]
    if unit_type in SHOOT:
        seen["shots"] = stats["shots"]
        if not six_hit:
            seen["shoot_dice"] = stats["shooting"].rsplit(", ", 1)[1]
    return seen


PAIRS = list(itertools.product([None, *ADVANTAGES], [None, *DISADVANTAGES]))


@pytest.mark.parametrize("supply", SUPPLIES)
@pytest.mark.parametrize(("advantage", "disadvantage"), PAIRS)
def test_every_pair_of_modifications_on_bowmen_matches_the_source_table(
    advantage, disadvantage, supply
):
    unit = {"name": "Archers", "type": "bowmen", "advantage": advantage,
            "disadvantage": disadvantage}  # fmt: skip
    options = {"dice": "d6", "six_hit_variant": False, "missile_supply": supply}
    report = checked(unit, options)
    assert observed(report, "bowmen", False) == model(unit, options)


@pytest.mark.parametrize(("advantage", "disadvantage"), PAIRS)
def test_the_cancel_warning_is_raised_exactly_for_the_opposite_pairs(advantage, disadvantage):
    unit = {"name": "Archers", "type": "bowmen", "advantage": advantage,
            "disadvantage": disadvantage}  # fmt: skip
    report = checked(unit, {"missile_supply": "three_shots"})
    warned = [i for i in report.issues if i.code == "modifications-cancel"]
    assert len(warned) == (1 if opposite_pair(unit) else 0)
    if warned:
        assert warned[0].severity == "warning"
        assert warned[0].unit == 0
        assert warned[0].rule == "Advantages and Disadvantages"


def test_determined_and_unenthusiastic_take_15_hits_with_the_warning():
    """The digest's amended ruling: "determined with unenthusiastic gives 15 hits, never 18"."""
    unit = {"name": "Knights of the honour", "type": "knights", "advantage": "determined",
            "disadvantage": "unenthusiastic"}  # fmt: skip
    report = checked(unit, {})
    assert report.units[0].stats["hits"] == "15 (removed at 15)"
    assert [i.code for i in report.issues] == ["modifications-cancel"]
    assert report.valid
    assert report.issues[0].message == (
        "Knights of the honour: determined and unenthusiastic cancel out (15 hits): they use "
        "up the army's advantage and disadvantage for nothing."
    )
    six = checked(unit, {"six_hit_variant": True})
    assert six.units[0].stats["hits"] == "6 (removed above 6)"


def test_extra_missiles_and_only_3_shots_keep_the_armys_supply():
    unit = {"name": "Archers", "type": "bowmen", "advantage": "extra_missiles",
            "disadvantage": "three_shots"}  # fmt: skip
    for supply, shots in (("three_shots", "3"), ("four_shots", "4"),
                          ("natural_5", "until a natural 5")):  # fmt: skip
        report = checked(unit, {"missile_supply": supply})
        assert report.units[0].stats["shots"] == shots
        assert [i.code for i in report.issues if i.unit == 0] == ["modifications-cancel"]


units = st.fixed_dictionaries(
    {
        "name": st.just("Random unit"),
        "type": st.sampled_from(sorted(MELEE)),
        "advantage": st.sampled_from([None, *ADVANTAGES]),
        "disadvantage": st.sampled_from([None, *DISADVANTAGES]),
    }
)
option_sets = st.fixed_dictionaries(
    {
        "dice": st.sampled_from(["d6", "d5"]),
        "six_hit_variant": st.booleans(),
        "missile_supply": st.sampled_from(SUPPLIES),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unit=units, options=option_sets)
def test_random_units_match_the_independent_model(unit, options):
    report = checked(unit, options)
    assert observed(report, unit["type"], options["six_hit_variant"]) == model(unit, options)
    warned = [i for i in report.issues if i.code == "modifications-cancel"]
    assert bool(warned) == opposite_pair(unit)
