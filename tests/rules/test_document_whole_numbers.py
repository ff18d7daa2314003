"""A whole-number field takes a float only when it is a whole number (JSON writers may send
12.0), and keeps it as the integer 12, so the stored and exported document says 12, never
12.0; any other float is refused with its path."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from tests.support import army


def integer_fields() -> list[tuple[str, str, str, int, int]]:
    """(rule set, where, field, minimum, maximum) for every whole-number field."""
    found = []
    for ruleset in rules.all_rulesets():
        if ruleset.uses_points:
            found.append((ruleset.slug, "army", "points_limit", 1, 100_000))
        for where, fields in (
            ("units", ruleset.unit_fields),
            ("generals", ruleset.general_fields if ruleset.has_generals else ()),
            ("options", ruleset.options),
        ):
            found += [
                (ruleset.slug, where, f.name, int(f.minimum or 0), int(f.maximum or 10_000))
                for f in fields
                if f.kind == "integer"
            ]
    return found


FIELDS = integer_fields()


def document(slug: str, where: str, field: str, value: object) -> dict:
    doc = army(slug, [{"name": "Huscarls"}])
    if where == "army":
        doc[field] = value
    elif where == "units":
        doc["units"][0][field] = value
    elif where == "generals":
        doc["generals"] = [{"name": "Harold", field: value}]
    else:
        doc["options"] = {field: value}
    return doc


def stored(parsed: rules.Army, where: str, field: str) -> object:
    doc = parsed.to_document()
    if where == "army":
        return doc[field]
    if where == "options":
        return doc["options"][field]
    return doc[where][0][field]


def test_there_are_whole_number_fields_in_units_and_options():
    wheres = {where for _, where, _, _, _ in FIELDS}
    assert {"army", "units", "options"} <= wheres


@given(data=st.data(), target=st.sampled_from(FIELDS))
def test_a_whole_number_float_is_stored_as_an_integer(data, target):
    slug, where, field, low, high = target
    number = data.draw(st.integers(min_value=low, max_value=high))
    parsed = rules.parse_document(document(slug, where, field, float(number)))
    value = stored(parsed, where, field)
    assert type(value) is int and value == number
    assert f'"{field}": {number}.0' not in json.dumps(parsed.to_document())


@given(
    target=st.sampled_from(FIELDS),
    fraction=st.floats(min_value=0.001, max_value=0.999),
)
def test_a_float_with_a_fraction_is_refused(target, fraction):
    slug, where, field, low, high = target
    with pytest.raises(rules.MalformedDocument) as refused:
        rules.parse_document(document(slug, where, field, low + fraction))
    path = field if where == "army" else f"{where}.{field}" if where == "options" else None
    assert refused.value.path == (path or f"{where}[0].{field}")
    assert "whole number" in refused.value.message


def test_twelve_point_oh_figures_are_twelve():
    parsed = rules.parse_document(army("into-the-dark", [{"name": "Fyrd", "figures": 12.0}]))
    assert parsed.units[0]["figures"] == 12 and type(parsed.units[0]["figures"]) is int
    assert '"figures": 12,' in json.dumps(parsed.to_document())
