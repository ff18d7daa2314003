"""/api/v1/openapi.json: valid OpenAPI 3.1, built from the rules vocabulary, every route in it."""

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

import rules
from armybuilder.api import openapi
from rules.fields import Choice, Field
from tests.support import EXAMPLES, example

pytestmark = pytest.mark.django_db

URL = "/api/v1/openapi.json"


@pytest.fixture
def described(client):
    response = client.get(URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def validator(document, name):
    """A JSON Schema 2020-12 validator for one component, its $refs resolved in place."""
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    )


def test_the_served_description_is_valid_openapi_3_1(described):
    assert described["openapi"].startswith("3.1")
    validate(described)  # raises on any violation of the OpenAPI 3.1 schema


def test_the_validator_refuses_a_broken_description(described):
    described["paths"]["/api/v1/check"]["post"]["responses"] = "every answer"
    with pytest.raises(OpenAPIValidationError):
        validate(described)


def test_the_description_has_an_etag_and_answers_304_when_unchanged(client):
    first = client.get(URL)
    etag = first["ETag"]
    assert etag
    again = client.get(URL, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert client.get(URL, headers={"If-None-Match": '"something-else"'}).status_code == 200


def _routes(resolver, prefix=""):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield route


def test_every_api_route_of_the_resolver_is_described(described):
    api_routes = {
        "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
        for route in _routes(get_resolver())
        if route.startswith("api/v1/")
    }
    assert len(api_routes) >= 7
    assert api_routes == set(described["paths"])


@pytest.mark.parametrize(
    ("path", "method", "codes"),
    [
        ("/api/v1/check", "post", {"200", "400", "408", "413", "429", "503"}),
        ("/api/v1/roster.pdf", "post", {"200", "202", "400", "408", "413", "429", "503"}),
        ("/api/v1/qrs.pdf", "post", {"200", "202", "400", "408", "413", "429", "503"}),
        ("/api/v1/rulesets", "get", {"200", "400"}),
        ("/api/v1/rulesets/{slug}", "get", {"200", "400", "404"}),
        ("/api/v1/prints/{render_id}", "get", {"200", "202", "400", "404"}),
        ("/api/v1/lists/", "post", {"201", "400", "403", "408", "413", "429", "503"}),
        ("/api/v1/lists/{ruleset}/{slug}/copy", "post", {"201", "400", "403", "404", "408",
                                                        "413", "429", "503"}),
    ],
)  # fmt: skip
def test_every_answer_is_documented_with_its_body(described, path, method, codes):
    responses = described["paths"][path][method]["responses"]
    assert set(responses) == codes
    for code, answer in responses.items():
        assert answer["content"], f"{method} {path} {code} has no body schema"


@pytest.mark.parametrize("path", ["/api/v1/openapi.json", "/api/v1/lists/{ruleset}/{slug}"])
def test_the_conditional_answers_are_documented(described, path):
    assert {"200", "304", "400", "412"} <= set(described["paths"][path]["get"]["responses"])


def test_each_rule_set_s_fields_choices_and_defaults_come_from_its_vocabulary(described):
    schemas = described["components"]["schemas"]
    for ruleset in rules.all_rulesets():
        name = "".join(p.capitalize() for p in ruleset.slug.split("-"))
        for kind, fields in (
            ("Unit", ruleset.unit_fields),
            ("Options", ruleset.options),
            ("General", ruleset.general_fields),
        ):
            if not fields:
                continue
            properties = schemas[f"{name}{kind}"]["properties"]
            item_id = ["id"] if kind in ("Unit", "General") else []  # the stable id first
            assert list(properties) == [*item_id, *(f.name for f in fields)]
            for f in fields:
                prop = properties[f.name]
                if f.kind == "choice":
                    assert [v for v in prop["enum"] if v is not None] == list(f.values)
                if not f.required and f.default is not None:
                    assert prop["default"] == f.default
                if f.kind == "multi":
                    assert prop["items"]["enum"] == list(f.values)
        army = schemas[f"{name}Army"]
        assert army["properties"]["ruleset"] == {"const": ruleset.slug}
        assert army["properties"]["options"]["default"] == ruleset.default_options()
    mapping = schemas["ArmyDocument"]["discriminator"]["mapping"]
    assert set(mapping) == {r.slug for r in rules.all_rulesets()}


def test_a_field_added_to_a_rule_set_appears_without_writing_it_twice(monkeypatch):
    ruleset = rules.get_ruleset("dewitt-medieval")
    extra = Field(
        "banner_colour",
        "Banner colour",
        "choice",
        default="red",
        choices=(Choice("red", "Red"), Choice("blue", "Blue")),
    )
    monkeypatch.setattr(type(ruleset), "unit_fields", (*ruleset.unit_fields, extra), raising=True)
    unit = openapi.build()["components"]["schemas"]["DewittMedievalUnit"]["properties"]
    assert unit["banner_colour"] == {
        "enum": ["red", "blue"],
        "title": "Banner colour",
        "default": "red",
    }


@pytest.mark.parametrize(
    "name", sorted(p.name for p in EXAMPLES.glob("*.json") if p.name != "expected.json")
)
def test_the_example_armies_fit_the_army_schema_and_their_reports_the_report_schema(
    described, client, name
):
    document = example(name)
    assert not list(validator(described, "ArmyDocument").iter_errors(document))
    response = client.post("/api/v1/check", json.dumps(document), content_type="application/json")
    assert response.status_code == 200
    assert not list(validator(described, "CheckReport").iter_errors(response.json()))


def test_a_unit_value_outside_its_choices_is_outside_the_schema(described):
    document = example("into-the-dark-source-examples.json")
    document["units"][0]["armour"] = "mithril"
    errors = list(validator(described, "ArmyDocument").iter_errors(document))
    assert errors


def test_refusals_fit_the_error_schema(described, client):
    response = client.post("/api/v1/check", "{", content_type="application/json")
    assert response.status_code == 400
    assert not list(validator(described, "Error").iter_errors(response.json()))
    missing = client.get("/api/v1/rulesets/no-such-rules")
    assert missing.status_code == 404
    assert not list(validator(described, "Error").iter_errors(missing.json()))


def test_a_unit_and_a_general_may_carry_a_stable_id_that_the_schema_describes(described):
    schemas = described["components"]["schemas"]
    for ruleset in rules.all_rulesets():
        name = "".join(p.capitalize() for p in ruleset.slug.split("-"))
        kinds = ("Unit", "General") if ruleset.has_generals else ("Unit",)
        for kind in kinds:
            schema = schemas[f"{name}{kind}"]
            item_id = schema["properties"]["id"]
            assert item_id["type"] == "string"
            assert "id" not in schema.get("required", [])
            assert "refuses a duplicate" in item_id["description"]
