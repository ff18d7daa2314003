"""`manage.py muster check army.json --list my-list.json`: check against a list file."""

import copy
import json

import pytest
from django.core.management import call_command

import rules
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from tests.support import army

pytestmark = pytest.mark.django_db


def run(capsys, *args):
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", *map(str, args))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return exited.value.code, out, err


@pytest.fixture
def files(tmp_path):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    entries = {
        e.key: e for e in rules.get_ruleset("into-the-dark").list_entries(shipped.data, None)
    }
    units = [dict(entries["huscarls"].values) for _ in range(3)]
    units += [dict(entries["select-fyrd"].values) for _ in range(2)]
    army_path = tmp_path / "army.json"
    army_path.write_text(json.dumps(army("into-the-dark", units, army_list=shipped.slug)))
    document = services.export_document(shipped)
    return army_path, document, tmp_path / "my-list.json"


def test_the_army_is_checked_against_the_list_file_not_the_stored_list(files, capsys):
    army_path, document, list_path = files
    assert run(capsys, army_path)[0] == 0
    tighter = copy.deepcopy(document)
    next(e for e in tighter["data"]["entries"] if e["key"] == "huscarls")["max"] = 1
    list_path.write_text(json.dumps(tighter))
    code, out, err = run(capsys, army_path, "--list", list_path)
    assert code == 1 and err == ""
    assert json.loads(out)["valid"] is False
    list_path.write_text(json.dumps(document))
    assert run(capsys, army_path, "--list", list_path)[0] == 0


def test_a_list_file_of_a_new_slug_is_the_army_list_it_names(files, capsys, tmp_path):
    army_path, document, list_path = files
    document["slug"] = "my-own-danes"
    list_path.write_text(json.dumps(document))
    doc = json.loads(army_path.read_text())
    doc["army_list"] = "my-own-danes"
    army_path.write_text(json.dumps(doc))
    assert run(capsys, army_path)[0] == 2  # unknown to the database
    assert run(capsys, army_path, "--list", list_path)[0] == 0


def test_a_malformed_list_file_exits_2_naming_the_path(files, capsys):
    army_path, document, list_path = files
    document["data"]["entries"][0]["max"] = "many"
    list_path.write_text(json.dumps(document))
    code, out, err = run(capsys, army_path, "--list", list_path)
    assert code == 2 and out == ""
    assert "my-list.json at data" in err
    list_path.write_text("{not json")
    code, _, err = run(capsys, army_path, "--list", list_path)
    assert code == 2 and "not valid JSON" in err
    code, _, err = run(capsys, army_path, "--list", list_path.with_name("missing.json"))
    assert code == 2 and "cannot read" in err
