"""Stable item ids in muster.army/1: optional, kept, one per unit and general, never shared."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.document import ID_PATTERN, item_ids, new_id, with_ids
from tests.support import army

UNIT = {"name": "Fyrd", "figures": 12}
GENERAL = {"name": "Harold"}


def refusal(doc):
    with pytest.raises(rules.MalformedDocument) as caught:
        rules.parse_document(doc)
    return caught.value


def test_ids_given_in_a_document_are_kept_first_in_each_item():
    doc = army(
        "into-the-dark",
        [{"id": "u-fyrd", **UNIT}, {"id": "u_2", **UNIT}],
        generals=[{"id": "g1", **GENERAL}],
    )
    out = rules.parse_document(doc).to_document()
    assert [u["id"] for u in out["units"]] == ["u-fyrd", "u_2"]
    assert out["generals"][0]["id"] == "g1"
    assert list(out["units"][0])[0] == "id"


def test_a_document_without_ids_still_reads_and_with_ids_gives_each_item_its_own():
    doc = army("into-the-dark", [UNIT, UNIT, UNIT], generals=[GENERAL])
    assert "id" not in rules.parse_document(doc).to_document()["units"][0]
    filled = with_ids(doc)
    ids = [u["id"] for u in filled["units"]] + [g["id"] for g in filled["generals"]]
    assert len(set(ids)) == 4
    assert all(ID_PATTERN.fullmatch(i) for i in ids)
    assert "id" not in doc["units"][0]  # the caller's document is not changed
    assert rules.parse_document(filled).unit_ids == tuple(ids[:3])


def test_with_ids_keeps_the_ids_there_are_and_returns_a_complete_document_as_it_is():
    doc = army("into-the-dark", [{"id": "keep", **UNIT}, UNIT])
    filled = with_ids(doc)
    assert filled["units"][0]["id"] == "keep"
    assert filled["units"][1]["id"] != "keep"
    assert with_ids(filled) is filled


def test_a_unit_sharing_another_units_id_is_refused_with_its_path():
    err = refusal(army("into-the-dark", [{"id": "a", **UNIT}, UNIT, {"id": "a", **UNIT}]))
    assert err.path == "units[2].id"
    assert "'a' is already the id of units[0]" in err.message


def test_a_unit_sharing_a_generals_id_is_refused_too():
    doc = army("into-the-dark", [{"id": "x", **UNIT}], generals=[{"id": "x", **GENERAL}])
    err = refusal(doc)
    assert err.path == "units[0].id"
    assert "generals[0]" in err.message


@pytest.mark.parametrize("bad", ["", "has space", "é", "x" * 33, 7, None, ["a"]])
def test_an_id_that_is_not_a_short_plain_string_is_refused(bad):
    err = refusal(army("into-the-dark", [{"id": bad, **UNIT}]))
    assert err.path == "units[0].id"
    assert "is not an id" in err.message


def test_a_new_id_is_none_of_those_taken():
    taken = {new_id() for _ in range(50)}
    assert len(taken) == 50
    assert new_id(taken) not in taken


def test_an_edit_of_one_unit_rechecked_alone_keeps_every_id():
    doc = with_ids(army("into-the-dark", [UNIT, UNIT]))
    state = rules.check_state(rules.parse_document(doc))
    changed = dict(doc, units=[doc["units"][0], {**doc["units"][1], "figures": 8}])
    again = rules.recheck_document(changed, rules.document.no_lists, doc, state)
    units = again.army.to_document()["units"]
    assert [u["id"] for u in units] == [u["id"] for u in doc["units"]]
    assert units[1]["figures"] == 8
    same = {**doc["units"][1], "id": doc["units"][0]["id"]}
    duplicated = dict(doc, units=[doc["units"][0], same])
    with pytest.raises(rules.MalformedDocument) as caught:
        rules.recheck_document(duplicated, rules.document.no_lists, doc, state)
    assert caught.value.path == "units[1].id"


ids = st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d", "e-1", "F_2"]))


@given(unit_ids=st.lists(ids, max_size=8), general_ids=st.lists(ids, max_size=3))
def test_the_parser_keeps_unique_ids_and_refuses_the_first_repeat_by_its_path(
    unit_ids, general_ids
):
    def item(base, held):
        return base if held is None else {"id": held, **base}

    doc = army(
        "into-the-dark",
        [item(UNIT, i) for i in unit_ids],
        generals=[item(GENERAL, i) for i in general_ids],
    )
    order = [(f"generals[{n}]", i) for n, i in enumerate(general_ids)]
    order += [(f"units[{n}]", i) for n, i in enumerate(unit_ids)]
    seen, repeat = set(), None
    for path, held in order:
        if held is None:
            continue
        if held in seen:
            repeat = f"{path}.id"
            break
        seen.add(held)
    if repeat is not None:
        assert refusal(doc).path == repeat
        return
    parsed = rules.parse_document(doc)
    assert parsed.unit_ids == tuple(unit_ids)
    assert parsed.general_ids == tuple(general_ids)
    out = parsed.to_document()
    assert rules.parse_document(out).to_document() == out
    filled = with_ids(out)
    assert item_ids(filled) >= seen
    assert len(item_ids(filled)) == len(unit_ids) + len(general_ids)
    assert rules.parse_document(filled).unit_ids[: len(unit_ids)] == tuple(
        u["id"] for u in filled["units"]
    )
