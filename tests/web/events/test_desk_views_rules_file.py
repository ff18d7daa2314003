"""The event's rules as a muster.event/1 file, and `muster check --event` with it offline."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.catalog import services as catalog
from armybuilder.catalog.models import ArmyList
from tests.web.events.helpers import list_army, make_event, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules_file(client, tmp_path):
    event = make_event(player("org"))
    viking = ArmyList.objects.get(ruleset="into-the-dark", slug="viking")
    data = {**viking.data, "entries": [dict(e) for e in viking.data["entries"]]}
    data["entries"][0]["min"] = 2
    catalog.save_list(viking, data=data)  # published after the event pinned revision 1
    path = tmp_path / "rules.json"
    path.write_bytes(client.get(reverse("events:rules_file", args=[event.code])).content)
    return path


def check(army, rules_file, tmp_path):
    army_path = tmp_path / "army.json"
    army_path.write_text(json.dumps(army))
    out = io.StringIO()
    try:
        call_command("muster", "check", str(army_path), "--event", str(rules_file), stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def test_the_rules_file_carries_the_pinned_revision_and_the_restrictions(rules_file):
    document = json.loads(rules_file.read_text())
    assert document["format"] == "muster.event/1"
    viking = next(item for item in document["lists"] if item["slug"] == "viking")
    assert viking["revision"] == 1 and viking["data"]["entries"][0]["min"] == 1
    assert document["restrictions"] == [{"kind": "max_units", "count": 5}]


def test_muster_check_reads_an_army_against_the_event_file_alone(
    rules_file, tmp_path, django_assert_num_queries
):
    with django_assert_num_queries(0):  # offline: nothing but the two files
        fine = check(list_army("viking"), rules_file, tmp_path)
        big = check(list_army("viking", extra=4), rules_file, tmp_path)
    assert fine[0] == 0 and fine[1]["valid"]
    assert big[0] == 1 and not big[1]["valid"]
    cited = [i["rule"] for i in big[1]["issues"]]
    assert "Event restriction 1: At most 5 units." in cited


def test_a_malformed_event_file_exits_2_naming_the_path(tmp_path):
    bad = tmp_path / "rules.json"
    bad.write_text(json.dumps({"format": "muster.event/1", "name": "x"}))
    army_path = tmp_path / "army.json"
    army_path.write_text(json.dumps(list_army("viking")))
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", str(army_path), "--event", str(bad), stderr=err)
    assert exited.value.code == 2
    assert "ruleset" in err.getvalue()
