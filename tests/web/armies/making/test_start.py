"""Starting an army asks for its army list first: grouped, filterable, or none at all."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import army_lookup

pytestmark = pytest.mark.django_db


def groups_of(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('data-group="')[1:]]


@pytest.fixture
def player():
    user = User.objects.create_user("ann")
    client = Client()
    client.force_login(user)
    return user, client


def test_a_start_with_only_the_rule_set_is_sent_to_choose_a_list(client):
    response = client.post("/armies/new/", {"first": "list", "ruleset": "into-the-dark"})
    assert response.status_code == 302 and response["Location"] == "/armies/new/into-the-dark/"
    assert not Army.objects.exists()


def test_the_rule_set_page_starts_with_the_list(client):
    page = client.get("/rulesets/into-the-dark/").content.decode()
    assert (
        '<input type="hidden" name="first" value="list"><input type="hidden" name="ruleset"' in page
    )


def test_the_picker_groups_musters_lists_and_the_players_own(player):
    user, client = player
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    mine = services.copy_list(user, army_list=norman).army_list
    html = client.get("/armies/new/into-the-dark/").content.decode()
    assert groups_of(html) == ["muster", "mine", "free"]
    mine_part = html[html.index('data-group="mine"') : html.index('data-group="free"')]
    assert f'value="{mine.slug}"' in mine_part
    assert 'value="norman-1066"' not in mine_part


def test_another_players_private_list_is_not_offered(player):
    _, client = player
    other = User.objects.create_user("bob")
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    theirs = services.copy_list(other, army_list=norman).army_list
    html = client.get("/armies/new/into-the-dark/").content.decode()
    assert theirs.slug not in html


def test_the_filter_keeps_the_lists_whose_name_or_period_matches(client):
    html = client.get("/armies/new/into-the-dark/", {"q": "NORMAN"}).content.decode()
    assert 'value="norman-1066"' in html
    assert 'value="anglo-danish-1066"' not in html
    partial = client.get(
        "/armies/new/into-the-dark/", {"q": "norman"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert partial.lstrip().startswith('<div id="list-groups">')


def test_a_player_builds_on_their_own_list(player):
    user, client = player
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    mine = services.copy_list(user, army_list=norman).army_list
    response = client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": mine.slug})
    army = Army.objects.get(owner=user)
    assert response["Location"] == f"/armies/{army.pk}/"
    assert army.document["army_list"] == mine.slug
    assert army.list_pins == {mine.slug: 1}


def test_nobody_builds_on_another_players_private_list(player):
    _, client = player
    other = User.objects.create_user("bob")
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    theirs = services.copy_list(other, army_list=norman).army_list
    response = client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": theirs.slug})
    assert response.status_code == 400
    assert not Army.objects.exists()


def test_an_unknown_rule_set_has_no_picker(client):
    assert client.get("/armies/new/no-such-rules/").status_code == 404


def test_the_settings_switch_to_the_players_own_list_and_undo_switches_back(player):
    from armybuilder.armies.models import Revision

    user, client = player
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    mine = services.copy_list(user, army_list=norman).army_list
    client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": "norman-1066"})
    army = Army.objects.get(owner=user)
    builder = client.get(f"/armies/{army.pk}/").content.decode()
    assert f'<option value="{mine.slug}"' in builder  # the settings offer the player's list
    response = client.post(
        f"/armies/{army.pk}/settings/", {"version": army.version, "army_list": mine.slug}
    )
    assert response.status_code == 302
    army.refresh_from_db()
    assert army.document["army_list"] == mine.slug
    last = Revision.objects.filter(army=army).latest("pk")
    client.post(f"/armies/{army.pk}/undo/", {"revision": last.pk})
    army.refresh_from_db()
    assert army.document["army_list"] == "norman-1066"


def shared_by_bob() -> ArmyList:
    """Bob's own list, shared by link."""
    bob = User.objects.create_user("bob")
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    theirs = services.copy_list(bob, army_list=norman).army_list
    return services.set_status(bob, army_list=theirs, status="link")


def shared_part(html: str) -> str:
    if 'data-group="shared"' not in html:
        return ""
    return html[html.index('data-group="shared"') : html.index('data-group="free"')]


