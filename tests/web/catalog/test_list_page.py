"""The army-list page: readable for players, every list of every rule set, phone-friendly."""

import html
import re

import pytest

import rules
from armybuilder.catalog.list_page import count_words
from armybuilder.catalog.models import ArmyList

pytestmark = pytest.mark.django_db

LEAKS = ("{'", "None", "True", "False", "null", "[]", "{}")


def all_lists() -> list[tuple[str, str]]:
    return list(ArmyList.objects.order_by("ruleset", "slug").values_list("ruleset", "slug"))


def page_text(client, ruleset: str, slug: str) -> str:
    response = client.get(f"/rulesets/{ruleset}/lists/{slug}/")
    assert response.status_code == 200
    return response.content.decode()


def visible(page: str) -> str:
    """The words a reader sees: tags and the <head> left out, entities decoded."""
    body = page.split("<body", 1)[1]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def test_every_list_of_every_rule_set_is_loaded_for_these_tests():
    found = {ruleset for ruleset, _ in all_lists()}
    assert found == {"into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017"}


def test_every_list_page_renders_with_no_raw_data(client):
    for ruleset, slug in all_lists():
        page = page_text(client, ruleset, slug)
        text = visible(page)
        for leak in LEAKS:
            assert leak not in text, (ruleset, slug, leak)
        assert "<pre" not in page, (ruleset, slug)
        assert "any unit of the rule set" not in text, (ruleset, slug)  # each entry says what


def test_every_list_page_shows_each_entry_with_its_count_and_cost(client):
    for ruleset_slug, slug in all_lists():
        ruleset = rules.get_ruleset(ruleset_slug)
        data = ArmyList.objects.get(ruleset=ruleset_slug, slug=slug).data
        text = " ".join(visible(page_text(client, ruleset_slug, slug)).split())
        entries = ruleset.list_entries(data, None)
        assert entries, slug
        for entry in entries:
            assert entry.label in text, (slug, entry.label)
            assert count_words(entry.minimum, entry.maximum) in text, (slug, entry.key)
        for rule in ruleset.describe_list(data).rules:
            assert " ".join(rule.split()) in text, (slug, rule)


def test_into_the_dark_rows_give_each_entrys_points_as_the_engine_costs_it(client):
    page = page_text(client, "into-the-dark", "anglo-danish-1066")
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</th>(.*?)</tr>", page, re.S)
    points = {html.unescape(label): re.search(r'class="points">(\d+)<', row) for label, row in rows}
    data = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066").data
    entries = rules.get_ruleset("into-the-dark").list_entries(data, None)
    assert len(rows) == len(entries)
    for entry in entries:
        found = points[entry.label]
        assert found is not None and int(found.group(1)) == entry.cost
    assert "Missile troops: at most 1/4 of the army&#x27;s points." in page


def test_an_entry_says_what_it_must_be_in_words(client):
    text = " ".join(visible(page_text(client, "into-the-dark", "anglo-danish-1066")).split())
    assert "Huscarls" in text
    assert "Armour: Armoured or Mailed" in text
    assert "Never: mounted" in text
    assert "1 to 3" in text  # Huscarls, min 1 max 3


def test_a_list_without_points_has_no_points_column(client):
    page = page_text(client, "dark-ages-2015", "sub-roman-british")
    assert '<th scope="col">Points</th>' not in page
    text = " ".join(visible(page).split())
    assert "Romano-British shieldwall infantry" in text and "exactly 3" in text
    assert "Choose 2 support units from:" in text


def test_feudal_list_page_shows_the_columns_and_the_matrix_rows(client):
    text = " ".join(visible(page_text(client, "feudal-2017", "north-welsh")).split())
    assert "Roll 4: 4 freemen, 1 knights, 1 bowmen." in text
    assert "One freemen may be serjeants." in text
    assert "Dismounted knights" in text and "1 to 4" in text


def test_d5_list_page_links_the_lists_allies_may_come_from(client):
    page = page_text(client, "dark-ages-d5", "north-welsh")
    assert 'id="allies"' in page
    assert 'href="/rulesets/dark-ages-d5/lists/anglo-saxon/"' in page
    assert 'href="/rulesets/dark-ages-d5/lists/north-welsh/"' not in page.split('id="allies"')[1]
    assert 'id="allies"' not in page_text(client, "dark-ages-2015", "north-welsh")


def test_start_button_posts_to_the_new_army_flow_with_the_list(client):
    page = page_text(client, "into-the-dark", "norman-1066")
    form = re.search(r'<form method="post" action="/armies/new/"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None
    assert 'name="csrfmiddlewaretoken"' in form.group(1)
    assert '<input type="hidden" name="ruleset" value="into-the-dark">' in form.group(1)
    assert '<input type="hidden" name="army_list" value="norman-1066">' in form.group(1)
    assert "Start an army with this list" in form.group(1)


def test_list_page_queries_do_not_grow_with_the_lists_of_the_rule_set(
    client, django_assert_max_num_queries
):
    with django_assert_max_num_queries(3):
        page_text(client, "dark-ages-d5", "north-welsh")
    with django_assert_max_num_queries(2):
        page_text(client, "into-the-dark", "swiss")


def test_hostile_list_text_is_escaped(client):
    ArmyList.objects.create(
        ruleset="into-the-dark",
        slug="hostile",
        name="<script>alert(1)</script>",
        period="<b>now</b>",
        source_note="<img src=x onerror=alert(2)>",
        data={
            "entries": [
                {"key": "x", "name": "<i>Foot</i>", "match": {"mounted": [False]},
                 "note": "<script>alert(3)</script>"}
            ],
            "notes": "<script>alert(4)</script>",
        },
    )  # fmt: skip
    page = page_text(client, "into-the-dark", "hostile")
    assert "<script>alert" not in page and "<img src=x" not in page and "<i>Foot" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;i&gt;Foot&lt;/i&gt;" in page


def test_unknown_list_or_rule_set_is_404(client):
    assert client.get("/rulesets/feudal-2017/lists/atlantis/").status_code == 404
    assert client.get("/rulesets/chess/lists/feudal/").status_code == 404


@pytest.mark.parametrize(
    ("minimum", "maximum", "words"),
    [(3, 3, "exactly 3"), (0, 2, "up to 2"), (1, 4, "1 to 4"), (0, None, "any number"),
     (2, None, "at least 2"), (0, 0, "none")],
)  # fmt: skip
def test_counts_read_as_words(minimum, maximum, words):
    assert count_words(minimum, maximum) == words
