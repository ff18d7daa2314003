"""The combat interface every rule set implements: its phases and modifiers cite sections of
its own source, every step of a working does, the rulings a result names are the rule set's,
and docs/combat-rulings.md records every ruling; plus the strict request parser."""

import json

import pytest

from rules.combat_request import combat_rulesets, parse_combat, work_out
from rules.errors import MalformedDocument
from rules.registry import all_rulesets, get_ruleset
from tests.support import DATA, ROOT

HEADINGS = {
    slug: {h.casefold() for h in headings}
    for slug, headings in json.loads((DATA / "source_headings.json").read_text()).items()
    if not slug.startswith("_")
}
# one combat per rule set and phase of combat, the units in its own vocabulary
COMBATS = [
    {"ruleset": "feudal-2017", "phase": "shoot", "attacker": {"type": "bowmen"},
     "target": {"type": "serjeants"}, "modifiers": ["camp_village_walls", "rear"], "die": 5},
    {"ruleset": "feudal-2017", "phase": "melee", "attacker": {"type": "knights"},
     "target": {"type": "brigans"}, "modifiers": ["woods_charged", "flank"], "die": 4,
     "target_hits": 12},
    {"ruleset": "dark-ages-2015", "phase": "shooting",
     "attacker": {"type": "skirmishers", "missile": "bow"}, "target": {"type": "infantry"},
     "modifiers": ["village"], "die": 6},
    {"ruleset": "dark-ages-d5", "phase": "melee", "attacker": {"type": "warriors"},
     "target": {"type": "infantry"}, "modifiers": ["uphill", "rear"], "die": 5},
    {"ruleset": "dewitt-medieval", "phase": "move",
     "attacker": {"arm": "cavalry", "weapons": ["bow"]}, "target": {"class": "heavy"},
     "numbers": {"table": 4, "men": 9, "impulses": 3}, "die": 4},
    {"ruleset": "dewitt-medieval", "phase": "melee", "attacker": {"class": "heavy"},
     "target": {"class": "medium", "weapons": ["spear"]}, "modifiers": ["attacker_charge"],
     "dice": [5, 5]},
    {"ruleset": "into-the-dark", "phase": "melee", "attacker": {"quality": "fanatic"},
     "target": {"armour": "armoured"}, "modifiers": ["charging", "flank"],
     "numbers": {"figures": 8}, "dice": [1, 2, 5, 6]},
]  # fmt: skip


def cited(slug, section):
    return section.casefold() in HEADINGS[slug]


def test_every_rule_set_works_out_its_combat():
    assert {r.slug for r in combat_rulesets()} == {r.slug for r in all_rulesets()}


@pytest.mark.parametrize("slug", sorted(HEADINGS))
def test_phases_cite_the_sources_headings(slug):
    rules_ = get_ruleset(slug).combat()
    for phase in rules_.phases(get_ruleset(slug).default_options()):
        assert cited(slug, phase.section), phase


@pytest.mark.parametrize("raw", COMBATS, ids=lambda c: f"{c['ruleset']}-{c['phase']}")
def test_every_step_verdict_and_offered_modifier_cites_a_section_or_a_ruling(raw):
    ruleset, rules_, combat = parse_combat(raw)
    result = rules_.work_out_hits(combat)
    assert all(cited(ruleset.slug, s.section) for s in result.steps), result.steps
    assert result.verdict is None or cited(ruleset.slug, result.verdict.section)
    offered = rules_.combat_modifiers(combat.attacker, combat.target, combat.phase,
                                      combat.options)  # fmt: skip
    assert all(cited(ruleset.slug, m.section) for m in offered)
    assert set(result.rulings) <= set(rules_.rulings)


@pytest.mark.parametrize("raw", COMBATS, ids=lambda c: f"{c['ruleset']}-{c['phase']}")
def test_every_ruling_a_step_names_is_among_the_results_rulings(raw):
    _, result = work_out(raw)
    named = {r.code for r in result.rulings}
    for step in result.steps:
        if "Ruling C" in step.text:
            code = step.text.split("Ruling ")[1][:2]
            assert code in named, step


