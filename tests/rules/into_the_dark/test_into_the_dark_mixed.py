"""Into the Dark: mixed units (a basic rule), shieldwall needs large shields, and the
citations and messages of the unit checks (seeds/000)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.support import army


def report_for(units, **options):
    return rules.check_document(army("into-the-dark", units, options=options))[1]


def codes(report):
    return [i.code for i in report.issues]


def mixed_unit(**change):
    """8 close armoured foot (CAF) with 4 loose unarmoured foot (LUF), average quality."""
    unit = {
        "name": "Thegns and ceorls",
        "figures": 8,
        "density": "close",
        "armour": "armoured",
        "mixed": {"figures": 4, "density": "loose", "armour": "unarmoured", "mounted": False},
    }
    unit.update(change)
    return unit


# -- mixed units --------------------------------------------------------------------------------


def test_mixed_unit_moves_at_the_speed_of_the_slowest_and_uses_the_majority_type():
    """ "If different troop types are mixed in a unit, it moves at the speed of the slowest
    ... when giving or receiving missile fire the values of the majority troop type are
    used." """
    report = report_for([mixed_unit()])
    assert report.valid, report.issues
    stats = report.units[0].stats
    assert stats["code"] == "8 CAF + 4 LUF"
    assert stats["move"] == '6"'  # close foot 6", loose foot 8": the slowest
    assert stats["hit_on"] == "5+"  # the armoured majority
    assert stats["combat_dice"].endswith("at most 3")  # 12 figures
    assert "in melee the figures in contact decide (CAF 5+, LUF 3+)" in stats["notes"]


def test_mixed_unit_pays_each_types_troop_cost_and_one_command_cost():
    """Unit Cost: "multiply the final troop cost by the number of figures in the unit. Then
    ... add the troop quality level x 10": 8 x (3 + 2) + 4 x 3 + 30 = 82."""
    report = report_for([mixed_unit()])
    assert report.units[0].points == 82
    assert report.units[0].breakdown[-1] == "command 3 x 10 = 30 (once for the unit)"


def test_mounted_part_slows_to_the_foot_and_routs_with_the_slowest():
    unit = mixed_unit(
        figures=6,
        density="loose",
        armour="mailed",
        mounted=True,
        mixed={"figures": 4, "density": "close", "armour": "armoured", "mounted": False},
    )
    stats = report_for([unit]).units[0].stats
    assert (stats["move"], stats["rout_evade"]) == ('6"', "3d6")


def test_mixed_units_are_a_basic_rule_always_allowed():
    """PART I, Unit Organisation: "If different troop types are mixed in a unit, it moves at
    the speed of the slowest" is a rule of the game, not an option; "It is simpler to keep
    all troops in a unit the same type" is advice."""
    for options in ({}, {"command_and_control": False, "figure_scale": "15mm"}):
        report = report_for([mixed_unit()], **options)
        assert report.valid, report.issues
        assert (
            report.units[0].points
            == rules.check_document(army("into-the-dark", [mixed_unit()], options=options))[1]
            .units[0]
            .points
        )


def test_an_army_saved_with_the_old_mixed_units_option_still_parses_and_drops_it():
    """Armies stored while mixed units were an option carry ``mixed_units``: they load, the
    switch changes nothing, and the army's document no longer names it."""
    for value in (True, False):
        old = army("into-the-dark", [mixed_unit()], options={"mixed_units": value})
        parsed, report = rules.check_document(old)
        assert report.valid, report.issues
        assert "mixed_units" not in parsed.options
        assert "mixed_units" not in parsed.to_document()["options"]
        assert report.units[0].points == report_for([mixed_unit()]).units[0].points


def test_the_old_mixed_units_option_is_still_held_to_its_type():
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(army("into-the-dark", [mixed_unit()], options={"mixed_units": "yes"}))
    assert refused.value.path == "options.mixed_units"


def test_an_unknown_option_does_not_offer_the_retired_one():
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(army("into-the-dark", [mixed_unit()], options={"mixed": True}))
    assert "mixed_units" not in str(refused.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            {"figures": 4},
            "4 figures of each type: missile fire uses the majority troop type's values",
        ),
        (
            {"mixed": {"figures": 4, "density": "close", "armour": "armoured", "mounted": False}},
            "the second troop type is the same as the unit's",
        ),  # fmt: skip
        (
            {
                "figures": 390,
                "mixed": {
                    "figures": 20,
                    "density": "loose",
                    "armour": "unarmoured",
                    "mounted": False,
                },
            },
            "410 figures in all; a unit has at most 400",
        ),  # fmt: skip
    ],
)
def test_mixed_unit_without_a_majority_or_a_second_type_is_refused(change, words):
    report = report_for([mixed_unit(**change)])
    assert codes(report) == ["mixed-unit"]
    assert words in report.issues[0].message


