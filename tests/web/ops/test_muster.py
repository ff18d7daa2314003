"""`manage.py muster check`: JSON on stdout; exit 0 valid, 1 invalid, 2 malformed."""

import json
import subprocess
import sys

import pytest
from django.core.management import call_command

from tests.support import EXAMPLES, ROOT, army, example

pytestmark = pytest.mark.django_db


def run_check(path, capsys):
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", str(path))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return exited.value.code, out, err


def test_valid_army_prints_the_report_and_exits_0(capsys):
    code, out, err = run_check(EXAMPLES / "into-the-dark-source-examples.json", capsys)
    assert code == 0
    report = json.loads(out)
    assert report["total_points"] == 581 and report["valid"] is True
    assert err == ""


def test_invalid_army_prints_the_report_and_exits_1(tmp_path, capsys):
    doc = example("into-the-dark-source-examples.json")
    doc["points_limit"] = 500
    path = tmp_path / "army.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run_check(path, capsys)
    assert code == 1
    assert json.loads(out)["issues"][0]["code"] == "over-points-limit"


@pytest.mark.parametrize(
    "content,words",
    [
        ('{"format": "muster.army/1"', "not valid JSON"),
        (json.dumps(army("into-the-dark", [{"name": "A", "armour": "plate"}])), "units[0].armour"),
        (json.dumps(army("into-the-dark", [], army_list="nowhere")), "known lists"),
    ],
)
def test_malformed_document_exits_2_with_the_message_on_stderr(tmp_path, capsys, content, words):
    path = tmp_path / "army.json"
    path.write_text(content)
    code, out, err = run_check(path, capsys)
    assert code == 2
    assert out == ""
    assert words in err


def test_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run_check(tmp_path / "nope.json", capsys)
    assert code == 2
    assert "cannot read" in err


def test_real_process_prints_no_traceback_on_bad_input(tmp_path):
    path = tmp_path / "army.json"
    path.write_text("[")
    done = subprocess.run(
        [sys.executable, "manage.py", "muster", "check", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "not valid JSON" in done.stderr
