"""Who may do what with an army list: the access matrix, links, escaping, rate limits."""

import copy

import pytest
from django.contrib.auth.models import AnonymousUser, Permission, User

from armybuilder.accounts.models import SupportAccess
from armybuilder.catalog import list_lifecycle, selectors, services
from armybuilder.catalog.models import DELETED, LINK, PRIVATE, PUBLISHED, SUBMITTED, ArmyList
from rules import MalformedDocument
from rules.list_document import parse_list_document

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "other", "author", "staff", "support")
EVERYTHING = {"view", "edit", "export", "copy", "delete", "publish"}
# status -> actor -> what they may do. Staff are not authors: a private or link-shared list
# is not theirs to see; they look after the catalogue and the lists submitted to it. Only
# the support permission opens a private list, and each use of it is logged.
MATRIX = {
    PRIVATE: {
        "anonymous": set(),
        "other": set(),
        "author": EVERYTHING - {"publish"},
        "staff": set(),
        "support": EVERYTHING,
    },
    LINK: {
        "anonymous": set(),
        "other": set(),
        "author": EVERYTHING - {"publish"},
        "staff": set(),
        "support": EVERYTHING,
    },
    SUBMITTED: {
        "anonymous": set(),
        "other": set(),
        "author": EVERYTHING - {"publish"},
        "staff": EVERYTHING,
        "support": EVERYTHING,
    },
    PUBLISHED: {
        "anonymous": {"view", "export"},
        "other": {"view", "export", "copy"},
        "author": EVERYTHING - {"publish"},
        "staff": EVERYTHING,
        "support": EVERYTHING,
    },
}


def player_list(author, status=PRIVATE, name="Wessex, my way"):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="anglo-danish-1066")
    document = services.export_document(shipped)
    document["name"] = name
    saved = services.create_list(author, listed=parse_list_document(document))
    ArmyList.objects.filter(pk=saved.army_list.pk).update(status=status)
    saved.army_list.status = status
    return saved.army_list


@pytest.fixture
def people(db):
    user = User.objects.create(username="alice")
    return {
        "anonymous": AnonymousUser(),
        # no passwords: hashing them would only slow the matrix down (force_login signs in)
        "other": User.objects.create(username="bob"),
        "author": user,
        "staff": User.objects.create(username="sam", is_staff=True),
        "support": supporter(),
    }


def supporter():
    person = User.objects.create(username="sue", is_staff=True)
    person.user_permissions.add(
        Permission.objects.get(codename="support_private", content_type__app_label="accounts")
    )
    return User.objects.get(pk=person.pk)  # afresh: permissions are cached on the object


def page_status(client, person, army_list):
    if person.is_authenticated:
        client.force_login(person)
    return client.get(f"/rulesets/{army_list.ruleset}/lists/{army_list.slug}/").status_code


def export_status(client, person, army_list):
    if person.is_authenticated:
        client.force_login(person)
    return client.get(f"/api/v1/lists/{army_list.ruleset}/{army_list.slug}").status_code


def attempt(action, person, army_list, client):
    """Do ``action`` for real; True when it was done, False when it was refused."""
    if action == "view":
        return {200: True, 404: False}[page_status(client, person, army_list)]
    if action == "export":
        return {200: True, 404: False}[export_status(client, person, army_list)]
    perform = {
        "edit": lambda: services.edit_list(person, army_list=army_list, name="Renamed"),
        "copy": lambda: services.copy_list(person, army_list=army_list),
        "delete": lambda: list_lifecycle.delete_list(person, army_list),
        "publish": lambda: services.set_status(person, army_list=army_list, status=PUBLISHED),
    }[action]
    try:
        perform()
    except services.ListRefused:
        return False
    return True


@pytest.mark.parametrize("status", [PRIVATE, LINK, SUBMITTED, PUBLISHED])
@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("action", sorted(EVERYTHING))
def test_access_matrix(client, people, status, actor, action):
    army_list = player_list(people["author"], status)
    person = people[actor]
    allowed = action in MATRIX[status][actor]
    assert services.can(person, action=action, army_list=army_list) is allowed
    lists_before = ArmyList.objects.count()
    assert attempt(action, person, army_list, client) is allowed
    after = ArmyList.objects.filter(pk=army_list.pk).first()
    if action == "delete":
        assert (after.status == DELETED) is allowed
    elif action == "edit":
        assert (after.name == "Renamed") is allowed
    elif action == "copy":
        assert ArmyList.objects.count() == lists_before + allowed
    elif action == "publish":
        assert (after.status == PUBLISHED) is (allowed or status == PUBLISHED)
    # the support permission is used only where nothing else allows it, and then logged
    used = SupportAccess.objects.filter(user=person.pk if person.is_authenticated else None)
    assert used.exists() is (actor == "support" and status in (PRIVATE, LINK))


def test_muster_lists_say_they_are_compiled_by_muster_and_only_staff_change_them(people):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    assert shipped.compiled_by_muster and shipped.is_public
    for actor in ("anonymous", "other", "author"):
        assert not services.can(people[actor], action="edit", army_list=shipped)
    assert services.can(people["staff"], action="edit", army_list=shipped)
    assert services.can(people["other"], action="copy", army_list=shipped)