def test_a_mounted_part_cannot_carry_a_foot_weapon():
    unit = mixed_unit(
        training="missile",
        missile_weapon="javelin",
        mixed={"figures": 4, "density": "loose", "armour": "unarmoured", "mounted": True},
    )
    assert report_for([unit]).valid
    unit["missile_weapon"] = "sling"
    assert codes(report_for([unit])) == ["weapon-wrong-arm"]


def test_mixed_units_are_a_unit_field_and_no_longer_an_option():
    vocabulary = rules.get_ruleset("into-the-dark").vocabulary()
    assert "mixed_units" not in {o["name"] for o in vocabulary["options"]}
    assert "mixed" in {f["name"] for f in vocabulary["unit_fields"]}
    assert "mixed-units-disabled" not in {c["code"] for c in vocabulary["checks"]}
    r5 = next(r["text"] for r in vocabulary["rulings"] if r["code"] == "R5")
    assert (
        "If different troop types are mixed in a unit, it moves at the speed of the slowest" in r5
    )


# -- shieldwall needs large shields -------------------------------------------------------------


def test_foot_bow_troops_do_not_have_shields_unless_cross_trained():
    """ "Close order foot troops with large shields may pay 1 extra point ... to be able to
    use Shieldwall"; foot bows: "These troops do not have shields unless cross trained"."""
    archers = {"name": "Fyrd archers", "figures": 12, "density": "close",
               "training": "missile", "missile_weapon": "foot_bow", "shieldwall": True}  # fmt: skip
    report = report_for([archers])
    assert codes(report) == ["shieldwall-not-close-foot"]
    assert report.issues[0].rule == "Shieldwall"
    assert report_for([dict(archers, training="cross_trained")]).valid


def test_slingers_have_shields_and_may_form_shieldwall():
    """Sling: "These troops have shields, and can use them even while firing"."""
    slingers = {"name": "Slingers", "figures": 12, "density": "close",
                "training": "missile", "missile_weapon": "sling", "shieldwall": True}  # fmt: skip
    assert report_for([slingers]).valid


# -- citations and messages ------------------------------------------------------------------------


def test_pike_on_a_mounted_unit_cites_ruling_r4():
    unit = {"name": "Lancers", "mounted": True, "melee_weapon": "pike"}
    report = report_for([unit])
    assert codes(report) == ["weapon-wrong-arm"]
    assert report.issues[0].rule == "Ruling R4"


@pytest.mark.parametrize(
    ("figures", "message"),
    [
        (1, "Scouts: 1 figure rolls no combat die (one die per 4 figures fighting)."),
        (2, "Scouts: 2 figures roll no combat die (one die per 4 figures fighting)."),
    ],
)
def test_too_few_figures_cites_combat_and_agrees_in_number(figures, message):
    """COMBAT: "For each four figures fighting (rounded down) one 6 sided die is thrown"."""
    report = report_for([{"name": "Scouts", "figures": figures}])
    assert [(i.code, i.message, i.rule) for i in report.issues] == [
        ("too-few-figures", message, "COMBAT")
    ]


# -- the retired option, for any stored army --------------------------------------------------

_JSON = st.recursive(
    st.none() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)


@given(
    mixed_units=st.booleans(),
    command_and_control=st.booleans(),
    figure_scale=st.sampled_from(["25mm", "15mm"]),
)
def test_the_retired_option_never_changes_a_parsed_army(
    mixed_units, command_and_control, figure_scale
):
    options = {"command_and_control": command_and_control, "figure_scale": figure_scale}
    current = rules.parse_document(army("into-the-dark", [mixed_unit()], options=options))
    stored = rules.parse_document(
        army("into-the-dark", [mixed_unit()], options={**options, "mixed_units": mixed_units})
    )
    assert stored == current


@given(value=_JSON.filter(lambda v: not isinstance(v, bool)))
def test_the_retired_option_refuses_what_it_always_refused(value):
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(army("into-the-dark", [mixed_unit()], options={"mixed_units": value}))
    assert refused.value.path.startswith("options.mixed_units")  # or a bad string inside it
