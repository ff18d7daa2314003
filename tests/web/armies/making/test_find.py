"""One search for an army list across every rule set, from home, from the page after
sign-up and from a rule set's start page; a new army is named after its list."""

import re

import pytest
from django.contrib.auth.models import User

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import public_lists

pytestmark = pytest.mark.django_db

FOUND = re.compile(
    r'name="ruleset" value="(?P<ruleset>[^"]+)"><input type="hidden" name="army_list" '
    r'value="(?P<slug>[^"]+)">'
)


def found(page):
    return {(m["ruleset"], m["slug"]) for m in FOUND.finditer(page)}


@pytest.mark.parametrize("query", ["Irish", "Norman", "Viking"])
def test_searching_from_home_finds_every_rule_sets_list_of_that_name(client, query):
    home = client.get("/").content.decode()
    assert 'action="/armies/find/"' in home and 'name="q"' in home
    page = client.get("/armies/find/", {"q": query}).content.decode()
    expected = set(
        ArmyList.objects.filter(public_lists(), name__icontains=query).values_list(
            "ruleset", "slug"
        )
    )
    assert expected
    if query != "Norman":  # the Irish and Viking lists of three rule sets at once
        assert len({ruleset for ruleset, _ in expected}) == 3
    assert found(page) == expected
    for ruleset in {ruleset for ruleset, _ in expected}:  # grouped under each rule set
        assert f">{rules.get_ruleset(ruleset).title}</h2>" in page
    # as the player types (htmx): the results alone
    fragment = client.get("/armies/find/", {"q": query}, HTTP_HX_REQUEST="true").content
    assert found(fragment.decode()) == expected and b"<h1>" not in fragment


def test_a_found_list_shows_its_period_and_size(client):
    page = client.get("/armies/find/", {"q": "Norman"}).content.decode()
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    entries = len(rules.get_ruleset("into-the-dark").list_entries(norman.data, None))
    assert norman.name in page and norman.period in page
    assert f"{entries} kinds of unit" in page


def test_a_period_finds_lists_too_and_nothing_found_says_so(client):
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    assert ("into-the-dark", "norman-1066") in found(
        client.get("/armies/find/", {"q": norman.period}).content.decode()
    )
    page = client.get("/armies/find/", {"q": "Atlantis"}).content.decode()
    assert "No list's name or period holds “Atlantis” in any rule set." in page


def test_after_sign_up_and_from_a_rule_sets_start_page_the_search_is_offered(client):
    client.force_login(User.objects.create_user("newcomer", password="a-long-Pass-123"))
    assert 'action="/armies/find/"' in client.get("/armies/new/").content.decode()
    start = client.get("/armies/new/into-the-dark/", {"q": "Irish"}).content.decode()
    assert 'href="/armies/find/?q=Irish"' in start
    assert "Start an army: Into the Dark" in start and "Start a Into" not in start


def test_a_new_army_started_from_a_found_list_is_named_after_the_list(client):
    user = User.objects.create_user("starter", password="a-long-Pass-123")
    client.force_login(user)
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    response = client.post("/armies/new/", {"ruleset": "into-the-dark", "army_list": "norman-1066"})
    assert response.status_code == 302
    made = Army.objects.get(owner=user)
    assert made.document["name"] == norman.name
    assert made.document["army_list"] == "norman-1066"
