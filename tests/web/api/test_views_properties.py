"""Property-based: random documents, valid and mangled, never make the API answer 500."""

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.fields import Field

pytestmark = pytest.mark.django_db

# Fields that refer to other army lists are left at null: their refusal is a 400 by design.
REFERENCES = {"ally"}
# The text rule (rules/text.py): no controls, surrogates, invisible formatting or line breaks.
PRINTABLE = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp"))


def value_for(field: Field) -> st.SearchStrategy[Any]:
    if field.name in REFERENCES:
        return st.none()
    kind = field.kind
    if kind in ("string", "text"):
        text = st.text(PRINTABLE, max_size=30)
        text = text.filter(lambda s: s.strip()) if field.required or field.minimum else text
        return st.one_of(st.none(), text) if field.nullable else text
    if kind == "integer":
        return st.integers(int(field.minimum), int(field.maximum))
    if kind == "number":
        return st.decimals(field.minimum, field.maximum, places=2).map(float)
    if kind == "boolean":
        return st.booleans()
    if kind == "choice":
        values = list(field.values) + ([None] if field.nullable else [])
        return st.sampled_from(values)
    if kind == "multi":
        return st.lists(st.sampled_from(field.values), unique=True, max_size=len(field.values))
    if kind == "object":
        inner = st.fixed_dictionaries({f.name: value_for(f) for f in field.fields})
        return st.one_of(st.none(), inner) if field.nullable else inner
    raise AssertionError(kind)


def item(fields: tuple[Field, ...]) -> st.SearchStrategy[dict[str, Any]]:
    required = {f.name: value_for(f) for f in fields if f.required}
    optional = {f.name: value_for(f) for f in fields if not f.required}
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def documents(draw) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(rules.all_rulesets()))
    doc: dict[str, Any] = {
        "format": "muster.army/1",
        "name": draw(st.text(PRINTABLE, min_size=1, max_size=40).filter(str.strip)),
        "ruleset": ruleset.slug,
        "options": draw(item(ruleset.options)),
        "units": draw(st.lists(item(ruleset.unit_fields), max_size=8)),
    }
    if ruleset.uses_points:
        doc["points_limit"] = draw(st.one_of(st.none(), st.integers(1, 100000)))
    if ruleset.has_generals:
        doc["generals"] = draw(st.lists(item(ruleset.general_fields), max_size=3))
    if draw(st.booleans()):
        doc["notes"] = draw(st.text(alphabet=PRINTABLE | st.sampled_from("\n\t"), max_size=50))
    return doc


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def mangled(draw) -> Any:
    doc = draw(documents())
    target: Any = doc
    path = draw(st.lists(st.integers(0, 10), max_size=3))
    for step in path:  # walk into a random nested object or list
        if isinstance(target, dict) and target:
            key = sorted(target)[step % len(target)]
            if isinstance(target[key], dict | list) and target[key]:
                target = target[key]
        elif isinstance(target, list) and target:
            if isinstance(target[step % len(target)], dict | list):
                target = target[step % len(target)]
    action = draw(st.sampled_from(["replace", "delete", "add"]))
    if isinstance(target, dict) and target:
        key = draw(st.sampled_from(sorted(target)))
        if action == "replace":
            target[key] = draw(json_values)
        elif action == "delete":
            del target[key]
        else:
            target[draw(st.text(max_size=8))] = draw(json_values)
    elif isinstance(target, list) and target:
        target[draw(st.integers(0, len(target) - 1))] = draw(json_values)
    return doc


def post(body: Any):
    return Client().post("/api/v1/check", data=json.dumps(body), content_type="application/json")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_well_formed_documents_get_200_and_integer_points_equal_to_their_parts(doc):
    response = post(doc)
    assert response.status_code == 200, response.content
    report = response.json()
    assert report["valid"] == (not any(i["severity"] == "error" for i in report["issues"]))
    if report["total_points"] is None:
        assert all(u["points"] is None for u in report["units"])
    else:
        parts = [u["points"] for u in report["units"]] + [g["points"] for g in report["generals"]]
        assert all(isinstance(p, int) for p in parts)
        assert report["total_points"] == sum(parts)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mangled(), json_values))
def test_mangled_documents_get_200_or_400_never_500(doc):
    response = post(doc)
    assert response.status_code in (200, 400), response.content
    body = response.json()
    if response.status_code == 400:
        assert isinstance(body["error"], str) and body["error"]
        assert isinstance(body["path"], str)
