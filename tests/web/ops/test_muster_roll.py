"""`python manage.py muster roll`: a seeded, legal force; clear refusals with exit 2."""

import io
import json

import pytest
from django.core.management import call_command

from armybuilder.catalog import services
from tests.support import example

pytestmark = pytest.mark.django_db


def run(*args):
    """(exit code, stdout, stderr) of one muster subcommand."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("muster", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_roll_prints_a_legal_north_welsh_force_for_the_rolled_row():
    code, out, err = run("roll", "feudal-2017", "--list", "north-welsh", "--seed", "7")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["format"] == "muster.army/1"
    assert document["army_list"] == "north-welsh"
    assert len(document["units"]) == 6
    row = int(document["name"].rsplit(" ", 1)[1].rstrip(")"))
    _, report = services.check_document(document)
    assert report.valid
    assert row in report.composition["matrix_rows"]
    assert "(seed 7)" in document["notes"]


def test_the_same_seed_rolls_the_same_force():
    first = run("roll", "feudal-2017", "--list", "bretons", "--seed", "42")[1]
    assert run("roll", "feudal-2017", "--list", "bretons", "--seed", "42")[1] == first
    names = {
        json.loads(run("roll", "feudal-2017", "--list", "bretons", "--seed", str(s))[1])["name"]
        for s in range(30)
    }
    assert len(names) > 1


def test_roll_without_a_list_uses_the_default_feudal_list():
    code, out, _ = run("roll", "feudal-2017", "--seed", "3")
    assert code == 0
    document = json.loads(out)
    assert document["army_list"] == "feudal"
    assert services.check_document(document)[1].valid


def test_a_rolled_force_is_named_after_its_list_not_its_slug():
    code, out, _ = run("roll", "feudal-2017", "--list", "scots-isles-highlands", "--seed", "3")
    assert code == 0
    name = json.loads(out)["name"]
    assert name.startswith("Scots Isles and Highlands force (matrix roll ")


def test_roll_without_a_seed_still_records_the_seed_it_used():
    code, out, _ = run("roll", "feudal-2017", "--list", "south-welsh")
    assert code == 0
    assert "(seed " in json.loads(out)["notes"]


def test_unknown_list_exits_2_naming_the_known_lists():
    code, out, err = run("roll", "feudal-2017", "--list", "welsh", "--seed", "1")
    assert (code, out) == (2, "")
    assert "'welsh' is not an army list of Feudal Wargame Rules" in err
    assert "North Welsh" in err and "South Welsh" in err and "Bretons" in err
    assert "(--list north-welsh)" in err  # the argument that names it
    assert "Traceback" not in err


def test_unknown_ruleset_exits_2():
    code, _, err = run("roll", "feudal-2018", "--seed", "1")
    assert code == 2
    assert "'feudal-2018' is not a rule set with a force matrix; try one of:" in err
    assert "feudal-2017" in err


def test_a_ruleset_without_a_force_matrix_cannot_roll():
    code, _, err = run("roll", "dewitt-medieval", "--seed", "1")
    assert code == 2
    assert "dewitt-medieval has no force matrix to roll on" in err


def test_check_refuses_an_unknown_army_list_with_exit_2(tmp_path):
    document = example("feudal-2017-roll-4.json")
    document["army_list"] = "angevin"
    path = tmp_path / "army.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code, out, err = run("check", str(path))
    assert (code, out) == (2, "")
    assert "army_list: 'angevin' is not an army list of Feudal Wargame Rules" in err
    assert "known lists: Anglo-Irish" in err
    assert "scots-isles-highlands" not in err


def test_check_of_the_roll_4_example_exits_0_with_row_4(tmp_path):
    path = tmp_path / "army.json"
    path.write_text(json.dumps(example("feudal-2017-roll-4.json")), encoding="utf-8")
    code, out, _ = run("check", str(path))
    assert code == 0
    assert json.loads(out)["composition"]["matrix_rows"] == [4]
