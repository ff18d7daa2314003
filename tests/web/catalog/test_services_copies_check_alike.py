"""A list and its copies are one list for the rules: for every shipped list, random armies
checked against it and against a player's copy made by each route (the copy page, export
then import through the API, the API's copy) give the same reports; allies from the army's
own family are refused on a copy as on the list itself, and the picker offers them from
other families only."""

import json
import random

import pytest
from django.contrib.auth.models import User

import rules
from armybuilder.catalog import services
from armybuilder.catalog.models import ArmyList
from armybuilder.catalog.selectors import lookup_for
from tests.support import army

pytestmark = pytest.mark.django_db

SHIPPED = sorted(
    (row["ruleset"], row["slug"])
    for path in sorted((services.FIXTURES_DIR).glob("*.json"))
    for row in (r["fields"] for r in json.loads(path.read_text(encoding="utf-8")))
)
ARMIES_PER_LIST = 20


@pytest.fixture
def player(db):
    return User.objects.create(username="copier")


def copies_by_every_route(client, player, ruleset, slug):
    """{route: the player's copy}: the copy page, export + import, the API's copy."""
    client.force_login(player)
    made = {}
    before = set(ArmyList.objects.filter(author=player).values_list("pk", flat=True))

    def newest():
        found = ArmyList.objects.filter(author=player).exclude(pk__in=before).get()
        before.add(found.pk)
        return found

    response = client.post(f"/rulesets/{ruleset}/lists/{slug}/copy/")
    assert response.status_code in (302, 303), response.content[:300]
    made["copy page"] = newest()
    exported = client.get(f"/api/v1/lists/{ruleset}/{slug}").json()
    response = client.post("/api/v1/lists/", json.dumps(exported), content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    made["export + import"] = newest()
    response = client.post(f"/api/v1/lists/{ruleset}/{slug}/copy")
    assert response.status_code == 201, response.content[:300]
    made["API copy"] = newest()
    return made


def random_units(rng, ruleset, slug, data, others):
    """Units from the list's entries (some changed to another value of one field), and
    for a rule set with allies sometimes a few from another list's entries."""
    rs = rules.get_ruleset(ruleset)
    entries = rs.list_entries(data, None)
    if rng.random() < 0.5:  # by the list: each entry between its minimum and maximum
        picks = [
            e
            for e in entries
            for _ in range(rng.randint(e.minimum or 0, min(e.maximum or 2, (e.minimum or 0) + 2)))
        ]
    else:
        picks = [rng.choice(entries) for _ in range(rng.randint(1, 8))]
    units = []
    for entry in picks:
        unit = dict(entry.values)
        if rng.random() < 0.15:
            field = rng.choice([f for f in rs.unit_fields if f.choices])
            unit[field.name] = rng.choice(field.values)
        units.append(unit)
    if any(f.name == "ally" for f in rs.unit_fields) and others and rng.random() < 0.5:
        ally_slug, ally_data = rng.choice(others)
        ally_entries = rs.list_entries(ally_data, None)
        for _ in range(rng.randint(1, 3)):
            units.append({**rng.choice(ally_entries).values, "ally": ally_slug})
    return units


def outcome(doc, lookup, name, shipped_name):
    """The report as JSON, or the refusal (path, message), with the copy's name read as
    the shipped list's (the copy is named as the player's own)."""
    try:
        _, report = rules.check_document(doc, lookup)
    except rules.MalformedDocument as exc:
        said = ("refused", exc.path, exc.message)
    else:
        said = ("checked", json.dumps(report.to_json(), sort_keys=True))
    text = json.dumps(said)
    if name:
        text = text.replace(json.dumps(name)[1:-1], json.dumps(shipped_name)[1:-1])
    return json.loads(text)


@pytest.mark.parametrize(("ruleset", "slug"), SHIPPED)
def test_random_armies_check_alike_on_a_list_and_on_each_copy(client, player, ruleset, slug):
    shipped = ArmyList.objects.get(ruleset=ruleset, slug=slug)
    copies = copies_by_every_route(client, player, ruleset, slug)
    lookup = lookup_for(player)
    lists = lookup(ruleset)
    others = [(s, lists[s]) for s in sorted(lists) if ArmyList.objects.get(
        ruleset=ruleset, slug=s).family_slug != slug]  # fmt: skip
    rng = random.Random(f"{ruleset}/{slug}")
    for _ in range(ARMIES_PER_LIST):
        units = random_units(rng, ruleset, slug, shipped.data, others)
        expected = outcome(army(ruleset, units, army_list=slug), lookup, "", shipped.name)
        for route, copied in copies.items():
            assert copied.family_slug == slug, route
            doc = army(ruleset, units, army_list=copied.slug)
            got = outcome(doc, lookup, copied.name, shipped.name)
            assert got == expected, (route, units)


D5_LISTS = [slug for ruleset, slug in SHIPPED if ruleset == "dark-ages-d5"]


def required_units(data, ally):
    """Two units of the list's first required entry, allied from ``ally``."""
    first = rules.get_ruleset("dark-ages-d5").list_entries(data, None)[0]
    return [{**first.values, "name": f"Allied {n}", "ally": ally} for n in (1, 2)]


@pytest.mark.parametrize("slug", D5_LISTS)
def test_allies_from_the_armys_own_family_are_refused_on_a_copy_as_on_the_list(
    client, player, slug
):
    shipped = ArmyList.objects.get(ruleset="dark-ages-d5", slug=slug)
    copies = list(copies_by_every_route(client, player, "dark-ages-d5", slug).values())
    lookup = lookup_for(player)
    host = rules.get_ruleset("dark-ages-d5").list_entries(shipped.data, None)[0].values
    # (the army's list, its allies' list): the list itself, a copy allied with the list it
    # copies, the list allied with a copy, two copies of one list
    cases = [(slug, slug)]
    cases += [(c.slug, slug) for c in copies] + [(slug, c.slug) for c in copies]
    cases += [(copies[0].slug, copies[1].slug), (copies[2].slug, copies[0].slug)]
    names = {c.slug: c.name for c in copies} | {slug: shipped.name}
    for own, ally in cases:
        units = [dict(host), *required_units(shipped.data, ally)]
        with pytest.raises(rules.MalformedDocument) as refused:
            rules.check_document(army("dark-ages-d5", units, army_list=own), lookup)
        assert refused.value.path == "units[1].ally"
        assert refused.value.message.startswith(
            f"units[1].ally: {names[ally]} is the army's own list"
        ), refused.value.message


@pytest.mark.parametrize("slug", D5_LISTS)
def test_the_picker_of_an_army_on_a_copy_offers_allies_from_other_lists_only(client, player, slug):
    copied = copies_by_every_route(client, player, "dark-ages-d5", slug)["copy page"]
    lookup = lookup_for(player)
    host = rules.get_ruleset("dark-ages-d5").list_entries(copied.data, None)[0].values
    parsed, _ = rules.check_document(
        army("dark-ages-d5", [dict(host)], army_list=copied.slug), lookup
    )
    offered = {
        e.values["ally"]
        for e in rules.get_ruleset("dark-ages-d5").list_entries(copied.data, parsed)
        if e.values.get("ally")
    }
    family = set(
        ArmyList.objects.filter(ruleset="dark-ages-d5")
        .filter(slug=slug)
        .values_list("slug", flat=True)
    ) | set(ArmyList.objects.filter(family=slug).values_list("slug", flat=True))
    assert offered, "the picker offers allies from the other lists"
    assert not offered & family
    shipped_elsewhere = {s for r, s in SHIPPED if r == "dark-ages-d5" and s != slug}
    assert shipped_elsewhere <= offered