def test_docs_record_every_combat_ruling_of_every_rule_set():
    text = (ROOT / "docs" / "combat-rulings.md").read_text(encoding="utf-8")
    for ruleset in combat_rulesets():
        assert f"## {ruleset.title}" in text
        for ruling in ruleset.combat().rulings:
            assert f"- **{ruling.code}** {ruling.text}" in text, (ruleset.slug, ruling.code)


@pytest.mark.parametrize(
    ("raw", "path", "words"),
    [
        ([], "", "a combat must be a JSON object, not a list"),
        ({**COMBATS[0], "attacker": None}, "attacker", "attacker: is required"),
        ({**COMBATS[0], "modifiers": "rear"}, "modifiers", "must be a list of modifier keys"),
        ({**COMBATS[0], "die": True}, "die", "die: must be a whole number"),
        ({**COMBATS[0], "dice": [5]}, "dice", "give die (one) or dice (a list), not both"),
        ({k: v for k, v in COMBATS[0].items() if k != "die"}, "die", "die: is required"),
        ({**COMBATS[0], "numbers": {"men": 1.5}}, "numbers.men", "whole number from 0"),
        ({**COMBATS[0], "options": {"dice": "d20"}}, "options.dice", "'d20' is not one of"),
        ({**COMBATS[0], "phase": 3}, "phase", "phase: is required, one of: shoot, move"),
    ],
)
def test_a_request_is_refused_naming_the_field(raw, path, words):
    with pytest.raises(MalformedDocument) as refused:
        parse_combat(raw)
    assert refused.value.path == path
    assert words in refused.value.message


RALLY_PHASES = {"feudal-2017": "rally", "dark-ages-2015": "eliminating",  # Ruling C4
                "dark-ages-d5": "routs_rallies", "into-the-dark": "rally",
                "dewitt-medieval": "rally"}  # fmt: skip


@pytest.mark.parametrize("ruleset", combat_rulesets(), ids=lambda r: r.slug)
def test_each_rule_set_names_its_rally_phase_and_what_its_rally_reads(ruleset):
    rules_ = ruleset.combat()
    assert rules_.rally_phase({}) == RALLY_PHASES[ruleset.slug]
    assert rules_.rally_phase({}) in {p.key for p in rules_.phases({})}
    facts = rules_.rally_facts({})
    assert facts and all(key.isidentifier() and key.islower() and label for key, label in facts)
    assert len({key for key, _ in facts}) == len(facts)


@pytest.mark.parametrize(
    ("slug", "target", "said"),
    [
        ("feudal-2017", {"name": "Knights", "type": "knights"},
         "only brigans (and units with the woods advantage) may enter woods (0.10 Terrain)"),
        ("dark-ages-d5", {"name": "Fyrd", "type": "infantry"},
         "only skirmishers and raiders may enter woods (Terrain)"),
    ],
)  # fmt: skip
def test_a_woods_modifier_for_a_unit_that_may_not_enter_woods_is_refused_saying_why(
    slug, target, said
):
    request = {"ruleset": slug, "phase": "melee", "attacker": {"name": "A"}, "target": target,
               "modifiers": ["woods"], "die": 4}  # fmt: skip
    with pytest.raises(MalformedDocument) as refused:
        work_out(request)
    assert said in refused.value.message and refused.value.path == "modifiers"


def test_a_dark_ages_melee_step_names_the_type_its_modifier_is_for():
    request = {"ruleset": "dark-ages-2015", "phase": "melee", "attacker": {"name": "A",
               "type": "warband"}, "target": {"name": "B", "type": "infantry"}, "die": 4}  # fmt: skip
    _, result = work_out(request)
    assert result.steps[0].text == "Roll 4 +2 warband = 6 hits"
