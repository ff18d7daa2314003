"""The JSON API: /api/v1/check and the rule-set vocabulary."""

import json

import pytest
from django.test import Client

from tests.support import army, example

pytestmark = pytest.mark.django_db

CHECK = "/api/v1/check"


def post(client, body, content_type="application/json"):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(CHECK, data=data, content_type=content_type)


def test_check_returns_the_report_of_the_source_examples(client):
    response = post(client, example("into-the-dark-source-examples.json"))
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is True
    assert report["total_points"] == 581
    assert [u["points"] for u in report["units"]] == [44, 242, 160, 60]
    assert [g["points"] for g in report["generals"]] == [75]
    assert set(report) == {
        "ruleset", "valid", "total_points", "points_limit", "units", "generals", "issues",
        "composition",
    }  # fmt: skip


def test_check_of_an_illegal_army_is_200_with_its_issues(client):
    doc = example("into-the-dark-source-examples.json")
    doc["points_limit"] = 400
    report = post(client, doc).json()
    assert report["valid"] is False
    assert report["issues"][0] == {
        "severity": "error",
        "code": "over-points-limit",
        "message": "Army costs 581 points; the limit is 400.",
        "unit": None,
        "rule": "Point Cost of Troops",
    }


def test_malformed_document_is_400_with_error_and_path(client):
    doc = army("into-the-dark", [{"name": "A"}, {"name": "B"}, {"name": "C", "armour": "plate"}])
    response = post(client, doc)
    assert response.status_code == 400
    assert response.json() == {
        "error": "units[2].armour: 'plate' is not one of unarmoured, protected, armoured, "
        "mailed, encased",
        "path": "units[2].armour",
    }


@pytest.mark.parametrize(
    "body", ["", "{", "[1,", "NaN", '{"format": NaN}', b"\xff\xfe", "[" * 5000 + "]" * 5000]
)
def test_unreadable_bodies_are_400_never_500(client, body):
    response = post(client, body)
    assert response.status_code == 400
    assert "error" in response.json()


def test_body_over_one_mebibyte_is_413(client):
    doc = army("into-the-dark", [], notes="")
    body = json.dumps(doc)[:-1] + ', "padding": "' + "x" * (1024 * 1024) + '"}'
    response = post(client, body)
    assert response.status_code == 413
    assert "larger than" in response.json()["error"]


def test_check_needs_no_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    response = post(strict, example("into-the-dark-source-examples.json"))
    assert response.status_code == 200


def test_check_refuses_get_with_405(client):
    assert client.get(CHECK).status_code == 405


def test_rulesets_lists_every_ruleset_with_options_and_defaults(client):
    data = client.get("/api/v1/rulesets").json()
    by_slug = {r["slug"]: r for r in data["rulesets"]}
    itd = by_slug["into-the-dark"]
    assert itd["points"] is True
    assert {o["name"]: o["default"] for o in itd["options"]} == {
        "command_and_control": False,
        "figure_scale": "25mm",
    }


def test_ruleset_vocabulary_is_enough_to_build_a_document(client):
    data = client.get("/api/v1/rulesets/into-the-dark").json()
    fields = {f["name"]: f for f in data["unit_fields"]}
    assert [c["value"] for c in fields["armour"]["choices"]] == [
        "unarmoured", "protected", "armoured", "mailed", "encased",
    ]  # fmt: skip
    assert fields["figures"]["minimum"] == 1 and fields["figures"]["maximum"] == 400
    assert fields["name"]["required"] is True
    assert "army_lists" in data
    assert {c["code"] for c in data["checks"]} >= {"over-points-limit", "champion-not-open"}


def test_unknown_ruleset_is_a_json_404(client):
    response = client.get("/api/v1/rulesets/chess")
    assert response.status_code == 404
    assert response.json()["error"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/rulesets",
        "/api/v1/rulesets/into-the-dark",
        "/api/v1/openapi.json",
        "/api/v1/prints/00000000-0000-0000-0000-000000000000",
    ],
)
def test_a_read_only_api_url_posted_to_is_405_not_a_csrf_refusal(path):
    response = Client(enforce_csrf_checks=True).post(path, "{}", content_type="application/json")
    assert response.status_code == 405
    assert "GET" in response["Allow"]


# -- POST /api/v1/hits: one combat, the engine of `muster hits` --------------------------------


def test_hits_works_out_a_d5_combat_step_by_step(client):
    combat = {"ruleset": "dark-ages-d5", "phase": "melee", "attacker": {"type": "warriors"},
              "target": {"type": "infantry"}, "modifiers": ["uphill", "flank"], "die": 5}  # fmt: skip
    response = client.post("/api/v1/hits", data=combat, content_type="application/json")
    assert response.status_code == 200
    result = response.json()
    # 5 + 1 warriors = 6; uphill 3, shieldwall 2; the flank doubles: 4
    assert result["hits"] == 4
    assert [s["section"] for s in result["steps"]] == ["MELEE"] * len(result["steps"])


def test_hits_refuses_a_combat_the_source_does_not_allow_with_400_naming_the_field(client):
    combat = {"ruleset": "dark-ages-d5", "phase": "melee", "attacker": {"type": "warriors"},
              "target": {"type": "infantry"}, "die": 1}  # fmt: skip
    response = client.post("/api/v1/hits", data=combat, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "die: 1 is not a face of the D5; allowed: 2, 3, 4, 5", "path": "die"}  # fmt: skip


def test_hits_refuses_get_with_405(client):
    assert client.get("/api/v1/hits").status_code == 405
