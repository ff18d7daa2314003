"""The home page and the rule-set pages: server-rendered, no login needed."""

import pytest

import rules

pytestmark = pytest.mark.django_db


def test_home_lists_every_ruleset_with_a_link(client):
    html = client.get("/").content.decode()
    for ruleset in rules.all_rulesets():
        assert ruleset.title in html
        assert f'href="/rulesets/{ruleset.slug}/"' in html


def test_ruleset_page_shows_vocabulary_rulings_and_checks(client):
    html = client.get("/rulesets/into-the-dark/").content.decode()
    assert "Unit fields" in html
    assert "Encased (E, +4, natural 6)" in html
    assert "R1" in html and "rounded up once" in html
    assert "champion-not-open" in html
    assert "Wedge" in html  # why it is not offered


def test_unknown_ruleset_page_is_a_friendly_404(client):
    response = client.get("/rulesets/chess/")
    assert response.status_code == 404
    assert b"Not found" in response.content
    assert b"Traceback" not in response.content


def test_unknown_army_list_page_is_404(client):
    assert client.get("/rulesets/into-the-dark/lists/atlantis/").status_code == 404


def test_ruleset_page_writes_values_and_defaults_for_players(client):
    html = client.get("/rulesets/into-the-dark/").content.decode()
    assert "<code>false</code>" not in html and "false" not in html
    assert "False" not in html and "null" not in html and "None</code>" not in html


def test_a_players_own_lists_are_on_their_rule_sets_page_for_them_only(client):
    from django.contrib.auth.models import User

    ann = User.objects.create_user("ann")
    client.force_login(ann)
    before = client.get("/rulesets/dark-ages-d5/").content.decode()  # cached without any
    assert "Your lists" not in before
    made = client.post("/rulesets/dark-ages-d5/new-list/", {"name": "Ann's Raiders"})
    assert made.status_code == 302
    page = client.get("/rulesets/dark-ages-d5/").content.decode()
    assert "Your lists" in page and "Ann&#x27;s Raiders" in page
    assert "Private: only its author" in page
    link = page.split("Your lists", 1)[1].split('href="', 1)[1].split('"', 1)[0]
    assert client.get(link).status_code == 200
    # another rule set's page, another player, a visitor: not there
    assert "Ann&#x27;s Raiders" not in client.get("/rulesets/feudal-2017/").content.decode()
    client.force_login(User.objects.create_user("bob"))
    assert "Ann&#x27;s Raiders" not in client.get("/rulesets/dark-ages-d5/").content.decode()
    client.logout()
    visitor = client.get("/rulesets/dark-ages-d5/").content.decode()
    assert "Your lists" not in visitor and "Ann&#x27;s Raiders" not in visitor
