"""Adding a rule set is one folder: put on the rules path it is discovered, and from anywhere
else one registration adds it. The toy rule set of tests/toy_ruleset/ (nothing in rules/ or
armybuilder/ names it) appears on the rule-set pages and the API, checks through the API and
the CLI, builds in the builder (whole form and one field at a time) and prints."""

import io
import json
import re

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.management import call_command
from pypdf import PdfReader

import rules
from armybuilder.armies.models import Army
from rules import memo, registry
from tests.support import army, builder_with_editors, item_id, item_url

pytestmark = pytest.mark.django_db

SLUG = "toy-skirmish"
HX = {"HX-Request": "true"}
SPEARS = {"name": "Shield Wall", "kind": "spearmen", "figures": 8}
BOWS = {"name": "Bowmen", "kind": "archers", "figures": 4}


def _forget_caches():
    """What the toy left behind: the registry (reset by unregister), the per-unit memo
    and the page and PDF caches."""
    memo.clear()
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()


@pytest.fixture
def toy():
    registered = registry.register_package("tests.toy_ruleset")
    yield registered[0]
    registry.unregister(SLUG)
    _forget_caches()


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in reader.pages))


def test_the_toy_exists_only_while_registered():
    assert SLUG not in registry.slugs()
    registry.register_package("tests.toy_ruleset")
    try:
        assert rules.get_ruleset(SLUG).title == "Toy Skirmish"
        assert SLUG in [r.slug for r in rules.all_rulesets()]
    finally:
        registry.unregister(SLUG)
        _forget_caches()
    assert SLUG not in registry.slugs()
    with pytest.raises(KeyError):
        rules.get_ruleset(SLUG)


def test_a_package_dropped_into_the_rules_path_is_found_without_registering(tmp_path, monkeypatch):
    """The registry discovers rule sets by folder: a package put beside the shipped ones
    (here in a temporary directory on the ``rules.rulesets`` path) is found by its
    ``RULESET``, with no name written anywhere."""
    import importlib
    import sys

    import rules.rulesets
    from tests.support import ROOT

    folder = tmp_path / "toy_dropped_in"
    folder.mkdir()
    source = ROOT / "tests" / "toy_ruleset" / "__init__.py"
    (folder / "__init__.py").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    assert SLUG not in registry.slugs()
    monkeypatch.setattr(rules.rulesets, "__path__", [*rules.rulesets.__path__, str(tmp_path)])
    importlib.invalidate_caches()
    registry._registry.cache_clear()  # the registry reads the folders once; read them again
    try:
        found = rules.get_ruleset(SLUG)
        assert type(found).__module__ == "rules.rulesets.toy_dropped_in"
        assert found.title == "Toy Skirmish"
        assert {"into-the-dark", "feudal-2017", SLUG} <= set(registry.slugs())
    finally:
        monkeypatch.undo()
        sys.modules.pop("rules.rulesets.toy_dropped_in", None)
        registry._registry.cache_clear()
        _forget_caches()
    assert SLUG not in registry.slugs()


def test_a_second_rule_set_cannot_take_a_registered_slug(toy):
    from tests.toy_ruleset import ToySkirmish

    with pytest.raises(ValueError, match="already registered"):
        registry.register(ToySkirmish())
    with pytest.raises(ValueError, match="already registered"):
        registry.register(type("Impostor", (ToySkirmish,), {"slug": "into-the-dark"})())


def test_the_rule_set_pages_show_the_toy(client, toy):
    home = client.get("/").content.decode()
    assert "Toy Skirmish" in home
    page = client.get(f"/rulesets/{SLUG}/")
    assert page.status_code == 200
    text = page.content.decode()
    for words in ("Toy Skirmish", "Veterans", "Figures", "too-many-archers", "T1"):
        assert words in text, words


def test_the_api_describes_the_toy(client, toy):
    listed = client.get("/api/v1/rulesets").json()["rulesets"]
    assert SLUG in [r["slug"] for r in listed]
    vocabulary = client.get(f"/api/v1/rulesets/{SLUG}").json()
    assert [f["name"] for f in vocabulary["unit_fields"]] == ["name", "kind", "figures", "veteran"]
    assert vocabulary["army_lists"] == []


