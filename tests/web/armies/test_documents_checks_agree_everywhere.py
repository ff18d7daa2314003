"""Every page that shows an army's legality checks it against the revisions the army is
pinned to: after its list gains a newer revision that the army breaks, My armies, the
builder, the share page, the admin, the API (the army's exported file), the CLI and an
event's check (at the revision the event pinned) all say what the builder says. The admin saves an army built on a player's list, and a former link
holder's My armies names the list as the army is pinned to it."""

import json
import re

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.management import call_command

from armybuilder.armies import services as armies
from armybuilder.armies.models import Army
from armybuilder.catalog import services
from armybuilder.catalog.models import LINK, ArmyList, SharedList
from armybuilder.events.checking import check_for_event
from tests.support import army
from tests.web.catalog.test_pins import legal_army, list_entry_units, lower_max
from tests.web.events.helpers import make_event

pytestmark = pytest.mark.django_db

BADGE = re.compile(r'<span class="badge (legal|illegal)">')


def badges(page):
    return BADGE.findall(page)


def cli_says(tmp_path, capsys, document):
    path = tmp_path / "army.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        call_command("muster", "check", str(path))
        code = 0
    except SystemExit as exited:
        code = exited.code
    out, _ = capsys.readouterr()
    return code, json.loads(out)["valid"]


@pytest.mark.parametrize("ruleset", ["into-the-dark", "dark-ages-d5", "feudal-2017"])
def test_every_page_agrees_with_the_builder_after_the_list_gains_a_newer_revision(
    client, user, tmp_path, capsys, ruleset
):
    saved, slug = legal_army(user, ruleset)
    # an event made now pins the list at the revision the army is pinned to
    event = make_event(user, ruleset=ruleset, lists=[slug], restrictions=[], points_limit=None)
    army_list = ArmyList.objects.get(ruleset=ruleset, slug=slug)
    services.save_list(army_list, data=lower_max(army_list.data, ruleset))
    latest = services.check_document(saved.document)[1]  # the list as it is now
    assert not latest.valid, "the newer revision makes the army illegal"

    client.force_login(user)
    assert badges(client.get(f"/armies/{saved.pk}/").content.decode())[0] == "legal"
    assert badges(client.get("/armies/").content.decode()) == ["legal"]
    saved.refresh_from_db()
    if not saved.share_token:
        client.post(f"/armies/{saved.pk}/share/regenerate/")
        saved.refresh_from_db()
    client.logout()
    assert badges(client.get(f"/s/{saved.share_token}/").content.decode())[0] == "legal"
    assert admin.site._registry[Army].is_legal(saved) is True

    client.force_login(user)
    exported = client.get(f"/armies/{saved.pk}/export.json").json()
    assert exported["list_revisions"] == saved.list_pins
    answer = client.post("/api/v1/check", json.dumps(exported), content_type="application/json")
    assert answer.status_code == 200
    assert answer.json()["valid"] is True
    assert cli_says(tmp_path, capsys, exported) == (0, True)
    assert check_for_event(event, exported, owner_id=user.pk).valid is True

    # accepting the newer revision turns them all at once
    armies.accept_upgrade(saved)
    assert badges(client.get(f"/armies/{saved.pk}/").content.decode())[0] == "illegal"
    assert badges(client.get("/armies/").content.decode()) == ["illegal"]
    assert admin.site._registry[Army].is_legal(saved) is False
    exported = client.get(f"/armies/{saved.pk}/export.json").json()
    answer = client.post("/api/v1/check", json.dumps(exported), content_type="application/json")
    assert answer.json()["valid"] is False
    assert cli_says(tmp_path, capsys, exported) == (1, False)
    # an event made now pins the newer revision: it refuses the army as the builder does
    later = make_event(
        user, name="Later", ruleset=ruleset, lists=[slug], restrictions=[], points_limit=None
    )
    assert check_for_event(later, exported, owner_id=user.pk).valid is False


def test_the_admin_saves_an_army_built_on_a_players_list(user):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    own = services.copy_list(user, army_list=shipped).army_list
    units = list_entry_units("into-the-dark", "anglo-danish-1066")
    saved = armies.create_army(army("into-the-dark", units, army_list=own.slug), owner=user)
    saved.full_clean()  # the admin's guard: no "not an army list of into-the-dark"
    assert saved.document["army_list"] == own.slug
    assert admin.site._registry[Army].is_legal(saved) is not None


def test_a_former_link_holders_my_armies_names_the_list_as_pinned(client, user):
    author = User.objects.create_user("bea", password="a-long-Pass-123")
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    theirs = services.copy_list(author, army_list=shipped).army_list
    services.save_list(theirs, by=author, name="Bea's housecarls")
    services.set_status(author, army_list=theirs, status=LINK)
    SharedList.objects.create(army_list=theirs, user=user, token=theirs.share_token)
    units = list_entry_units("into-the-dark", "anglo-danish-1066")
    armies.create_army(army("into-the-dark", units, army_list=theirs.slug), owner=user)

    services.revoke_link(author, army_list=theirs)
    services.save_list(theirs, by=author, name="Renamed after the link died")

    client.force_login(user)
    page = client.get("/armies/").content.decode()
    assert "Bea&#x27;s housecarls" in page
    assert "Renamed after the link died" not in page
