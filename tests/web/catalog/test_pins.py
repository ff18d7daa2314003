"""Armies are checked against the list revision they were built on until the owner
accepts a newer one, after seeing what it changes; accepting is undoable."""

import copy

import pytest

import rules
from armybuilder.armies import services as armies
from armybuilder.armies.models import Army
from armybuilder.catalog import selectors, services
from armybuilder.catalog.models import ArmyList
from tests.support import DEWITT_ARCHER, DEWITT_KNIGHT, DEWITT_LIST, army

pytestmark = pytest.mark.django_db


def list_entry_units(ruleset, slug, extra=()):
    """Units for the list's required minimum of each entry, then ``extra`` entries' units."""
    found = rules.get_ruleset(ruleset)
    data = ArmyList.objects.get(ruleset=ruleset, slug=slug).data
    entries = {e.key: e for e in found.list_entries(data, None)}
    units = [dict(e.values) for e in entries.values() for _ in range(e.minimum)]
    return units + [dict(entries[key].values) for key in extra]


def lower_max(data, ruleset):
    """The list data with one entry's max lowered, the way each rule set spells it."""
    changed = copy.deepcopy(data)
    if ruleset == "into-the-dark":
        next(e for e in changed["entries"] if e["key"] == "huscarls")["max"] = 1
    elif ruleset in ("dark-ages-2015", "dark-ages-d5"):
        options = changed["choices"][0]["options"]
        options[0]["max"] = 1  # warband (2015) or raiders (d5): 2 -> 1
    elif ruleset == "dewitt-medieval":
        next(e for e in changed["entries"] if e["key"] == "knights")["max"] = 1
    else:  # feudal-2017: freemen may be brigans, any number -> one
        changed["replacements"][0]["max"] = 1
    return changed


# Dewitt has no compiled lists (its source prints none): the army is built on a player's own
KNIGHT, ARCHER = DEWITT_KNIGHT, DEWITT_ARCHER


def dewitt_list(user):
    draft = ArmyList(ruleset="dewitt-medieval", slug="free-company", author=user)
    return services.save_list(draft, by=user, name="Free company", data=DEWITT_LIST).army_list


def legal_army(user, ruleset):
    if ruleset == "into-the-dark":
        slug = "anglo-danish-1066"
        units = list_entry_units(ruleset, slug, extra=["huscarls", "huscarls"])
    elif ruleset == "dark-ages-2015":
        slug = "viking"
        units = list_entry_units(ruleset, slug, extra=["warband", "warband"])
    elif ruleset == "dark-ages-d5":
        slug = "viking"
        units = list_entry_units(ruleset, slug, extra=["raiders", "raiders"])
    elif ruleset == "dewitt-medieval":
        slug = dewitt_list(user).slug
        units = [KNIGHT, KNIGHT, ARCHER]
    else:
        slug = "north-welsh"
        data = ArmyList.objects.get(ruleset=ruleset, slug=slug).data
        document = rules.get_ruleset(ruleset).roll_force(slug, data, 3)
        units = document["units"]
        units[0] = {"name": "Brigans", "type": "brigans"}
        units[1] = {"name": "Brigans", "type": "brigans"}
    return armies.create_army(army(ruleset, units, army_list=slug), owner=user), slug


def check(saved):
    saved.refresh_from_db()
    return services.check_document(saved.document, lookup=selectors.army_lookup(saved))[1]