def test_a_list_shared_by_link_is_readable_with_its_token_until_the_link_is_revoked(client, people):
    army_list = player_list(people["author"])
    services.set_status(people["author"], army_list=army_list, status=LINK)
    token = army_list.share_token
    assert token and len(token) >= 32
    assert client.get(f"/lists/shared/{token}/").status_code == 200
    api = f"/api/v1/lists/{army_list.ruleset}/{army_list.slug}"
    assert client.get(api).status_code == 404  # the slug alone is not enough
    assert client.get(api, {"token": token}).status_code == 200
    assert services.can(people["other"], action="copy", army_list=army_list, token=token)
    assert not services.can(people["other"], action="edit", army_list=army_list, token=token)

    services.revoke_link(people["author"], army_list=army_list)
    assert army_list.share_token != token
    assert client.get(f"/lists/shared/{token}/").status_code == 404
    assert client.get(api, {"token": token}).status_code == 404
    assert client.get(f"/lists/shared/{army_list.share_token}/").status_code == 200

    services.set_status(people["author"], army_list=army_list, status=PRIVATE)
    assert ArmyList.objects.get(pk=army_list.pk).share_token is None


def test_an_author_submits_and_only_staff_publish(people):
    army_list = player_list(people["author"])
    services.set_status(people["author"], army_list=army_list, status=SUBMITTED)
    assert not army_list.is_public
    with pytest.raises(services.ListRefused):
        services.set_status(people["author"], army_list=army_list, status=PUBLISHED)
    services.set_status(people["staff"], army_list=army_list, status=PUBLISHED)
    assert ArmyList.objects.get(pk=army_list.pk).is_public


def test_staff_publish_submitted_lists_in_the_admin(admin_client, people):
    army_list = player_list(people["author"], SUBMITTED)
    response = admin_client.post(
        "/admin/catalog/armylist/",
        {"action": "publish", "_selected_action": [army_list.pk]},
    )
    assert response.status_code == 302
    assert ArmyList.objects.get(pk=army_list.pk).status == PUBLISHED


def test_private_lists_are_in_no_public_menu_or_lookup(client, people):
    from armybuilder.catalog import selectors

    army_list = player_list(people["author"])
    assert army_list.slug not in selectors.list_lookup("into-the-dark")
    assert army_list not in selectors.lists_for("into-the-dark")
    assert army_list.slug in selectors.lookup_for(people["author"])("into-the-dark")
    assert army_list.slug not in selectors.lookup_for(people["other"])("into-the-dark")
    page = client.get("/rulesets/into-the-dark/").content.decode()
    assert army_list.name not in page
    response = client.get("/api/v1/rulesets/into-the-dark")
    assert army_list.slug not in response.content.decode()


def test_a_user_list_slug_never_takes_a_shipped_one(people):
    shipped = ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066")
    copied = services.copy_list(people["other"], army_list=shipped).army_list
    assert copied.slug != "norman-1066" and copied.slug.startswith("norman-1066-")
    assert copied.author == people["other"] and copied.status == PRIVATE
    assert copied.data == shipped.data
    assert ArmyList.objects.get(ruleset="into-the-dark", slug="norman-1066").author is None


def test_its_author_deletes_a_list_an_army_is_pinned_to_and_the_army_still_reads_it(client, people):
    from armybuilder.armies.selectors import army_summaries
    from armybuilder.armies.services import create_army
    from tests.support import army

    army_list = player_list(people["author"])
    built = create_army(army("into-the-dark", [], army_list=army_list.slug), owner=people["author"])
    assert built.list_pins == {army_list.slug: 1}
    assert list_lifecycle.delete_list(people["author"], army_list) == "1 army is built on it"
    army_list.refresh_from_db()
    assert army_list.status == DELETED
    # gone for its author: its page, their lists, a new army on it
    client.force_login(people["author"])
    assert client.get(f"/rulesets/into-the-dark/lists/{army_list.slug}/").status_code == 404
    assert army_list not in selectors.lists_of_user(people["author"])
    assert not services.can(people["author"], action="view", army_list=army_list)
    with pytest.raises(MalformedDocument, match="is not an army list"):
        create_army(army("into-the-dark", [], army_list=army_list.slug), owner=people["author"])
    # the army built on it reads the revision it is pinned to, as before
    [summary] = [s for s in army_summaries([built]) if s.army.pk == built.pk]
    assert summary.list_name == army_list.name and summary.total_points is not None
    assert client.get(f"/armies/{built.pk}/").status_code == 200


def test_list_names_and_notes_are_escaped_on_the_list_page(client, people):
    army_list = player_list(people["author"], name="<script>alert(1)</script>")
    services.edit_list(
        people["author"], army_list=army_list, source_note='<img src=x onerror="alert(2)">'
    )
    client.force_login(people["author"])
    page = client.get(f"/rulesets/into-the-dark/lists/{army_list.slug}/").content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert '<img src=x onerror="alert(2)">' not in page


def test_a_private_list_page_is_never_cached_for_others(client, people):
    army_list = player_list(people["author"])
    client.force_login(people["author"])
    response = client.get(f"/rulesets/into-the-dark/lists/{army_list.slug}/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    client.logout()
    assert page_status(client, AnonymousUser(), army_list) == 404


def test_copying_keeps_the_content_identical_and_names_the_copy_as_the_players(people):
    original = player_list(people["author"])
    data = copy.deepcopy(original.data)
    copied = services.copy_list(people["author"], army_list=original).army_list
    assert (copied.name, copied.period, copied.source_note, copied.data) == (
        f"{original.name} — my copy",
        original.period,
        original.source_note,
        data,
    )
