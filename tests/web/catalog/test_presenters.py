"""Home and rule-set pages written for players: start in one click, readable reference."""

import re

import pytest
from django.contrib.auth.models import User

import rules
from armybuilder.armies.models import Army
from armybuilder.catalog import presenters
from armybuilder.catalog.models import ArmyList
from rules.fields import Choice, Field

pytestmark = pytest.mark.django_db


def card(html: str, slug: str) -> str:
    return re.search(rf'<li class="card" id="ruleset-{slug}">(.*?)</li>', html, re.S).group(1)


def main(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


@pytest.mark.parametrize("slug", [r.slug for r in rules.all_rulesets()])
def test_home_starts_an_army_of_each_rule_set_by_choosing_its_list_first(client, slug):
    html = client.get("/").content.decode()
    found = card(html, slug)
    title = rules.get_ruleset(slug).title
    assert f'<input type="hidden" name="ruleset" value="{slug}">' in found
    assert (
        f'<button type="submit">Start an army<span class="visually-hidden"> with {title}</span>'
        in found
    )
    assert 'action="/armies/new/"' in found and 'method="post"' in found
    assert '<input type="hidden" name="first" value="list">' in found
    response = client.post("/armies/new/", {"first": "list", "ruleset": slug})
    if ArmyList.objects.filter(ruleset=slug).exists():
        assert response["Location"] == f"/armies/new/{slug}/"  # the army list comes first
        assert not Army.objects.exists()
        picker = client.get(response["Location"]).content.decode()
        assert '<input type="radio" name="army_list" value="" required>' in picker  # or none
        response = client.post("/armies/new/", {"ruleset": slug, "army_list": ""})
    made = Army.objects.get(document__ruleset=slug)
    assert response["Location"] == f"/armies/{made.pk}/"  # then into the builder
    assert made.name == f"New {title} army" and made.owner is None  # a visitor's draft


def test_home_gives_each_rule_set_its_summary_and_lists_count(client):
    html = client.get("/").content.decode()
    counts = {r.slug: ArmyList.objects.filter(ruleset=r.slug).count() for r in rules.all_rulesets()}
    assert counts["into-the-dark"] > 1
    for ruleset in rules.all_rulesets():
        found = card(html, ruleset.slug)
        assert ruleset.summary.replace("'", "&#x27;").replace('"', "&quot;") in found
        if ruleset.slug != "dewitt-medieval":
            assert f"{counts[ruleset.slug]} army lists" in found


def test_a_rule_set_whose_source_has_no_lists_says_so(client):
    html = client.get("/").content.decode()
    dewitt = card(html, "dewitt-medieval")
    assert "No army lists in its source: build from the troop options" in dewitt
    assert "0 army lists" not in html
    page = client.get("/rulesets/dewitt-medieval/").content.decode()
    assert "No army lists in its source" in page and "0 army lists" not in page


def test_a_rule_set_with_its_lists_not_loaded_never_says_zero(client):
    ArmyList.objects.filter(ruleset="feudal-2017").delete()
    dewitt = card(client.get("/").content.decode(), "feudal-2017")
    assert "No army lists loaded yet" in dewitt and "0 army lists" not in dewitt


def test_signed_in_players_see_a_link_to_their_armies_on_home(client):
    assert (
        'class="button secondary" href="/armies/">My armies' not in client.get("/").content.decode()
    )
    client.force_login(User.objects.create_user("alice", password="a-long-Pass-123"))
    assert 'class="button secondary" href="/armies/">My armies' in client.get("/").content.decode()


def test_rule_set_page_leads_with_summary_start_and_army_lists(client):
    html = main(client.get("/rulesets/feudal-2017/").content.decode())
    ruleset = rules.get_ruleset("feudal-2017")
    order = [
        html.index('<p class="lede">'),
        html.index(">Start an army</button>"),
        html.index("How points work"),
        html.index(ruleset.source),
        html.index('<h2 id="lists">Army lists</h2>'),
        html.index('<h2 id="reference">Field-by-field reference</h2>'),
        html.index('<h2 id="checks">'),
    ]
    assert order == sorted(order)
    assert "force matrix" in html[order[2] : order[3]]
    for army_list in ArmyList.objects.filter(ruleset="feudal-2017"):
        link = f'<a href="/rulesets/feudal-2017/lists/{army_list.slug}/"><strong>{army_list.name}</strong>'
        assert link in html
        if army_list.period:
            assert f'<span class="meta">{army_list.period}</span>' in html


@pytest.mark.parametrize("slug", [r.slug for r in rules.all_rulesets()])
def test_rule_set_reference_has_no_json_or_python_reprs(client, slug):
    html = main(client.get(f"/rulesets/{slug}/").content.decode())
    text = re.sub(r"<code>[^<]*</code>", "", html)  # keys and check codes stay as code
    text = re.sub(r"<[^>]+>", " ", text)
    text = text.replace("&#x27;", "'").replace("&quot;", '"')
    for raw in (" true ", " false ", " null ", "True", "False", "None ·", "{'", "['", '{"', '["'):
        assert raw not in text, raw
    assert "true · false" not in html and "<code>null</code>" not in html


def test_rule_set_page_writes_yes_no_labels_numbers_and_dashes(client):
    html = main(client.get("/rulesets/feudal-2017/").content.decode())
    row = re.search(r"<tr><th scope=\"row\">Base width.*?</tr>", html, re.S).group(0)
    assert "A number from 2 to 8" in row and '<td data-label="Default">5</td>' in row
    row = re.search(r"<tr><th scope=\"row\">Dismounted.*?</tr>", html, re.S).group(0)
    assert "Yes or no" in row and '<td data-label="Default">No</td>' in row
    html = main(client.get("/rulesets/dewitt-medieval/").content.decode())
    row = re.search(r"<tr><th scope=\"row\">Weapons.*?</tr>", html, re.S).group(0)
    assert "Any of (or none)" in row and "<li>Lance (+2) (cavalry only)</li>" in row
    assert '<td data-label="Default">None</td>' in row


def test_rule_set_page_keeps_rulings_and_a_readable_checks_list(client):
    html = client.get("/rulesets/into-the-dark/").content.decode()
    assert "<dt>R1</dt>" in html
    row = re.search(r'<tr id="check-too-few-figures">(.*?)</tr>', html, re.S).group(1)
    assert "rolls no combat die" in row and "Each unit" in row and "Warning only" in row
    row = re.search(r'<tr id="check-over-points-limit">(.*?)</tr>', html, re.S).group(1)
    assert "The whole army" in row and "Makes the army illegal" in row


def test_field_values_are_written_for_players():
    nullable = Field("x", "X", "choice", choices=(Choice("a", "Alpha"),), nullable=True)
    assert presenters.values_of(nullable) == ("One of", ("Alpha", "None"))
    assert presenters.default_of(nullable) == "None"
    number = Field("w", "W", "number", default=5.0, minimum=2.0, maximum=8.0)
    assert presenters.values_of(number) == ("A number from 2 to 8", ())
    assert presenters.default_of(number) == "5"
    flag = Field("f", "F", "boolean", default=True)
    assert presenters.values_of(flag) == ("Yes or no", ()) and presenters.default_of(flag) == "Yes"
    text = Field("d", "D", "string", maximum=120)
    assert presenters.default_of(text) == "—"
    assert presenters.default_of(Field("n", "N", "string", required=True)) == "Required"
