"""The per-unit memo (rules/memo.py) keys on everything a unit's stat line reads: a unit
whose own values did not change still gets a new stat line when what it reads elsewhere
in the army (``RuleSet.unit_context``) changed."""

import copy
from typing import Any

import rules
from rules.rulesets.feudal_2017.troops import DEFAULT_LIST
from tests.rules.dark_ages.dark_ages_support import unit
from tests.support import army, fixture_lists

ALLIED_NOTE = "allied: does not move on a natural 2"


def _d5(hero: str | None) -> dict[str, Any]:
    return army(
        "dark-ages-d5",
        [
            unit("Allied spears", "infantry", ally="anglo-saxon"),
            unit("Allied hero", "infantry", ally="anglo-saxon", personality=hero),
        ],
        army_list="north-welsh",
    )


def test_an_allied_units_stat_line_follows_a_personality_given_to_its_contingent():
    before = rules.check_document(_d5(None), fixture_lists)[1]
    after = rules.check_document(_d5("hero"), fixture_lists)[1]
    assert ALLIED_NOTE in before.units[0].stats["notes"]
    assert ALLIED_NOTE not in after.units[0].stats["notes"]


def test_serjeants_follow_the_default_lists_schiltrons_when_the_army_has_no_list():
    document = army("feudal-2017", [{"name": "Foot", "type": "serjeants"}])

    def lists(schiltrons: bool):
        data = dict(copy.deepcopy(DEFAULT_LIST), schiltrons=schiltrons)
        return lambda _ruleset: {"feudal": data}

    plain = rules.check_document(document, lists(False))[1].units[0].stats["defence"]
    schiltron = rules.check_document(document, lists(True))[1].units[0].stats["defence"]
    assert plain.startswith("armoured")
    assert schiltron.startswith("schiltron")