RULESETS = ["into-the-dark", "dark-ages-2015", "dark-ages-d5", "feudal-2017", "dewitt-medieval"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_lowering_an_entry_max_shows_the_army_becoming_illegal_before_it_is_accepted(user, ruleset):
    saved, slug = legal_army(user, ruleset)
    army_list = ArmyList.objects.get(ruleset=ruleset, slug=slug)
    assert saved.list_pins == {slug: army_list.latest_revision}
    assert check(saved).valid
    assert services.upgrade_diff(saved) is None  # nothing newer yet

    pinned = army_list.latest_revision
    services.save_list(army_list, data=lower_max(army_list.data, ruleset))

    # still checked against the revision it was built on
    assert check(saved).valid
    diff = services.upgrade_diff(saved)
    assert diff is not None
    assert diff.valid == (True, False) and diff.becomes_illegal
    (upgrade,) = diff.lists
    assert (upgrade.slug, upgrade.pinned, upgrade.latest) == (slug, pinned, pinned + 1)
    (change,) = upgrade.changes
    assert change.change == "changed"
    assert list(change.fields) == ["max"]
    assert diff.total_points[0] == diff.total_points[1]
    errors_after = list(diff.army_issues[1]) + [m for u in diff.units for m in u.issues[1]]
    assert errors_after and not diff.army_issues[0] and not any(u.issues[0] for u in diff.units)
    assert diff.to_json()["valid"] == {"before": True, "after": False}

    previous = armies.accept_upgrade(saved)
    assert previous == {slug: pinned}
    assert not check(saved).valid  # accepting re-checks against the latest
    assert services.upgrade_diff(saved) is None

    armies.restore_pins(saved, previous)
    assert check(saved).valid
    assert Army.objects.get(pk=saved.pk).list_pins == {slug: pinned}


def test_the_diff_gives_each_unit_before_and_after_and_the_entry_gone_over_its_max(user):
    saved, slug = legal_army(user, "into-the-dark")
    army_list = ArmyList.objects.get(ruleset="into-the-dark", slug=slug)
    services.save_list(army_list, data=lower_max(army_list.data, "into-the-dark"))
    diff = services.upgrade_diff(saved)
    assert [u.name for u in diff.units] == [u["name"] for u in saved.document["units"]]
    assert all(u.points[0] == u.points[1] is not None for u in diff.units)
    (huscarls,) = [e for e in diff.entries if e.key == "huscarls"]
    assert huscarls.maximum == (3, 1)
    assert huscarls.have == (3, 1)  # two of the three huscarls no longer count
    assert all(e.have[0] == e.have[1] for e in diff.entries if e.key != "huscarls")
    assert any("uscarl" in message for message in diff.army_issues[1])


def test_an_allied_contingent_pins_the_allied_list_too(user):
    units = list_entry_units("dark-ages-d5", "viking")
    document = army("dark-ages-d5", units, army_list="viking")
    saved = armies.create_army(document, owner=user)
    assert set(saved.list_pins) == {"viking"}
    from armybuilder.catalog.pins import pins_for

    with_ally = copy.deepcopy(saved.document)
    with_ally["units"][0]["ally"] = "anglo-saxon"
    pins = pins_for(with_ally, saved.list_pins)
    assert set(pins) == {"viking", "anglo-saxon"}


def test_an_army_reads_its_pinned_revision_data_while_others_read_the_latest(user):
    saved, slug = legal_army(user, "into-the-dark")
    army_list = ArmyList.objects.get(ruleset="into-the-dark", slug=slug)
    old = copy.deepcopy(army_list.data)
    services.save_list(army_list, data=lower_max(army_list.data, "into-the-dark"))
    assert selectors.army_lookup(saved)("into-the-dark")[slug] == old
    assert selectors.list_lookup("into-the-dark")[slug] != old


def test_the_pinned_lookup_is_one_query_and_answers_the_same_mapping_when_nothing_changed(
    user, django_assert_num_queries
):
    saved, _ = legal_army(user, "into-the-dark")
    lookup = selectors.army_lookup(saved)
    with django_assert_num_queries(1):
        first = lookup("into-the-dark")
    with django_assert_num_queries(1):
        assert lookup("into-the-dark") is first  # the engine's re-check sees "same lists"


def test_restoring_one_revision_pins_that_list_to_it(user):
    saved, slug = legal_army(user, "into-the-dark")
    army_list = ArmyList.objects.get(ruleset="into-the-dark", slug=slug)
    first = army_list.revisions.get(number=army_list.latest_revision)
    services.save_list(army_list, data=lower_max(army_list.data, "into-the-dark"))
    armies.accept_upgrade(saved)
    armies.restore_pins(saved, first)
    assert Army.objects.get(pk=saved.pk).list_pins == {slug: first.number}


def test_saving_an_army_pins_a_list_it_now_reads_and_drops_one_it_no_longer_reads(user):
    from armybuilder.armies.changes.saving import save
    from armybuilder.armies.history.revisions import RevisionNote

    saved, slug = legal_army(user, "into-the-dark")
    assert saved.list_pins == {slug: 1}
    save(saved, {**saved.document, "army_list": "norman-1066"}, RevisionNote("Army list"))
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    assert Army.objects.get(pk=saved.pk).list_pins == {"norman-1066": norman.latest_revision}


def test_the_pins_of_an_army_that_reads_no_new_list_cost_no_query(user, django_assert_num_queries):
    saved, slug = legal_army(user, "into-the-dark")
    renamed = {**saved.document, "name": "Renamed"}
    with django_assert_num_queries(0):
        assert services.pins_for(renamed, saved.list_pins) == {slug: 1}


def _army_on(ruleset, slug):
    return army(ruleset, list_entry_units(ruleset, slug), army_list=slug)


def test_a_duplicated_army_keeps_its_pins_and_a_copy_is_pinned_like_a_new_army(user):
    saved, slug = legal_army(user, "into-the-dark")
    army_list = ArmyList.objects.get(ruleset="into-the-dark", slug=slug)
    services.save_list(army_list, data=lower_max(army_list.data, "into-the-dark"))
    # a copy is made now: it is built on the latest revision, as a new army is
    assert armies.duplicate_army(saved, owner=user).list_pins == {slug: 2}
    assert armies.fork(saved, user).list_pins == {slug: 2}


def test_a_visitors_draft_is_pinned_and_keeps_its_pins_once_claimed_at_sign_up(user):
    draft = armies.create_army(_army_on("into-the-dark", "viking"), session_key="v" * 32)
    assert draft.list_pins == {"viking": 1}
    assert armies.claim_drafts(user, ["v" * 32]) == 1
    claimed = Army.objects.get(pk=draft.pk)
    assert claimed.owner == user and claimed.list_pins == {"viking": 1}


def _admin_form(army_row, document, owner):
    import json

    return {
        "owner": owner.pk,
        "document": json.dumps(document),
        "share_token": (army_row.share_token if army_row else "") or "",
        "list_pins": json.dumps(army_row.list_pins if army_row else {}),
        "deleted_at_0": "",
        "deleted_at_1": "",
    }


def test_an_army_added_or_changed_in_the_admin_is_pinned_to_the_lists_it_reads(
    admin_client, admin_user
):
    added = admin_client.post(
        "/admin/armies/army/add/",
        _admin_form(None, _army_on("into-the-dark", "viking"), admin_user),
    )
    assert added.status_code == 302
    made = Army.objects.get(owner=admin_user)
    assert made.list_pins == {"viking": 1}
    switched = {**made.document, "army_list": "norman-1066"}
    changed = admin_client.post(
        f"/admin/armies/army/{made.pk}/change/", _admin_form(made, switched, admin_user)
    )
    assert changed.status_code == 302
    norman = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    assert Army.objects.get(pk=made.pk).list_pins == {"norman-1066": norman.latest_revision}


def test_an_army_built_on_a_shared_list_keeps_reading_it_after_the_link_is_revoked(user):
    from django.contrib.auth.models import User
    from django.test import Client

    from armybuilder.catalog.models import LINK

    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    author = User.objects.create(username="writer")
    theirs = services.copy_list(author, army_list=shipped).army_list
    services.set_status(author, army_list=theirs, status=LINK)
    units = list_entry_units("into-the-dark", "anglo-danish-1066")
    document = army("into-the-dark", units, army_list=theirs.slug)
    reader = Client()
    reader.force_login(user)
    reader.get(f"/lists/shared/{theirs.share_token}/")  # the link opened: the list is theirs to use
    built = armies.create_army(document, owner=user)
    assert built.list_pins == {theirs.slug: 1}
    services.revoke_link(author, army_list=theirs)
    services.set_status(author, army_list=theirs, status="private")
    assert theirs.slug not in selectors.lookup_for(user)("into-the-dark")
    report = services.check_document(built.document, lookup=selectors.army_lookup(built))[1]
    assert report.valid


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_builder_panel_words_the_change_warns_before_accepting_and_undo_restores_the_pin(
    user, client, ruleset
):
    client.force_login(user)
    saved, slug = legal_army(user, ruleset)
    army_list = ArmyList.objects.get(ruleset=ruleset, slug=slug)
    pinned = army_list.latest_revision
    services.save_list(army_list, data=lower_max(army_list.data, ruleset))
    page = client.get(f"/armies/{saved.pk}/lists/").content.decode()
    assert f"{army_list.name}: revision {pinned} → {pinned + 1}" in page
    assert "Accepting makes this army illegal" in page
    assert "→ at most 1" in page  # the lowered max, in words
    assert slug not in page and '"max"' not in page and "->" not in page
    assert check(saved).valid  # nothing changes until the owner accepts

    client.post(f"/armies/{saved.pk}/lists/accept/")
    assert Army.objects.get(pk=saved.pk).list_pins == {slug: pinned + 1}
    assert not check(saved).valid
    assert "Undo: go back" in client.get(f"/armies/{saved.pk}/lists/").content.decode()

    client.post(f"/armies/{saved.pk}/lists/undo/")
    assert Army.objects.get(pk=saved.pk).list_pins == {slug: pinned}
    assert check(saved).valid


def test_a_list_its_owner_may_no_longer_read_keeps_the_pin_and_offers_no_newer_revision(user):
    from django.contrib.auth.models import User
    from django.test import Client

    author = User.objects.create(username="writer")
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    theirs = services.set_status(
        author, army_list=services.copy_list(author, army_list=shipped).army_list, status="link"
    )
    reader = Client()
    reader.force_login(user)
    reader.get(f"/lists/shared/{theirs.share_token}/")
    units = list_entry_units("into-the-dark", "anglo-danish-1066")
    saved = armies.create_army(army("into-the-dark", units, army_list=theirs.slug), owner=user)
    services.save_list(theirs, data=lower_max(theirs.data, "into-the-dark"))
    assert services.upgrade_diff(saved) is not None  # shared: the newer revision is offered
    services.revoke_link(author, army_list=theirs)
    assert services.upgrade_diff(saved) is None  # the link is gone: nothing newer to read
    assert Army.objects.get(pk=saved.pk).list_pins == {theirs.slug: 1}
    assert check(saved).valid  # still checked against its pinned revision


def test_a_former_link_holders_builder_names_a_list_renamed_after_revocation_as_they_had_it(
    user,
):
    from django.contrib.auth.models import User
    from django.test import Client

    author = User.objects.create(username="writer")
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    theirs = services.set_status(
        author, army_list=services.copy_list(author, army_list=shipped).army_list, status="link"
    )
    services.save_list(theirs, name="Huscarls of the fen")
    reader = Client()
    reader.force_login(user)
    reader.get(f"/lists/shared/{theirs.share_token}/")
    units = list_entry_units("into-the-dark", "anglo-danish-1066")
    saved = armies.create_army(army("into-the-dark", units, army_list=theirs.slug), owner=user)
    pinned = Army.objects.get(pk=saved.pk).list_pins[theirs.slug]
    services.revoke_link(author, army_list=theirs)
    services.save_list(theirs, name="Secret plans for the club final")

    menu = {found.slug: found.name for found in selectors.army_lists_for(saved)}
    assert menu[theirs.slug] == "Huscarls of the fen"
    page = reader.get(f"/armies/{saved.pk}/").content.decode()
    assert "Huscarls of the fen" in page
    assert "Secret plans" not in page
    # the author still sees their own list under its new name
    own = armies.create_army(army("into-the-dark", units, army_list=theirs.slug), owner=author)
    assert {found.slug: found.name for found in selectors.army_lists_for(own)}[theirs.slug] == (
        "Secret plans for the club final"
    )
    assert Army.objects.get(pk=saved.pk).list_pins == {theirs.slug: pinned}
