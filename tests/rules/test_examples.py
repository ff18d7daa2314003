"""Every example in tests/data/examples comes out as expected.json says, via CLI and API."""

import json

import pytest
from django.core.management import call_command

from tests.support import EXAMPLES, example, expected

pytestmark = pytest.mark.django_db

CASES = sorted(expected().items())


def assert_matches(report, want):
    assert report["valid"] is want["valid"]
    assert report["total_points"] == want["total_points"]
    if "unit_points" in want:
        assert [u["points"] for u in report["units"]] == want["unit_points"]
    if "general_points" in want:
        assert [g["points"] for g in report["generals"]] == want["general_points"]
    if "matrix_rows" in want:
        assert report["composition"]["matrix_rows"] == want["matrix_rows"]


def test_every_example_file_has_an_expectation():
    files = {p.name for p in EXAMPLES.glob("*.json")} - {"expected.json"}
    assert files == set(expected())


@pytest.mark.parametrize("name,want", CASES, ids=[name for name, _ in CASES])
def test_example_through_the_api(client, name, want):
    response = client.post(
        "/api/v1/check", data=json.dumps(example(name)), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert_matches(response.json(), want)


@pytest.mark.parametrize("name,want", CASES, ids=[name for name, _ in CASES])
def test_example_through_the_cli(capsys, name, want):
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", str(EXAMPLES / name))
        raise SystemExit(0)
    assert exited.value.code == (0 if want["valid"] else 1)
    assert_matches(json.loads(capsys.readouterr().out), want)