def test_a_list_opened_by_its_share_link_is_offered_as_shared_with_me(player):
    user, client = player
    theirs = shared_by_bob()
    assert not shared_part(client.get("/armies/new/into-the-dark/").content.decode())
    assert client.get(f"/lists/shared/{theirs.share_token}/").status_code == 200
    html = client.get("/armies/new/into-the-dark/").content.decode()
    assert groups_of(html) == ["muster", "shared", "free"]
    part = shared_part(html)
    assert "Lists shared with me" in part and f'value="{theirs.slug}"' in part
    assert f"/lists/shared/{theirs.share_token}/" in part  # "about" goes through the link
    response = client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": theirs.slug})
    army = Army.objects.get(owner=user)
    assert response["Location"] == f"/armies/{army.pk}/"
    assert army.list_pins == {theirs.slug: 1}


def test_a_shared_list_is_never_offered_to_players_who_did_not_open_the_link(player):
    _, client = player
    theirs = shared_by_bob()
    client.get(f"/lists/shared/{theirs.share_token}/")
    cy = User.objects.create_user("cy")
    other = Client()
    other.force_login(cy)
    html = other.get("/armies/new/into-the-dark/").content.decode()
    assert theirs.slug not in html and 'data-group="shared"' not in html
    response = other.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": theirs.slug})
    assert response.status_code == 400


def test_a_revoked_link_takes_the_list_from_the_group_and_from_its_readers(player):
    user, client = player
    theirs = shared_by_bob()
    old = theirs.share_token
    client.get(f"/lists/shared/{old}/")
    client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": theirs.slug})
    army = Army.objects.get(owner=user)
    services.revoke_link(theirs.author, army_list=theirs)
    html = client.get("/armies/new/into-the-dark/").content.decode()
    assert theirs.slug not in html
    assert client.get(f"/lists/shared/{old}/").status_code == 404
    assert client.get(f"/rulesets/into-the-dark/lists/{theirs.slug}/").status_code == 404
    response = client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": theirs.slug})
    assert response.status_code == 400
    # the army built on it stays checked against the revision it was pinned to
    builder = client.get(f"/armies/{army.pk}/")
    assert builder.status_code == 200
    army.refresh_from_db()
    assert army.list_pins == {theirs.slug: 1}
    assert army.document["army_list"] == theirs.slug
    _, report = rules.check_document(army.document, army_lookup(army))  # the list is read
    assert any("needs at least 1 Archers" in issue.message for issue in report.issues)


def test_a_private_list_stays_not_found_even_after_its_link_was_opened(player):
    _, client = player
    theirs = shared_by_bob()
    client.get(f"/lists/shared/{theirs.share_token}/")
    services.set_status(theirs.author, army_list=theirs, status="private")
    assert client.get(f"/rulesets/into-the-dark/lists/{theirs.slug}/").status_code == 404
    assert theirs.slug not in client.get("/armies/new/into-the-dark/").content.decode()


def test_the_settings_switch_to_a_list_shared_with_the_player_and_check_against_it(player):
    user, client = player
    theirs = shared_by_bob()
    client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": "norman-1066"})
    army = Army.objects.get(owner=user)
    assert (
        f'<option value="{theirs.slug}"' not in client.get(f"/armies/{army.pk}/").content.decode()
    )
    client.get(f"/lists/shared/{theirs.share_token}/")  # the player opens Bob's link
    assert f'<option value="{theirs.slug}"' in client.get(f"/armies/{army.pk}/").content.decode()
    response = client.post(
        f"/armies/{army.pk}/settings/", {"version": army.version, "army_list": theirs.slug}
    )
    assert response.status_code == 302
    army.refresh_from_db()
    assert army.document["army_list"] == theirs.slug
    assert army.list_pins == {theirs.slug: theirs.latest_revision}
    report = rules.check_document(army.document, army_lookup(army))[1]
    assert not [i for i in report.issues if i.code == "unknown-army-list"]
    # pinned at the switch: Bob's next change is offered as an upgrade, never applied silently
    services.save_list(theirs, data={**theirs.data, "entries": theirs.data["entries"][:1]})
    army.refresh_from_db()
    assert services.upgrade_diff(army) is not None
