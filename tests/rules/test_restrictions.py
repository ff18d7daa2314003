"""Event restrictions: parsed strictly as data, described in words, checked with the rule
cited; the muster.event/1 file carries them and the pinned lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.errors import MalformedDocument
from rules.registry import get_ruleset
from rules.restrictions import (
    EventRules,
    check_event,
    event_rules_document,
    parse_event_rules,
    parse_restrictions,
)
from tests.support import army, fixture_lists

ITD = get_ruleset("into-the-dark")
FEUDAL = get_ruleset("feudal-2017")


def checked(doc, lists):
    return rules.check_document(doc, lambda _: lists)


def viking_army(units=3):
    data = fixture_lists("into-the-dark")["viking"]
    presets = ITD.unit_presets(data)
    chosen = [dict(presets[0][1]), dict(presets[1][1]), dict(presets[1][1])]
    chosen += [dict(presets[1][1]) for _ in range(units - 3)]
    return army("into-the-dark", chosen, army_list="viking")


def test_each_kind_is_described_in_words():
    parsed = parse_restrictions(
        [
            {"kind": "max_units", "count": 8},
            {"kind": "required_option", "option": "figure_scale", "value": "15mm"},
            {"kind": "forbidden_option", "option": "command_and_control", "value": True},
            {"kind": "min_unit_type", "field": "quality", "value": "elite", "count": 2},
        ],
        ITD,
    )
    from rules.restrictions import describe_restriction

    assert [describe_restriction(r, ITD) for r in parsed] == [
        "At most 8 units.",
        "The option “Figure scale” must be “15 mm (halve every distance)”.",
        f"The option “{ITD.option_field('command_and_control').label}” must not be on.",
        "At least 2 units with Quality “Elite (4)”.",
    ]


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ({"kind": "max_units", "count": 0}, "restrictions[0].count"),
        ({"kind": "max_units"}, "restrictions[0].count"),
        ({"kind": "max_units", "count": 3, "extra": 1}, "restrictions[0].extra"),
        ({"kind": "teleport"}, "restrictions[0].kind"),
        ({"kind": "required_option", "option": "nope", "value": 1}, "restrictions[0].option"),
        (
            {"kind": "required_option", "option": "figure_scale", "value": "6mm"},
            "restrictions[0].value",
        ),
        (
            {"kind": "min_unit_type", "field": "name", "value": "x", "count": 1},
            "restrictions[0].field",
        ),
        ({"kind": "no_personalities"}, "restrictions[0].kind"),  # Into the Dark has none
    ],
)
def test_a_malformed_restriction_is_refused_naming_its_path(raw, path):
    with pytest.raises(MalformedDocument) as refused:
        parse_restrictions([raw], ITD)
    assert refused.value.path == path


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=8,
    )
)
def test_any_json_either_parses_or_is_refused_with_a_path(raw):
    try:
        parse_restrictions(raw if isinstance(raw, list) else [raw], ITD)
    except MalformedDocument as exc:
        assert exc.path.startswith("restrictions")


def test_the_event_cites_its_own_rule_for_each_problem():
    lists = fixture_lists("into-the-dark")
    doc = viking_army(units=6)
    parsed, report = checked(doc, lists)
    assert report.valid
    event = EventRules(
        "into-the-dark",
        points_limit=100,
        lists={"anglo-danish-1066": 1},
        restrictions=parse_restrictions(
            [
                {"kind": "max_units", "count": 5},
                {"kind": "min_unit_type", "field": "quality", "value": "elite", "count": 2},
            ],
            ITD,
        ),
        list_names={"anglo-danish-1066": "Anglo-Danish (Hastings, 1066)"},
    )
    issues = check_event(parsed, report, event)
    assert [(i.code, i.rule) for i in issues] == [
        ("event-list", "Event army lists"),
        ("event-points", "Event points limit"),
        ("event-max-units", "Event restriction 1: At most 5 units."),
        ("event-min-units", "Event restriction 2: At least 2 units with Quality “Elite (4)”."),
    ]
    assert "the event allows Anglo-Danish (Hastings, 1066)" in issues[0].message


def test_no_personalities_names_the_unit():
    unit = {"name": "Earl's men", "type": "knights", "personality": "horse_marshal"}
    lists = fixture_lists("feudal-2017")
    parsed, report = rules.check_document(army("feudal-2017", [unit]), lambda _: lists)
    event = EventRules(
        "feudal-2017", None, {}, parse_restrictions([{"kind": "no_personalities"}], FEUDAL)
    )
    (issue,) = check_event(parsed, report, event)
    assert issue.unit == 0 and "Earl's men has a personality" in issue.message


def test_an_event_file_round_trips_and_refuses_a_bad_list():
    lists = fixture_lists("into-the-dark")
    event = EventRules(
        "into-the-dark",
        600,
        {"viking": 2},
        parse_restrictions([{"kind": "max_units", "count": 5}], ITD),
        {"viking": "Viking (Great Army)"},
    )
    document = event_rules_document("Hastings Day", event, {"viking": lists["viking"]})
    again, data = parse_event_rules(document)
    assert again == event and data["viking"] == lists["viking"]
    document["lists"][0]["data"] = {"entries": "no"}
    with pytest.raises(MalformedDocument) as refused:
        parse_event_rules(document)
    assert refused.value.path == "lists[0].data"
