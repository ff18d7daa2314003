"""dark-ages-d5: the VARIABLE QUALITY optional rule and the compiled lists against
the source's "Most start with 3-4 of the six being Infantry" (seeds/001)."""

import pytest

from tests.rules.dark_ages.dark_ages_support import codes, report_for, unit
from tests.support import fixture_lists

RS = "dark-ages-d5"
ON = {"options": {"variable_quality": True}}


def six(**by_index):
    units = [unit(f"Spears {i + 1}", "infantry") for i in range(4)]
    units += [unit("Warriors", "warriors"), unit("Bows", "skirmishers", missile="bow")]
    for key, fields in by_index.items():
        units[int(key[1:])].update(fields)
    return units


def test_for_each_army_of_six_units_allow_one_elite_but_one_must_be_levy():
    """VARIABLE QUALITY: "For each army of six Units, allow one Unit to be Elite, but one
    must be Levy to balance things out! Elite / Stubborn troops = 18 Casualties before
    routing. Levy /Nervous troops etc = 12 Casualties then routing." """
    report = report_for(RS, six(u0={"quality": "elite"}, u1={"quality": "levy"}), **ON)
    assert report.valid, report.issues
    assert report.units[0].stats["hits"] == "18 (Elite)"
    assert report.units[1].stats["hits"] == "12 (Levy)"


def test_variable_quality_is_separate_from_the_upgrade_and_downgrade():
    """ "Each list may select ONE upgrade and MUST then select a downgrade, also" still
    holds beside the Elite and its Levy."""
    units = six(
        u0={"quality": "elite"},
        u1={"quality": "levy"},
        u2={"change": "household"},
        u3={"change": "levy"},
    )
    assert report_for(RS, units, **ON).valid
    unpaid = six(u0={"quality": "elite"}, u1={"quality": "levy"}, u2={"change": "household"})
    assert codes(report_for(RS, unpaid, **ON)) == ["downgrade-required"]


def test_an_elite_without_a_levy_is_refused():
    report = report_for(RS, six(u0={"quality": "elite"}), **ON)
    assert codes(report) == ["elite-needs-levy"]
    assert report.issues[0].message == (
        "Each Elite unit must be balanced by a Levy unit: 1 Elite unit, 0 Levy units."
    )
    assert report.issues[0].rule == "VARIABLE QUALITY"


def test_a_second_elite_in_six_units_is_refused():
    units = six(u0={"quality": "elite"}, u1={"quality": "levy"}, u2={"quality": "elite"},
                u3={"quality": "levy"})  # fmt: skip
    assert codes(report_for(RS, units, **ON)) == ["elite-limit"]


def test_variable_quality_is_off_by_default():
    report = report_for(RS, six(u0={"quality": "elite"}, u1={"quality": "levy"}))
    assert codes(report) == ["quality-disabled", "quality-disabled"]


@pytest.mark.parametrize(
    "fields",
    [
        {"quality": "elite", "change": "reluctant"},
        {"quality": "levy", "change": "determined"},
    ],
)
def test_quality_and_a_casualty_change_on_one_unit_are_refused(fields):
    units = six(u0=fields, u1={"quality": "levy" if fields["quality"] == "elite" else "elite"},
                u2={"change": "household" if fields["change"] == "reluctant" else "levy"})  # fmt: skip
    assert codes(report_for(RS, units, **ON)) == ["quality-conflicts-change"]


def test_variable_quality_appears_in_the_rule_set_vocabulary():
    from rules import get_ruleset

    vocabulary = get_ruleset(RS).vocabulary()
    assert "variable_quality" in {o["name"] for o in vocabulary["options"]}
    assert "quality" in {f["name"] for f in vocabulary["unit_fields"]}


# -- the compiled lists ---------------------------------------------------------------------------


def _infantry(entry):
    return "infantry" in entry["match"].get("type", [])


def infantry_range(data):
    """(infantry the list starts with, the most infantry it allows)."""
    start = sum(e["count"] for e in data["required"] if e["match"].get("type") == ["infantry"])
    most = sum(e["count"] for e in data["required"] if _infantry(e))
    for group in data.get("choices", []):
        most += min(group["pick"], sum(o.get("max", group["pick"]) for o in group["options"]
                                       if _infantry(o)))  # fmt: skip
    return start, most


def test_most_lists_start_with_3_4_of_the_six_being_infantry():
    """Army Lists: "There are six Units in every army list. Most start with 3 -4 of the six
    being Infantry." No list allows more than four; most start with three or four."""
    lists = fixture_lists(RS)
    ranges = {slug: infantry_range(data) for slug, data in lists.items()}
    assert {slug for slug, (_, most) in ranges.items() if most > 4} == set()
    starting = [slug for slug, (start, _) in ranges.items() if 3 <= start <= 4]
    assert len(starting) > len(lists) / 2, ranges
    assert ranges["anglo-saxon"] == (4, 4)
