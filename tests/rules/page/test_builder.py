"""The builder's figures as the page's engine works them out (``rules.page.builder``): the
army as the page holds it (a saved document and the operations not yet answered), checked
incrementally, equal to a check of that army from scratch."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.page import builder
from tests.support import army, fixture_lists

MILITIA = {"id": "militia1", "name": "Town Militia", "quality": "levy", "figures": 12}
LONGBOWS = {
    "id": "longbow1",
    "name": "Longbows",
    "quality": "average",
    "armour": "armoured",
    "training": "missile",
    "missile_weapon": "longbow",
    "figures": 11,
}


def lists_of(ruleset: str) -> dict[str, Any]:
    found = fixture_lists(ruleset)
    return {"data": dict(found), "names": found.names, "families": found.families}


def sent(document: dict[str, Any], *, army_key: str = "a1", version: int = 1, **kwargs: Any):
    """The first call of a page: the document and the lists, then ``kwargs``."""
    return builder.report(
        army=army_key,
        version=version,
        document=copy.deepcopy(document),
        lists=lists_of(document["ruleset"]),
        lists_key=document["ruleset"],
        **kwargs,
    )


def from_scratch(document: dict[str, Any]) -> dict[str, Any]:
    """What a check of ``document`` alone, by a worker that kept nothing, draws."""
    state = rules.check_state(rules.parse_document(document, fixture_lists))
    return builder.figures_of(state, rules.get_ruleset(document["ruleset"]))


def op(key: str, kind: str, target: str = "army", field: str = "", value: Any = None):
    return {"key": key, "op": kind, "target": target, "field": field, "value": value}


@pytest.fixture(autouse=True)
def _forget():
    yield
    builder.forget("a1")


def test_the_saved_army_is_drawn_as_the_server_words_it():
    figures = sent(army("into-the-dark", [MILITIA, LONGBOWS]))
    militia = figures["units"][0]
    assert militia["anchor"] == "unit-militia1"
    assert militia["points"] == 44
    assert militia["breakdown"] == [
        "levy 2 + unarmoured 0 = 2 per figure",
        "12 figures x 2 = 24",
        "command 2 x 10 = 20",
    ]
    assert militia["size"] == "12 figures" and militia["code"] == "CUF"
    assert ["hit on", "3+"] in militia["stats"]
    totals = figures["totals"]
    assert (totals["total"], totals["verdict"], totals["problems"]) == (
        157,
        "Legal",
        "0 errors, 0 warnings",
    )
    assert figures["unapplied"] == [] and figures["refused"] == {}


def test_an_unanswered_armour_change_is_priced_at_once_and_the_total_follows():
    document = army("into-the-dark", [MILITIA, LONGBOWS])
    sent(document)
    figures = builder.report(
        army="a1",
        version=1,
        lists_key="into-the-dark",
        operations=[op("k1", "set", "militia1", "armour", "armoured")],
    )
    assert figures["units"][0]["points"] == 68  # (2 + 2) x 12 + 20
    assert "Armoured" in figures["units"][0]["descriptor"]
    assert figures["totals"]["total"] == 181


def test_a_d5_unit_made_determined_says_18_hits_in_its_head_and_its_stat_line():
    units = [{"id": "hearth01", "name": "Hearth", "type": "infantry"}]
    document = army("dark-ages-d5", units)
    assert "15 hits" in sent(document)["units"][0]["descriptor"]
    figures = builder.report(
        army="a1",
        version=1,
        lists_key="dark-ages-d5",
        operations=[op("k1", "set", "hearth01", "change", "determined")],
    )
    hearth = figures["units"][0]
    assert hearth["descriptor"].endswith("18 hits") and "15 hits" not in hearth["descriptor"]
    assert ["hits", "18 (Determined)"] in hearth["stats"]


def test_an_army_over_its_limit_is_illegal_and_says_why_in_the_servers_words():
    document = army("into-the-dark", [MILITIA, LONGBOWS], points_limit=200)
    sent(document)
    figures = builder.report(
        army="a1",
        version=1,
        lists_key="into-the-dark",
        operations=[op("k1", "set", "longbow1", "figures", 24)],
    )
    totals = figures["totals"]
    assert (totals["valid"], totals["verdict"], totals["over"]) == (False, "Illegal", True)
    assert totals["left"] == "54 points over the limit"  # 44 + 24 x 7.5 + 30
    assert figures["issues"][0]["message"] == "Army costs 254 points; the limit is 200."


def test_what_only_the_server_can_apply_is_named_and_a_value_it_would_refuse_left_out():
    document = army("into-the-dark", [MILITIA, LONGBOWS])
    sent(document)
    figures = builder.report(
        army="a1",
        version=1,
        lists_key="into-the-dark",
        operations=[
            op("k1", "roll"),
            op("k2", "set", "militia1", "figures", "lots"),
            op("k3", "set", "gone0001", "figures", 3),
            op("k4", "set", "longbow1", "figures", 12),
        ],
    )
    assert figures["unapplied"] == ["k1"]
    assert figures["refused"]["k2"] == "units[0].figures: must be a whole number, not 'lots'"
    assert "gone0001" in figures["refused"]["k3"]
    assert [u["points"] for u in figures["units"]] == [44, 120]


def test_the_document_and_lists_are_asked_for_when_the_engine_has_not_got_them():
    with pytest.raises(builder.NeedsDocument):
        builder.report(army="a1", version=3, lists_key="into-the-dark")
    sent(army("into-the-dark", [MILITIA]), version=3)
    with pytest.raises(builder.NeedsDocument):
        builder.report(army="a1", version=4, lists_key="into-the-dark")
    with pytest.raises(builder.NeedsDocument):
        builder.report(army="a1", version=3, lists_key="another")


def test_added_duplicated_moved_and_deleted_units_are_drawn_under_the_ids_the_page_chose():
    document = army("into-the-dark", [MILITIA, LONGBOWS])
    sent(document)
    figures = builder.report(
        army="a1",
        version=1,
        lists_key="into-the-dark",
        operations=[
            op("k1", "duplicate", "militia1", value={"id": "copy0001"}),
            op("k2", "add", field="units", value={"id": "added001", "preset": "blank"}),
            op("k3", "move", "added001", value="up"),
            op("k4", "delete", "longbow1"),
        ],
    )
    assert [u["id"] for u in figures["units"]] == ["militia1", "copy0001", "added001"]
    assert [u["number"] for u in figures["units"]] == [1, 2, 3]
    assert figures["units"][2]["name"] == "Unit 4"


EDITS = {
    "into-the-dark": [
        ("figures", st.integers(min_value=1, max_value=40)),
        ("quality", st.sampled_from(["levy", "average", "elite", "fanatic", "peasant"])),
        ("armour", st.sampled_from(["unarmoured", "protected", "armoured", "mailed"])),
    ],
    "dark-ages-d5": [
        ("change", st.sampled_from([None, "household", "determined", "levy", "reluctant"])),
        ("type", st.sampled_from(["infantry", "warriors", "raiders", "cavalry", "skirmishers"])),
    ],
}
START = {
    "into-the-dark": [MILITIA, LONGBOWS, {**MILITIA, "id": "militia2", "name": "Bill"}],
    "dark-ages-d5": [
        {"id": f"unit{i:04d}", "name": f"Unit {i}", "type": "infantry"} for i in range(4)
    ],
}


@st.composite
def page_edits(draw: Any, ruleset: str) -> list[dict[str, Any]]:
    """Operations a player makes with the page, on the units the army has by then."""
    ids = [u["id"] for u in START[ruleset]]
    made: list[dict[str, Any]] = []
    for n in range(draw(st.integers(min_value=1, max_value=8))):
        key = f"k{n}"
        kind = draw(st.sampled_from(["set", "set", "set", "duplicate", "move", "delete", "add"]))
        if kind == "add":
            new = f"new{n:05d}"
            made.append(op(key, "add", field="units", value={"id": new, "preset": "blank"}))
            ids.append(new)
            continue
        if not ids:
            continue
        target = draw(st.sampled_from(ids))
        if kind == "set":
            field, values = draw(st.sampled_from(EDITS[ruleset]))
            made.append(op(key, "set", target, field, draw(values)))
        elif kind == "duplicate":
            made.append(op(key, "duplicate", target, value={"id": f"dup{n:05d}"}))
            ids.append(f"dup{n:05d}")
        elif kind == "move":
            made.append(op(key, "move", target, value=draw(st.sampled_from(["up", "down"]))))
        else:
            made.append(op(key, "delete", target))
            ids.remove(target)
    return made


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ruleset=st.sampled_from(sorted(EDITS)))
def test_keystroke_by_keystroke_the_figures_are_those_of_the_army_checked_from_scratch(
    data: Any, ruleset: str
):
    document = army(ruleset, copy.deepcopy(START[ruleset]))
    builder.forget("a1")
    sent(document)
    edits = data.draw(page_edits(ruleset))
    # the page asks after each operation, as the player makes them
    for upto in range(1, len(edits) + 1):
        figures = builder.report(army="a1", version=1, lists_key=ruleset, operations=edits[:upto])
    builder.forget("a1")
    fresh = sent(document, operations=edits)
    assert figures == fresh
    applied, _, refused = builder.apply_operations(
        document, edits, rules.NamedLists(fixture_lists(ruleset))
    )
    assert set(refused) == set(fresh["refused"])
    assert {k: v for k, v in fresh.items() if k not in ("version", "unapplied", "refused")} == (
        from_scratch(applied)
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), ruleset=st.sampled_from(sorted(EDITS)))
def test_the_browsers_engine_draws_what_the_servers_python_draws(
    node_engine: Any, data: Any, ruleset: str
):
    document = army(ruleset, copy.deepcopy(START[ruleset]))
    edits = data.draw(page_edits(ruleset))
    asked = {
        "army": "n1",
        "version": 1,
        "document": document,
        "lists": lists_of(ruleset),
        "lists_key": ruleset,
        "operations": edits,
    }
    in_the_page = node_engine.call("rules.page.builder:report", **asked)
    builder.forget("n1")
    assert in_the_page == builder.report(**copy.deepcopy(asked))
    builder.forget("n1")


def test_a_new_saved_version_holding_the_pages_own_change_is_not_checked_whole_again():
    document = army("into-the-dark", [MILITIA, LONGBOWS])
    sent(document)
    change = op("k1", "set", "militia1", "armour", "armoured")
    before = builder.report(army="a1", version=1, lists_key="into-the-dark", operations=[change])
    checked = builder._LAST["a1"][1]
    landed = copy.deepcopy(document)
    landed["units"][0]["armour"] = "armoured"
    after = builder.report(army="a1", version=2, document=landed, lists_key="into-the-dark")
    assert builder._LAST["a1"][1] is checked  # the same army: the last check answers
    assert {k: v for k, v in after.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