def test_the_api_checks_a_toy_army(client, toy):
    doc = army(SLUG, [SPEARS, BOWS, dict(BOWS, name="More Bowmen", veteran=True)], points_limit=40)
    response = client.post("/api/v1/check", json.dumps(doc), content_type="application/json")
    assert response.status_code == 200
    report = response.json()
    assert [u["points"] for u in report["units"]] == [16, 12, 16]
    assert report["total_points"] == 44
    assert sorted(i["code"] for i in report["issues"]) == [
        "over-points-limit",
        "too-many-archers",
        "veteran-disabled",
    ]
    assert report["valid"] is False


def test_the_cli_checks_a_toy_army(toy, tmp_path, capsys):
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(army(SLUG, [SPEARS, BOWS], points_limit=100)))
    with pytest.raises(SystemExit) as exited:
        call_command("muster", "check", str(path))
        raise SystemExit(0)
    assert exited.value.code == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["valid"], report["total_points"]) == (True, 28)


def test_a_player_builds_a_toy_army_in_the_builder(owner_client, user, toy):
    created = owner_client.post(
        "/armies/new/", {"ruleset": SLUG, "name": "Toy band", "points_limit": "100"}
    )
    saved = Army.objects.get(owner=user)
    assert created["Location"] == f"/armies/{saved.pk}/"
    assert saved.document["ruleset"] == SLUG

    added = owner_client.post(
        f"/armies/{saved.pk}/units/add/", {"version": saved.version, "preset": "blank"}, headers=HX
    )
    assert added.status_code == 200
    saved.refresh_from_db()
    edited = owner_client.post(
        item_url(saved, 0),
        {"version": saved.version, "f.name": "Archers of the Hill", "f.kind": "archers",
         "f.figures": "5"},
        headers=HX,
    )  # fmt: skip
    assert edited.status_code == 200
    saved.refresh_from_db()
    unit = saved.document["units"][0]
    assert (unit["name"], unit["kind"], unit["figures"]) == ("Archers of the Hill", "archers", 5)

    page = builder_with_editors(owner_client, saved)
    assert (
        f'id="u-{item_id(saved, 0)}-kind"' in page and f'id="u-{item_id(saved, 0)}-veteran"' in page
    )
    assert "5 figures x 3 = 15" in page
    assert 'data-code="too-many-archers"' in page
    assert "1 archer units but 0 spearmen: never more archers than spearmen." in page

    # one field at a time, as the builder's page sends a change (made from the value shown)
    def one_field(value: int, made_from: int) -> dict:
        operation = {"key": f"toy-{value}", "op": "set", "target": item_id(saved, 0),
                     "field": "figures", "value": value, "from": made_from}  # fmt: skip
        response = owner_client.post(
            f"/armies/{saved.pk}/operations/", json.dumps({"operations": [operation]}),
            content_type="application/json", headers=HX,
        )  # fmt: skip
        assert response.status_code == 200
        return response.json()

    landed = one_field(7, 5)
    assert landed["results"][0]["value"] == 7
    assert "7 figures x 3 = 21" in landed["html"]
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 7
    refused = one_field(25, 7)
    assert refused["results"][0]["status"] == "refused"
    assert "Figures: 25 is above the maximum 24" in refused["results"][0]["html"]
    saved.refresh_from_db()
    assert saved.document["units"][0]["figures"] == 7


def test_a_toy_army_prints_its_roster(owner_client, user, toy):
    from armybuilder.armies import services

    saved = services.create_army(army(SLUG, [SPEARS, BOWS], points_limit=100), owner=user)
    response = owner_client.get(f"/armies/{saved.pk}/roster.pdf")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "TOY SKIRMISH" in text.upper()
    for words in ("Shield Wall", "Bowmen", "16 pts", "12 pts", "28 points of 100", "x 3 = 12"):
        assert words in text, words
