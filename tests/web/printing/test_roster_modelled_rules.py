"""Modelled rules reach the sheets: a strategos's initiative bonus, only three shots, mixed
units and variable quality as the roster, the QRS and the rule-set page show them."""

import pytest

import rules
from armybuilder.printing.roster import build_roster
from rules.qrs import qrs_sheet
from tests.support import army, builder_with_editors, example, fixture_lists, item_url


def checked(document):
    return rules.check_document(document, fixture_lists)


def roster_of(document):
    parsed, report = checked(document)
    return build_roster(parsed, report)


def unit_blocks(roster):
    return [u for group in roster.groups for u in group.units]


def feudal_with_strategos():
    doc = example("feudal-2017-roll-4.json")
    doc["units"][0]["banner"] = False
    doc["units"][2]["personality"] = "strategos"
    doc["units"][4]["disadvantage"] = "three_shots"
    doc["options"] = {"missile_supply": "four_shots"}
    return doc


MIXED_ITD = army(
    "into-the-dark",
    [{"name": "Thegns and ceorls", "figures": 8, "armour": "armoured",
      "mixed": {"figures": 4, "density": "loose", "armour": "unarmoured", "mounted": False}}],
    options={"mixed_units": True},
)  # fmt: skip

D5_QUALITY = army(
    "dark-ages-d5",
    [{"name": "Hearth guard", "type": "infantry", "quality": "elite"},
     {"name": "Ceorls", "type": "infantry", "quality": "levy"},
     *({"name": f"Fyrd {i}", "type": "infantry"} for i in range(4))],
    options={"variable_quality": True},
)  # fmt: skip


def test_strategos_prints_his_initiative_bonus_on_the_roster_and_the_qrs():
    """ "Personality: Strategos has a one-time bonus of +3 to seize Initiative"."""
    doc = feudal_with_strategos()
    block = unit_blocks(roster_of(doc))[2]
    assert block.personality == "Strategos (+3 once to seize the initiative)"
    assert "strategos: once per game, +3 to seize the initiative" in block.special
    sheet = qrs_sheet("feudal-2017", checked(doc)[0])
    personalities = sheet.section("personalities").text()
    assert "Strategos" in personalities
    assert "one-time bonus of +3 to seize the initiative" in personalities


def test_only_three_shots_prints_on_the_qrs_and_the_roster():
    doc = feudal_with_strategos()
    sheet = qrs_sheet("feudal-2017", checked(doc)[0])
    assert "Only 3 shots" in sheet.section("advantages").text()
    block = unit_blocks(roster_of(doc))[4]
    assert dict(block.stats)["Shots"] == "3"


def test_mixed_unit_prints_both_types_and_the_rule_on_the_roster_and_the_qrs():
    block = unit_blocks(roster_of(MIXED_ITD))[0]
    assert block.size == "12 figures (8 + 4 mixed)"
    assert any("mixed unit: moves as its slowest type" in s for s in block.special)
    assert block.code == "8 CAF + 4 LUF"
    sheet = qrs_sheet("into-the-dark", checked(MIXED_ITD)[0])
    assert "Mixed units: move at the speed of the slowest type" in sheet.text()
    assert "Mixed units" not in qrs_sheet("into-the-dark", checked(
        army("into-the-dark", [{"name": "Fyrd"}]))[0]).text()  # fmt: skip


def test_variable_quality_prints_on_the_d5_qrs_and_the_roster():
    sheet = qrs_sheet("dark-ages-d5", checked(D5_QUALITY)[0])
    assert "Variable quality: for each army of six units one may be Elite" in sheet.text()
    assert "Variable quality" not in qrs_sheet("dark-ages-d5", None).section("optional").text()
    blocks = unit_blocks(roster_of(D5_QUALITY))
    assert dict(blocks[0].stats).get("Hits") == "18 (Elite)"
    assert dict(blocks[1].stats).get("Hits") == "12 (Levy)"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "words"),
    [
        ("into-the-dark", ["Mixed with a second troop type", "mixed-unit",
                           "Figures outside 1-400 are refused"]),
        ("dark-ages-d5", ["variable_quality", "Elite / stubborn (18 casualties)",
                          "quality-conflicts-change", "elite-needs-levy"]),
        ("feudal-2017", ["Strategos (+3 once to seize the initiative)",
                         "Only 3 shots (when the army has more)",
                         "modification-not-applicable", "German Knight Unit"]),
        ("dewitt-medieval", ["Stands outside 1-12", "TABLE X", "Artillery, rams", "Stakes"]),
    ],
)  # fmt: skip
def test_rule_set_page_shows_the_modelled_options_checks_and_rulings(client, slug, words):
    page = client.get(f"/rulesets/{slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    for word in words:
        assert word in text, word


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "refused", "ruling"),
    [
        ("into-the-dark", {"figures-out-of-range"}, "R6"),
        ("dewitt-medieval", {"stands-out-of-range", "bad-figures-per-stand"}, "R5"),
    ],
)
def test_api_documents_range_errors_as_refused_documents_not_check_codes(
    client, slug, refused, ruling
):
    data = client.get(f"/api/v1/rulesets/{slug}").json()
    assert not refused & {c["code"] for c in data["checks"]}
    text = next(r["text"] for r in data["rulings"] if r["code"] == ruling)
    assert "refused as a malformed document" in text


@pytest.mark.django_db
def test_a_player_picks_a_mixed_unit_in_the_builder(owner_client, user):
    """The option and the field come from the vocabulary, so the builder offers both."""
    from armybuilder.armies import services

    saved = services.create_army(
        army("into-the-dark", [{"name": "Thegns", "figures": 8, "armour": "armoured"}],
             options={"mixed_units": True}),
        owner=user,
    )  # fmt: skip
    page = builder_with_editors(owner_client, saved)
    assert 'name="f.mixed.figures"' in page
    data = {"version": saved.version, "f.mixed": ["0", "1"], "f.mixed.figures": "4",
            "f.mixed.density": "loose", "f.mixed.armour": "unarmoured"}  # fmt: skip
    response = owner_client.post(item_url(saved, 0), data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    saved.refresh_from_db()
    assert saved.document["units"][0]["mixed"] == {
        "figures": 4, "density": "loose", "armour": "unarmoured", "mounted": False,
    }  # fmt: skip
    assert "8 CAF + 4 LUF" in response.content.decode()
