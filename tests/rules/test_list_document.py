"""The muster.list/1 parser: strict like the army document's, path-naming refusals."""

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import MalformedDocument
from rules.list_document import (
    LIST_FORMAT,
    list_document,
    load_list_text,
    parse_list_document,
)
from tests.support import fixture_lists

RULESETS_WITH_LISTS = ("into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017")
LIMIT = 512 * 1024


def shipped(ruleset: str, slug: str | None = None) -> dict[str, Any]:
    lists = fixture_lists(ruleset)
    slug = slug or sorted(lists)[0]
    return list_document(
        ruleset=ruleset,
        slug=slug,
        name=f"{slug} list",
        period="800-1066",
        source_note="From the book.\nPage 3.",
        data=lists[slug],
    )


def refusal(raw: Any) -> MalformedDocument:
    with pytest.raises(MalformedDocument) as caught:
        parse_list_document(raw)
    return caught.value


@pytest.mark.parametrize("ruleset", RULESETS_WITH_LISTS)
def test_every_shipped_list_parses_and_writes_back_the_same_document(ruleset):
    for slug in fixture_lists(ruleset):
        document = shipped(ruleset, slug)
        parsed = parse_list_document(copy.deepcopy(document))
        assert parsed.to_document() == document
        assert parse_list_document(parsed.to_document()) == parsed


def test_keys_are_written_in_the_format_order_with_the_revision_before_the_data():
    document = list_document(
        ruleset="feudal-2017", slug="x", name="X", period="", source_note="", data={}, revision=3
    )
    assert list(document) == [
        "format",
        "ruleset",
        "slug",
        "name",
        "period",
        "source_note",
        "revision",
        "data",
    ]


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda d: d.update(format="muster.army/1"), "format", "is not supported"),
        (lambda d: d.update(ruleset="warhammer"), "ruleset", "is not one of"),
        (lambda d: d.update(slug="Not A Slug"), "slug", "is not a slug"),
        (lambda d: d.update(name="  "), "name", "must not be empty"),
        (lambda d: d.update(name="x" * 201), "name", "at most 200"),
        (lambda d: d.update(period=["1066"]), "period", "must be a string"),
        (lambda d: d.update(revision=0), "revision", "below the minimum"),
        (lambda d: d.update(extra=1), "extra", "unknown key"),
        (lambda d: d.pop("data"), "data", "is required"),
        (lambda d: d.update(data=[]), "data", "must be a JSON object"),
        (lambda d: d.update(name="evil\u202eoverride"), "name", "bidirectional"),
    ],
)
def test_a_malformed_list_is_refused_with_the_path_of_the_fault(change, path, words):
    document = shipped("into-the-dark")
    change(document)
    fault = refusal(document)
    assert fault.path == path
    assert words in fault.message


def test_the_rule_sets_own_validator_runs_and_its_problems_name_the_path_under_data():
    document = shipped("feudal-2017", "north-welsh")
    document["data"]["replacements"][1]["to"] = "peasants"
    fault = refusal(document)
    assert fault.path == "data.replacements[1].to"
    assert "data.replacements[1].to: 'peasants' is not a unit type" in fault.message


def test_a_problem_without_a_place_of_its_own_is_under_data():
    document = shipped("into-the-dark")
    document["data"] = {"nonsense": True}
    fault = refusal(document)
    assert fault.path.startswith("data")
    assert fault.message.startswith("data")


def test_text_is_read_strictly_with_the_size_limit():
    text = json.dumps(shipped("into-the-dark"))
    assert load_list_text(text, LIMIT).slug == shipped("into-the-dark")["slug"]
    assert load_list_text(text.encode(), LIMIT).name
    with pytest.raises(MalformedDocument, match="larger than 100 bytes"):
        load_list_text(text, 100)
    with pytest.raises(MalformedDocument, match="not valid JSON"):
        load_list_text('{"format": NaN}', LIMIT)
    with pytest.raises(MalformedDocument, match="not UTF-8"):
        load_list_text(b"\xff\xfe{}", LIMIT)


# -- property: anything at all is parsed or refused with a MalformedDocument -----------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*here, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += _paths(item, (*here, n))
    return found


@st.composite
def mangled_lists(draw) -> Any:
    """A shipped list with one place anywhere in it replaced by arbitrary JSON (or a key
    dropped), or arbitrary JSON outright."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    ruleset = draw(st.sampled_from(RULESETS_WITH_LISTS))
    slug = draw(st.sampled_from(sorted(fixture_lists(ruleset))))
    document = shipped(ruleset, slug)
    path = draw(st.sampled_from(_paths(document)[1:]))
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON)
    return document


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=mangled_lists())
def test_any_list_document_is_either_parsed_or_refused_with_a_path(raw):
    try:
        parsed = parse_list_document(raw)
    except MalformedDocument as fault:
        assert isinstance(fault.path, str) and fault.message
        return
    assert parsed.to_document()["format"] == LIST_FORMAT
    assert parse_list_document(parsed.to_document()) == parsed
