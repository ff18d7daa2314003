"""The builder says when a list the army is pinned to has a newer revision, shows what it
would change, and checks against it only once the owner accepts (undoably)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import rules
from armybuilder.armies import documents, services
from armybuilder.armies.models import Army
from armybuilder.catalog import services as catalog_services
from armybuilder.catalog.models import ArmyList
from tests.support import army

HX = {"HX-Request": "true"}


@pytest.fixture
def viking(db):
    return ArmyList.objects.get(ruleset="into-the-dark", slug="viking")


def built_on(viking, user) -> Army:
    entry = rules.get_ruleset("into-the-dark").list_entries(viking.data, None)[0]
    units = [dict(entry.values, name=f"Unit {i}") for i in range(2)]
    return services.create_army(army("into-the-dark", units, army_list="viking"), owner=user)


def revise(viking) -> None:
    """Revision 2 drops the entry the army's units were made from."""
    catalog_services.save_list(viking, data={**viking.data, "entries": viking.data["entries"][1:]})


def test_the_panel_shows_the_diff_and_nothing_changes_until_accepted(owner_client, user, viking):
    saved = built_on(viking, user)
    assert saved.list_pins == {"viking": 1}
    builder = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert f'hx-get="/armies/{saved.pk}/lists/"' in builder
    quiet = owner_client.get(f"/armies/{saved.pk}/lists/", headers=HX).content.decode()
    assert quiet == '<div id="list-upgrade"></div>'  # nothing to say: nothing drawn
    page = owner_client.get(f"/armies/{saved.pk}/lists/").content.decode()
    assert "checked against the latest revision" in page and "Check against" not in page
    revise(viking)
    panel = owner_client.get(f"/armies/{saved.pk}/lists/", headers=HX).content.decode()
    assert "revision 1 → 2" in panel
    assert 'data-change="removed"' in panel
    assert "Check against the latest" in panel
    # unit by unit, the latest revision's verdict: the removed entry's units fit no entry
    assert "Unit 0: matches no troop entry of this army list" in panel
    assert Army.objects.get(pk=saved.pk).list_pins == {"viking": 1}
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'data-code="not-in-army-list"' not in page  # still the pinned revision


def test_accepting_checks_against_the_latest_and_undo_puts_the_pin_back(owner_client, user, viking):
    saved = built_on(viking, user)
    revise(viking)
    response = owner_client.post(f"/armies/{saved.pk}/lists/accept/")
    assert response.status_code == 302
    assert Army.objects.get(pk=saved.pk).list_pins == {"viking": 2}
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'data-code="not-in-army-list"' in page
    panel = owner_client.get(f"/armies/{saved.pk}/lists/", headers=HX).content.decode()
    assert "Undo" in panel
    owner_client.post(f"/armies/{saved.pk}/lists/undo/")
    assert Army.objects.get(pk=saved.pk).list_pins == {"viking": 1}
    page = owner_client.get(f"/armies/{saved.pk}/").content.decode()
    assert 'data-code="not-in-army-list"' not in page


def test_an_undo_without_an_accept_changes_nothing(owner_client, user, viking):
    saved = built_on(viking, user)
    revise(viking)
    owner_client.post(f"/armies/{saved.pk}/lists/undo/")
    assert Army.objects.get(pk=saved.pk).list_pins == {"viking": 1}


def test_opening_the_builder_of_a_pinned_army_costs_no_more_queries(owner_client, user, viking):
    pinned = built_on(viking, user)
    unpinned = services.create_army(
        army("into-the-dark", [dict(u) for u in pinned.document["units"]]), owner=user
    )
    assert pinned.list_pins and not unpinned.list_pins
    counts = []
    for saved in (unpinned, pinned):
        documents.forget_checks()
        with CaptureQueriesContext(connection) as queries:
            assert owner_client.get(f"/armies/{saved.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[1] <= counts[0]


def test_a_tightened_limit_reads_tightened_and_no_sentence_ends_in_a_stop_and_semicolon(
    owner_client, user, viking
):
    saved = built_on(viking, user)
    first = viking.data["entries"][0]
    fewer = {**first, "max": 1, "min": 1, "note": "Fewer now."}
    limit = {"label": "Missile troops", "match": {"training": ["missile"]}, "max_share": "1/4"}
    catalog_services.save_list(viking, data={**viking.data, "limits": [limit]})
    saved.list_pins = {"viking": 2}
    saved.save(update_fields=["list_pins"])
    tighter = {**limit, "max_share": "1/8"}
    catalog_services.save_list(
        viking,
        data={**viking.data, "limits": [tighter], "entries": [fewer, *viking.data["entries"][1:]]},
    )
    panel = owner_client.get(f"/armies/{saved.pk}/lists/", headers=HX).content.decode()
    assert "<strong>Missile troops (limit)</strong> tightened:" in panel
    assert "Share of the army: at most 1/4 → at most 1/8" in panel
    assert "added" not in panel  # nothing was added: one limit, tightened
    assert ".;" not in panel and ". ;" not in panel
    assert '<li class="field-change">Note: ' in panel  # one change a line, no joining stops
